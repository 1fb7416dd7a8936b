"""The web desk's pages over a 100,000-record audit log, against a trivial Starlette route, in one run.

Builds a shelf (the demo shelf, or with ``--corpus`` the real corpus from ``../shared/corpus``),
commits a second edition of one document, writes ``--records`` audit records naming the shelf's
real sections and commits (fetch, search, verify_quote ok / not_found, read_index; several
clients over 30 days), then asks each page ``--repeat`` times through one in-process HTTP client
and prints the median and p95 per page and its ratio to a route that returns ``ok``. Also prints
the one-off cost of indexing the log when the desk starts, and the index's memory.

    python bench/web.py                      # demo shelf, 100,000 records
    python bench/web.py --corpus --repeat 30
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import tempfile
import time
import tracemalloc
from collections.abc import Callable
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO / "tests"))
sys.path.insert(0, str(REPO))

from starlette.applications import Starlette  # noqa: E402
from starlette.requests import Request  # noqa: E402
from starlette.responses import PlainTextResponse  # noqa: E402
from starlette.routing import Route  # noqa: E402
from starlette.testclient import TestClient  # noqa: E402

from docshelf.demo.walk import build_demo_shelf  # noqa: E402
from docshelf.server.audit import AuditLog, new_call_id  # noqa: E402
from docshelf.shelf import gitrepo, reader  # noqa: E402
from docshelf.web.app import create_web_app  # noqa: E402
from docshelf.web.auditindex import AuditIndex  # noqa: E402

BASE = "http://127.0.0.1:8766"
CLIENTS = ("alice", "bob", "ci-bot", "claude-desktop", "cursor")


def build_shelf(tmp: Path, corpus: bool) -> Path:
    if not corpus:
        return build_demo_shelf(tmp / "shelf")
    from conftest import CORPUS, IDS

    from docshelf.build.pipeline import DocOptions
    from docshelf.shelf import store

    if not CORPUS.is_dir():
        sys.exit("--corpus needs ../shared/corpus beside the checkout")
    root = store.init(tmp / "shelf", name="Corpus")
    for path in sorted(p for p in CORPUS.rglob("*") if p.is_file() and p.name != "SOURCES.md"):
        opts = DocOptions(source="", category=path.parent.parent.name, id=IDS.get(path.name, ""))
        store.add(root, [path], opts, progress=lambda _m: None)
    return root


def second_edition(root: Path) -> tuple[str, str]:
    """Commit a one-word change to the first clause-bearing section; returns (old commit, new commit)."""
    old = gitrepo.resolve(root)
    for meta in reader.metas_at(root, old):
        for s in meta.sections:
            text = (root / s.path).read_text(encoding="utf-8")
            if s.clauses and " не " in text:
                (root / s.path).write_text(text.replace(" не ", " ne ", 1), encoding="utf-8")
                return old, gitrepo.commit(root, "bench: a second edition")
    sys.exit("no section to change")


def records(root: Path, commit: str, n: int) -> list[dict[str, Any]]:
    rnd = random.Random(7)
    sections = [(m.id, s.path) for m in reader.metas_at(root, commit) for s in m.sections]
    out = []
    start = 1_796_000_000.0  # late 2026, 30 days of calls
    for i in range(n):
        doc_id, path = rnd.choice(sections)
        kind = rnd.choice(("fetch", "fetch", "search", "verify_quote", "verify_quote", "read_index"))
        args: dict[str, Any] = {"path": path}
        verdict = None
        if kind == "search":
            args = {"query": rnd.choice(("трансграничная передача", "обезличивание", "срок хранения"))}
        elif kind == "verify_quote":
            args = {"quote": "Оператор обязан принимать меры, необходимые и достаточные", "ref": f"{doc_id} ст. 3"}
            verdict = rnd.choice(("ok", "ok", "not_found", "wrong_clause"))
        elif kind == "read_index":
            args = {}
        ts = time.gmtime(start + i * 26)
        out.append(
            {
                "id": new_call_id(),
                "ts": time.strftime("%Y-%m-%dT%H:%M:%S", ts) + f".{i % 1000:03d}000Z",
                "client": rnd.choice(CLIENTS),
                "client_info": {"name": "mcp", "version": "2.3.0"},
                "transport": "http",
                "peer": "127.0.0.1:50000",
                "method": "tools/call",
                "tool": kind,
                "arguments": args,
                "commit": commit,
                "paths": [path] if kind != "search" else [path, path],
                "verdict": verdict,
                "bytes_out": 2000,
                "duration_ms": 3.0,
                "outcome": "ok",
                "error": None,
            }
        )
    return out


def timed(get: Callable[[], Any]) -> list[float]:
    t0 = time.perf_counter()
    response = get()
    ms = (time.perf_counter() - t0) * 1000
    assert response.status_code == 200, response.text[:300]
    return [ms]


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--records", type=int, default=100_000)
    ap.add_argument("--repeat", type=int, default=20)
    ap.add_argument("--corpus", action="store_true", help="the real corpus shelf instead of the demo shelf")
    opts = ap.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        root = build_shelf(Path(tmp), opts.corpus)
        old, new = second_edition(root)
        log = Path(tmp) / "audit.jsonl"
        rows = records(root, old, opts.records)
        with AuditLog(log) as audit:
            for r in rows:
                audit.write(r)
        size_mb = log.stat().st_size / 1e6
        t0 = time.perf_counter()
        AuditIndex(log).refresh()
        index_s = time.perf_counter() - t0
        tracemalloc.start()  # a second build, measured for memory (tracemalloc slows it down)
        index = AuditIndex(log)
        index.refresh()
        index_mb = tracemalloc.get_traced_memory()[0] / 1e6
        tracemalloc.stop()
        del index
        desk = TestClient(create_web_app(root, log), base_url=BASE)
        trivial = TestClient(Starlette(routes=[Route("/", _ok)]), base_url=BASE)
        fetch = next(r for r in rows if r["tool"] == "fetch")  # the oldest: a lookup, not a scan from the end
        ok = next(r for r in reversed(rows) if r["verdict"] == "ok")
        doc_id, path = ok["arguments"]["ref"].rsplit(" ст.", 1)[0], ok["paths"][0]
        pages: dict[str, Callable[[], Any]] = {
            "trivial route (baseline)": lambda: trivial.get("/"),
            "/ (newest 50)": lambda: desk.get("/"),
            "/?page=1000 (deep page)": lambda: desk.get("/", params={"page": 1000}),
            "/?tool=verify_quote&verdict=not_found": lambda: desk.get(
                "/", params={"tool": "verify_quote", "verdict": "not_found"}
            ),
            "/?client=bob&since=…&until=…": lambda: desk.get(
                "/", params={"client": "bob", "since": "2026-12-05", "until": "2026-12-10"}
            ),
            "/?doc=<section path>": lambda: desk.get("/", params={"doc": path}),
            "/call/<oldest fetch>": lambda: desk.get(f"/call/{fetch['id']}"),
            "/call/<verify_quote ok>": lambda: desk.get(f"/call/{ok['id']}"),
            "/diff?from&to&doc&call": lambda: desk.get(
                "/diff", params={"from": old, "to": new, "doc": doc_id, "call": ok["id"]}
            ),
            "/at/<commit>/<path>": lambda: desk.get(f"/at/{old}/{path}"),
            "/doc/<id>": lambda: desk.get(f"/doc/{doc_id}"),
            "/static/desk.css": lambda: desk.get("/static/desk.css"),
        }
        docs = len(reader.metas_at(root, old))
        print(f"shelf: {docs} documents; audit log: {len(rows):,} records, {size_mb:.1f} MB")
        print(f"indexing the log at start: {index_s * 1000:.0f} ms, {index_mb:.1f} MB of entries\n")
        # Interleaved rounds, so that a burst of load on the machine hits every page alike.
        times: dict[str, list[float]] = {name: [] for name in pages}
        for get in pages.values():
            get()  # warm: the commit's caches, the search index
        for _ in range(opts.repeat):
            for name, get in pages.items():
                times[name] += timed(get)
        base = statistics.median(times["trivial route (baseline)"])
        print(f"{'page':42} {'p50 ms':>8} {'p95 ms':>8} {'× trivial':>10}")
        for name, ms in times.items():
            ms.sort()
            p50, p95 = statistics.median(ms), ms[int(0.95 * (len(ms) - 1))]
            print(f"{name:42} {p50:8.2f} {p95:8.2f} {p50 / base:10.1f}")


async def _ok(_request: Request) -> PlainTextResponse:
    return PlainTextResponse("ok")


if __name__ == "__main__":
    main()
