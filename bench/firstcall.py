"""First calls: a fresh server's first answer against its warm answers, and one-shot CLI calls, in one run.

On the corpus shelf (built like the tests build it, or ``--shelf S``):

* **served**: ``docshelf serve --transport http`` in a subprocess; once ``/readyz`` says ready, the first
  ``search`` and the first ``verify_quote`` (each a question it has not seen), then the same kind of call
  ``--repeat`` times warm. Prints each first call's latency and its ratio to the warm median, as the server
  timed it (the audit log's ``duration_ms``: a client's own first-call costs, such as compiling the tool's
  output schema to validate results, are not the server's) and as the client saw it. Target: ≤ 2.
* **unprepared**: the same calls through the library in a fresh process that prepared nothing (what a
  server's first call cost before ``serve`` prepared the commit).
* **one-shot CLI**: ``docshelf search`` and ``docshelf verify-quote`` as fresh processes on a shelf whose
  index cache is built, against ``python -c pass`` and against ``python -c "import docshelf.cli"``,
  measured in the same run (medians of ``--repeat`` runs).

    python bench/firstcall.py                  # builds the corpus shelf (~2 min), then measures
    python bench/firstcall.py --shelf /tmp/cs  # a corpus shelf already built
"""

from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import anyio
import httpx2
from mcp import Client
from mcp.client.streamable_http import streamable_http_client

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO / "tests"))
sys.path.insert(0, str(REPO))
sys.path.insert(0, str(REPO / "bench"))

from search import on_corpus_shelf  # noqa: E402
from server_support import child_env, free_port, write_launcher  # noqa: E402

from docshelf.text import search  # noqa: E402

SEARCHES = [
    "срок хранения персональных данных",
    "password minimum length",
    "ГОСТ 7.32 титульный лист",
    "unsuccessful login attempts lockout",
    "согласие субъекта на обработку",
    "TLS 1.3 early data replay",
]
QUOTES = [  # (quote, ref): each a clause the corpus holds
    ("Enforces a limit of [Assignment: organization-defined number] consecutive invalid login attempts by a user",
     "SP 800-53 AC-7"),
    ("Титульный лист является первой страницей отчета о НИР и служит источником информации", "ГОСТ 7.32 п. 5.1.1"),
    ("Track, document, and report incidents to appropriate officials and/or authorities both internal and external",
     "NIST SP 800-171r1 3.6.2"),
    ("Оператор обязан предоставить субъекту персональных данных информацию о наличии", "152-ФЗ ст. 14"),
]  # fmt: skip


async def _timed_call(client: Client, tool: str, args: dict[str, Any]) -> float:
    t0 = time.perf_counter()
    result = await client.call_tool(tool, args)
    assert not result.is_error, result.content
    return time.perf_counter() - t0


async def _served(root: Path, repeat: int) -> list[str]:
    port = free_port()
    launcher = write_launcher(root.parent)
    audit = root.parent / "firstcall-audit.jsonl"
    audit.unlink(missing_ok=True)  # this run's calls only
    cmd = [sys.executable, str(launcher), "serve", "--shelf", str(root), "--transport", "http", "--port", str(port),
           "--audit-log", str(audit)]  # fmt: skip
    proc = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, env=child_env())
    try:
        t0 = time.perf_counter()
        while True:
            try:
                if httpx2.get(f"http://127.0.0.1:{port}/readyz", timeout=2.0).status_code == 200:
                    break
            except httpx2.TransportError:
                pass
            if proc.poll() is not None or time.perf_counter() - t0 > 600:
                raise RuntimeError("the server did not become ready")
            await anyio.sleep(0.1)
        ready = time.perf_counter() - t0
        async with Client(streamable_http_client(f"http://127.0.0.1:{port}/mcp")) as client:
            first_s = await _timed_call(client, "search", {"query": SEARCHES[0]})
            first_v = await _timed_call(client, "verify_quote", {"quote": QUOTES[0][0], "ref": QUOTES[0][1]})
            warm_s = [await _timed_call(client, "search", {"query": SEARCHES[1 + n % (len(SEARCHES) - 1)]})
                      for n in range(repeat)]  # fmt: skip
            warm_v = [await _timed_call(client, "verify_quote", {"quote": q, "ref": r})
                      for n in range(repeat) for q, r in [QUOTES[1 + n % (len(QUOTES) - 1)]]]  # fmt: skip
    finally:
        proc.terminate()
        proc.wait(timeout=30)
    records = [json.loads(line) for line in audit.read_text(encoding="utf-8").splitlines()]
    server = {
        tool: [r["duration_ms"] / 1000 for r in records if r["tool"] == tool] for tool in ("search", "verify_quote")
    }
    rows = [f"served over HTTP, the commit prepared before ready (ready after {ready:.1f} s)"]
    for tool, first, warm in (("search", first_s, warm_s), ("verify_quote", first_v, warm_v)):
        for seat, f, w in (("server", server[tool][0], server[tool][1:]), ("client", first, warm)):
            med = statistics.median(w)
            rows.append(f"| {tool}, as the {seat} timed it | {f * 1000:.1f} | {med * 1000:.1f} | {f / med:.2f} |")
    return rows


_UNPREPARED = """
import statistics, sys, time
from pathlib import Path
from docshelf.text import search, verify
root, searches, quotes, repeat = Path(sys.argv[1]), {searches!r}, {quotes!r}, int(sys.argv[2])
def t(fn):
    t0 = time.perf_counter(); fn(); return time.perf_counter() - t0
fs = t(lambda: search.search(root, searches[0]))
fv = t(lambda: verify.verify_quote(root, *quotes[0]))
ws = [t(lambda: search.search(root, searches[1 + n % (len(searches) - 1)])) for n in range(repeat)]
wv = [t(lambda: verify.verify_quote(root, *quotes[1 + n % (len(quotes) - 1)])) for n in range(repeat)]
for name, f, w in (("search", fs, ws), ("verify_quote", fv, wv)):
    m = statistics.median(w)
    print(f"| {{name}} | {{f * 1000:.1f}} | {{m * 1000:.1f}} | {{f / m:.2f}} |")
"""


def _unprepared(root: Path, repeat: int) -> list[str]:
    code = _UNPREPARED.format(searches=SEARCHES, quotes=QUOTES)
    out = subprocess.run([sys.executable, "-c", code, str(root), str(repeat)], check=True, capture_output=True,
                         text=True, encoding="utf-8", env=child_env()).stdout  # fmt: skip
    return ["a fresh process, nothing prepared (the library called directly)", *out.strip().splitlines()]


def _median_run(argv: list[str], repeat: int) -> float:
    times = []
    for _ in range(repeat):
        t0 = time.perf_counter()
        subprocess.run(argv, check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, env=child_env())
        times.append(time.perf_counter() - t0)
    return statistics.median(times)


def _one_shot(root: Path, repeat: int) -> list[str]:
    py = sys.executable
    base = _median_run([py, "-c", "pass"], repeat)
    imports = _median_run([py, "-c", "import docshelf.cli"], repeat)
    cli = [py, "-m", "docshelf"]
    s = _median_run([*cli, "search", SEARCHES[0], "--shelf", str(root)], repeat)
    v = _median_run([*cli, "verify-quote", QUOTES[0][0], "--ref", QUOTES[0][1], "--shelf", str(root)], repeat)
    rows = ["", "| one-shot process | median s | / python -c pass | / import docshelf.cli |", "|---|---:|---:|---:|"]
    for name, t in (("python -c pass", base), ("import docshelf.cli", imports), ("docshelf search", s),
                    ("docshelf verify-quote", v)):  # fmt: skip
        rows.append(f"| {name} | {t:.2f} | {t / base:.1f} | {t / imports:.2f} |")
    return rows


def run(root: Path, repeat: int = 5) -> list[str]:
    head = ["| first call | first ms | warm median ms | first / warm |", "|---|---:|---:|---:|"]
    search.search(root, "warm the cache", limit=1)  # the index cache is built: every case measures reads
    out = []
    for rows in (anyio.run(_served, root, repeat), _unprepared(root, repeat)):
        out += [rows[0], "", *head, *rows[1:], ""]
    return out + _one_shot(root, repeat)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--repeat", type=int, default=5)
    known, rest = ap.parse_known_args()
    sys.argv = [sys.argv[0], *rest]
    on_corpus_shelf(__doc__ or "", lambda root: run(root, known.repeat), "firstcall")


if __name__ == "__main__":
    main()
