"""Search: DocShelf vs a plain FTS5 ``unicode61`` OR index vs ``grep -i``, side by side in one run.

Two shelves: the real corpus (../shared/corpus, converted with ``shelf.add``) and a generated shelf
of ~20k Russian clauses. For each engine: index build time, query latency p50/p95 and, on the
corpus, quality on bench/search_queries.jsonl (hit@1, hit@5, MRR@10). Times are CPU seconds of
this process plus its children (grep, git), because the machine is shared.

The generated shelf is written straight into a Git repository in the shelf layout with valid
metas (``shelf.add`` of 20k sections would take minutes and measure conversion, not search). Its
text comes from an order-2 word Markov chain trained on the corpus's Russian sections (seeded, so
deterministic), with article, item and measure identifiers mixed in.

    python bench/search.py                      # both shelves, 20,000 generated clauses
    python bench/search.py --clauses 2000 --spans 100
"""

from __future__ import annotations

import argparse
import json
import random
import re
import resource
import sqlite3
import statistics
import subprocess
import sys
import tempfile
import time
from collections import defaultdict
from collections.abc import Callable
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

from docshelf.build.pipeline import DocOptions  # noqa: E402
from docshelf.shelf import gitrepo  # noqa: E402
from docshelf.shelf import store as shelf  # noqa: E402
from docshelf.text import search, synonyms  # noqa: E402
from docshelf.text.evaluate import Engine, Ranking, evaluate, load_queries  # noqa: E402

CORPUS = REPO.parent / "shared" / "corpus"
QUERIES = REPO / "bench" / "search_queries.jsonl"
IDS = {
    "rfc4271.txt": "RFC 4271 (txt)",
    "Федеральный закон от 27.07.2006 № 152-ФЗ-О персональных данных.docx": "152-ФЗ (ред. 08.08.2024)",
    "Указ250.pdf": "Указ № 250",
}
_WORDS = re.compile(r"\w+")
_RU_WORD = re.compile(r"[а-яё]+|\d+")


def cpu() -> float:
    """CPU seconds of this process and of its finished children (grep, git)."""
    own = time.process_time()
    kids = resource.getrusage(resource.RUSAGE_CHILDREN)
    return own + kids.ru_utime + kids.ru_stime


def timed(fn: Callable[[], Any]) -> tuple[Any, float]:
    start = cpu()
    out = fn()
    return out, cpu() - start


# --- shelves ------------------------------------------------------------------------------------


def corpus_shelf(dest: Path) -> Path:
    root = shelf.init(dest, name="Corpus")
    for path in sorted(p for p in CORPUS.rglob("*") if p.is_file() and p.name != "SOURCES.md"):
        opts = DocOptions(source="", category=path.parent.parent.name, id=IDS.get(path.name, ""))
        shelf.add(root, [path], opts, progress=lambda _m: None)
    return root


def _chain(texts: list[str]) -> dict[tuple[str, str], list[str]]:
    chain: dict[tuple[str, str], list[str]] = defaultdict(list)
    for text in texts:
        words = _RU_WORD.findall(text.lower())
        for a, b, c in zip(words, words[1:], words[2:], strict=False):
            chain[a, b].append(c)
    return chain


def _sentence(rng: random.Random, chain: dict[tuple[str, str], list[str]], starts: list[tuple[str, str]]) -> str:
    a, b = rng.choice(starts)
    words = [a, b]
    for _ in range(rng.randint(8, 28)):
        nxt = chain.get((a, b))
        if not nxt:
            break
        a, b = b, rng.choice(nxt)
        words.append(b)
    return words[0].capitalize() + " " + " ".join(words[1:])


def _clause_text(rng: random.Random, chain: dict[tuple[str, str], list[str]], starts: list[tuple[str, str]]) -> str:
    parts = []
    for n in range(1, rng.randint(2, 5)):
        body = ". ".join(_sentence(rng, chain, starts) for _ in range(rng.randint(1, 3)))
        extra = rng.random()
        if extra < 0.15:
            body += f" в соответствии с пунктом {rng.randint(1, 20)}.{rng.randint(1, 9)}.{rng.randint(1, 9)}"
        elif extra < 0.25:
            body += f" (мера УПД.{rng.randint(1, 17)})"
        elif extra < 0.35:
            body += f" согласно статье {rng.randint(1, 40)} Федерального закона № {rng.randint(1, 500)}-ФЗ"
        parts.append(f"{n}. {body}.")
    return "\n\n".join(parts)


def synthetic_shelf(dest: Path, clauses: int, texts: list[str], seed: int = 20_000) -> Path:
    """``clauses`` generated sections in 100-section documents, committed in one commit."""
    root = shelf.init(dest, name="Generated")
    rng = random.Random(seed)
    chain = _chain(texts)
    starts = sorted(k for k in chain if k[0].isalpha() and len(k[0]) > 3)
    for d in range(0, clauses, 100):
        base = f"docs/generated/g{d // 100:03d}"
        sections = []
        for n in range(1, min(100, clauses - d) + 1):
            title = f"Статья {n}. " + _sentence(rng, chain, starts)[:80].rsplit(" ", 1)[0]
            text = f"# {title}\n\n{_clause_text(rng, chain, starts)}\n"
            path = f"{base}/{n:03d}-st-{n}.md"
            (root / path).parent.mkdir(parents=True, exist_ok=True)
            (root / path).write_text(text, encoding="utf-8")
            groups = [f"Глава {(n - 1) // 10 + 1}"]
            sections.append({"path": path, "title": title, "clause": f"ст. {n}", "groups": groups, "pages": []})
        meta = {"id": f"{d // 100 + 1}-ГЕН", "title": f"Сгенерированный закон {d // 100 + 1}", "edition": {}}
        meta |= {"category": "generated", "entry": f"{base}/subindex.md", "language": "ru", "sections": sections}
        (root / f"{base}.meta.json").write_text(json.dumps(meta, ensure_ascii=False), encoding="utf-8")
    gitrepo.commit(root, f"{clauses} generated clauses")
    return root


# --- the engines --------------------------------------------------------------------------------


class Fts5Baseline:
    """What one gets without DocShelf's analyzer: raw text in FTS5 unicode61, the query's words ORed."""

    def __init__(self, rows: list[search.SectionRow], path: Path) -> None:
        self.paths = [r.path for r in rows]
        self.db = sqlite3.connect(path)
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


def grep_engine(root: Path) -> Engine:
    """One ``grep -r -i -o -F`` with every query word as a pattern; files ranked by distinct words found."""

    def run(query: str, limit: int) -> Ranking:
        words = list(dict.fromkeys(_WORDS.findall(query)))
        if not words:
            return Ranking([])
        args = ["grep", "-r", "-i", "-o", "-F", "--include=*.md", "--exclude=subindex.md"]
        args += [a for w in words for a in ("-e", w)]
        out = subprocess.run([*args, "docs"], cwd=root, capture_output=True, text=True, encoding="utf-8").stdout
        found: dict[str, list[str]] = defaultdict(list)
        for line in out.splitlines():
            path, _sep, match = line.partition(":")
            found[path].append(match.lower())
        order = sorted(found, key=lambda p: (-len(set(found[p])), -len(found[p]), p))
        return Ranking(order[:limit])

    return run


def docshelf_engine(root: Path) -> Engine:
    def run(query: str, limit: int) -> Ranking:
        result = search.search(root, query, limit=limit)
        return Ranking([h.path for h in result.hits], result.low_confidence)

    return run


# --- measurements -------------------------------------------------------------------------------


def spans(rows: list[search.SectionRow], n: int, seed: int = 7) -> list[str]:
    """``n`` random runs of 2-5 consecutive words taken from the sections (latency queries)."""
    rng = random.Random(seed)
    out: list[str] = []
    while len(out) < n:
        words = _WORDS.findall(rng.choice(rows).text)
        if len(words) >= 5:
            k = rng.randint(2, 5)
            i = rng.randrange(len(words) - k)
            out.append(" ".join(words[i : i + k]))
    return out


def latency(engine: Engine, queries: list[str]) -> tuple[float, float]:
    times = []
    for q in queries:
        _r, t = timed(lambda q=q: engine(q, 5))  # type: ignore[misc]  # 5: the tool's default limit
        times.append(t * 1000)
    q = statistics.quantiles(times, n=20)
    return statistics.median(times), q[18]


def build_all(root: Path, tmp: Path) -> tuple[dict[str, Engine], dict[str, tuple[float, float]]]:
    """The three engines over one shelf, with (build CPU s, index MB) per engine."""
    commit = gitrepo.resolve(root)
    target = search.index_path(root, commit)
    target.parent.mkdir(exist_ok=True)
    _none, ds_build = timed(lambda: search.build_index(root, commit, target))
    rows = search.read_sections(root, commit)
    fts_path = tmp / f"fts-{commit}.sqlite"
    fts, fts_build = timed(lambda: Fts5Baseline(rows, fts_path))
    engines = {"DocShelf": docshelf_engine(root), "FTS5 unicode61 OR": fts, "grep -i (OR)": grep_engine(root)}
    mb = 1024 * 1024
    builds = {
        "DocShelf": (ds_build, target.stat().st_size / mb),
        "FTS5 unicode61 OR": (fts_build, fts_path.stat().st_size / mb),
        "grep -i (OR)": (0.0, 0.0),
    }
    return engines, builds


def speed_table(title: str, root: Path, tmp: Path, queries: list[str]) -> tuple[list[str], dict[str, Engine]]:
    engines, builds = build_all(root, tmp)
    rows = search.read_sections(root, gitrepo.resolve(root))
    words = sum(len(_WORDS.findall(r.text)) for r in rows)
    lines = [f"**{title}**: {len(rows):,} sections, {words:,} words, {len(queries)} queries.", ""]
    lines += ["| engine | build CPU s | index MB | query CPU p50 ms | p95 ms |", "|---|---:|---:|---:|---:|"]
    for name, engine in engines.items():
        p50, p95 = latency(engine, queries)
        build, size = builds[name]
        lines.append(f"| {name} | {build:.1f} | {size:.1f} | {p50:.1f} | {p95:.1f} |")
    return lines, engines


def quality_table(root: Path, engines: dict[str, Engine]) -> list[str]:
    queries = load_queries(QUERIES)
    lines = ["| engine | split | n | hit@1 | hit@5 | MRR@10 | nDCG@10 | empty |"]
    lines.append("|---|---|---:|---:|---:|---:|---:|---:|")
    runs = dict(engines)
    runs["DocShelf, no default dictionary"] = _without_dictionary(engines["DocShelf"])
    for name, engine in runs.items():
        for split, subset in _splits(queries).items():
            m = evaluate(root, subset, k=5, engine=engine).overall
            row = f"| {name} | {split} | {m.n} | {m.hit_at_1:.2f} | {m.hit_at_k:.2f} | {m.mrr:.2f} | {m.ndcg:.2f}"
            lines.append(row + f" | {m.empty_rate:.2f} |")
    return lines


def _splits(queries: list[dict[str, Any]]) -> dict[str, list[dict[str, Any]]]:
    """dev (the dictionary and weights were tuned on it), holdout (written after tuning), answerable, all."""
    return {
        "dev": [q for q in queries if q.get("split", "dev") == "dev"],
        "holdout": [q for q in queries if q.get("split") == "holdout"],
        "answerable": [q for q in queries if q["gold"] is not None],
        "all": queries,
    }


def _without_dictionary(engine: Engine) -> Engine:
    def run(query: str, limit: int) -> Ranking:
        original = synonyms.default_dictionary
        synonyms.default_dictionary = dict  # type: ignore[assignment]
        synonyms.parse.cache_clear()
        try:
            return engine(query, limit)
        finally:
            synonyms.default_dictionary = original
            synonyms.parse.cache_clear()

    return run


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--clauses", type=int, default=20_000, help="size of the generated shelf")
    ap.add_argument("--spans", type=int, default=300, help="random word runs timed per shelf")
    args = ap.parse_args()
    if not CORPUS.is_dir():
        sys.exit(f"{CORPUS} is absent: the corpus shelf and the labelled queries need it.")
    with tempfile.TemporaryDirectory(prefix="docshelf-bench-") as tmp_name:
        tmp = Path(tmp_name)
        root, conv = timed(lambda: corpus_shelf(tmp / "corpus"))
        rows = search.read_sections(root, gitrepo.resolve(root))
        labelled = [q["query"] for q in load_queries(QUERIES)]
        out, engines = speed_table("Corpus shelf", root, tmp, labelled + spans(rows, args.spans))
        out += ["", *quality_table(root, engines), ""]
        texts = [r.text for r in rows if "ru-regulations" in r.path]
        gen, gen_cpu = timed(lambda: synthetic_shelf(tmp / "generated", args.clauses, texts))
        gen_rows = search.read_sections(gen, gitrepo.resolve(gen))
        ids = [f"ст. {n}" for n in range(1, 11)] + [f"УПД.{n}" for n in range(1, 11)]
        out += speed_table("Generated shelf", gen, tmp, ids + spans(gen_rows, args.spans))[0]
        out += ["", f"(corpus conversion {conv:.0f} s, generation + commit {gen_cpu:.0f} s CPU; not part of search)"]
    print("\n".join(out))


if __name__ == "__main__":
    main()
