"""Paraphrase recall: dense retrieval with word embeddings (navec), fused with DocShelf's search, measured.

Query expansion by navec neighbours did not help (bench/expansion.py). This bench uses the same
offline vectors (navec news, 250K words × 300 d, inside the ``natasha`` wheel) the other way: as a
*dense* ranking of whole sections. Runs over the corpus shelf, on bench/search_queries.jsonl:

* **shipped**: DocShelf search alone;
* **dense only**: each section is the SIF-weighted mean (weight a/(a+p(w)), p the word's frequency on
  the shelf itself) of the navec vectors of its lowercase Cyrillic/Latin words (words navec lacks
  are skipped), optionally without the first principal component; the query is embedded the same
  way; cosine, top k. A query whose best cosine is under a threshold is flagged low-confidence;
* **hybrid RRF**: reciprocal rank fusion of DocShelf's top 50 and the dense top 50
  (score w_s/(k+r_s) + w_d/(k+r_d)); low confidence is DocShelf's;
* **dense rerank**: DocShelf's top 50 reordered by (1-λ)·(1-(r-1)/50) + λ·cosine.

Variants of the section vector: the whole text or its first N words (the text begins with the
title); words looked up as written or as their pymorphy3 lemma (if installed); a = 1e-3 or 1e-4;
the first principal component kept or removed; DocShelf's stop words («можно», «сколько», «how» …) kept or dropped.

Honest tuning: queries without ``"split": "holdout"`` are the dev half. Every parameter (vector
variant, weights, λ, threshold) is chosen on the dev half by its MRR@10 over all dev queries (ties:
dev paraphrase hit@5); the holdout half is scored once, with the chosen parameters. The tables give
hit@1, hit@5 and MRR@10 per kind, paraphrase dev/holdout apart, and overall; the ceiling of any fusion
(how often a correct section is in DocShelf's top 50, the dense top 50, either); then the costs: CPU ms
per query of the dense part, CPU time and memory to embed the shelf, and the cost extrapolated to
100,000 sections (a 100k × 300 float32 matrix; one matrix-vector product timed on a random one).

Needs ``natasha`` (for its data folder only) + ``navec`` + ``numpy``; ``pymorphy3`` is optional.
Nothing is downloaded.

    python bench/dense.py --shelf /path/to/built/corpus/shelf
"""

from __future__ import annotations

import importlib.util
import itertools
import re
import resource
import sys
import time
import tracemalloc
from collections import Counter
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))
sys.path.insert(0, str(REPO / "bench"))

from docshelf.shelf import gitrepo  # noqa: E402
from docshelf.text.analyzer import STOPWORDS  # noqa: E402
from docshelf.text.evaluate import Ranking, correct_paths, evaluate, load_queries  # noqa: E402
from docshelf.text.normalize import normalize_text  # noqa: E402
from docshelf.text.search import read_sections, search  # noqa: E402

QUERIES = REPO / "bench" / "search_queries.jsonl"
DEPTH = 10  # MRR@10, as docshelf eval
K = 5  # hit@5
POOL = 50  # candidates taken from each ranking before fusion
WORD = re.compile(r"[a-zа-яё]+(?:-[a-zа-яё]+)*")
Vec = np.ndarray


# --- the embedding ------------------------------------------------------------------------------


def load_navec() -> Any:
    from navec import Navec  # type: ignore[import-not-found]

    spec = importlib.util.find_spec("natasha")  # only its data folder is used: the package is not imported
    if spec is None or spec.origin is None:
        sys.exit("natasha is not installed: its wheel holds the navec vectors.")
    tar = next((Path(spec.origin).parent / "data" / "emb").glob("navec_news_*.tar"))
    return Navec.load(str(tar))


def lemmatizer() -> Callable[[str], str] | None:
    try:
        import pymorphy3  # type: ignore[import-not-found]
    except ImportError:
        return None
    morph = pymorphy3.MorphAnalyzer()
    return lambda w: morph.parse(w)[0].normal_form


class Lexicon:
    """Words -> navec vectors, looked up once: as written (or as the lemma), without ё, or by hyphenated parts."""

    def __init__(self, navec: Any, lemma: Callable[[str], str] | None, stop: bool = False) -> None:
        self.navec = navec
        self.lemma = lemma
        self.stop = stop  # drop DocShelf's stop words («можно», «сколько», «how» …) before the lookup
        self._keys: dict[str, list[str]] = {}
        self.vec: dict[str, Vec] = {}

    def keys(self, word: str) -> list[str]:
        """The navec words standing for ``word`` (none if navec lacks it)."""
        out = self._keys.get(word)
        if out is None:
            whole = self._lookup(word)
            parts = [whole] if whole or "-" not in word else [self._lookup(p) for p in word.split("-")]
            out = self._keys[word] = [k for k in parts if k]
            for k in out:
                if k not in self.vec:
                    self.vec[k] = np.asarray(self.navec[k], dtype=np.float32)
        return out

    def _lookup(self, w: str) -> str | None:
        cands = [w]
        if self.lemma is not None and not w.isascii():
            cands.insert(0, self.lemma(w))
        for c in cands:
            for v in (c, c.replace("ё", "е")):
                if v in self.navec:
                    return v
        return None

    def words(self, text: str, limit: int | None = None) -> list[str]:
        out: list[str] = []
        for w in WORD.findall(text.lower()):
            if self.stop and w in STOPWORDS:
                continue
            out += self.keys(w)
            if limit is not None and len(out) >= limit:
                return out[:limit]
        return out


@dataclass(frozen=True)
class Variant:
    words: int | None  # first N words of the section text (the title comes first); None: all of it
    lemma: bool
    a: float
    pc: bool  # remove the first principal component
    stop: bool = False  # drop stop words

    @property
    def name(self) -> str:
        span = "whole" if self.words is None else f"first {self.words}"
        flags = [span, "lemma" if self.lemma else "form", f"a={self.a:g}", "-PC1" if self.pc else "PC1 kept"]
        return ", ".join(flags + ["-stop"] * self.stop)


class Dense:
    """The section vectors of one variant, and the query side."""

    def __init__(self, lex: Lexicon, texts: list[str], v: Variant) -> None:
        self.lex, self.v = lex, v
        docs = [lex.words(t, v.words) for t in texts]
        counts = Counter(itertools.chain.from_iterable(docs))
        total = sum(counts.values()) or 1
        self.weight = {w: v.a / (v.a + n / total) for w, n in counts.items()}
        self.pc: Vec | None = None
        m = np.stack([self._raw(d) for d in docs])
        if v.pc:
            self.pc = np.linalg.svd(m, full_matrices=False)[2][0]
            m = m - np.outer(m @ self.pc, self.pc)
        self.matrix = (m / (np.linalg.norm(m, axis=1, keepdims=True) + 1e-9)).astype(np.float32)

    def _raw(self, words: list[str]) -> Vec:
        if not words:
            return np.zeros(300, np.float32)
        weights = np.array([self.weight.get(w, 1.0) for w in words], np.float32)  # unseen on the shelf: rare
        return weights @ np.stack([self.lex.vec[w] for w in words]) / len(words)

    def query(self, text: str) -> Vec:
        q = self._raw(self.lex.words(text))
        if self.pc is not None:
            q = q - (q @ self.pc) * self.pc
        return q / (np.linalg.norm(q) + 1e-9)

    def top(self, text: str, n: int = POOL) -> tuple[list[int], list[float]]:
        """The ``n`` nearest sections (row numbers) and their cosines, best first."""
        sims = self.matrix @ self.query(text)
        idx = np.argpartition(-sims, n)[:n]
        idx = idx[np.argsort(-sims[idx], kind="stable")]
        return idx.tolist(), sims[idx].tolist()


# --- the runs -----------------------------------------------------------------------------------


@dataclass
class Query:
    item: dict[str, Any]
    gold: set[str] | None  # correct section paths; None: the shelf cannot answer
    shelf: list[str]  # DocShelf's hits, best first (copies folded)
    low: bool  # DocShelf's low_confidence

    @property
    def kind(self) -> str:
        return self.item.get("kind") or "plain"

    @property
    def split(self) -> str:
        return self.item.get("split") or "dev"


Engine = Callable[[int], Ranking]  # query number -> ranking
Rank = int | None


def rank_of(q: Query, r: Ranking) -> Rank:
    """As ``docshelf eval``: the rank of the first correct hit in the top 10; unanswerable: 1 if it abstains."""
    hits = r.paths[:DEPTH]
    if q.gold is None:
        return 1 if not hits or r.low_confidence else None
    return next((n for n, p in enumerate(hits, start=1) if p in q.gold), None)


@dataclass(frozen=True)
class Score:
    n: int
    hit1: float
    hit5: float
    mrr: float

    def __str__(self) -> str:
        return f"{self.hit1:.2f} {self.hit5:.2f} {self.mrr:.2f}"


def score(ranks: Iterable[Rank]) -> Score:
    rs = list(ranks)
    n = len(rs) or 1
    return Score(
        len(rs),
        sum(r == 1 for r in rs) / n,
        sum(r is not None and r <= K for r in rs) / n,
        sum(1 / r for r in rs if r) / n,
    )


def subsets(queries: list[Query]) -> dict[str, list[int]]:
    out: dict[str, list[int]] = {}
    for kind in sorted({q.kind for q in queries}):
        out[kind] = [i for i, q in enumerate(queries) if q.kind == kind]
    for split in ("dev", "holdout"):
        out[f"paraphrase {split}"] = [i for i, q in enumerate(queries) if q.kind == "paraphrase" and q.split == split]
    for split in ("dev", "holdout"):
        out[f"all {split}"] = [i for i, q in enumerate(queries) if q.split == split]
    out["overall"] = list(range(len(queries)))
    return out


def fuse_rrf(a: list[str], b: list[str], wa: float, wb: float, k: int) -> list[str]:
    s: dict[str, float] = {}
    for w, ranking in ((wa, a), (wb, b)):
        for r, p in enumerate(ranking[:POOL], start=1):
            s[p] = s.get(p, 0.0) + w / (k + r)
    return sorted(s, key=lambda p: -s[p])


def rerank(shelf: list[str], cos: dict[str, float], lam: float) -> list[str]:
    s = {p: (1 - lam) * (1 - r / POOL) + lam * cos[p] for r, p in enumerate(shelf[:POOL])}
    return sorted(s, key=lambda p: -s[p])


@dataclass
class Config:
    method: str
    variant: Variant | None
    params: str
    engine: Engine
    ranks: list[Rank]


def run(root: Path) -> list[str]:
    commit = gitrepo.resolve(root)
    rows = read_sections(root, commit)
    paths, texts = [r.path for r in rows], [r.text for r in rows]
    normalized = {r.path: normalize_text(r.text) for r in rows}
    items = load_queries(QUERIES)
    start = time.process_time()
    queries = []
    for item in items:
        res = search(root, item["query"], at=commit, limit=POOL)
        gold = None if item.get("gold") is None else correct_paths(item["gold"], normalized)
        queries.append(Query(item, gold, [h.path for h in res.hits], res.low_confidence))
    shelf_ms = (time.process_time() - start) / len(queries) * 1000
    dev = [i for i, q in enumerate(queries) if q.split == "dev"]
    para_dev = [i for i in dev if queries[i].kind == "paraphrase"]
    pool_sizes = sorted(len(q.shelf) for q in queries)

    rss0 = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    start = time.process_time()
    navec = load_navec()
    navec_s = time.process_time() - start
    navec_mb = (resource.getrusage(resource.RUSAGE_SELF).ru_maxrss - rss0) / 1024
    lemma = lemmatizer()
    lexicons = {(lem, stop): Lexicon(navec, lemma if lem else None, stop)
                for lem in ((False, True) if lemma else (False,)) for stop in (False, True)}  # fmt: skip

    shipped = Config("shipped", None, "", lambda i: Ranking(queries[i].shelf, queries[i].low), [])
    configs: list[Config] = [shipped]
    pools: dict[Variant, list[list[str]]] = {}
    variants = [
        Variant(words, lem, a, pc, stop)
        for words in (None, 30, 60, 120)
        for lem, stop in lexicons
        for a in (1e-3, 1e-4)
        for pc in (False, True)
    ]
    for v in variants:
        dense = Dense(lexicons[v.lemma, v.stop], texts, v)
        tops = [dense.top(q.item["query"]) for q in queries]
        dpaths = pools[v] = [[paths[j] for j in idx] for idx, _ in tops]
        best = [c[0] for _, c in tops]
        cos = []
        for q in queries:
            qv = dense.query(q.item["query"])
            rows_of = [paths.index(p) for p in q.shelf]
            cos.append({p: float(dense.matrix[j] @ qv) for p, j in zip(q.shelf, rows_of, strict=True)})
        for t in (None, 0.3, 0.4, 0.5, 0.6, 0.7):
            configs.append(Config("dense only", v, f"abstain below cos {t}" if t else "never abstains",
                                  _dense_engine(dpaths, best, t), []))  # fmt: skip
        for wd, k in itertools.product((0.25, 0.5, 0.75, 1.0, 1.5), (20, 60)):
            configs.append(Config("hybrid RRF", v, f"k={k}, w_shelf=1, w_dense={wd}",
                                  _rrf_engine(queries, dpaths, wd, k), []))  # fmt: skip
        for lam in (0.1, 0.2, 0.3, 0.5, 0.7):
            configs.append(Config("dense rerank", v, f"λ={lam}", _rerank_engine(queries, cos, lam), []))
    for c in configs:
        c.ranks = [rank_of(q, c.engine(i)) for i, q in enumerate(queries)]

    def objective(c: Config) -> tuple[float, float]:
        return score(c.ranks[i] for i in dev).mrr, score(c.ranks[i] for i in para_dev).hit5

    chosen = {
        m: max((c for c in configs if c.method == m), key=objective) for m in dict.fromkeys(c.method for c in configs)
    }

    lines = [f"Shelf: {len(rows)} sections at {commit[:12]}; {len(queries)} queries ({len(dev)} dev). "
             f"DocShelf pool (limit={POOL}, copies folded): median {pool_sizes[len(pool_sizes) // 2]} hits, "
             f"min {pool_sizes[0]}, max {pool_sizes[-1]}."]  # fmt: skip
    if lemma is None:
        lines.append("pymorphy3 is not installed: the lemma variants are not measured.")
    lines += ["", "Chosen on dev (MRR@10 over all dev queries, ties: dev paraphrase hit@5); best 3 per method:", ""]
    lines += ["| method | vector | parameters | dev MRR | dev paraphrase hit@5 |", "|---|---|---|---:|---:|"]
    for m in chosen:
        for c in sorted((c for c in configs if c.method == m), key=objective, reverse=True)[:3]:
            mrr, h5 = objective(c)
            lines.append(f"| {m} | {c.variant.name if c.variant else ''} | {c.params} | {mrr:.3f} | {h5:.2f} |")
    lines += ["", "Dev MRR of the best config of each method per vector variant:", ""]
    lines += ["| vector | dense only | hybrid RRF | dense rerank |", "|---|---:|---:|---:|"]
    for v in variants:
        cells = [max(objective(c)[0] for c in configs if c.method == m and c.variant == v) for m in list(chosen)[1:]]
        lines.append(f"| {v.name} | " + " | ".join(f"{x:.3f}" for x in cells) + " |")

    groups = subsets(queries)
    lines += ["", "The chosen configs, hit@1 hit@5 MRR@10 (holdout scored once):", ""]
    lines.append("| subset | n | " + " | ".join(chosen) + " |")
    lines.append("|---|---:|" + "---|" * len(chosen))
    for name, idx in groups.items():
        lines.append(
            f"| {name} | {len(idx)} | "
            + " | ".join(str(score(c.ranks[i] for i in idx)) for c in chosen.values())
            + " |"
        )
    lines += [""] + [f"* {m}: {c.variant.name}; {c.params}" for m, c in chosen.items() if c.variant]
    v = chosen["hybrid RRF"].variant
    assert v is not None
    lines += ["", f"The ceiling of any fusion or rerank: answerable queries whose correct section is in the top {POOL} "
              f"(dense: {v.name}):", ""]  # fmt: skip
    lines += ["| subset | n | DocShelf | dense | either |", "|---|---:|---:|---:|---:|"]
    for name in ("paraphrase dev", "paraphrase holdout", "overall"):
        idx = [i for i in groups[name] if queries[i].gold]
        ins = [
            sum(bool(queries[i].gold & set(pool(i))) for i in idx) / (len(idx) or 1)
            for pool in (lambda i: queries[i].shelf, lambda i: pools[v][i], lambda i: queries[i].shelf + pools[v][i])
        ]
        lines.append(f"| {name} | {len(idx)} | " + " | ".join(f"{x:.2f}" for x in ins) + " |")

    # Cross-check with docshelf eval's own scoring, through its engine hook.
    by_query = {q.item["query"]: i for i, q in enumerate(queries)}
    for m, c in chosen.items():
        rep = evaluate(root, items, k=K, at=commit, engine=lambda text, _n, c=c: c.engine(by_query[text]))
        mine = score(c.ranks)
        assert abs(rep.overall.mrr - mine.mrr) < 1e-9 and abs(rep.overall.hit_at_k - mine.hit5) < 1e-9, m

    lines += ["", *costs(navec, lemma, texts, queries, chosen, navec_s, navec_mb, shelf_ms)]
    return lines


def _dense_engine(dpaths: list[list[str]], best: list[float], t: float | None) -> Engine:
    return lambda i: Ranking(dpaths[i], t is not None and best[i] < t)


def _rrf_engine(queries: list[Query], dpaths: list[list[str]], wd: float, k: int) -> Engine:
    return lambda i: Ranking(fuse_rrf(queries[i].shelf, dpaths[i], 1.0, wd, k), queries[i].low or not queries[i].shelf)


def _rerank_engine(queries: list[Query], cos: list[dict[str, float]], lam: float) -> Engine:
    return lambda i: Ranking(rerank(queries[i].shelf, cos[i], lam), queries[i].low)


def costs(navec: Any, lemma: Callable[[str], str] | None, texts: list[str], queries: list[Query],
          chosen: dict[str, Config], navec_s: float, navec_mb: float, shelf_ms: float) -> list[str]:  # fmt: skip
    v = next((c.variant for c in chosen.values() if c.variant and c.method != "dense only"), None)
    v = v or Variant(None, False, 1e-3, True)
    lem = lemma if v.lemma else None
    start = time.process_time()
    dense = Dense(Lexicon(navec, lem, v.stop), texts, v)
    embed_s = time.process_time() - start
    tracemalloc.start()
    Dense(Lexicon(navec, lem, v.stop), texts, v)
    peak_mb = tracemalloc.get_traced_memory()[1] / 2**20
    tracemalloc.stop()
    for q in queries:  # warm the word cache as a server would be after a few queries
        dense.top(q.item["query"])
    start = time.process_time()
    reps = 5
    for _ in range(reps):
        for q in queries:
            dense.top(q.item["query"])
    query_ms = (time.process_time() - start) / (reps * len(queries)) * 1000
    rng = np.random.default_rng(0)
    big = rng.standard_normal((100_000, 300), dtype=np.float32)
    big /= np.linalg.norm(big, axis=1, keepdims=True)
    qv = big[0].copy()
    times = []
    for _ in range(30):
        t0 = time.process_time()
        sims = big @ qv
        np.argpartition(-sims, POOL)[:POOL]
        times.append(time.process_time() - t0)
    matvec_ms = sorted(times)[len(times) // 2] * 1000
    per_section = embed_s / len(texts)
    words = sum(len(WORD.findall(t)) for t in texts) / len(texts)
    return [
        f"Costs (CPU), vector variant {v.name}:",
        f"* navec model load: {navec_s:.2f} s, +{navec_mb:.0f} MB RSS; DocShelf search limit={POOL}: "
        f"{shelf_ms:.1f} ms/query (for scale)",
        f"* embed the shelf ({len(texts)} sections, {words:.0f} words each on average, cold word cache): "
        f"{embed_s:.2f} s ({per_section * 1000:.2f} ms/section), peak Python allocations {peak_mb:.0f} MB, "
        f"matrix {dense.matrix.nbytes / 2**20:.1f} MB",
        f"* dense part per query (embed query + cosine over {len(texts)} + top {POOL}): {query_ms:.2f} ms",
        f"* 100,000 sections: matrix 100k×300 float32 = {big.nbytes / 1e6:.0f} MB; one matrix-vector product + "
        f"top {POOL} on a random one: {matvec_ms:.1f} ms (median of 30); embedding extrapolated linearly: "
        f"{per_section * 100_000:.0f} s",
    ]


def main() -> None:
    from search import on_corpus_shelf  # bench/search.py builds the corpus shelf the same way

    on_corpus_shelf(__doc__ or "", run, "dense")


if __name__ == "__main__":
    main()
