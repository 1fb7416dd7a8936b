"""``docshelf eval``: measure search on a shelf's own labelled queries.

A queries file is JSON lines, one query per line::

    {"query": "можно ли передавать данные за рубеж", "gold": "Трансграничная передача", "kind": "paraphrase"}
    {"query": "УПД.1", "gold": ["УПД.1 | Управление учетными", "docs/laws/fstek-17/018-x.md"], "kind": "ident"}
    {"query": "штраф за превышение скорости", "gold": null, "kind": "unanswerable"}

``gold`` is a verbatim fragment of the answer's text (compared after the shared normalization, so
case, ё/е, quotes, dashes and Markdown do not matter), a section path (``docs/…/NNN-x.md``), or a
list of them; every section at the commit that holds one of them is a correct answer. ``null``
means the shelf cannot answer: the query succeeds when search returns nothing or flags
``low_confidence`` (so "not found in the shelf" is possible).

Metrics, overall and per ``kind``: hit@1 and hit@k (a correct section in the top 1 / k), MRR@10,
nDCG@10 (binary gains; the ideal ranking puts every correct section first), the empty-result rate,
and the low-confidence rate (on unanswerable queries it should be high, on the rest low).
"""

from __future__ import annotations

import json
import math
from collections.abc import Callable, Iterable
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any, NamedTuple

from docshelf.errors import SearchError
from docshelf.shelf import gitrepo
from docshelf.text.normalize import normalize_text
from docshelf.text.search import read_sections, search

DEPTH = 10  # MRR and nDCG look this deep


class Ranking(NamedTuple):
    """What an engine returned for one query: section paths best first, and its confidence."""

    paths: list[str]
    low_confidence: bool = False


Engine = Callable[[str, int], Ranking]  # (query, how many) -> ranking; lets benchmarks plug in baselines


@dataclass(frozen=True)
class QueryOutcome:
    query: str
    kind: str
    answerable: bool
    rank: int | None  # 1-based rank of the first correct section within DEPTH; None: not found
    relevant: int  # how many sections at the commit are correct answers
    hits: list[str]
    low_confidence: bool
    ndcg: float


@dataclass(frozen=True)
class Metrics:
    n: int
    hit_at_1: float
    hit_at_k: float
    mrr: float
    ndcg: float
    empty_rate: float
    low_confidence_rate: float
    # Calibration of ``low_confidence`` against «#1 is right»: the share of queries whose first hit is not an
    # answer (an answerable query's #1 is wrong, or an unanswerable one got hits) that are flagged, and the
    # share of those whose #1 is right that are flagged (the target: ≥ 0.8 and ≤ 0.1). NaN when none are.
    low_when_wrong: float = float("nan")
    low_when_right: float = float("nan")


@dataclass(frozen=True)
class EvalReport:
    commit: str
    k: int
    overall: Metrics
    by_kind: dict[str, Metrics]
    queries: list[QueryOutcome]
    # Labelled queries whose answer is in no section at this commit: its document is not on the shelf (or
    # the gold is misspelt). Their misses are not search's, so ``reachable`` scores the other queries.
    unreachable: list[str] = field(default_factory=list)
    reachable: Metrics | None = None

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)

    def format_table(self) -> str:
        """A plain-text table: one row per kind, then the overall row."""
        head = f"{'kind':<14} {'n':>4} {'hit@1':>6} {f'hit@{self.k}':>6} {'MRR':>6} {'nDCG':>6} {'empty':>6} {'low':>6}"
        lines = [head, "-" * len(head)]
        for name, m in [*sorted(self.by_kind.items()), ("overall", self.overall)]:
            lines.append(
                f"{name:<14} {m.n:>4} {m.hit_at_1:>6.2f} {m.hit_at_k:>6.2f} {m.mrr:>6.2f} {m.ndcg:>6.2f} "
                f"{m.empty_rate:>6.2f} {m.low_confidence_rate:>6.2f}"
            )
        if self.unreachable and self.reachable is not None:
            m, n = self.reachable, len([q for q in self.queries if q.answerable])
            lines += [
                "",
                f"{len(self.unreachable)} of {n} labelled queries have their answer in no section of this shelf "
                f"(its documents are not on it, or the gold is misspelt): {', '.join(map(repr, self.unreachable[:5]))}"
                + (" …" if len(self.unreachable) > 5 else ""),
                f"the other {m.n} queries: hit@1 {m.hit_at_1:.2f}, hit@{self.k} {m.hit_at_k:.2f}, MRR {m.mrr:.2f}",
            ]
        misses = [q for q in self.queries if (q.rank != 1 if q.answerable else not _abstained(q))]
        if misses:
            lines += ["", "not at rank 1:"]
            lines += [f"  [{q.kind}] {q.query!r}: rank {q.rank or '-'}" for q in misses]
        return "\n".join(lines)


def load_queries(path: Path) -> list[dict[str, Any]]:
    """Read and check a JSON-lines queries file (see the module docstring)."""
    out = []
    for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), start=1):
        if not line.strip():
            continue
        try:
            item = json.loads(line)
        except json.JSONDecodeError as exc:
            raise SearchError(f"{path}:{n}: not valid JSON ({exc.msg}). One JSON object per line.") from exc
        _check(item, f"{path}:{n}")
        out.append(item)
    if not out:
        raise SearchError(f"{path} holds no queries. Write one JSON object per line: {{query, gold, kind}}.")
    return out


def _check(item: Any, where: str) -> None:
    if not isinstance(item, dict) or not isinstance(item.get("query"), str) or not item["query"].strip():
        raise SearchError(f'{where}: each line needs a non-empty "query" string.')
    gold = item.get("gold")
    golds = gold if isinstance(gold, list) else [gold]
    if gold is not None and not (golds and all(isinstance(g, str) and g.strip() for g in golds)):
        raise SearchError(f'{where}: "gold" must be a text fragment, a section path, a list of them, or null.')
    if not isinstance(item.get("kind", ""), str):
        raise SearchError(f'{where}: "kind" must be a string.')


def correct_paths(gold: str | list[str], sections: dict[str, str]) -> set[str]:
    """Sections (path -> normalized text) that hold one of the gold fragments or are a gold path."""
    found = set()
    for g in [gold] if isinstance(gold, str) else gold:
        if g in sections:
            found.add(g)
            continue
        needle = normalize_text(g)
        found |= {path for path, text in sections.items() if needle in text}
    return found


def _abstained(q: QueryOutcome) -> bool:
    return not q.hits or q.low_confidence


def _outcome(item: dict[str, Any], ranking: Ranking, sections: dict[str, str]) -> QueryOutcome:
    gold = item.get("gold")
    hits = ranking.paths[:DEPTH]
    kind = item.get("kind") or "plain"
    if gold is None:
        ok = not hits or ranking.low_confidence
        return QueryOutcome(item["query"], kind, False, 1 if ok else None, 0, hits, ranking.low_confidence, float(ok))
    correct = correct_paths(gold, sections)
    ranks = [i for i, p in enumerate(hits, start=1) if p in correct]
    dcg = sum(1 / math.log2(r + 1) for r in ranks)
    ideal = sum(1 / math.log2(r + 1) for r in range(1, min(len(correct), DEPTH) + 1))
    ndcg = dcg / ideal if ideal else 0.0
    return QueryOutcome(
        item["query"], kind, True, ranks[0] if ranks else None, len(correct), hits, ranking.low_confidence, ndcg
    )


def _metrics(outcomes: Iterable[QueryOutcome], k: int) -> Metrics:
    qs = list(outcomes)
    n = len(qs) or 1
    return Metrics(
        n=len(qs),
        hit_at_1=sum(q.rank == 1 for q in qs) / n,
        hit_at_k=sum(q.rank is not None and q.rank <= k for q in qs) / n,
        mrr=sum(1 / q.rank for q in qs if q.rank) / n,
        ndcg=sum(q.ndcg for q in qs) / n,
        empty_rate=sum(not q.hits for q in qs) / n,
        low_confidence_rate=sum(q.low_confidence for q in qs) / n,
        low_when_wrong=_share_flagged([q for q in qs if not _first_right(q) and q.hits]),
        low_when_right=_share_flagged([q for q in qs if _first_right(q)]),
    )


def _first_right(q: QueryOutcome) -> bool:
    return q.answerable and q.rank == 1


def _share_flagged(qs: list[QueryOutcome]) -> float:
    return sum(q.low_confidence for q in qs) / len(qs) if qs else float("nan")


def evaluate(
    root: Path, queries: list[dict[str, Any]], *, k: int = 5, at: str | None = None, engine: Engine | None = None
) -> EvalReport:
    """Run every query against the shelf at ``at`` and score the rankings (see the module docstring).

    ``engine`` replaces DocShelf's search (benchmarks pass baselines); it gets the query and the
    number of results wanted and returns a :class:`Ranking`.
    """
    if k < 1:
        raise SearchError(f"k must be at least 1, not {k}.")
    for n, item in enumerate(queries, start=1):
        _check(item, f"query {n}")
    commit = gitrepo.resolve(root, at)
    sections = {r.path: normalize_text(r.text) for r in read_sections(root, commit)}

    def docshelf_engine(query: str, limit: int) -> Ranking:
        result = search(root, query, limit=limit, at=commit)
        return Ranking([h.path for h in result.hits], result.low_confidence)

    run = engine or docshelf_engine
    outcomes = [_outcome(item, run(item["query"], max(k, DEPTH)), sections) for item in queries]
    kinds = sorted({q.kind for q in outcomes})
    by_kind = {kind: _metrics((q for q in outcomes if q.kind == kind), k) for kind in kinds}
    unreachable = [q.query for q in outcomes if q.answerable and not q.relevant]
    reachable = _metrics((q for q in outcomes if not q.answerable or q.relevant), k) if unreachable else None
    return EvalReport(commit, k, _metrics(outcomes, k), by_kind, outcomes, unreachable, reachable)
