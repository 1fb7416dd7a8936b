"""Search one commit of a shelf: SQLite FTS5 over analyzer keys, BM25 + a rerank, never a silent empty.

The index holds the sections of exactly one commit, read from Git objects (never the work tree),
so a hit is what ``fetch`` returns at that commit. It is cached at
``<shelf>/.docshelf/search-<commit>.sqlite``: built into a temporary file and swapped in with
``os.replace`` (concurrent processes at worst build twice), rebuilt when the analyzer changes,
and, when the shelf directory is read-only, kept in a private temporary directory instead.

Columns: ``head`` (section title, clause, doc id), ``clauses`` (every clause id the section's
clause table lists: parts, items, measures such as УПД.1, RFC subsections), ``ctx`` (parent
headings, document title) and ``body``. A query becomes concepts (:mod:`docshelf.synonyms`): each
word, or a synonym group it mentions, with every key the index may hold for it; only quoted keys
reach ``MATCH``. Ranking, in order of the fallbacks:

1. ``exact``: candidates = top 100 of the OR of all concepts by ``bm25(head 3, clauses 1, ctx 1,
   body 1)`` plus top 50 of their AND. Score = bm25/best + 0.6·coverage + 0.3·coverage in the
   head + 0.2·adjacent query words + 1.0·share of identifiers found in head or clause ids (half
   for one found only in the text): «УПД.1», «ст. 10.2-1», «152-ФЗ ст. 19» come first.
   Coverages weigh concepts by IDF, so a rare word counts more than «данные». A later part of a
   split article loses 0.1, so that parts matching alike give the article's opening first.
2. ``prefix``: the same with ``"key"*`` when nothing matched exactly.
3. ``substring``: ``LIKE`` over the normalized text; 4. ``none``: nothing, said so in ``note``.

``low_confidence``: the best hit covers less than 60 % of the query's IDF weight, an identifier
of the query occurs nowhere on the shelf, or a fallback answered; a caller may then say "not
found in the shelf". Edition status (for an ``as_of`` date) filters hits and puts texts in force first.
"""

from __future__ import annotations

import atexit
import itertools
import json
import math
import os
import shutil
import sqlite3
import tempfile
from contextlib import closing
from dataclasses import dataclass
from datetime import date
from pathlib import Path
from typing import Any

from docshelf.errors import SearchError
from docshelf.law.editions import has_edition, meta_status
from docshelf.results import Hit, SearchResult
from docshelf.shelf import gitrepo
from docshelf.text import synonyms
from docshelf.text.analyzer import ANALYZER_VERSION, STOPWORDS, WORD, index_text, query_tokens
from docshelf.text.normalize import normalize_text
from docshelf.text.snippets import best_snippet
from docshelf.text.synonyms import Concept, adjacent_in, found_in, fts_expr

INDEX_DIR = ".docshelf"
SCHEMA_VERSION = f"{ANALYZER_VERSION}.5"
KEEP_INDEXES = 4  # index files of older commits beyond this many are deleted
BM25_WEIGHTS = "3.0, 1.0, 1.0, 1.0"  # head, clauses, ctx, body
OR_CANDIDATES, AND_CANDIDATES = 100, 50
W_COVERAGE, W_HEAD, W_ADJACENT, W_IDENT, W_PART = 0.6, 0.3, 0.2, 1.0, 0.1
LOW_COVERAGE = 0.6  # chosen on bench/search_queries.jsonl: flags 6/9 unanswerable, 5/62 answerable
SNIPPET_CHARS = 300
MAX_QUERY_CHARS = 2000  # longer input is cut: concepts are capped anyway
_SCHEMA = """
CREATE TABLE meta(key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE section(id INTEGER PRIMARY KEY, path TEXT, title TEXT, clause TEXT, doc_id TEXT, doc_key TEXT,
    category TEXT, pages TEXT, edition TEXT, clauses TEXT, text TEXT, norm TEXT);
CREATE TABLE keys(id INTEGER PRIMARY KEY, head TEXT, clauses TEXT, ctx TEXT, body TEXT, continued INTEGER);
CREATE VIRTUAL TABLE fts USING fts5(head, clauses, ctx, body, content='keys', content_rowid='id',
    tokenize="unicode61 remove_diacritics 0 tokenchars '_'");
CREATE VIRTUAL TABLE vocab USING fts5vocab(fts, 'row');
"""
Ranked = list[tuple[float, float, int]]  # (score, IDF-weighted coverage, rowid), best first
Scope = tuple[str, list[str]]  # "SELECT id FROM section WHERE …" restricting rows, and its parameters


@dataclass(frozen=True)
class SectionRow:
    """One section as the index stores it (see :func:`read_sections`)."""

    path: str
    title: str
    clause: str
    groups: list[str]
    pages: list[int]
    clauses: list[list[Any]]  # [clause id, start, end] into text (the meta's clause table)
    doc_id: str
    doc_title: str
    category: str
    edition: dict[str, str]
    text: str
    continued: bool = False  # a later part of the clause the section before it began («ст. 22», ч. 4–6)


def read_sections(root: Path, commit: str) -> list[SectionRow]:
    """Every section of the shelf at ``commit``, read from Git objects, in meta order."""
    blobs = gitrepo.read_tree(root, commit, "docs")
    rows = []
    for meta_path in sorted(p for p in blobs if p.endswith(".meta.json")):
        meta = json.loads(blobs[meta_path])
        doc = (meta.get("id", ""), meta.get("title", ""), meta.get("category", ""), dict(meta.get("edition", {})))
        before = ""
        for s in meta.get("sections", []):
            data = blobs.get(s["path"])
            if data is None:
                continue  # a meta naming a missing file: `docshelf check` reports it
            head = (s["path"], s.get("title", ""), s.get("clause", ""), list(s.get("groups", [])))
            pages, clauses, text = list(s.get("pages", [])), list(s.get("clauses", [])), data.decode("utf-8")
            rows.append(SectionRow(*head, pages, clauses, *doc, text, continued=bool(head[2]) and head[2] == before))
            before = head[2]
    return rows


# --- the index file -----------------------------------------------------------------------------

_private_dir: Path | None = None  # used only when the shelf directory cannot be written


def _fallback_dir() -> Path:
    global _private_dir
    if _private_dir is None:
        _private_dir = Path(tempfile.mkdtemp(prefix="docshelf-search-"))  # mode 0700: ours alone
        atexit.register(shutil.rmtree, _private_dir, True)
    return _private_dir


def _is_current(path: Path) -> bool:
    try:
        with closing(sqlite3.connect(f"{path.as_uri()}?mode=ro", uri=True)) as db:
            row = db.execute("SELECT value FROM meta WHERE key = 'version'").fetchone()
    except sqlite3.Error:
        return False
    return row is not None and row[0] == SCHEMA_VERSION


def index_path(root: Path, commit: str) -> Path:
    """Where the index of ``commit`` is cached (it may not exist yet)."""
    return root.resolve() / INDEX_DIR / f"search-{commit}.sqlite"


def open_index(root: Path, commit: str) -> sqlite3.Connection:
    """A read-only connection to the index of ``commit``, built first if needed."""
    target = index_path(root, commit)
    if not (target.is_file() and _is_current(target)):
        try:
            target.parent.mkdir(exist_ok=True)
            ignore = target.parent / ".gitignore"
            if not ignore.exists():  # a shelf made without the template must not see the cache as a change
                ignore.write_text("*\n", encoding="utf-8")
            build_index(root, commit, target)
            _prune(target.parent)
        except OSError:
            target = _fallback_dir() / f"{commit}.sqlite"
            if not (target.is_file() and _is_current(target)):
                build_index(root, commit, target)
    return sqlite3.connect(f"{target.as_uri()}?mode=ro", uri=True)


def _prune(folder: Path) -> None:
    files = sorted(folder.glob("search-*.sqlite"), key=lambda p: p.stat().st_mtime, reverse=True)
    for old in files[KEEP_INDEXES:]:
        old.unlink(missing_ok=True)  # a process still reading it keeps its open handle


def build_index(root: Path, commit: str, target: Path) -> None:
    """Build the index of ``commit`` into ``target`` (via a temporary file and an atomic rename)."""
    rows = read_sections(root, commit)
    shelf_synonyms = synonyms.read_shelf_file(root, commit)
    synonyms.parse(shelf_synonyms)  # a broken synonyms.json fails here, with its own message
    fd, tmp = tempfile.mkstemp(prefix=target.name, suffix=".tmp", dir=target.parent)
    os.close(fd)
    try:
        with closing(sqlite3.connect(tmp)) as db:
            db.executescript("PRAGMA journal_mode=OFF; PRAGMA synchronous=OFF;" + _SCHEMA)
            for rowid, r in enumerate(rows, start=1):
                _insert(db, rowid, r)
            meta = {"version": SCHEMA_VERSION, "commit": commit, "synonyms": json.dumps(shelf_synonyms)}
            db.executemany("INSERT INTO meta VALUES (?, ?)", meta.items())
            # Per-query document lookups (edition statuses, filters) read this small index, not the texts.
            db.execute("CREATE INDEX section_doc ON section(doc_key, edition, category)")
            db.execute("INSERT INTO fts(fts) VALUES ('optimize')")
            db.commit()
        os.replace(tmp, target)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise


def _insert(db: sqlite3.Connection, rowid: int, r: SectionRow) -> None:
    dumps = json.dumps
    row = (r.path, r.title, r.clause, r.doc_id, normalize_text(r.doc_id), r.category, dumps(r.pages))
    more = (dumps(r.edition, ensure_ascii=False), dumps(r.clauses, ensure_ascii=False), r.text, normalize_text(r.text))
    db.execute("INSERT INTO section VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)", (rowid, *row, *more))
    head = index_text(f"{r.title}\n{r.clause}\n{r.doc_id}")
    clauses = " ".join(dict.fromkeys(index_text("\n".join(str(c[0]) for c in r.clauses)).split()))
    ctx = index_text("\n".join([*r.groups, r.doc_title]))
    keys = (rowid, head, clauses, ctx, index_text(r.text))
    db.execute("INSERT INTO keys VALUES (?, ?, ?, ?, ?, ?)", (*keys, r.continued))
    db.execute("INSERT INTO fts(rowid, head, clauses, ctx, body) VALUES (?, ?, ?, ?, ?)", keys)


# --- ranking ------------------------------------------------------------------------------------


def _scope(db: sqlite3.Connection, doc: str | None, category: str | None) -> Scope:
    """The rows the filters allow; a filter matching nothing is an error, not an empty result."""
    # Edition status depends on the date asked about, so it is filtered after ranking (see search).
    where, params = [], []
    if doc is not None:
        where.append("doc_key = ?")
        params.append(normalize_text(doc))
    if category is not None:
        cat = category.strip("/")
        where.append("(category = ? OR substr(category, 1, ?) = ?)")
        params += [cat, str(len(cat) + 1), cat + "/"]
    if not where:
        return "", []
    sql = f"SELECT id FROM section WHERE {' AND '.join(where)}"
    if db.execute(sql + " LIMIT 1", params).fetchone() is None:
        known = sorted({r[0] for r in db.execute("SELECT doc_id FROM section")})
        raise SearchError(
            f"No section matches doc={doc!r} category={category!r} at this commit. "
            f"Document ids: {', '.join(known[:20])}{' …' if len(known) > 20 else ''}."
        )
    return sql, params


def _within(column: str, scope: Scope) -> str:
    return f" AND {column} IN ({scope[0]})" if scope[0] else ""


def _bm25(db: sqlite3.Connection, expr: str, scope: Scope, limit: int) -> dict[int, float]:
    sql = f"SELECT rowid, bm25(fts, {BM25_WEIGHTS}) AS r FROM fts WHERE fts MATCH ?{_within('rowid', scope)}"
    return dict(db.execute(sql + " ORDER BY r LIMIT ?", [expr, *scope[1], limit]).fetchall())


def _keys(db: sqlite3.Connection, rowids: list[int]) -> dict[int, tuple[str, str, str, bool]]:
    """Per row, space-padded key strings (the head, head + clause ids, every column) and ``continued``."""
    sql = f"SELECT id, head, clauses, ctx, body, continued FROM keys WHERE id IN ({','.join(map(str, rowids))})"
    rows = db.execute(sql)
    return {r: (f" {h} ", f" {h} | {c} ", f" {h} | {c} | {x} | {b} ", bool(n)) for r, h, c, x, b, n in rows}


def _df(db: sqlite3.Connection, c: Concept) -> int:
    """How many sections say the concept in its most frequent way (a phrase: its rarest word)."""
    df = 0
    for alt in c.alts:
        counts = [db.execute("SELECT doc FROM vocab WHERE term = ?", [k]).fetchone() for k in alt]
        df = max(df, min((row[0] if row else 0) for row in counts))
    return df


def _share(weights: list[float], flags: list[bool]) -> float:
    return sum(w for w, f in zip(weights, flags, strict=True) if f) / (sum(weights) or 1.0)


def _rerank(db: sqlite3.Connection, concepts: list[Concept], cands: dict[int, float], prefix: bool) -> Ranked:
    total = db.execute("SELECT count(*) FROM keys").fetchone()[0]
    weights = [math.log(1 + total / (_df(db, c) + 1)) for c in concepts]
    pairs = [(a, b) for a, b in itertools.pairwise(concepts) if b.first > a.last]
    best = min(cands.values()) or -1.0
    out = []
    for rowid, (head, named, every, continued) in _keys(db, list(cands)).items():
        has = [found_in(c, every, prefix) for c in concepts]
        coverage = _share(weights, has)
        in_head = _share(weights, [found_in(c, head, prefix) for c in concepts])
        adjacent = sum(adjacent_in(a, b, every, prefix) for a, b in pairs) / len(pairs) if pairs else 0.0
        # An identifier naming the section (title, clause ids) counts fully, one only in its text half.
        idents = [1.0 if found_in(c, named, prefix) else 0.5 * h for c, h in zip(concepts, has, strict=True) if c.ident]
        ident = sum(idents) / len(idents) if idents else 0.0
        score = cands[rowid] / best + W_COVERAGE * coverage + W_HEAD * in_head + W_ADJACENT * adjacent + W_IDENT * ident
        if continued:
            score -= W_PART  # between parts of one article that match alike, its opening (the main rule) first
        out.append((score, coverage, rowid))
    return sorted(out, key=lambda t: (-t[0], t[2]))


def _ranked(db: sqlite3.Connection, concepts: list[Concept], scope: Scope, prefix: bool) -> Ranked:
    if not concepts:
        return []
    exprs = [fts_expr(c, prefix) for c in concepts]
    cands = _bm25(db, " OR ".join(exprs), scope, OR_CANDIDATES)
    if cands and len(exprs) > 1:
        for rowid, score in _bm25(db, " AND ".join(exprs), scope, AND_CANDIDATES).items():
            cands.setdefault(rowid, score)
    return _rerank(db, concepts, cands, prefix) if cands else []


def _needles(query: str) -> list[str]:
    norm = normalize_text(query)
    found = WORD.findall(norm)
    return list(dict.fromkeys([w for w in found if w not in STOPWORDS] or found or ([norm] if norm else [])))[:16]


def _substring(db: sqlite3.Connection, query: str, scope: Scope) -> Ranked:
    """Last resort: the query's words inside the normalized text, most words first."""
    needles = _needles(query)
    if not needles:
        return []
    like = " OR ".join(["norm LIKE ? ESCAPE '\\'"] * len(needles))
    pats = ["%" + n.replace("\\", "\\\\").replace("%", "\\%").replace("_", "\\_") + "%" for n in needles]
    sql = f"SELECT id, norm FROM section WHERE ({like}){_within('id', scope)} LIMIT 500"
    out = [(s, s, rowid) for rowid, text in db.execute(sql, [*pats, *scope[1]]) for s in [_found(needles, text)]]
    return sorted(out, key=lambda t: (-t[0], t[2]))


def _found(needles: list[str], text: str) -> float:
    return sum(n in text for n in needles) / len(needles)


# --- the public entry point ---------------------------------------------------------------------


def search(
    root: Path,
    query: str,
    *,
    limit: int = 5,
    at: str | None = None,
    doc: str | None = None,
    category: str | None = None,
    status: str | None = None,
    as_of: date | None = None,
) -> SearchResult:
    """Find the sections of the shelf at ``at`` (default HEAD) that best answer ``query``.

    Args:
        root: the shelf directory.
        query: words, a question, or identifiers such as «УПД.1», «152-ФЗ ст. 19», «RFC 8446 4.2.1».
        limit: the number of hits to return.
        at: a commit, tag or branch; the index of that commit is used (built once, then cached).
        doc: only sections of this document id (e.g. ``152-ФЗ``).
        category: only documents under this category folder (e.g. ``laws`` or ``laws/pd``).
        status: only documents with this edition status on ``as_of`` (``in_force``, ``replaced`` …).
        as_of: the date for edition statuses (default today). Texts in force come first.

    Returns:
        The ranked hits, the match mode that found them and a ``low_confidence`` flag.

    Raises:
        SearchError: an empty query, a bad limit, a filter that matches no section, or a broken
            ``synonyms.json``.
        UnknownCommitError: ``at`` names no commit.
    """
    if not query.strip():
        raise SearchError("The query is empty. Give words, a question or an identifier such as «УПД.1».")
    if limit < 1:
        raise SearchError(f"limit must be at least 1, not {limit}.")
    commit = gitrepo.resolve(root, at)
    text = query[:MAX_QUERY_CHARS]
    toks = query_tokens(text)
    keys = list(dict.fromkeys(t.key for t in toks))
    with closing(open_index(root, commit)) as db:
        shelf_synonyms = db.execute("SELECT value FROM meta WHERE key = 'synonyms'").fetchone()[0]
        concepts = synonyms.parse(json.loads(shelf_synonyms)).concepts(toks)
        scope = _scope(db, doc, category)
        statuses = _doc_statuses(db, as_of)
        if status is not None:
            scope = _with_status(scope, statuses, status)
        absent = [c for c in concepts if _df(db, c) == 0]
        mode, ranked = "exact", _ranked(db, concepts, scope, prefix=False)
        if not ranked:
            mode, ranked = "prefix", _ranked(db, concepts, scope, prefix=True)
        if not ranked:
            mode, ranked = "substring", _substring(db, text, scope)
        if not ranked:
            mode = "none"
        docs = dict(db.execute(f"SELECT id, doc_key FROM section WHERE id IN ({','.join(str(r[2]) for r in ranked)})"))
        # Stable: relevance order stays within each group; texts not in force go last.
        shown = sorted(ranked, key=lambda r: statuses[docs[r[2]]] not in ("", "in_force"))[:limit]
        hits = [
            _hit(db, rowid, score, concepts, mode, text).model_copy(update={"status": statuses[docs[rowid]]})
            for score, _, rowid in shown
        ]
    weak = mode == "exact" and (ranked[0][1] < LOW_COVERAGE or any(c.ident for c in absent))
    note = _NOTES[mode].format(keys=", ".join(keys[:12]) or "none")
    if status is not None and status not in statuses.values():
        note += f" No document has edition status {status!r} on {as_of or date.today()} at this commit."
    if absent:
        note += f" No section has these words: {', '.join(c.label for c in absent)}."
    if weak:
        note += " The best hit covers only part of the query: the answer may not be on the shelf."
    low = mode != "exact" or weak
    return SearchResult(
        commit=commit, query=text, mode=mode, hits=hits, low_confidence=low, keys=keys, note=note.strip()
    )


_NOTES = {
    "exact": "",
    "prefix": "No word matched exactly (keys: {keys}); these hits contain words beginning with them.",
    "substring": "No word matched exactly or as a prefix (keys: {keys}); these hits contain the query's words "
    "inside other words.",
    "none": "Nothing on the shelf matched (keys: {keys}) exactly, as a prefix or as a substring. The shelf may "
    "not cover this: rephrase, or read the index.",
}


def _doc_statuses(db: sqlite3.Connection, as_of: date | None) -> dict[str, str]:
    """Edition status code per document (its doc key) on ``as_of``; "" for one with no edition record."""
    out = {}
    for key, edition in db.execute("SELECT DISTINCT doc_key, edition FROM section"):
        meta = {"edition": json.loads(edition)}
        out[key] = meta_status(meta, as_of).code if has_edition(meta) else ""
    return out


def _with_status(scope: Scope, statuses: dict[str, str], status: str) -> Scope:
    """``scope`` narrowed to documents with ``status``, before ranking: rare statuses are not crowded out."""
    keys = sorted(k for k, s in statuses.items() if s == status)
    where = f"doc_key IN ({','.join('?' * len(keys))})"
    if scope[0]:
        return f"{scope[0]} AND {where}", [*scope[1], *keys]
    return f"SELECT id FROM section WHERE {where}", keys


def _hit(db: sqlite3.Connection, rowid: int, score: float, concepts: list[Concept], mode: str, query: str) -> Hit:
    path, title, clause, doc_id, pages, edition, clauses, body = db.execute(
        "SELECT path, title, clause, doc_id, pages, edition, clauses, text FROM section WHERE id = ?", [rowid]
    ).fetchone()
    head = set(index_text(f"{title}\n{clause}\n{doc_id}").split())
    # What the title already shows («ст. 19», «RFC 9999») says nothing about where in the text to look.
    shown = [c for c in concepts if not any(set(alt) <= head for alt in c.alts)]
    wanted = [frozenset(k for alt in c.alts for k in alt if k not in STOPWORDS) for c in shown]
    needles = _needles(query) if mode == "substring" else None
    # The best-matching sentence, widened within its innermost clause: the clause cited proves the snippet.
    table = [(str(c[0]), int(c[1]), int(c[2])) for c in json.loads(clauses)]
    a, b, inner = best_snippet(body, table, wanted, prefix=mode == "prefix", needles=needles, width=SNIPPET_CHARS)
    cite = inner or clause
    return Hit(path=path, title=title, doc_id=doc_id, clause=clause, snippet=body[a:b], score=round(score, 4),
               pages=json.loads(pages), edition=json.loads(edition), snippet_clause=cite)  # fmt: skip


def describe(result: SearchResult) -> str:
    """Search results as plain text (the CLI and the MCP tool print this)."""
    lines = [f"{len(result.hits)} hit(s), match: {result.mode}{' (low confidence)' if result.low_confidence else ''}"]
    if result.note:
        lines.append(result.note)
    for n, h in enumerate(result.hits, start=1):
        where = " · ".join(p for p in (h.doc_id, h.snippet_clause or h.clause) if p)
        lines += [f"{n}. {h.title} [{where}] {h.path}", "   " + " ".join(h.snippet.split())]
    return "\n".join(lines) + "\n"
