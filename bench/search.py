"""Search: DocShelf vs a plain FTS5 ``unicode61`` OR index vs ``grep -i``, side by side in one run.

Two shelves: the real corpus (../shared/corpus, converted with ``shelf.add``) and a big shelf of
100,000 sections. For each engine: index build time, query latency p50/p95 (and, on the
generated shelf, the ratio to the plain FTS5 query measured in the same run) and, on the corpus,
quality on bench/search_queries.jsonl (dev and holdout) and bench/search_queries_fresh*.jsonl (fresh, fresh2, fresh3)
per kind and split. On the generated shelf also: identifiers
absent from the shelf (the slowest of them), and the index of a commit that changes one document
(derived from the parent's index) against the full build. Times are CPU seconds of this process
plus its children (grep, git), because the machine is shared; build and derive times are also
given in wall seconds (they write files).

The generated shelf is written straight into a Git repository in the shelf layout with valid
metas (``shelf.add`` of 100k sections would take an hour and measure conversion, not search). Its
sections are cut from the corpus's own text: a real section's title and one to five real paragraphs
drawn from the whole corpus (seeded, so deterministic; ``--text real``, the default). ``--text markov``
gives the older prose of an order-2 word Markov chain over the Russian sections, with article, item and
measure identifiers mixed in, which flatters the engine (its words are fewer and evenly spread).

    python bench/search.py                      # both shelves, 100,000 generated clauses
    python bench/search.py --clauses 2000 --spans 100
    python bench/search.py --skip-corpus        # the generated shelf only
    python bench/search.py --skip-corpus --generated /tmp/gen   # keep the generated shelf; reuse it next time

With ``--generated DIR`` the generated shelf (``DIR/shelf``, its cached index) and the plain FTS5
index (``DIR/fts-<commit>.sqlite``) are kept, and a later run with the same DIR reuses them instead
of spending minutes on generation and builds (their build columns then say ``reused``). The
incremental table is skipped then: it commits to the shelf, which must stay as generated.
"""

from __future__ import annotations

import argparse
import gc
import json
import random
import re
import resource
import shutil
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
from docshelf.text import indexcache, neighbours, search, synonyms  # noqa: E402
from docshelf.text.evaluate import Engine, Ranking, evaluate  # noqa: E402

sys.path.insert(0, str(REPO / "bench"))
from quality import Fts5Baseline, labelled, quality_tables, stem_grep_engine  # noqa: E402

CORPUS = REPO.parent / "shared" / "corpus"
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


def on_corpus_shelf(doc: str, run: Callable[[Path], list[str]], name: str) -> None:
    """The command line of a bench that measures one corpus shelf: ``--shelf S`` reuses a built one."""
    ap = argparse.ArgumentParser(description=doc, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--shelf", type=Path, help="a corpus shelf already built (default: build one from ../shared)")
    args = ap.parse_args()
    if args.shelf:
        print("\n".join(run(args.shelf)))
        return
    if not CORPUS.is_dir():
        sys.exit(f"{CORPUS} is absent: the corpus shelf needs it.")
    with tempfile.TemporaryDirectory(prefix=f"docshelf-{name}-") as tmp:
        print("\n".join(run(corpus_shelf(Path(tmp) / "corpus"))))


def corpus_shelf(dest: Path) -> Path:
    """The corpus shelf the tests build (the same ids: tests/conftest.py)."""
    sys.path.insert(0, str(REPO / "tests"))
    from conftest import IDS

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


class Generator:
    """Seeded generated documents of 100 sections each, written in the shelf layout; their words from an
    order-2 Markov chain over the corpus's Russian sections (``--text markov``)."""

    def __init__(self, texts: list[str], seed: int = 20_000) -> None:
        self.rng = random.Random(seed)
        self.chain = _chain(texts)
        self.starts = sorted(k for k in self.chain if k[0].isalpha() and len(k[0]) > 3)

    def title(self) -> str:
        return _sentence(self.rng, self.chain, self.starts)[:80].rsplit(" ", 1)[0]

    def body(self) -> str:
        return _clause_text(self.rng, self.chain, self.starts)

    def document(self, root: Path, d: int, sections_n: int, edition: str = "") -> None:
        base = f"docs/generated/g{d:04d}"
        sections = []
        for n in range(1, sections_n + 1):
            title = f"Статья {n}. {self.title()}"
            text = f"# {title}\n\n{self.body()}{edition}\n"
            path = f"{base}/{n:03d}-st-{n}.md"
            (root / path).parent.mkdir(parents=True, exist_ok=True)
            (root / path).write_text(text, encoding="utf-8")
            groups = [f"Глава {(n - 1) // 10 + 1}"]
            sections.append({"path": path, "title": title, "clause": f"ст. {n}", "groups": groups, "pages": []})
        meta = {"id": f"{d + 1}-ГЕН", "title": f"Сгенерированный закон {d + 1}", "edition": {}}
        meta |= {"category": "generated", "entry": f"{base}/subindex.md", "language": "ru", "sections": sections}
        (root / f"{base}.meta.json").write_text(json.dumps(meta, ensure_ascii=False), encoding="utf-8")


_OWN_NUMBER = re.compile(r"^(?:(?:Статья|Article|Section|§)\s+)?[\w.()-]*\d[\w.()-]*\.?\s+", re.IGNORECASE)


class RealText(Generator):
    """Sections cut from the corpus's own text (``--text real``, the default): each is a real section's
    title and one to five real paragraphs drawn from the whole corpus (Russian and English), so the words,
    their frequencies and the lengths are those of real documents, and no two sections are one text (copies
    would be folded by search and measure that instead)."""

    def __init__(self, texts: list[str], titles: list[str], seed: int = 20_000) -> None:
        self.rng = random.Random(seed)
        said = ("\n".join(ln for ln in t.splitlines() if not ln.startswith((">", "#"))) for t in texts)
        self.paragraphs = [p.strip() for t in said for p in t.split("\n\n") if 5 <= len(p.split()) and len(p) <= 1500]
        self.titles = [_OWN_NUMBER.sub("", t).strip() or t for t in titles if t.strip()]

    def title(self) -> str:
        return self.rng.choice(self.titles)[:120]

    def body(self) -> str:
        return "\n\n".join(self.rng.choice(self.paragraphs) for _ in range(self.rng.randint(1, 5)))


def synthetic_shelf(dest: Path, clauses: int, gen: Generator) -> Path:
    """``clauses`` generated sections in 100-section documents, committed in one commit."""
    root = shelf.init(dest, name="Generated")
    for d in range(0, clauses, 100):
        gen.document(root, d // 100, min(100, clauses - d))
    gitrepo.commit(root, f"{clauses} generated clauses")
    return root


# --- the engines --------------------------------------------------------------------------------


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
    """``search.search`` at the shelf's HEAD, resolved once as the server resolves its pinned commit."""
    commit = gitrepo.resolve(root)

    def run(query: str, limit: int) -> Ranking:
        result = search.search(root, query, limit=limit, at=commit)
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
    # The bench holds what a server never does (100k section texts read for the queries and the other
    # engines): frozen, the garbage collector no longer walks them while a query allocates.
    gc.collect()
    gc.freeze()
    times = []
    for q in queries:
        _r, t = timed(lambda q=q: engine(q, 5))  # type: ignore[misc]  # 5: the tool's default limit
        times.append(t * 1000)
    q = statistics.quantiles(times, n=20)
    return statistics.median(times), q[18]


def wall_and_cpu(fn: Callable[[], Any]) -> tuple[Any, float, float]:
    start, wall = cpu(), time.perf_counter()
    out = fn()
    return out, time.perf_counter() - wall, cpu() - start


Build = tuple[float | None, float]  # (build CPU s, None: a kept index reused; index MB)


def build_all(root: Path, tmp: Path, grep: bool, reuse: bool = False) -> tuple[dict[str, Engine], dict[str, Build]]:
    """The engines over one shelf, with (build CPU s, index MB) per engine; ``reuse``: keep indexes already built."""
    commit = gitrepo.resolve(root)
    target = indexcache.index_path(root, commit)
    target.parent.mkdir(exist_ok=True)
    ds_build: float | None = None
    if not (reuse and target.exists()):
        _how, ds_build = timed(lambda: indexcache.make_index(root, commit, target))
    rows = search.read_sections(root, commit)
    fts_path = tmp / f"fts-{commit}.sqlite"
    fts_build: float | None = None
    if reuse and fts_path.exists():
        fts = Fts5Baseline(rows, fts_path, fill=False)
    else:
        fts_path.unlink(missing_ok=True)
        fts, fts_build = timed(lambda: Fts5Baseline(rows, fts_path))
    mb = 1024 * 1024
    engines: dict[str, Engine] = {"DocShelf": docshelf_engine(root), FTS5: fts}
    builds: dict[str, Build] = {
        "DocShelf": (ds_build, target.stat().st_size / mb),
        FTS5: (fts_build, fts_path.stat().st_size / mb),
    }
    tv = tantivy_engine(rows, tmp / f"tantivy-{commit}", reuse)
    if tv is not None:
        engines[TANTIVY], builds[TANTIVY] = tv
    if grep:
        engines["grep -i (OR)"], builds["grep -i (OR)"] = grep_engine(root), (0.0, 0.0)
    return engines, builds


FTS5 = "FTS5 unicode61 OR"
TANTIVY = "tantivy, DocShelf keys, OR (candidates only)"


def tantivy_engine(rows: list[search.SectionRow], path: Path, reuse: bool = False) -> tuple[Engine, Build] | None:
    """tantivy over the same analyzer keys (whitespace tokenizer), the query's keys ORed: the candidate stage only."""
    try:
        import tantivy  # type: ignore[import-not-found]
    except ImportError:
        return None
    from docshelf.text.analyzer import index_text, keys

    sb = tantivy.SchemaBuilder()
    sb.add_text_field("head", stored=False, tokenizer_name="whitespace")
    sb.add_text_field("body", stored=False, tokenizer_name="whitespace")
    sb.add_integer_field("row", stored=True, fast=True)
    schema = sb.build()

    def build() -> Any:
        path.mkdir()
        index = tantivy.Index(schema, path=str(path))
        writer = index.writer(heap_size=200_000_000, num_threads=1)
        for i, r in enumerate(rows):
            writer.add_document(tantivy.Document(head=index_text(f"{r.title} {r.clause} {r.doc_id}"),
                                                 body=index_text(r.text), row=i))  # fmt: skip
        writer.commit()
        writer.wait_merging_threads()
        index.reload()
        return index

    secs: float | None = None
    if reuse and path.is_dir():
        index = tantivy.Index(schema, path=str(path), reuse=True)  # kept from an earlier run over these rows
    else:
        shutil.rmtree(path, ignore_errors=True)
        index, secs = timed(build)
    size = sum(f.stat().st_size for f in path.rglob("*") if f.is_file()) / 1024 / 1024
    paths = [r.path for r in rows]

    def run(query: str, limit: int) -> Ranking:
        ks = keys(query)
        if not ks:
            return Ranking([])
        expr = " OR ".join('"' + k.replace('"', "") + '"' for k in ks)
        q = index.parse_query(expr, ["head", "body"], field_boosts={"head": 3.0})
        searcher = index.searcher()
        found = searcher.search(q, limit).hits
        return Ranking([paths[searcher.doc(a)["row"][0]] for _s, a in found])

    return run, (secs, size)


def speed_table(
    title: str, root: Path, tmp: Path, queries: list[str], grep: bool = True, reuse: bool = False
) -> tuple[list[str], dict[str, Engine]]:
    engines, builds = build_all(root, tmp, grep, reuse)
    rows = search.read_sections(root, gitrepo.resolve(root))
    words = sum(len(_WORDS.findall(r.text)) for r in rows)
    lines = [f"**{title}**: {len(rows):,} sections, {words:,} words, {len(queries)} queries.", ""]
    lines += ["| engine | build CPU s | index MB | query CPU p50 ms | p95 ms | p50 / FTS5 | p95 / FTS5 |"]
    lines.append("|---|---:|---:|---:|---:|---:|---:|")
    measured = {name: latency(engine, queries) for name, engine in engines.items()}
    base = measured[FTS5]
    for name, (p50, p95) in measured.items():
        build, size = builds[name]
        ratios = f"{p50 / base[0]:.2f} | {p95 / base[1]:.2f}"
        built = "reused" if build is None else f"{build:.1f}"
        lines.append(f"| {name} | {built} | {size:.1f} | {p50:.2f} | {p95:.2f} | {ratios} |")
    return lines, engines


ABSENT_IDS = ["УПД.999", "ЗИС.77", "ст. 9999", "п. 77.7.7", "приказ ФСТЭК № 117", "ГОСТ Р 99999-2099", "RFC 99999",
              "999999-ФЗ", "XQZ-17.3", "sha-7777", "ИАФ.99 идентификация", "статья 4242 кодекса"]  # fmt: skip


def absent_table(root: Path, engines: dict[str, Engine]) -> list[str]:
    """The slowest of the identifiers that are nowhere on the shelf (DocShelf tries prefix and substring too)."""
    lines = ["| engine | absent identifiers | slowest CPU ms | p50 ms |", "|---|---:|---:|---:|"]
    for name in ("DocShelf", FTS5):
        engine = engines[name]
        times = [timed(lambda q=q, e=engine: e(q, 5))[1] * 1000 for q in ABSENT_IDS]  # type: ignore[misc]
        lines.append(f"| {name} | {len(times)} | {max(times):.2f} | {statistics.median(times):.2f} |")
    return lines


def incremental_table(root: Path, gen: Generator, clauses: int) -> list[str]:
    """A commit that rewrites one document: its index derived from the parent's, against a full build."""
    parent = gitrepo.resolve(root)
    gen.document(root, 0, 100, edition="\n\n(В редакции Федерального закона от 01.12.2026 № 999-ФЗ)")
    child = gitrepo.commit(root, "Rewrite one document")
    target = indexcache.index_path(root, child)
    how, wall, secs = wall_and_cpu(lambda: indexcache.make_index(root, child, target))
    first, first_wall, first_cpu = wall_and_cpu(lambda: search.search(root, "редакции федерального закона", at=child))
    full = target.with_name("full.sqlite")
    _none, full_wall, full_cpu = wall_and_cpu(lambda: indexcache.build_into(root, child, full, None))
    assert first.hits and parent != child
    lines = ["| index of a commit changing 1 of " + f"{clauses // 100} documents | wall s | CPU s |", "|---|---:|---:|"]
    lines.append(f"| derived from the parent's index ({how}) | {wall:.2f} | {secs:.2f} |")
    lines.append(f"| full build of the same commit | {full_wall:.2f} | {full_cpu:.2f} |")
    lines.append(f"| first search at the new commit after deriving | {first_wall:.3f} | {first_cpu:.3f} |")
    full.unlink()
    return lines


def quality_table(root: Path, engines: dict[str, Engine]) -> list[str]:
    queries = labelled()
    lines = ["| engine | split | n | hit@1 | hit@5 | MRR@10 | nDCG@10 | empty |"]
    lines.append("|---|---|---:|---:|---:|---:|---:|---:|")
    runs = dict(engines)
    runs["DocShelf, no default dictionary"] = _without_dictionary(engines["DocShelf"])
    if neighbours.available():
        runs["DocShelf without docshelf[semantic]"] = _without_vectors(engines["DocShelf"])
    for name, engine in runs.items():
        for split, subset in _splits(queries).items():
            m = evaluate(root, subset, k=5, engine=engine).overall
            row = f"| {name} | {split} | {m.n} | {m.hit_at_1:.2f} | {m.hit_at_k:.2f} | {m.mrr:.2f} | {m.ndcg:.2f}"
            lines.append(row + f" | {m.empty_rate:.2f} |")
    per_set = quality_tables(
        root, {"DocShelf": engines["DocShelf"], "FTS5": engines[FTS5], "rg stems": stem_grep_engine(root)}
    )
    return [*per_set, "", *lines, "", *kind_table(root, queries, engines), "", *calibration_table(root, queries)]


def calibration_table(root: Path, queries: list[dict[str, Any]]) -> list[str]:
    """How well ``low_confidence`` tells a wrong first hit from a right one (target: set on ≥ 0.8 of the queries
    whose #1 is wrong, unanswerable ones with hits included, and on ≤ 0.1 of those whose #1 is right)."""
    lines = ["| split | #1 right | flagged | #1 wrong | flagged |", "|---|---:|---:|---:|---:|"]
    for split, subset in _splits(queries).items():
        report = evaluate(root, subset, k=5)
        right = [q for q in report.queries if q.answerable and q.rank == 1]
        wrong = [q for q in report.queries if q.hits and not (q.answerable and q.rank == 1)]
        m = report.overall
        lines.append(f"| {split} | {len(right)} | {m.low_when_right:.2f} | {len(wrong)} | {m.low_when_wrong:.2f} |")
    return lines


def kind_table(root: Path, queries: list[dict[str, Any]], engines: dict[str, Engine]) -> list[str]:
    """hit@5 and MRR per query kind and split, DocShelf beside the plain FTS5 query."""
    lines = [
        "| kind | split | n | DocShelf hit@5 | DocShelf MRR | FTS5 hit@5 | FTS5 MRR |",
        "|---|---|---:|---:|---:|---:|---:|",
    ]
    for kind in sorted({q.get("kind") or "plain" for q in queries}):
        for split in ("dev", "holdout", "fresh", "fresh2", "fresh3", "fresh4", "all"):
            subset = [q for q in queries if (q.get("kind") or "plain") == kind]
            subset = [q for q in subset if split == "all" or q.get("split", "dev") == split]
            if not subset:
                continue
            ours, plain = (evaluate(root, subset, k=5, engine=engines[e]).overall for e in ("DocShelf", FTS5))
            lines.append(f"| {kind} | {split} | {ours.n} | {ours.hit_at_k:.2f} | {ours.mrr:.2f} | "
                         f"{plain.hit_at_k:.2f} | {plain.mrr:.2f} |")  # fmt: skip
    return lines


def _splits(queries: list[dict[str, Any]]) -> dict[str, list[dict[str, Any]]]:
    """dev (the dictionary and weights were tuned on it), holdout (written after tuning), fresh and fresh2 (written
    blind to the dictionary and to search's results, never tuned on), answerable, all."""
    return {
        "dev": [q for q in queries if q.get("split", "dev") == "dev"],
        "holdout": [q for q in queries if q.get("split") == "holdout"],
        "fresh": [q for q in queries if q.get("split") == "fresh"],
        "fresh2": [q for q in queries if q.get("split") == "fresh2"],
        "fresh3": [q for q in queries if q.get("split") == "fresh3"],
        "fresh4": [q for q in queries if q.get("split") == "fresh4"],
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


def _without_vectors(engine: Engine) -> Engine:
    """The default install: absent query words are named, not searched by their nearest words."""

    def run(query: str, limit: int) -> Ranking:
        original = neighbours.model
        neighbours.model = lambda: None  # type: ignore[assignment]
        try:
            return engine(query, limit)
        finally:
            neighbours.model = original  # type: ignore[method-assign]

    return run


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--clauses", type=int, default=100_000, help="size of the generated shelf")
    ap.add_argument("--spans", type=int, default=300, help="random word runs timed per shelf")
    ap.add_argument("--skip-corpus", action="store_true", help="only the generated shelf")
    ap.add_argument("--generated", type=Path, metavar="DIR", help="keep the generated shelf in DIR; reuse it if there")
    ap.add_argument(
        "--text",
        choices=["real", "markov"],
        default="real",
        help="the big shelf's sections: real corpus paragraphs (default) or Markov-chain prose",
    )
    args = ap.parse_args()
    if not CORPUS.is_dir():
        sys.exit(f"{CORPUS} is absent: the corpus shelf and the labelled queries need it.")
    with tempfile.TemporaryDirectory(prefix="docshelf-bench-") as tmp_name:
        tmp = Path(tmp_name)
        kept = args.generated.resolve() if args.generated else None
        reuse = kept is not None and (kept / "shelf" / ".git").exists()
        out: list[str] = []
        conv = 0.0
        if not (reuse and args.skip_corpus):  # the corpus feeds the generator and its own tables
            root, conv = timed(lambda: corpus_shelf(tmp / "corpus"))
            rows = search.read_sections(root, gitrepo.resolve(root))
        if not args.skip_corpus:
            asked = [q["query"] for q in labelled()]
            table, engines = speed_table("Corpus shelf", root, tmp, asked + spans(rows, args.spans))
            out += [*table, "", *quality_table(root, engines), ""]
        gen: Generator | None = None
        if not reuse and args.text == "markov":
            gen = Generator([r.text for r in rows if "ru-regulations" in r.path])
        elif not reuse:
            gen = RealText([r.text for r in rows], [r.title for r in rows])
        big, gen_cpu = _generated_shelf(kept, tmp, args.clauses, gen)
        gen_rows = search.read_sections(big, gitrepo.resolve(big))
        ids = [f"ст. {n}" for n in range(1, 11)] + [f"УПД.{n}" for n in range(1, 11)]
        where = kept or tmp
        table, engines = speed_table(
            "Generated shelf", big, where, ids + spans(gen_rows, args.spans), grep=False, reuse=kept is not None
        )
        out += [*table, "", *absent_table(big, engines)]
        if gen is not None and kept is None:
            out += ["", *incremental_table(big, gen, args.clauses)]
        else:
            out += ["", "(incremental table skipped: the kept generated shelf must stay as generated)"]
        made = "reused" if gen is None else f"{gen_cpu:.0f} s CPU"
        out += ["", f"(corpus conversion {conv:.0f} s, generation + commit {made}; not part of search)"]
    print("\n".join(out))


def _generated_shelf(kept: Path | None, tmp: Path, clauses: int, gen: Generator | None) -> tuple[Path, float]:
    """The generated shelf: made in ``kept`` (or a temporary folder), or the one ``kept`` already holds."""
    if gen is None:
        assert kept is not None
        return kept / "shelf", 0.0
    dest = (kept or tmp) / ("shelf" if kept else "generated")
    dest.parent.mkdir(parents=True, exist_ok=True)
    return timed(lambda: synthetic_shelf(dest, clauses, gen))


if __name__ == "__main__":
    main()
