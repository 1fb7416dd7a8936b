"""The search index behind one small interface (:class:`SearchIndex`), and its SQLite FTS5 engine.

Ranking (:mod:`docshelf.text.search`) asks an index only for what any inverted index answers
cheaply: how many sections there are and how many hold a key (kept in tables, never counted per
query), the best-scoring sections for an OR or AND of concepts, the stored keys and texts of a few
sections, and the indexed words containing a fragment. Another engine (tantivy in-process, or
OpenSearch with its ``russian`` analyzer for a shelf that outgrows one machine; see bench/README.md)
plugs in by implementing the same protocol over the same analyzer keys.

The FTS5 file of one commit (read by :class:`docshelf.text.fts5index.Fts5Index`):

* ``fts``: a contentless FTS5 table over the analyzer keys of four columns, ``head`` (title,
  clause, doc id), ``clauses`` (the clause ids of the section's clause table), ``ctx`` (parent
  headings, document title) and ``body``;
* ``keys``: the same key strings, zlib-compressed, for the rerank of a few candidates and for
  deleting a section from ``fts`` when its document changes;
* ``section`` and ``doc``: what a hit shows (the text zlib-compressed), one ``doc`` row per meta;
* ``term``: document frequency per key, and ``meta.total``: the statistics the rerank weighs with;
* ``word`` + ``wordtri`` (trigram): every distinct word, so a fragment inside a longer word
  («коммуникационн…») is found through the vocabulary, never by scanning the texts;
* ``ref``: which meta lists which path, so a commit's changed paths map to its changed documents.

Documents are added and removed as wholes (:func:`add_document`, :func:`remove_document`): a new
commit's index is its parent's file, copied, with only the changed documents re-indexed.
"""

from __future__ import annotations

import json
import secrets
import sqlite3
import zlib
from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any, NamedTuple, Protocol

from docshelf.law import docids, docnames
from docshelf.text import synonyms
from docshelf.text.analyzer import ANALYZER_VERSION, tokens
from docshelf.text.normalize import normalize_text
from docshelf.text.sections import SectionRow, is_apparatus
from docshelf.text.synonyms import Concept

INDEX_VERSION = f"{ANALYZER_VERSION}.15"  # .15: the analysed synonyms kept in the index
BM25_WEIGHTS = "3.0, 1.0, 1.0, 1.0"  # head, clauses, ctx, body
_SCHEMA = """
CREATE TABLE meta(key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE doc(id INTEGER PRIMARY KEY, meta_path TEXT UNIQUE NOT NULL, doc_id TEXT, doc_key TEXT,
    category TEXT, edition TEXT, names TEXT);
CREATE TABLE ref(path TEXT PRIMARY KEY, doc INTEGER NOT NULL) WITHOUT ROWID;
CREATE TABLE section(id INTEGER PRIMARY KEY, doc INTEGER NOT NULL, path TEXT, title TEXT, clause TEXT,
    pages TEXT, clauses TEXT, continued INTEGER, apparatus INTEGER, text BLOB);  -- continued: the first part's rowid
CREATE INDEX section_doc ON section(doc);
CREATE TABLE keys(id INTEGER PRIMARY KEY, data BLOB);
CREATE TABLE term(key TEXT PRIMARY KEY, df INTEGER NOT NULL) WITHOUT ROWID;
CREATE TABLE word(w TEXT PRIMARY KEY) WITHOUT ROWID;
CREATE VIRTUAL TABLE wordtri USING fts5(w, tokenize='trigram');
CREATE VIRTUAL TABLE fts USING fts5(head, clauses, ctx, body, content='',
    tokenize="unicode61 remove_diacritics 0 tokenchars '_'");
"""
_SEP = "\x1f"


@dataclass(frozen=True)
class Scope:
    """Which sections a query may return: a document, a category folder, a set of documents (by doc key)."""

    doc_key: str | None = None
    category: str | None = None
    doc_keys: frozenset[str] | None = None  # an edition-status filter, resolved to documents

    @property
    def everything(self) -> bool:
        return self.doc_key is None and self.category is None and self.doc_keys is None


Ranked = list[tuple[float, float, int]]  # a ranking: (score, IDF-weighted coverage, rowid), best first


class KeyRow(NamedTuple):
    """A section's key strings (space-separated analyzer keys) and whether it continues the clause before it."""

    head: str
    clauses: str
    ctx: str
    body: str
    continued: bool
    path: str
    title: str
    clause: str
    doc_id: str
    doc_key: str
    edition: str  # the document's edition record as JSON (parsed once per document by the caller)
    apparatus: bool  # contents, a preface, a change log, a reference list (folding.is_apparatus, at build)
    run: int = 0  # the rowid of the section its clause began in (its own for a first part): parts of one clause


class Stored(NamedTuple):
    """What a hit shows of one section."""

    path: str
    title: str
    clause: str
    doc_id: str
    doc_key: str
    pages: list[int]
    edition: dict[str, Any]
    clauses: list[list[Any]]
    text: str
    meta_path: str


class DocInfo(NamedTuple):
    doc_id: str
    doc_key: str
    category: str
    edition: dict[str, Any]
    names: tuple[str, ...] = ()  # docnames.names: the id and its short forms


class SearchIndex(Protocol):
    """What ranking needs from an index of one commit; every call costs the postings it reads, not the shelf."""

    commit: str

    def total(self) -> int:
        """How many sections the index holds."""

    def df(self, key: str) -> int:
        """How many sections hold ``key``."""

    def candidates(
        self,
        concepts: Sequence[Concept],
        *,
        all_of: bool,
        prefix: bool,
        scope: Scope,
        limit: int,
        ranked: bool = True,
    ) -> dict[int, float]:
        """Up to ``limit`` best sections holding any (or, with ``all_of``, every) concept: id -> score ≥ 0.

        Unranked (``ranked=False``): any ``limit`` such sections, score 0, without reading every posting.
        """

    def keys(self, ids: Iterable[int]) -> dict[int, KeyRow]:
        """Stored key strings of these sections."""

    def sections(self, ids: Iterable[int]) -> dict[int, Stored]:
        """Stored texts and fields of these sections."""

    def words_containing(self, fragment: str, limit: int) -> list[str]:
        """Indexed words (normalized) that contain ``fragment`` (3 characters or more)."""

    def vocabulary(self) -> list[str]:
        """Every indexed word, normalized (for the nearest-word guesses of :mod:`docshelf.text.neighbours`)."""

    def keys_from(self, prefix: str, limit: int) -> list[str]:
        """Up to ``limit`` indexed keys that begin with ``prefix``, in order (a range of the key table)."""

    def documents(self) -> list[DocInfo]:
        """Every document of the commit."""

    def has_scope(self, scope: Scope) -> bool:
        """Whether any section is inside ``scope``."""

    def setting(self, key: str) -> str | None:
        """A value stored with the index (``synonyms``: the shelf's synonyms.json text as JSON)."""

    def close(self) -> None: ...


def _pack(text: str) -> bytes:
    return zlib.compress(text.encode("utf-8"), 1)


def unpack(data: bytes) -> str:
    return zlib.decompress(data).decode("utf-8")


def unpack_keys(data: bytes) -> tuple[str, str, str, str]:
    """A section's stored key strings: head, clause ids, context, body."""
    head, ids, ctx, body = unpack(data).split(_SEP)
    return head, ids, ctx, body


# --- writing ------------------------------------------------------------------------------------


def create(db: sqlite3.Connection, commit: str, synonyms_text: str | None) -> None:
    """An empty index in a new database file."""
    db.executescript("PRAGMA journal_mode=OFF; PRAGMA synchronous=OFF;" + _SCHEMA)
    meta = {"version": INDEX_VERSION, "commit": commit, "total": "0", "synonyms": json.dumps(synonyms_text)}
    analysed = ("synonyms_parsed", synonyms.dumps(synonyms.parse(synonyms_text)))
    db.executemany("INSERT INTO meta VALUES (?, ?)", [*meta.items(), analysed, ("build", _build_stamp())])


def set_commit(db: sqlite3.Connection, commit: str, synonyms_text: str | None) -> None:
    db.executemany(
        "UPDATE meta SET value = ? WHERE key = ?", [(commit, "commit"), (json.dumps(synonyms_text), "synonyms")]
    )
    analysed = synonyms.dumps(synonyms.parse(synonyms_text))
    db.execute("INSERT OR REPLACE INTO meta VALUES ('synonyms_parsed', ?)", (analysed,))
    db.execute("INSERT OR REPLACE INTO meta VALUES ('build', ?)", (_build_stamp(),))


def _build_stamp() -> str:
    """Names one written file's contents: readers share what they decoded of it (a rebuilt file gets another).

    Two files of one commit (built, or derived from another index) number their sections differently.
    """
    return secrets.token_hex(8)


def _analysed(text: str, words: set[str]) -> str:
    """The key string of ``text``; its words go into ``words`` (the vocabulary fragments are found in)."""
    toks = tokens(text)
    words.update(t.word for t in toks)
    return " ".join(k for t in toks for k in t.keys)


def add_document(
    db: sqlite3.Connection, meta_path: str, listed: list[str], rows: list[SectionRow], df: Counter[str]
) -> int:
    """Index one document's sections; ``df`` gains one per key per section. Returns the sections added."""
    first = rows[0] if rows else None
    doc_id = first.doc_id if first else ""
    info = (
        meta_path,
        doc_id,
        normalize_text(doc_id),
        first.category if first else "",
        json.dumps(first.edition if first else {}, ensure_ascii=False),
        json.dumps(docnames.names(doc_id, first.doc_title) if first else [], ensure_ascii=False),
    )
    doc = db.execute(
        "INSERT INTO doc(meta_path, doc_id, doc_key, category, edition, names) VALUES (?, ?, ?, ?, ?, ?)", info
    ).lastrowid
    db.executemany("INSERT OR REPLACE INTO ref VALUES (?, ?)", [(p, doc) for p in [meta_path, *listed]])
    words: set[str] = set()
    first_part = 0  # the rowid of the section the current clause began in
    for r in rows:
        pages, clauses = json.dumps(r.pages), json.dumps(r.clauses, ensure_ascii=False)
        apparatus = is_apparatus(r.title, r.text)
        run = first_part if r.continued and first_part else 0  # 0: this section begins its clause
        row = (doc, r.path, r.title, r.clause, pages, clauses, run, apparatus, _pack(r.text))
        rowid = db.execute(
            "INSERT INTO section(doc, path, title, clause, pages, clauses, continued, apparatus, text) "
            "VALUES (?,?,?,?,?,?,?,?,?)",
            row,
        ).lastrowid
        first_part = run or int(rowid or 0)
        head = _analysed(f"{r.title}\n{r.clause}\n{docids.without_country(r.doc_id)}", words)
        ids = " ".join(dict.fromkeys(_analysed("\n".join(str(c[0]) for c in r.clauses), words).split()))
        ctx = _analysed("\n".join([*r.groups, r.doc_title]), words)
        body = _analysed(r.text, words)
        cols = (head, ids, ctx, body)
        db.execute("INSERT INTO keys VALUES (?, ?)", (rowid, _pack(_SEP.join(cols))))
        db.execute("INSERT INTO fts(rowid, head, clauses, ctx, body) VALUES (?, ?, ?, ?, ?)", (rowid, *cols))
        df.update(set(" ".join(cols).split()))
    _add_words(db, words)
    return len(rows)


def _add_words(db: sqlite3.Connection, words: set[str]) -> None:
    new = [w for w in words if db.execute("INSERT OR IGNORE INTO word VALUES (?)", (w,)).rowcount]
    db.executemany("INSERT INTO wordtri(w) VALUES (?)", [(w,) for w in new])


def remove_document(db: sqlite3.Connection, meta_path: str, df: Counter[str]) -> int:
    """Take one document out of the index; ``df`` loses one per key per removed section. Returns the count."""
    found = db.execute("SELECT id FROM doc WHERE meta_path = ?", (meta_path,)).fetchone()
    if found is None:
        return 0
    doc = found[0]
    ids = [r[0] for r in db.execute("SELECT id FROM section WHERE doc = ?", (doc,))]
    for rowid in ids:
        cols = unpack_keys(db.execute("SELECT data FROM keys WHERE id = ?", (rowid,)).fetchone()[0])
        db.execute(
            "INSERT INTO fts(fts, rowid, head, clauses, ctx, body) VALUES ('delete', ?, ?, ?, ?, ?)", (rowid, *cols)
        )
        df.subtract(set(" ".join(cols).split()))
    db.execute("DELETE FROM keys WHERE id IN (SELECT id FROM section WHERE doc = ?)", (doc,))
    db.execute("DELETE FROM section WHERE doc = ?", (doc,))
    db.execute("DELETE FROM ref WHERE doc = ?", (doc,))
    db.execute("DELETE FROM doc WHERE id = ?", (doc,))
    return len(ids)


def documents_of(db: sqlite3.Connection, paths: Iterable[str]) -> set[str]:
    """The meta paths of the documents that list (or are) any of ``paths``."""
    out = set()
    for p in paths:
        row = db.execute("SELECT d.meta_path FROM ref r JOIN doc d ON d.id = r.doc WHERE r.path = ?", (p,)).fetchone()
        if row:
            out.add(row[0])
    return out


def write_stats(db: sqlite3.Connection, df: Counter[str], added: int, removed: int) -> None:
    """Apply document-frequency changes and the new section total (a fresh index starts from zeros)."""
    upsert = "INSERT INTO term(key, df) VALUES (?, ?) ON CONFLICT(key) DO UPDATE SET df = df + excluded.df"
    db.executemany(upsert, [(k, n) for k, n in df.items() if n])
    db.execute("DELETE FROM term WHERE df <= 0")
    db.execute("UPDATE meta SET value = CAST(value AS INTEGER) + ? WHERE key = 'total'", (added - removed,))


def finish(db: sqlite3.Connection, *, optimize: bool) -> None:
    if optimize:  # a full build merges its segments once; an update leaves that to the next full build
        db.execute("INSERT INTO fts(fts) VALUES ('optimize')")
    db.commit()
