"""Costs that must stay flat as a shelf grows: one ``add``, one ``fetch`` and one ``read_index``, on a small and a
large shelf.

For each shelf size (default 30 and 1,000 documents, generated Markdown regulations of 25 points
each, added in one bulk commit), in one run:

* ``add``: CPU of ``docshelf add`` of one new document as a user runs it (a fresh process; CPU of
  the process and the ``git`` processes it starts), median of --repeat; and of ``store.add`` alone
  (a fresh process that imports DocShelf before the clock starts). Ratios against the empty shelf.
* ``fetch``: an in-process MCP ``fetch`` against a trivial ``ping`` tool on the same server (the
  bench adds it), on sections spread over the whole shelf: p50 as the client sees it (which
  includes the SDK client validating fetch's structured result against its output schema, work
  ping does not cause), and the server's own mean time per call from its ``/metrics`` histogram.
  Ratios fetch/ping per size.
* ``read_index``: the root index and up to 20 subindexes spread over the shelf, in the same session: client
  p50 and the server's mean per call, against the smallest shelf (target: within 1.2×).

    python bench/shelf.py                    # sizes 30 and 1000
    python bench/shelf.py --sizes 0 30 --repeat 1 --fetch-calls 20   # a quick run
"""

from __future__ import annotations

import argparse
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import anyio
from mcp import Client

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

from docshelf.build.pipeline import DocOptions  # noqa: E402
from docshelf.server.app import create_server  # noqa: E402
from docshelf.server.ops import Metrics  # noqa: E402
from docshelf.server.pin import Pin  # noqa: E402
from docshelf.server.tools import READ_ONLY  # noqa: E402
from docshelf.shelf import gitrepo, store  # noqa: E402


def quiet(_message: str) -> None:
    """Progress goes nowhere in the bench."""


def regulation(folder: Path, n: int) -> Path:
    """A Markdown regulation: five sections of five numbered points."""
    sections = []
    for k in range(1, 6):
        points = "\n\n".join(
            f"{k}.{j}. Работник обязан соблюдать правило {n}-{k}-{j} и хранить сведения о нём в тайне."
            for j in range(1, 6)
        )
        sections.append(f"## {k}. Раздел {k}\n\n{points}")
    path = folder / f"reg-{n:05d}.md"
    path.write_text(f"# Положение № {n} о порядке работы\n\n" + "\n\n".join(sections) + "\n", encoding="utf-8")
    return path


def children_cpu() -> float:
    r = resource.getrusage(resource.RUSAGE_CHILDREN)
    return r.ru_utime + r.ru_stime


def self_and_children_cpu() -> float:
    r = resource.getrusage(resource.RUSAGE_SELF)
    return r.ru_utime + r.ru_stime + children_cpu()


def build_shelf(base: Path, size: int) -> Path:
    sources = base / "sources"
    sources.mkdir(parents=True)
    root = store.init(base / "shelf", name=f"Bench {size}")
    if size:
        files = [regulation(sources, n) for n in range(size)]
        store.add(root, files, DocOptions(source="", category="acts"), progress=quiet)
    return root


def cli_add(root: Path, path: Path) -> float:
    before = children_cpu()
    cmd = [sys.executable, "-m", "docshelf", "add", str(path), "--shelf", str(root), "--category", "acts"]
    subprocess.run(cmd, check=True, capture_output=True, cwd=REPO)
    return children_cpu() - before


_LIBRARY_ADD = """
import resource, sys
from pathlib import Path
from docshelf.build.pipeline import DocOptions
from docshelf.shelf import store
def cpu():
    a, b = resource.getrusage(resource.RUSAGE_SELF), resource.getrusage(resource.RUSAGE_CHILDREN)
    return a.ru_utime + a.ru_stime + b.ru_utime + b.ru_stime
t = cpu()
store.add(Path(sys.argv[1]), [Path(sys.argv[2])], DocOptions(source="", category="acts"), progress=lambda _m: None)
print(cpu() - t)
"""


def library_add(root: Path, path: Path) -> float:
    """CPU of ``store.add`` alone, in a fresh process that imported DocShelf first (no start-up cost)."""
    out = subprocess.run([sys.executable, "-c", _LIBRARY_ADD, str(root), str(path)], check=True, capture_output=True,
                         text=True, cwd=REPO)  # fmt: skip
    return float(out.stdout.strip())


async def fetch_vs_ping(root: Path, calls: int) -> tuple[float, float, float, float, float, float]:
    metrics = Metrics()
    server = create_server(root, pin=Pin.at(root), audit=None, metrics=metrics)

    def ping() -> str:
        """Answer pong (benchmark baseline)."""
        return "pong"

    server.add_tool(ping, annotations=READ_ONLY)

    def served(tool: str) -> tuple[float, float]:
        """(seconds, calls) the server's histogram holds for ``tool``."""
        sample = metrics.registry.get_sample_value
        labels = {"tool": "other" if tool == "ping" else tool}  # the metrics name only the product's tools
        total, count = sample("docshelf_call_seconds_sum", labels), sample("docshelf_call_seconds_count", labels)
        return total or 0.0, count or 0.0

    sha = gitrepo.resolve(root)
    sections = [p for p in gitrepo.list_files(root, sha, "docs") if p.endswith(".md") and "subindex" not in p]
    step = max(1, len(sections) // calls)
    spread = sections[::step][:calls]
    subindexes = [p for p in gitrepo.list_files(root, sha, "docs") if p.endswith("/subindex.md")]
    pages = [{"path": "index.md"}, *({"path": p} for p in subindexes[:: max(1, len(subindexes) // 20)])]
    timings: dict[str, list[float]] = {"ping": [], "fetch": [], "read_index": []}
    tools = ("fetch", "ping", "read_index")
    async with Client(server) as client:
        await client.list_tools()
        await client.call_tool("fetch", {"path": spread[0]})  # the commit's maps are built once, here
        await client.call_tool("ping", {})
        for page in pages:
            await client.call_tool("read_index", page)
        warm = {tool: served(tool) for tool in tools}  # timed calls only, from here on
        for n in range(calls):
            for tool, args in (
                ("ping", {}),
                ("fetch", {"path": spread[n % len(spread)]}),
                ("read_index", pages[n % len(pages)]),
            ):
                t = time.perf_counter()
                res: Any = await client.call_tool(tool, args)
                timings[tool].append(time.perf_counter() - t)
                assert not res.is_error, res

    def served_ms(tool: str) -> float:
        total, count = served(tool)
        return (total - warm[tool][0]) / (count - warm[tool][1]) * 1000

    client_ms = statistics.median(timings["fetch"]) * 1000, statistics.median(timings["ping"]) * 1000
    index_ms = statistics.median(timings["read_index"]) * 1000
    return (*client_ms, served_ms("fetch"), served_ms("ping"), index_ms, served_ms("read_index"))


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--sizes", type=int, nargs="+", default=[30, 1000])
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--fetch-calls", type=int, default=300)
    args = ap.parse_args()
    rows = []
    with tempfile.TemporaryDirectory(prefix="docshelf-bench-shelf-") as tmp:
        for size in args.sizes:
            base = Path(tmp) / f"s{size}"
            t = time.perf_counter()
            root = build_shelf(base, size)
            print(f"built {size} documents in {time.perf_counter() - t:.1f} s", file=sys.stderr)
            extra = base / "extra"
            extra.mkdir()
            cli_runs = [cli_add(root, regulation(extra, 90_000 + k)) for k in range(args.repeat)]
            lib_runs = [library_add(root, regulation(extra, 95_000 + k)) for k in range(args.repeat)]
            served = anyio.run(fetch_vs_ping, root, args.fetch_calls)
            rows.append((size, statistics.median(cli_runs), statistics.median(lib_runs), *served))
    cli0, lib0 = rows[0][1], rows[0][2]
    print("| documents | `docshelf add` CPU s | × empty | library add CPU s | × empty |")
    print("|---:|---:|---:|---:|---:|")
    for size, cli, lib, *_ in rows:
        print(f"| {size} | {cli:.3f} | {cli / cli0:.2f} | {lib:.3f} | {lib / lib0:.2f} |")
    print()
    print("| documents | client p50 fetch / ping ms | ratio | server mean fetch / ping ms | ratio |")
    print("|---:|---:|---:|---:|---:|")
    for size, _cli, _lib, fetch_ms, ping_ms, served_fetch, served_ping, _ix, _sx in rows:
        print(
            f"| {size} | {fetch_ms:.2f} / {ping_ms:.2f} | {fetch_ms / ping_ms:.2f} |"
            f" {served_fetch:.2f} / {served_ping:.2f} | {served_fetch / served_ping:.2f} |"
        )
    print()
    first_ix, first_sx = rows[0][7], rows[0][8]
    print(f"| documents | read_index client p50 ms | × {rows[0][0]} docs | server mean ms | × {rows[0][0]} docs |")
    print("|---:|---:|---:|---:|---:|")
    for size, *_rest, index_ms, served_index in rows:
        print(
            f"| {size} | {index_ms:.2f} | {index_ms / first_ix:.2f} | {served_index:.2f} | "
            f"{served_index / first_sx:.2f} |"
        )
    last = rows[-1]
    print(
        f"\nflat in shelf size (target within 1.2x between {rows[0][0]} and {last[0]} documents): add "
        f"{last[1] / cli0:.2f}x (library {last[2] / lib0:.2f}x), read_index served {last[8] / first_sx:.2f}x"
    )


if __name__ == "__main__":
    main()
