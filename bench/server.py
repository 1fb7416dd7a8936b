"""MCP server speed: read_index and fetch against a trivial ``ping`` tool on the same server, in one run.

Phases (each bounded by --calls and --seconds): in-process ``mcp.Client`` with 1 and 10 clients,
then streamable HTTP to a uvicorn subprocess (bearer auth and audit log on) with 1, 10 and 50
concurrent SDK clients. Prints p50/p95 latency, calls/s and the server's CPU per call, and the
ratio of each tool to ``ping`` (absolute numbers on a shared 2-core box are noise; ratios are
not). Any error fails the run. Then a soak: ``docshelf serve --follow main`` over HTTP while
a new commit is pushed every few seconds; every answer must match exactly the commit it names
(sha256 and title of the text at that commit).

    python bench/server.py                          # full run, 60 s soak
    python bench/server.py --calls 300 --seconds 3 --soak-seconds 20
"""

from __future__ import annotations

import argparse
import hashlib
import itertools
import json
import os
import sys
import tempfile
import threading
import time
from collections.abc import AsyncIterator, Callable, Iterator
from contextlib import asynccontextmanager
from dataclasses import dataclass, field
from functools import partial
from pathlib import Path
from typing import Any

import anyio
import httpx2
from mcp import Client
from mcp.client.streamable_http import streamable_http_client

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO / "tests"))
sys.path.insert(0, str(REPO))

from server_support import free_port, git, http_server, payload, write_launcher  # noqa: E402

from docshelf.demo.walk import build_demo_shelf  # noqa: E402
from docshelf.server.app import create_server  # noqa: E402
from docshelf.server.audit import AuditLog  # noqa: E402
from docshelf.server.auth import TokenFileVerifier, add_token  # noqa: E402
from docshelf.server.httpapp import create_http_app, run_http  # noqa: E402
from docshelf.server.pin import Pin  # noqa: E402
from docshelf.server.tools import READ_ONLY  # noqa: E402
from docshelf.shelf import gitrepo  # noqa: E402

TOOLS = ("ping", "read_index", "fetch")
Call = tuple[str, dict[str, Any]]


def bench_server(root: Path, audit: AuditLog | None, verifier: TokenFileVerifier | None = None) -> Any:
    """The product server plus a trivial ``ping`` tool (bench only) as the baseline."""
    server = create_server(root, pin=Pin.at(root), audit=audit, token_verifier=verifier)

    def ping() -> str:
        """Answer pong (benchmark baseline)."""
        return "pong"

    server.add_tool(ping, annotations=READ_ONLY)
    return server


def workload(root: Path, tool: str) -> Iterator[Call]:
    """Endless calls of ``tool``: index pages and sections of the demo shelf in turn."""
    sha = gitrepo.resolve(root)
    sections = [p for p in gitrepo.list_files(root, sha, "docs") if p.endswith(".md") and "subindex" not in p]
    indexes = ["index.md", *[p for p in gitrepo.list_files(root, sha, "docs") if p.endswith("subindex.md")]]
    if tool == "ping":
        return itertools.repeat(("ping", {}))
    if tool == "read_index":
        return ((tool, {"path": p}) for p in itertools.cycle(indexes))
    return ((tool, {"path": p}) for p in itertools.cycle(sections))


@dataclass
class Stats:
    where: str
    tool: str
    clients: int
    latencies: list[float] = field(default_factory=list)
    errors: int = 0
    wall: float = 0.0
    cpu_ms_per_call: float | None = None

    @property
    def rate(self) -> float:
        return len(self.latencies) / self.wall if self.wall else 0.0

    def pct(self, q: float) -> float:
        ordered = sorted(self.latencies)
        return ordered[min(len(ordered) - 1, int(q * len(ordered)))] * 1000 if ordered else float("nan")


async def drive(
    connect: Callable[[], Any],
    calls: Iterator[Call],
    stats: Stats,
    max_calls: int,
    max_seconds: float,
    on_result: Callable[[str, dict[str, Any], Any], None] | None = None,
) -> Stats:
    """``stats.clients`` clients call in a loop until ``max_calls`` or ``max_seconds``; sessions open before timing."""
    ready, go = 0, anyio.Event()
    started = 0
    deadline = 0.0

    async def worker() -> None:
        nonlocal ready, started
        async with connect() as client:
            await client.list_tools()  # the SDK lists once per session to learn output schemas
            ready += 1
            if ready == stats.clients:
                go.set()
            await go.wait()
            while started < max_calls and time.perf_counter() < deadline:
                started += 1
                name, args = next(calls)
                t0 = time.perf_counter()
                try:
                    res = await client.call_tool(name, args)
                    stats.errors += bool(res.is_error)
                    if on_result is not None:
                        on_result(name, args, res)
                except Exception as exc:  # any failure counts; the run asserts zero
                    stats.errors += 1
                    print(f"error: {name} {args}: {exc!r}", file=sys.stderr)
                stats.latencies.append(time.perf_counter() - t0)

    async with anyio.create_task_group() as tg:
        for _ in range(stats.clients):
            tg.start_soon(worker)
        await go.wait()
        t0 = time.perf_counter()
        deadline = t0 + max_seconds
    stats.wall = time.perf_counter() - t0
    return stats


def proc_cpu(pid: int) -> float | None:
    """User+system CPU seconds of a process and its reaped children (the git helpers it runs), or None."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text(encoding="utf-8").rsplit(")", 1)[1].split()
    except OSError:
        return None
    return sum(int(f) for f in fields[11:15]) / os.sysconf("SC_CLK_TCK")


async def inprocess(root: Path, audit: AuditLog, args: argparse.Namespace) -> list[Stats]:
    server = bench_server(root, audit)
    rows = []
    for clients in (1, 10):
        for tool in TOOLS:
            stats = Stats("in-process", tool, clients)
            await drive(lambda: Client(server, mode=args.mode), workload(root, tool), stats, args.calls, args.seconds)
            rows.append(stats)
    return rows


async def over_http(root: Path, url: str, token: str, pid: int, args: argparse.Namespace) -> list[Stats]:
    rows = []
    for clients in (1, 10, 50):
        for tool in TOOLS:
            stats = Stats("http", tool, clients)

            before = proc_cpu(pid)
            connect = partial(http_client, url, token, args.mode)
            await drive(connect, workload(root, tool), stats, args.calls, args.seconds)
            after = proc_cpu(pid)
            if before is not None and after is not None and stats.latencies:
                stats.cpu_ms_per_call = (after - before) * 1000 / len(stats.latencies)
            rows.append(stats)
    return rows


@asynccontextmanager
async def http_client(url: str, token: str, mode: Any) -> AsyncIterator[Client]:
    """One SDK client with its own connection, as a separate MCP client would have."""
    async with httpx2.AsyncClient(headers={"Authorization": f"Bearer {token}"}, timeout=60) as hc:
        async with Client(streamable_http_client(url, http_client=hc), mode=mode) as client:
            yield client


def serve_http(root: Path, port: int, tokens: Path, audit_path: Path) -> None:
    """Internal (``--serve-bench``): the bench server with ping over HTTP, as the product serves it."""
    with AuditLog(audit_path) as audit:
        server = bench_server(root, audit, TokenFileVerifier(tokens))
        run_http(create_http_app(server, audit=audit), "127.0.0.1", port)


def table(rows: list[Stats]) -> str:
    base = {(r.where, r.clients): r for r in rows if r.tool == "ping"}
    out = [
        "| transport | clients | tool | calls | p50 ms | p95 ms | calls/s | server CPU ms/call (incl. git) "
        "| p50 / ping | calls/s / ping |",
        "|---|---:|---|---:|---:|---:|---:|---:|---:|---:|",
    ]
    for r in rows:
        ping = base[(r.where, r.clients)]
        cpu = f"{r.cpu_ms_per_call:.2f}" if r.cpu_ms_per_call is not None else "–"
        out.append(
            f"| {r.where} | {r.clients} | {r.tool} | {len(r.latencies)} | {r.pct(0.5):.2f} | {r.pct(0.95):.2f} | "
            f"{r.rate:.0f} | {cpu} | {r.pct(0.5) / ping.pct(0.5):.1f}× | {r.rate / ping.rate:.3f} |"
        )
    return "\n".join(out)


# ---- soak -------------------------------------------------------------------------------------


def committer(author: Path, every: float, stop: threading.Event, shas: list[str]) -> None:
    """Push a new edition (a section and the index change) every ``every`` seconds until ``stop``."""
    sections = sorted((author / "docs" / "laws").rglob("0*.md"))
    for n in itertools.count(1):
        if stop.wait(every):
            return
        target = sections[n % len(sections)]
        with target.open("a", encoding="utf-8") as fh:
            fh.write(f"\nSoak edit {n}.\n")
        with (author / "index.md").open("a", encoding="utf-8") as fh:
            fh.write(f"\n<!-- soak {n} -->\n")
        shas.append(gitrepo.commit(author, f"Soak edit {n}"))
        git(author, "push", "--quiet", "origin", "main")


async def soak(base: Path, args: argparse.Namespace) -> dict[str, Any]:
    author = build_demo_shelf(base / "author")
    git(base, "clone", "--quiet", "--bare", str(author), str(base / "upstream.git"))
    git(author, "remote", "add", "origin", str(base / "upstream.git"))
    served = base / "served"
    git(base, "clone", "--quiet", str(base / "upstream.git"), str(served))
    tokens = base / "tokens.json"
    token = add_token(tokens, "soak")
    port, launcher = free_port(), write_launcher(base)
    shas: list[str] = [gitrepo.resolve(author)]
    seen: list[tuple[str, str, dict[str, Any]]] = []
    opts = ["--shelf", str(served), "--tokens", str(tokens), "--audit-log", str(base / "soak-audit.jsonl")]
    opts += ["--follow", "main", "--follow-interval", str(args.follow_interval)]
    stop = threading.Event()
    with http_server(launcher, opts, port):
        thread = threading.Thread(target=committer, args=(author, args.switch_every, stop, shas))
        thread.start()
        try:
            seen = await _soak_clients(f"http://127.0.0.1:{port}/mcp", token, author, args)
        finally:
            stop.set()
            thread.join(timeout=60)
    return _check_soak(author, seen, shas)


async def _soak_clients(url: str, token: str, root: Path, args: argparse.Namespace) -> list[tuple[str, str, Any]]:
    seen: list[tuple[str, str, Any]] = []
    whole = {"max_chars": 20000}  # the demo's sections are shorter: one page is the whole section
    mix = [(n, {**a, **whole} if n == "fetch" else a) for t in ("read_index", "fetch") for n, a in _first(root, t, 16)]
    stats = Stats("soak", "mixed", args.soak_clients)

    def record(name: str, arguments: dict[str, Any], res: Any) -> None:
        seen.append((name, arguments["path"], payload(res)))  # lean results: the text is in the content

    connect = partial(http_client, url, token, args.mode)
    await drive(connect, itertools.cycle(mix), stats, 10**9, args.soak_seconds, record)
    assert stats.errors == 0, f"{stats.errors} errors during the soak"
    return seen


def _first(root: Path, tool: str, n: int) -> list[Call]:
    return list(itertools.islice(workload(root, tool), n))


def _check_soak(author: Path, seen: list[tuple[str, str, Any]], shas: list[str]) -> dict[str, Any]:
    """Every answer equals the file at the commit it names: one commit per answer, never a mix."""
    cache: dict[tuple[str, str], bytes] = {}

    def blob(commit: str, path: str) -> bytes:
        if (commit, path) not in cache:
            cache[commit, path] = gitrepo.read(author, path, commit)
        return cache[commit, path]

    commits = set()
    for tool, _path, data in seen:
        commit = data["commit"]
        assert commit in shas, f"answer names an unknown commit {commit}"
        commits.add(commit)
        if tool == "read_index":
            assert data["text"].encode("utf-8") == blob(commit, data["path"]), "index text differs from its commit"
        else:
            whole = blob(commit, data["path"])
            assert data["sha256"] == hashlib.sha256(whole).hexdigest(), "sha256 differs from the commit's section"
            assert data["next_start"] is None and data["text"].encode("utf-8") == whole, "text differs from its commit"
            meta = _meta(author, commit, data["path"], blob)
            titles = {s["title"] for s in meta["sections"] if s["path"] == data["path"]} | {meta["title"]}
            assert data["title"] in titles, "title not from the same commit"
    assert len(commits) >= 2, "the pin never switched during the soak"
    return {"answers": len(seen), "commits_pushed": len(shas) - 1, "commits_served": len(commits)}


def _meta(author: Path, commit: str, path: str, blob: Callable[[str, str], bytes]) -> Any:
    """The meta of the document holding ``path`` (a whole short document, or a section of a long one)."""
    names = set(gitrepo.list_files(author, commit, "docs"))
    for cand in (path.removesuffix(".md") + ".meta.json", str(Path(path).parent) + ".meta.json"):
        if cand in names:
            return json.loads(blob(commit, cand))
    raise AssertionError(f"no meta for {path}")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--calls", type=int, default=1500, help="most calls per tool per phase")
    ap.add_argument("--seconds", type=float, default=8.0, help="most seconds per tool per phase")
    ap.add_argument("--mode", choices=["legacy", "auto"], default="legacy", help="client protocol era")
    ap.add_argument("--soak-seconds", type=float, default=60.0)
    ap.add_argument("--soak-clients", type=int, default=10)
    ap.add_argument("--switch-every", type=float, default=3.0, help="seconds between pushed commits in the soak")
    ap.add_argument("--follow-interval", type=float, default=1.0)
    ap.add_argument("--skip-http", action="store_true")
    ap.add_argument("--serve-bench", nargs=4, metavar=("ROOT", "PORT", "TOKENS", "AUDIT"), help=argparse.SUPPRESS)
    args = ap.parse_args()
    if args.serve_bench:
        root, port, tokens, audit = args.serve_bench
        serve_http(Path(root), int(port), Path(tokens), Path(audit))
        return
    with tempfile.TemporaryDirectory(prefix="docshelf-bench-") as tmp:
        anyio.run(_run, Path(tmp), args)


async def _run(base: Path, args: argparse.Namespace) -> None:
    root = build_demo_shelf(base / "demo")
    with AuditLog(base / "inproc-audit.jsonl") as audit:
        rows = await inprocess(root, audit, args)
    if not args.skip_http:
        rows += await _http_phase(root, base, args)
    print(table(rows))
    assert sum(r.errors for r in rows) == 0, "errors during the benchmark"
    if args.soak_seconds > 0:
        result = await soak(base / "soak", args)
        every = f"a commit every {args.switch_every} s"
        print(f"\nsoak {args.soak_seconds:.0f} s, {args.soak_clients} clients, {every}: {result}")


async def _http_phase(root: Path, base: Path, args: argparse.Namespace) -> list[Stats]:
    import subprocess

    tokens, port = base / "tokens.json", free_port()
    token = add_token(tokens, "bench")
    cmd = [sys.executable, __file__, "--serve-bench", str(root), str(port), str(tokens), str(base / "http-audit.jsonl")]
    proc = subprocess.Popen(cmd, stderr=subprocess.DEVNULL)
    try:
        for _ in range(200):  # bounded wait for the port
            try:
                if httpx2.get(f"http://127.0.0.1:{port}/healthz", timeout=1).status_code == 200:
                    break
            except httpx2.TransportError:
                time.sleep(0.1)
        return await over_http(root, f"http://127.0.0.1:{port}/mcp", token, proc.pid, args)
    finally:
        proc.terminate()
        proc.wait(timeout=15)


if __name__ == "__main__":
    main()
