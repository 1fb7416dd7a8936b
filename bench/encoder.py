"""Meaning rerank (docshelf[encoder]): what it gains on the labelled queries and what it costs, in one run.

On the corpus shelf (../shared/corpus, or ``--shelf S``): ``docshelf embed`` of every section text
(CPU seconds per chunk and per text, the store's bytes per text, extrapolated to 100,000 sections);
then every labelled query (bench/search_queries*.jsonl) searched with the rerank off and on, hit@1 /
hit@5 / MRR@10 per split and for the paraphrase and English kinds; the weight λ on a grid (the
shipped one was chosen by dev MRR; the other splits are reported, never used to choose); and the
CPU time of a query with the rerank against the same query without it, in the same run (ratio).

    python bench/encoder.py --shelf /path/to/built/corpus/shelf   # keeps its vectors for the next run

The model measured is the one the shelf's ``.docshelf.json`` names (``"encoder": {"onnx": DIR}`` or ``{"url": …}``,
see docshelf/text/models.py), else the extra's bundled one; the first line of the output names it.
"""

from __future__ import annotations

import os
import resource
import statistics
import sys
from collections.abc import Callable
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))
sys.path.insert(0, str(REPO / "bench"))

from search import _splits, docshelf_engine, labelled, on_corpus_shelf  # noqa: E402

from docshelf.shelf import gitrepo  # noqa: E402
from docshelf.text import encoder  # noqa: E402
from docshelf.text.evaluate import Engine, Ranking, evaluate  # noqa: E402
from docshelf.text.sections import read_sections  # noqa: E402

GRID = (0.5, 0.6, 0.7, 0.8, 0.9, 1.0)


def _switched(engine: Engine, on: bool) -> Engine:
    def run(query: str, limit: int) -> Ranking:
        os.environ["DOCSHELF_ENCODER"] = "" if on else "off"
        return engine(query, limit)

    return run


def _cpu(fn: Callable[[], object]) -> float:
    """CPU seconds of this process and of the children it waited for (``embed``'s worker processes)."""

    def used() -> float:
        me, kids = resource.getrusage(resource.RUSAGE_SELF), resource.getrusage(resource.RUSAGE_CHILDREN)
        return me.ru_utime + me.ru_stime + kids.ru_utime + kids.ru_stime

    start = used()
    fn()
    return used() - start


def embed_table(root: Path, sample: int = 20) -> list[str]:
    """Embeds what the store lacks, and times the model on a sample of texts (vectors kept from an earlier
    run would otherwise cost nothing)."""
    commit = gitrepo.resolve(root)
    texts = {encoder.text_key(r.text): r.text for r in read_sections(root, commit)}
    chunks = sum(len(encoder.chunks(t)) for t in texts.values())
    cpu = _cpu(lambda: encoder.embed_commit(root, commit))
    some = [c for t in sorted(texts)[:: max(1, len(texts) // sample)] for c in encoder.chunks(texts[t])]
    per_chunk = _cpu(lambda: encoder.model_for(root).passages(some)) / len(some)
    size = encoder.store_path(root).stat().st_size
    per_text = per_chunk * chunks / len(texts)
    lines = ["| section texts | chunks | embed CPU s (what was missing) | CPU s a chunk (sample) | store bytes a text "
             "| 100k texts: CPU h, store MB |", "|---:|---:|---:|---:|---:|---:|"]  # fmt: skip
    per_text_bytes = size / len(texts)
    at_100k = f"{per_text * 1e5 / 3600:.1f}, {per_text_bytes * 1e5 / 2**20:.0f}"
    lines.append(f"| {len(texts)} | {chunks} | {cpu:.0f} | {per_chunk:.3f} ({len(some)} chunks) | "
                 f"{per_text_bytes:.0f} | {at_100k} |")  # fmt: skip
    return lines


def quality_table(root: Path) -> list[str]:
    engine, queries = docshelf_engine(root), labelled()
    lines = ["| split | n | off: hit@1 / hit@5 / MRR | on: hit@1 / hit@5 / MRR |", "|---|---:|---:|---:|"]
    groups = dict(_splits(queries))
    for kind in ("paraphrase", "english"):
        groups[f"{kind}, dev"] = [q for q in queries if q.get("kind") == kind and q.get("split", "dev") == "dev"]
        groups[f"{kind}, not dev"] = [q for q in queries if q.get("kind") == kind and q.get("split", "dev") != "dev"]
    for name, subset in groups.items():
        cells = []
        for on in (False, True):
            m = evaluate(root, subset, k=5, engine=_switched(engine, on)).overall
            cells.append(f"{m.hit_at_1:.2f} / {m.hit_at_k:.2f} / {m.mrr:.2f}")
        lines.append(f"| {name} | {len(subset)} | " + " | ".join(cells) + " |")
    return lines


def weight_table(root: Path) -> list[str]:
    engine, splits = docshelf_engine(root), _splits(labelled())
    shipped = encoder.WEIGHT
    lines = ["| λ | dev MRR | holdout MRR | fresh–fresh4 MRR |", "|---:|---:|---:|---:|"]
    blind = [q for name in ("fresh", "fresh2", "fresh3", "fresh4") for q in splits[name]]
    try:
        for weight in GRID:
            encoder.WEIGHT = weight
            mrr = [evaluate(root, s, k=5, engine=_switched(engine, True)).overall.mrr
                   for s in (splits["dev"], splits["holdout"], blind)]  # fmt: skip
            mark = " (shipped)" if weight == shipped else ""
            lines.append(f"| {weight}{mark} | " + " | ".join(f"{m:.3f}" for m in mrr) + " |")
    finally:
        encoder.WEIGHT = shipped
    return lines


def latency_table(root: Path) -> list[str]:
    engine, queries = docshelf_engine(root), [q["query"] for q in labelled()]
    cpu: dict[bool, list[float]] = {False: [], True: []}
    for on in (False, True):
        _switched(engine, on)(queries[0], 5)  # warm: the index reader, the model
    encoder._query_vector.cache_clear()
    for query in queries:  # interleaved, so both see the same machine
        for on in (False, True):
            cpu[on].append(_cpu(lambda q=query, o=on: _switched(engine, o)(q, 5)) * 1000)  # type: ignore[misc]
    p50 = {on: statistics.median(v) for on, v in cpu.items()}
    return ["| queries | off: CPU ms p50 | on: CPU ms p50 | ratio |", "|---:|---:|---:|---:|",
            f"| {len(queries)} | {p50[False]:.1f} | {p50[True]:.1f} | {p50[True] / p50[False]:.1f}× |"]  # fmt: skip


def run(root: Path) -> list[str]:
    if not encoder.wanted(root):
        sys.exit("No encoder: install docshelf[encoder] or name one in the shelf's .docshelf.json (text/models.py).")
    named = f"model: {encoder.model_for(root).name}"
    tables = [*embed_table(root), "", *quality_table(root), "", *weight_table(root), "", *latency_table(root)]
    out = [named, "", *tables]
    os.environ.pop("DOCSHELF_ENCODER", None)
    return out


def main() -> None:
    on_corpus_shelf(__doc__ or "", run, "encoder")


if __name__ == "__main__":
    main()
