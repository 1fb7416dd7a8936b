"""Search quality per labelled set and query kind: DocShelf beside two baselines run in the same process.

For every labelled set (``bench/search_queries.jsonl`` as its dev and holdout halves, and each
``bench/search_queries_fresh*.jsonl``) and every query kind in it, three engines over one corpus shelf:

* **DocShelf** — ``search.search`` as the default install runs it (no ``[semantic]`` word vectors, no meaning
  rerank, whatever extras this environment has); its **recall@40** is of the candidate stage
  (``search.candidate_paths``: the first 40 ranked rows before copies and parts fold into hits), the most any
  reranking of those rows could show;
* **FTS5** — the raw text in SQLite FTS5 ``unicode61``, the query's words ORed, BM25 (title weighted 3);
* **rg stems** — ripgrep over the section files for the Snowball stem of every query word but stopwords, a file
  ranked by the distinct stems it holds, then by how many times (``grep -E`` when ``rg`` is not installed).

For the baselines recall@40 is their hit@40. An unanswerable query (gold ``null``) counts as right when the engine
returns nothing or DocShelf flags ``low_confidence`` (the baselines have no flag: they are right only when empty).

    python bench/quality.py --shelf S      # a corpus shelf already built; without --shelf one is built
"""

from __future__ import annotations

import os
import re
import shutil
import sqlite3
import subprocess
import sys
from collections import defaultdict
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

from docshelf.shelf import gitrepo  # noqa: E402
from docshelf.text import neighbours, search  # noqa: E402
from docshelf.text.analyzer import STOPWORDS, tokens  # noqa: E402
from docshelf.text.evaluate import Engine, Ranking, correct_paths, load_queries  # noqa: E402
from docshelf.text.normalize import normalize_text  # noqa: E402

QUERIES = REPO / "bench" / "search_queries.jsonl"
# Written blind to the dictionary, to the other queries and to search's results; never tuned on.
FRESH = [REPO / "bench" / f"search_queries_{name}.jsonl" for name in ("fresh", "fresh2", "fresh3", "fresh4")]
SETS = ("dev", "holdout", "fresh", "fresh2", "fresh3", "fresh4")
RECALL_DEPTH = 40
_WORDS = re.compile(r"\w+")


def labelled() -> list[dict[str, Any]]:
    """Every labelled query, each with its set in ``split`` (the fresh files carry theirs)."""
    return load_queries(QUERIES) + [q for path in FRESH for q in load_queries(path)]


class Fts5Baseline:
    """What one gets without DocShelf's analyzer: raw text in FTS5 unicode61, the query's words ORed."""

    def __init__(self, rows: list[search.SectionRow], path: Path, fill: bool = True) -> None:
        self.paths = [r.path for r in rows]
        self.db = sqlite3.connect(path)
        if not fill:  # a kept index of the same rows, in the same order
            return
        self.db.execute("CREATE VIRTUAL TABLE fts USING fts5(title, body, tokenize='unicode61 remove_diacritics 2')")
        self.db.executemany(
            "INSERT INTO fts(rowid, title, body) VALUES (?, ?, ?)",
            ((i, r.title, r.text) for i, r in enumerate(rows)),
        )
        self.db.commit()

    def __call__(self, query: str, limit: int) -> Ranking:
        words = list(dict.fromkeys(w.lower() for w in _WORDS.findall(query)))
        if not words:
            return Ranking([])
        expr = " OR ".join('"' + w.replace('"', '""') + '"' for w in words)
        sql = "SELECT rowid FROM fts WHERE fts MATCH ? ORDER BY bm25(fts, 3.0, 1.0) LIMIT ?"
        return Ranking([self.paths[r[0]] for r in self.db.execute(sql, [expr, limit])])


def stem_grep_engine(root: Path) -> Engine:
    """ripgrep (or ``grep -E``) for words beginning with each query word's Snowball stem, stopwords left out."""
    rg = shutil.which("rg")

    def run(query: str, limit: int) -> Ranking:
        stems = list(dict.fromkeys(t.key for t in tokens(query) if not t.stop and t.word not in STOPWORDS))
        stems = [s for s in stems if len(s) >= 2 and "_" not in s]
        if not stems:
            return Ranking([])
        pattern = r"(?:^|[^\w])(" + "|".join(re.escape(s) for s in stems) + r")\w*"
        if rg:
            args = [rg, "-o", "-i", "--no-heading", "--with-filename", "-g", "*.md", "-g", "!*index.md", "-e", pattern]
        else:
            args = ["grep", "-r", "-o", "-i", "-E", "--include=*.md", "--exclude=*index.md", "-e", pattern]
        out = subprocess.run([*args, "docs"], cwd=root, capture_output=True, text=True, encoding="utf-8").stdout
        found: dict[str, list[str]] = defaultdict(list)
        for line in out.splitlines():
            path, _sep, match = line.partition(":")
            word = normalize_text(match).strip(" \t-.,;:()«»\"'")
            stem = next((s for s in sorted(stems, key=len, reverse=True) if word.startswith(s)), None)
            if stem is not None:
                found[path].append(stem)
        order = sorted(found, key=lambda p: (-len(set(found[p])), -len(found[p]), p))
        return Ranking(order[:limit])

    return run


@contextmanager
def default_install() -> Iterator[None]:
    """Search as ``pip install docshelf`` runs it: the extras' vectors and encoders switched off."""
    original, before = neighbours.model, os.environ.get("DOCSHELF_ENCODER")
    neighbours.model = lambda: None
    os.environ["DOCSHELF_ENCODER"] = "off"
    try:
        yield
    finally:
        neighbours.model = original
        if before is None:
            os.environ.pop("DOCSHELF_ENCODER", None)
        else:
            os.environ["DOCSHELF_ENCODER"] = before


def docshelf_engine(root: Path) -> Engine:
    commit = gitrepo.resolve(root)

    def run(query: str, limit: int) -> Ranking:
        with default_install():
            result = search.search(root, query, limit=limit, at=commit)
        return Ranking([h.path for h in result.hits], result.low_confidence)

    return run


@dataclass(frozen=True)
class Scored:
    """One engine's figures over a set of queries."""

    n: int
    hit1: float
    hit5: float
    hit10: float
    mrr: float
    recall: float


def score(outcomes: list[tuple[int | None, bool]]) -> Scored:
    """Figures from (rank of the first right answer or None, in the candidate stage) per query."""
    n = len(outcomes) or 1
    ranks = [r for r, _c in outcomes]

    def within(k: int) -> float:
        return sum(r is not None and r <= k for r in ranks) / n

    mrr = sum(1 / r for r in ranks if r is not None and r <= 10) / n
    return Scored(len(outcomes), within(1), within(5), within(10), mrr, sum(c for _r, c in outcomes) / n)


def outcomes(root: Path, queries: list[dict[str, Any]], engines: dict[str, Engine]) -> dict[str, list[Any]]:
    """Per engine, per query: (rank of the first right section within 10, found within the first 40)."""
    commit = gitrepo.resolve(root)
    sections = {r.path: normalize_text(r.text) for r in search.read_sections(root, commit)}
    out: dict[str, list[Any]] = {name: [] for name in engines}
    for q in queries:
        gold = q.get("gold")
        right = correct_paths(gold, sections) if gold is not None else set()
        for name, engine in engines.items():
            ranking = engine(q["query"], RECALL_DEPTH if name != "DocShelf" else 10)
            if gold is None:
                ok = not ranking.paths or ranking.low_confidence
                out[name].append((1 if ok else None, ok))
                continue
            rank = next((i for i, p in enumerate(ranking.paths[:10], start=1) if p in right), None)
            pool = (
                search.candidate_paths(root, q["query"], depth=RECALL_DEPTH, at=commit)
                if name == "DocShelf"
                else ranking.paths
            )
            out[name].append((rank, any(p in right for p in pool[:RECALL_DEPTH])))
    return out


def quality_tables(root: Path, engines: dict[str, Engine]) -> list[str]:
    """The per-set, per-kind table (every engine on its own row) and a summary per set."""
    queries = labelled()
    got = outcomes(root, queries, engines)
    lines = [
        "| set | kind | n | engine | hit@1 | hit@5 | hit@10 | MRR | recall@40 |",
        "|---|---|---:|---|---:|---:|---:|---:|---:|",
    ]
    summary = ["| set | n | " + " | ".join(f"{e} hit@5 / MRR" for e in engines) + " |"]
    summary.append("|---|---:|" + "---:|" * len(engines))
    for split in (*SETS, "all"):
        idx = [i for i, q in enumerate(queries) if split == "all" or q.get("split", "dev") == split]
        kinds = sorted({queries[i].get("kind") or "plain" for i in idx})
        for kind in [*kinds, "all"]:
            chosen = [i for i in idx if kind == "all" or (queries[i].get("kind") or "plain") == kind]
            for name in engines:
                s = score([got[name][i] for i in chosen])
                lines.append(f"| {split} | {kind} | {s.n} | {name} | {s.hit1:.2f} | {s.hit5:.2f} | {s.hit10:.2f} | "
                             f"{s.mrr:.2f} | {s.recall:.2f} |")  # fmt: skip
        cells = [score([got[name][i] for i in idx]) for name in engines]
        summary.append(f"| {split} | {len(idx)} | " + " | ".join(f"{s.hit5:.2f} / {s.mrr:.2f}" for s in cells) + " |")
    return [*summary, "", *lines]


def engines_for(root: Path, tmp: Path) -> dict[str, Engine]:
    rows = search.read_sections(root, gitrepo.resolve(root))
    return {
        "DocShelf": docshelf_engine(root),
        "FTS5": Fts5Baseline(rows, tmp / "fts.sqlite"),
        "rg stems": stem_grep_engine(root),
    }


def main() -> None:
    import tempfile

    from search import on_corpus_shelf

    def run(root: Path) -> list[str]:
        with tempfile.TemporaryDirectory(prefix="docshelf-quality-") as tmp:
            return quality_tables(root, engines_for(root, Path(tmp)))

    on_corpus_shelf(__doc__ or "", run, "quality")


if __name__ == "__main__":
    main()
