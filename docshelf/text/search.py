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

import json
import re
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import date
from functools import lru_cache
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
    ranking,
    synonyms,
)
from docshelf.text.analyzer import STOPWORDS, query_tokens
from docshelf.text.cachepaths import INDEX_DIR
from docshelf.text.indexcache import index_path, open_index
from docshelf.text.normalize import normalize_text
from docshelf.text.searchindex import KeyRow, Ranked, Scope, SearchIndex, Stored
from docshelf.text.searchtext import describe
from docshelf.text.sections import SectionRow, read_sections
from docshelf.text.snippets import best_snippet, read_window
from docshelf.text.statuses import Statuses, with_status
from docshelf.text.synonyms import Concept, names_an_id

__all__ = [
    "INDEX_DIR",
    "Hit",
    "SearchResult",
    "SectionRow",
    "describe",
    "index_path",
    "open_index",
    "prepare",
    "read_sections",
    "search",
]

LOW_COVERAGE = 0.6  # chosen on bench/search_queries.jsonl: flags 6/9 unanswerable, 5/62 answerable
SNIPPET_CHARS = 220
MAX_QUERY_CHARS = 2000  # longer input is cut: concepts are capped anyway
FOLD_DEPTH = 4  # candidates looked at per hit wanted when folding copies
_CYRILLIC = re.compile("[а-яё]", re.IGNORECASE)  # a Russian text's status is told in Russian


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
    if limit < 1:
        raise SearchError(f"limit must be at least 1, not {limit}.")
    r = _rank(root, query, at=at, doc=doc, category=category, status=status, as_of=as_of)
    hits = _hits(r.index, (r.ranked, r.stored), limit, r.statuses, r.concepts, r.mode, r.text)
    ranked, absent = r.ranked, r.absent
    weak = r.mode == "exact" and bool(ranked) and (ranked[0][1] < LOW_COVERAGE or any(map(names_an_id, absent)))
    note = _NOTES[r.mode].format(keys=", ".join(r.keys[:12]) or "none")
    note += r.docs.note()
    if status is not None and status not in r.statuses.seen:
        note += f" No document has edition status {status!r} on {as_of or date.today()} at this commit."
    if absent:
        note += f" No section has these words: {', '.join(c.label for c in absent)}."
    for word, near in r.guessed.items():
        note += f" No section says «{word}»: searched for the nearest words in meaning instead ({', '.join(near)})."
    note += r.syntax_note + r.meaning
    if weak:
        note += " The best hit covers only part of the query: the answer may not be on the shelf."
    low = r.mode != "exact" or weak or bool(r.docs.missing) or r.unsaid or not hits
    asked, note = query[:MAX_QUERY_CHARS], note.strip()  # the query as written, minus-words included
    return SearchResult(
        commit=r.commit, query=asked, mode=r.mode, hits=hits, low_confidence=low, keys=r.keys, note=note
    )


def candidate_paths(root: Path, query: str, *, depth: int = 40, at: str | None = None) -> list[str]:
    """The section paths of the first ``depth`` ranked candidates, before copies and parts fold into hits.

    What the candidate stage hands to everything after it: an answer missing here no reranking can show
    (``bench/quality.py`` measures its recall).
    """
    r = _rank(root, query, at=at)
    return [r.stored[rowid].path for _s, _c, rowid in r.ranked[:depth]]


@dataclass(frozen=True)
class _Ranking:
    """One query ranked at one commit: every candidate in order, with what the notes and the hits need."""

    commit: str
    index: SearchIndex
    text: str  # the query without its minus-words
    keys: list[str]
    concepts: list[Concept]
    mode: str
    ranked: Ranked
    stored: dict[int, KeyRow]
    statuses: Statuses
    docs: docmentions.SaidDocuments
    absent: list[Concept]
    guessed: dict[str, list[str]]
    syntax_note: str
    unsaid: bool
    meaning: str


def prepare(root: Path, commit: str) -> None:
    """Read now what a query naming an act would read first at ``commit`` (a server preparing the commit)."""
    _shelf_names(root, commit)


@lru_cache(maxsize=8)
def _shelf_names(root: Path, commit: str) -> docmentions.ShelfNames:
    """Every document's names and titles of one commit, read once: a query naming an act asks them."""
    return docmentions.ShelfNames.of(open_index(root, commit).documents(), [m.title for m in metas_at(root, commit)])


def _rank(
    root: Path,
    query: str,
    *,
    at: str | None = None,
    doc: str | None = None,
    category: str | None = None,
    status: str | None = None,
    as_of: date | None = None,
) -> _Ranking:
    if not query.strip():
        raise SearchError("The query is empty. Give words, a question or an identifier such as «УПД.1».")
    commit = gitrepo.resolve(root, at)
    text, banned = querysyntax.excluded(query[:MAX_QUERY_CHARS])
    if not text.strip():
        raise SearchError("The query only excludes words («-слово»). Give words to look for besides them.")
    toks = query_tokens(text)
    keys = list(dict.fromkeys(t.key for t in toks))
    index = open_index(root, commit)
    analysed = index.setting("synonyms_parsed")
    said = synonyms.loads(analysed) if analysed else synonyms.parse(json.loads(index.setting("synonyms") or "null"))
    concepts = derivation.widen(index, ranking.as_said(index, said, toks, said.concepts(toks)))
    concepts, guessed = neighbours.expand(index, concepts)
    required = querysyntax.quoted(text)  # each also a concept: sections saying it together rank up
    concepts += [Concept(p.written, (p.keys,), False, len(toks) + n, len(toks) + n) for n, p in enumerate(required)]
    scope = _scope(index, doc, category)
    statuses = Statuses(as_of)
    if status is not None:
        scope = with_status(index, scope, statuses, status)
    # A code added under an id of the operator's choosing is found by its title (read only if a query names one).
    docs = docmentions.read_query(text, index.documents(), lambda: _shelf_names(root, commit))
    concepts = docmentions.narrowed(text, concepts, docs)
    dfs = [ranking.df(index, c) for c in concepts]
    absent = [c for c, df in zip(concepts, dfs, strict=True) if df == 0]
    mode, (ranked, stored) = "exact", ranking.rank_concepts(index, concepts, scope, prefix=False, dfs=dfs)
    if not ranked:
        mode, (ranked, stored) = "prefix", ranking.rank_concepts(index, concepts, scope, prefix=True, dfs=dfs)
    if not ranked and not docs.missing:
        mode, (ranked, stored) = "substring", ranking.substring(index, text, scope)
    if not ranked:
        mode = "none"
    elif mode == "exact" and definitions.asks_definition(text):  # the sections defining the term
        texts = index.sections(r for _s, _c, r in ranked[: ranking.RERANK_DEPTH])
        ranked = ranking.lifted(ranked, lambda r: ranking.W_DEFINES * definitions.defines(texts[r].text, concepts))
    elif mode == "exact" and answertype.asks_quantity(text):  # the sections stating a number
        units = answertype.units_for(text)
        lift = ranking.W_QUANTITY
        ranked = ranking.lifted(ranked, lambda r: lift * answertype.states_quantity(stored[r].body, units))
    meaning = ""
    # The shelf's encoder, on a shelf that ran `docshelf embed`, then its cross-encoder endpoint if it names one; a
    # clause or act id («УПД.1», «ст. 19») is matched, not meant, while a year or a level in a sentence is a word
    if mode == "exact" and not any(map(names_an_id, concepts)):
        if encoder.wanted(root):
            ranked, meaning = encoder.reranked(root, text, ranked, index)
        ranked, crossed = encoder.cross_reranked(root, text, ranked, index)
        meaning += crossed
    named = {doc_id for m in docs.named for doc_id in m.doc_ids}
    if named:  # «ASVS 5.0 …», «152-ФЗ …»: the documents the question names come first, in their own order
        ranked = sorted(ranked, key=lambda t: stored[t[2]].doc_id not in named)
    syntax = querysyntax.apply(ranked, lambda r: ranking.all_keys(stored[r]), required, banned)
    return _Ranking(
        commit,
        index,
        text,
        keys,
        concepts,
        mode,
        syntax.rows,
        stored,
        statuses,
        docs,
        absent,
        guessed,
        syntax.note,
        bool(syntax.unsaid),
        meaning,
    )


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
    index: SearchIndex,
    found: ranking.Found,
    limit: int,
    statuses: Statuses,
    concepts: list[Concept],
    mode: str,
    query: str,
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
    needles = ranking.needles(query) if mode == "substring" else None
    # The best-matching sentence, widened within its innermost clause: the clause cited proves the snippet.
    table = [(str(c[0]), int(c[1]), int(c[2])) for c in s.clauses]
    a, b, inner = best_snippet(s.text, table, wanted, prefix=mode == "prefix", needles=needles, width=SNIPPET_CHARS)
    start, end = read_window(s.text, table, a, b)
    return Hit(path=s.path, title=s.title, doc_id=s.doc_id, clause=s.clause, snippet=s.text[a:b],
               score=round(score, 4), pages=s.pages, edition=s.edition, snippet_clause=inner or s.clause,
               start=start, max_chars=end - start, **extra)  # fmt: skip
