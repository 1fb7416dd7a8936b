"""The candidate stage and the rerank of one query's concepts over one commit's index.

:mod:`docshelf.text.search` turns a query into concepts and hits; this module ranks: BM25 candidates from the
query's rarest concepts (and the AND of all), then coverage, head coverage, adjacency and identifiers (the score
the search module's docstring spells out), with the prefix and substring fallbacks.
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Callable
from dataclasses import replace

from docshelf.text import folding, synonyms
from docshelf.text.analyzer import STOPWORDS, WORD, Token, tokens
from docshelf.text.normalize import normalize_text
from docshelf.text.searchindex import KeyRow, Ranked, Scope, SearchIndex
from docshelf.text.synonyms import Concept, adjacent_in, found_in

# 60 + 30 (were 40 + 20): the answer reaches the top 40 ranked rows a meaning rerank reads for 0.95 of the labelled
# answerable questions (was 0.93), at the same MRR and ~5 % more CPU a query (bench/quality.py, bench/README.md)
OR_CANDIDATES, AND_CANDIDATES = 60, 30
RANK_BUDGET = 1500  # postings one BM25-ranked query may read (~2 ms); beyond it candidates come unranked
# Weights chosen on the dev half of bench/search_queries.jsonl (the holdout half only measures them).
W_COVERAGE, W_HEAD, W_ADJACENT, W_IDENT, W_PART = 1.0, 0.6, 0.2, 1.0, 0.1
W_DEFINES = 1.0  # a section defining the term a question asks about (definitions.defines)
W_QUANTITY = 0.4  # a section stating a quantity, for a question asking one (answertype.states_quantity)
RERANK_DEPTH = 60  # candidates whose adjacency is scored exactly (the rest cannot reach the folded hits)
SUBSTRING_WORDS = 20  # vocabulary words taken per query word in the substring fallback
Found = tuple[Ranked, dict[int, KeyRow]]  # the ranking and the stored keys of every candidate in it


def df(index: SearchIndex, c: Concept) -> int:
    """How many sections say the concept in its most frequent way (a phrase: its rarest word)."""
    return max((min(index.df(k) for k in alt) for alt in c.alts), default=0)


def share(weights: list[float], flags: list[bool]) -> float:
    return sum(w for w, f in zip(weights, flags, strict=True) if f) / (sum(weights) or 1.0)


def all_keys(k: KeyRow) -> str:
    """All of a section's keys, fields apart (a quoted phrase does not run from a title into the text)."""
    return f" {k.head} | {k.clauses} | {k.ctx} | {k.body} "


def rerank(index: SearchIndex, concepts: list[Concept], dfs: list[int], cands: dict[int, float], prefix: bool) -> Found:
    total = index.total()
    weights = [math.log(1 + total / (df + 1)) for df in dfs]
    pairs = [(a, b) for a, b in itertools.pairwise(concepts) if b.first > a.last]
    best = max(cands.values()) or 1.0
    stored = index.keys(cands)
    partial = []
    for rowid, k in stored.items():
        head, named, every = f" {k.head} ", f" {k.head} | {k.clauses} ", all_keys(k)
        has = [found_in(c, every, prefix) for c in concepts]
        coverage = share(weights, has)
        # The head and the clause ids are parts of `every`: a concept absent there is absent from them.
        in_head = share(weights, [h and found_in(c, head, prefix) for c, h in zip(concepts, has, strict=True)])
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


def within_budget(concepts: list[Concept], dfs: list[int]) -> list[Concept]:
    """The rarest concepts whose postings together stay within :data:`RANK_BUDGET` (the cost of a ranked query)."""
    chosen, spent = [], 0
    for df, i in sorted(zip(dfs, range(len(concepts)), strict=True)):
        if spent + df > RANK_BUDGET:
            break
        chosen.append(concepts[i])
        spent += df
    return chosen


def rank_concepts(
    index: SearchIndex, concepts: list[Concept], scope: Scope, prefix: bool, dfs: list[int] | None = None
) -> Found:
    if not concepts:
        return [], {}
    dfs = dfs if dfs is not None else [df(index, c) for c in concepts]
    # Ranking reads every posting of the terms it ranks: only the rarest concepts are ranked by BM25;
    # a concept in thousands of sections still counts in the rerank (coverage) and in the AND below.
    rare = within_budget(concepts, dfs) if not prefix else concepts
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
    return rerank(index, concepts, dfs, cands, prefix) if cands else ([], {})


def as_said(index: SearchIndex, said: synonyms.Synonyms, toks: list[Token], concepts: list[Concept]) -> list[Concept]:
    """A phrase's synonym group that no section says in any form: its words searched one by one instead.

    «как долго хранить» is one group with «срок хранения»; on a shelf that says neither, the group
    would hide «хранить» (and its own group, «хранение») that the shelf does say.
    """
    out: list[Concept] = []
    for c in concepts:
        if c.last > c.first and df(index, c) == 0:
            out += [replace(w, first=i, last=i) for i in range(c.first, c.last + 1) for w in said.concepts([toks[i]])]
        else:
            out.append(c)
    return out


def lifted(ranked: Ranked, lift: Callable[[int], float]) -> Ranked:
    """The ranking with ``lift(rowid)`` added to the top :data:`RERANK_DEPTH` scores (a question's kind)."""
    top = [(s + lift(r), c, r) for s, c, r in ranked[:RERANK_DEPTH]]
    return sorted(top, key=lambda t: (-t[0], t[2])) + ranked[RERANK_DEPTH:]


def needles(query: str) -> list[str]:
    norm = normalize_text(query)
    found = WORD.findall(norm)
    return list(dict.fromkeys([w for w in found if w not in STOPWORDS] or found or ([norm] if norm else [])))[:16]


def substring(index: SearchIndex, query: str, scope: Scope) -> Found:
    """Last resort: sections holding indexed words that contain the query's words."""
    concepts = []
    for i, needle in enumerate(needles(query)):
        alts = {(k,) for w in index.words_containing(needle, SUBSTRING_WORDS) for t in tokens(w) for k in t.keys[:1]}
        if alts:
            concepts.append(Concept(needle, tuple(sorted(alts)), False, i, i))
    return rank_concepts(index, concepts, scope, prefix=False)
