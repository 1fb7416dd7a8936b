"""Search one commit of a shelf: analyzer keys, BM25 candidates, a rerank, one hit per clause, never a silent empty.

The index (:mod:`docshelf.text.searchindex`, cached per commit by :mod:`docshelf.text.indexcache`)
holds the sections of exactly one commit, read from Git objects, so a hit is what ``fetch``
returns at that commit. A query becomes concepts (:mod:`docshelf.text.synonyms`): each word, or a
synonym group it mentions, with every key the index may hold for it, and a plain Russian word
with the shelf's words derived from its root (:mod:`docshelf.text.derivation`: хранить/хранение).
Ranking, in order of the fallbacks:

1. ``exact``: candidates are the top :data:`OR_CANDIDATES` by BM25 of the OR of the query's rarest
   concepts whose postings fit :data:`RANK_BUDGET` (so a query never scores every section saying
   «данные» on a 100,000-section shelf), plus the top :data:`AND_CANDIDATES` of the AND of all
   concepts (unranked when even the rarest concept is over budget: the rerank orders them).
   Score = bm25/best + 1.0·coverage + 0.6·coverage in the head + 0.2·adjacent query words +
   1.0·share of identifiers found in head or clause ids (half for one found only in the text).
   Coverages weigh concepts by IDF (document frequencies are kept in the index, never counted per
   query). A later part of a split article loses 0.1, apparatus (contents, prefaces, change logs,
   reference lists) loses :data:`folding.APPARATUS_PENALTY`. A question for a term's meaning
   (:mod:`docshelf.text.definitions`) lifts the sections that define the term by :data:`W_DEFINES`; a
   question for a number («за сколько дней…», "how many bytes…", :mod:`docshelf.text.answertype`) lifts
   the sections stating a quantity by :data:`W_QUANTITY`.
2. ``prefix``: the same with ``"key"*`` when nothing matched exactly.
3. ``substring``: the indexed words that contain the query's words (a trigram index over the
   vocabulary, not a scan of the texts); 4. ``none``: nothing, said so in ``note``.

Quoted words and minus-words (:mod:`docshelf.text.querysyntax`) then narrow the ranking, and a
query word the shelf never says is searched by its nearest shelf words in meaning where the
``semantic`` extra is installed (:mod:`docshelf.text.neighbours`); the note says both. With the ``encoder``
extra, on a shelf whose vectors ``docshelf embed`` computed, the best rows of a query naming no identifier are
reordered by meaning (:mod:`docshelf.text.encoder`; the note says when vectors are missing). Then copies of
one clause fold into one hit (:mod:`docshelf.text.folding`): other editions and
formats, and the other parts of a split article, are listed in ``also_in``; the copy in force is
the one shown, and of a split article the part covering most of the query (the opening part on a tie).
Each hit carries its reading window (``start``, ``max_chars``): the clause holding its snippet, for
``fetch``. A document the query names by number but the shelf lacks is said in ``note``.

``low_confidence``: the best hit covers less than 60 % of the query's IDF weight, an identifier
or a named document occurs nowhere on the shelf, a fallback answered, no section says a quoted
phrase, or nothing is left. Edition status (for an
``as_of`` date) filters hits and puts texts in force first.
"""

from __future__ import annotations

import itertools
import json
import math
import re
from collections.abc import Callable, Sequence
from dataclasses import replace
from datetime import date
from pathlib import Path
from typing import Any

from docshelf.errors import SearchError
from docshelf.results import Hit, SearchResult
from docshelf.shelf import gitrepo
from docshelf.shelf.reader import metas_at
from docshelf.text import (
    answertype,
    definitions,
    derivation,
    docmentions,
    encoder,
    folding,
    neighbours,
    querysyntax,
    synonyms,
)
from docshelf.text.analyzer import STOPWORDS, WORD, Token, query_tokens, tokens
from docshelf.text.indexcache import INDEX_DIR, index_path, open_index
from docshelf.text.normalize import normalize_text
from docshelf.text.searchindex import KeyRow, Ranked, Scope, SearchIndex, Stored
from docshelf.text.searchtext import describe
from docshelf.text.sections import SectionRow, read_sections
from docshelf.text.snippets import best_snippet, read_window
from docshelf.text.statuses import Statuses, with_status
from docshelf.text.synonyms import Concept, adjacent_in, found_in

__all__ = [
    "INDEX_DIR",
    "Hit",
    "SearchResult",
    "SectionRow",
    "describe",
    "index_path",
    "open_index",
    "read_sections",
    "search",
]

OR_CANDIDATES, AND_CANDIDATES = 40, 20
RANK_BUDGET = 1500  # postings one BM25-ranked query may read (~2 ms); beyond it candidates come unranked
# Weights chosen on the dev half of bench/search_queries.jsonl (the holdout half only measures them).
W_COVERAGE, W_HEAD, W_ADJACENT, W_IDENT, W_PART = 1.0, 0.6, 0.2, 1.0, 0.1
W_DEFINES = 1.0  # a section defining the term a question asks about (definitions.defines)
W_QUANTITY = 0.4  # a section stating a quantity, for a question asking one (answertype.states_quantity)
LOW_COVERAGE = 0.6  # chosen on bench/search_queries.jsonl: flags 6/9 unanswerable, 5/62 answerable
SNIPPET_CHARS = 220
MAX_QUERY_CHARS = 2000  # longer input is cut: concepts are capped anyway
FOLD_DEPTH = 4  # candidates looked at per hit wanted when folding copies
RERANK_DEPTH = 60  # candidates whose adjacency is scored exactly (the rest cannot reach the folded hits)
SUBSTRING_WORDS = 20  # vocabulary words taken per query word in the substring fallback
_CYRILLIC = re.compile("[а-яё]", re.IGNORECASE)  # a Russian text's status is told in Russian
Found = tuple[Ranked, dict[int, KeyRow]]  # the ranking and the stored keys of every candidate in it


def _df(index: SearchIndex, c: Concept) -> int:
    """How many sections say the concept in its most frequent way (a phrase: its rarest word)."""
    return max((min(index.df(k) for k in alt) for alt in c.alts), default=0)


def _share(weights: list[float], flags: list[bool]) -> float:
    return sum(w for w, f in zip(weights, flags, strict=True) if f) / (sum(weights) or 1.0)


def _every(k: KeyRow) -> str:
    """All of a section's keys, fields apart (a quoted phrase does not run from a title into the text)."""
    return f" {k.head} | {k.clauses} | {k.ctx} | {k.body} "


def _rerank(
    index: SearchIndex, concepts: list[Concept], dfs: list[int], cands: dict[int, float], prefix: bool
) -> Found:
    total = index.total()
    weights = [math.log(1 + total / (df + 1)) for df in dfs]
    pairs = [(a, b) for a, b in itertools.pairwise(concepts) if b.first > a.last]
    best = max(cands.values()) or 1.0
    stored = index.keys(cands)
    partial = []
    for rowid, k in stored.items():
        head, named, every = f" {k.head} ", f" {k.head} | {k.clauses} ", _every(k)
        has = [found_in(c, every, prefix) for c in concepts]
        coverage = _share(weights, has)
        # The head and the clause ids are parts of `every`: a concept absent there is absent from them.
        in_head = _share(weights, [h and found_in(c, head, prefix) for c, h in zip(concepts, has, strict=True)])
        # An identifier naming the section (title, clause ids) counts fully, one only in its text half.
        idents = [
            1.0 if h and found_in(c, named, prefix) else 0.5 * h for c, h in zip(concepts, has, strict=True) if c.ident
        ]
        ident = sum(idents) / len(idents) if idents else 0.0
        score = cands[rowid] / best + W_COVERAGE * coverage + W_HEAD * in_head + W_IDENT * ident
        if k.continued:
            score -= W_PART  # between parts of one article that match alike, its opening (the main rule) first
        if k.apparatus:
            score -= folding.APPARATUS_PENALTY
        partial.append((score, coverage, rowid, every))
    partial.sort(key=lambda t: -t[0])
    # Adjacency adds at most W_ADJACENT: a candidate that far behind the shown ones cannot enter them.
    reach = partial[min(len(partial), RERANK_DEPTH) - 1][0] - W_ADJACENT if partial else 0.0
    out = []
    for score, coverage, rowid, every in partial:
        if pairs and score >= reach:
            score += W_ADJACENT * sum(adjacent_in(a, b, every, prefix) for a, b in pairs) / len(pairs)
        out.append((score, coverage, rowid))
    return sorted(out, key=lambda t: (-t[0], t[2])), stored


def _within_budget(concepts: list[Concept], dfs: list[int]) -> list[Concept]:
    """The rarest concepts whose postings together stay within :data:`RANK_BUDGET` (the cost of a ranked query)."""
    chosen, spent = [], 0
    for df, i in sorted(zip(dfs, range(len(concepts)), strict=True)):
        if spent + df > RANK_BUDGET:
            break
        chosen.append(concepts[i])
        spent += df
    return chosen


def _ranked(
    index: SearchIndex, concepts: list[Concept], scope: Scope, prefix: bool, dfs: list[int] | None = None
) -> Found:
    if not concepts:
        return [], {}
    dfs = dfs if dfs is not None else [_df(index, c) for c in concepts]
    # Ranking reads every posting of the terms it ranks: only the rarest concepts are ranked by BM25;
    # a concept in thousands of sections still counts in the rerank (coverage) and in the AND below.
    rare = _within_budget(concepts, dfs) if not prefix else concepts
    cands = index.candidates(rare, all_of=False, limit=OR_CANDIDATES, prefix=prefix, scope=scope) if rare else {}
    complete = len(rare) == len(concepts) and len(cands) < OR_CANDIDATES  # the OR found every match already
    if (len(concepts) > 1 or not cands) and not complete:
        ranked = prefix or min(dfs) <= RANK_BUDGET
        both = index.candidates(concepts, all_of=True, limit=AND_CANDIDATES, ranked=ranked, prefix=prefix, scope=scope)
        for rowid, score in both.items():
            cands.setdefault(rowid, score)
    if not cands and not rare:  # nothing has every concept, each is common: any sections with the rarest
        rarest = [concepts[min(range(len(dfs)), key=dfs.__getitem__)]]
        cands = index.candidates(rarest, all_of=False, limit=OR_CANDIDATES, ranked=False, prefix=prefix, scope=scope)
    return _rerank(index, concepts, dfs, cands, prefix) if cands else ([], {})


def _as_said(index: SearchIndex, said: synonyms.Synonyms, toks: list[Token], concepts: list[Concept]) -> list[Concept]:
    """A phrase's synonym group that no section says in any form: its words searched one by one instead.

    «как долго хранить» is one group with «срок хранения»; on a shelf that says neither, the group
    would hide «хранить» (and its own group, «хранение») that the shelf does say.
    """
    out: list[Concept] = []
    for c in concepts:
        if c.last > c.first and _df(index, c) == 0:
            out += [replace(w, first=i, last=i) for i in range(c.first, c.last + 1) for w in said.concepts([toks[i]])]
        else:
            out.append(c)
    return out


def _lifted(ranked: Ranked, lift: Callable[[int], float]) -> Ranked:
    """The ranking with ``lift(rowid)`` added to the top :data:`RERANK_DEPTH` scores (a question's kind)."""
    top = [(s + lift(r), c, r) for s, c, r in ranked[:RERANK_DEPTH]]
    return sorted(top, key=lambda t: (-t[0], t[2])) + ranked[RERANK_DEPTH:]


def _needles(query: str) -> list[str]:
    norm = normalize_text(query)
    found = WORD.findall(norm)
    return list(dict.fromkeys([w for w in found if w not in STOPWORDS] or found or ([norm] if norm else [])))[:16]


def _substring(index: SearchIndex, query: str, scope: Scope) -> Found:
    """Last resort: sections holding indexed words that contain the query's words."""
    concepts = []
    for i, needle in enumerate(_needles(query)):
        alts = {(k,) for w in index.words_containing(needle, SUBSTRING_WORDS) for t in tokens(w) for k in t.keys[:1]}
        if alts:
            concepts.append(Concept(needle, tuple(sorted(alts)), False, i, i))
    return _ranked(index, concepts, scope, prefix=False)


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
        limit: the number of hits to return (copies of one clause count once).
        at: a commit, tag or branch; the index of that commit is used (derived or built once, then cached).
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
    text, banned = querysyntax.excluded(query[:MAX_QUERY_CHARS])
    if not text.strip():
        raise SearchError("The query only excludes words («-слово»). Give words to look for besides them.")
    toks = query_tokens(text)
    keys = list(dict.fromkeys(t.key for t in toks))
    index = open_index(root, commit)
    said = synonyms.parse(json.loads(index.setting("synonyms") or "null"))
    concepts = derivation.widen(index, _as_said(index, said, toks, said.concepts(toks)))
    concepts, guessed = neighbours.expand(index, concepts)
    required = querysyntax.quoted(text)  # each also a concept: sections saying it together rank up
    concepts += [Concept(p.written, (p.keys,), False, len(toks) + n, len(toks) + n) for n, p in enumerate(required)]
    scope = _scope(index, doc, category)
    statuses = Statuses(as_of)
    if status is not None:
        scope = with_status(index, scope, statuses, status)
    # A code added under an id of the operator's choosing is found by its title (read only if a query names one).
    docs = docmentions.read_query(text, index.documents(), lambda: [m.title for m in metas_at(root, commit)])
    concepts, missing_acts = docmentions.narrowed(text, concepts, docs), docs.missing
    dfs = [_df(index, c) for c in concepts]
    absent = [c for c, df in zip(concepts, dfs, strict=True) if df == 0]
    mode, (ranked, stored) = "exact", _ranked(index, concepts, scope, prefix=False, dfs=dfs)
    if not ranked:
        mode, (ranked, stored) = "prefix", _ranked(index, concepts, scope, prefix=True, dfs=dfs)
    if not ranked and not missing_acts:
        mode, (ranked, stored) = "substring", _substring(index, text, scope)
    if not ranked:
        mode = "none"
    elif mode == "exact" and definitions.asks_definition(text):  # the sections defining the term
        texts = index.sections(r for _s, _c, r in ranked[:RERANK_DEPTH])
        ranked = _lifted(ranked, lambda r: W_DEFINES * definitions.defines(texts[r].text, concepts))
    elif mode == "exact" and answertype.asks_quantity(text):  # the sections stating a number
        units = answertype.units_for(text)
        ranked = _lifted(ranked, lambda r: W_QUANTITY * answertype.states_quantity(stored[r].body, units))
    meaning = ""
    # docshelf[encoder], on a shelf that ran `docshelf embed`; an identifier («УПД.1», «ст. 19») is matched, not meant
    if mode == "exact" and encoder.available() and not any(c.ident for c in concepts):
        ranked, meaning = encoder.reranked(root, text, ranked, index)
    syntax = querysyntax.apply(ranked, lambda r: _every(stored[r]), required, banned)
    ranked = syntax.rows
    hits = _hits(index, (ranked, stored), limit, statuses, concepts, mode, text)
    weak = mode == "exact" and bool(ranked) and (ranked[0][1] < LOW_COVERAGE or any(c.ident for c in absent))
    note = _NOTES[mode].format(keys=", ".join(keys[:12]) or "none")
    note += docs.note()
    if status is not None and status not in statuses.seen:
        note += f" No document has edition status {status!r} on {as_of or date.today()} at this commit."
    if absent:
        note += f" No section has these words: {', '.join(c.label for c in absent)}."
    for word, near in guessed.items():
        note += f" No section says «{word}»: searched for the nearest words in meaning instead ({', '.join(near)})."
    note += syntax.note + meaning
    if weak:
        note += " The best hit covers only part of the query: the answer may not be on the shelf."
    low = mode != "exact" or weak or bool(missing_acts) or bool(syntax.unsaid) or not hits
    asked, note = query[:MAX_QUERY_CHARS], note.strip()  # the query as written, minus-words included
    return SearchResult(commit=commit, query=asked, mode=mode, hits=hits, low_confidence=low, keys=keys, note=note)


_NOTES = {
    "exact": "",
    "prefix": "No word matched exactly (keys: {keys}); these hits contain words beginning with them.",
    "substring": "No word matched exactly or as a prefix (keys: {keys}); these hits contain the query's words "
    "inside other words.",
    "none": "Nothing on the shelf matched (keys: {keys}) exactly, as a prefix or as a substring. The shelf may "
    "not cover this: rephrase, or read the index.",
}


def _scope(index: SearchIndex, doc: str | None, category: str | None) -> Scope:
    """The rows the filters allow; a filter matching nothing is an error, not an empty result."""
    scope = Scope(doc_key=None if doc is None else normalize_text(doc), category=category)
    if not scope.everything and not index.has_scope(scope):
        known = sorted({d.doc_id for d in index.documents()})
        raise SearchError(
            f"No section matches doc={doc!r} category={category!r} at this commit. "
            f"Document ids: {', '.join(known[:20])}{' …' if len(known) > 20 else ''}."
        )
    return scope


def _hits(
    index: SearchIndex, found: Found, limit: int, statuses: Statuses, concepts: list[Concept], mode: str, query: str
) -> list[Hit]:
    ranked, keys = found
    if not ranked:
        return []
    look = [r[2] for r in ranked[: limit * FOLD_DEPTH + 8]]
    scores = {rowid: score for score, _c, rowid in ranked}
    cover = {rowid: round(c, 3) for _s, c, rowid in ranked}
    groups = folding.fold(look, keys)
    # Stable: relevance order stays within each group; texts not in force go last.
    status = {r: statuses.of(keys[r].edition) for r in look}
    groups.sort(key=lambda g: all(status[r] not in ("", "in_force") for r in g.rowids))
    shown = groups[:limit]
    leads = [_lead(g.rowids, status, keys, cover) for g in shown]
    stored = index.sections(leads)
    hits = []
    for g, lead in zip(shown, leads, strict=True):
        others = [r for r in g.rowids if r != lead]
        english = not _CYRILLIC.search(keys[lead].title + keys[lead].doc_id)
        label = statuses.label(keys[lead].edition, english)
        also = [_also(keys[r], status[r], keys[lead]) for r in others]
        extra = {"status": status[lead], "status_label": label, "also_in": also}
        hits.append(_hit(stored[lead], keys[lead], max(scores[r] for r in g.rowids), concepts, mode, query, extra))
    return hits


def _lead(rowids: Sequence[int], status: dict[int, str], keys: dict[int, KeyRow], cover: dict[int, float]) -> int:
    """The copy shown for a clause: the best-matching one in force (or undated), else the best match.

    Of a split article's parts, the one covering most of the query; when several cover alike (the
    query matched their shared title), the opening part: it states the rule the others continue.
    """
    best = next((r for r in rowids if status[r] in ("", "in_force")), rowids[0])
    parts = [r for r in rowids if keys[r].doc_key == keys[best].doc_key]
    return max(parts, key=lambda r: (cover[r], not keys[r].continued, -parts.index(r)))


def _also(k: KeyRow, status: str, lead: KeyRow) -> dict[str, str]:
    kind = "part" if k.doc_key == lead.doc_key else "copy"
    return {"kind": kind, "doc_id": k.doc_id, "clause": k.clause, "path": k.path, "status": status}


def _hit(
    s: Stored, k: KeyRow, score: float, concepts: list[Concept], mode: str, query: str, extra: dict[str, Any]
) -> Hit:
    head = set(k.head.split())
    # What the title already shows («ст. 19», «RFC 9999») says nothing about where in the text to look.
    shown = [c for c in concepts if not any(set(alt) <= head for alt in c.alts)]
    wanted = [frozenset(k for alt in c.alts for k in alt if k not in STOPWORDS) for c in shown]
    needles = _needles(query) if mode == "substring" else None
    # The best-matching sentence, widened within its innermost clause: the clause cited proves the snippet.
    table = [(str(c[0]), int(c[1]), int(c[2])) for c in s.clauses]
    a, b, inner = best_snippet(s.text, table, wanted, prefix=mode == "prefix", needles=needles, width=SNIPPET_CHARS)
    start, end = read_window(s.text, table, a, b)
    return Hit(path=s.path, title=s.title, doc_id=s.doc_id, clause=s.clause, snippet=s.text[a:b],
               score=round(score, 4), pages=s.pages, edition=s.edition, snippet_clause=inner or s.clause,
               start=start, max_chars=end - start, **extra)  # fmt: skip
