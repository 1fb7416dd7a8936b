"""Helpers shared by the server tests (no tests here): small shelves, commits, a CLI launcher, ports.

The launcher registers the server commands in the main CLI group the way ``docshelf.cli`` will,
so subprocess tests run ``serve`` exactly as an operator would.
"""

from __future__ import annotations

import contextlib
import json
import os
import shutil
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx2

from docshelf.build.pipeline import DocOptions
from docshelf.shelf import gitrepo
from docshelf.shelf import store as shelf

# Only a hang takes this long: every wait on a process, a server or a request uses this ceiling, so the
# suite passes on a loaded two-core machine; the tests assert answers, never speed (timing is bench/'s).
HANG_S = 600.0

# The server's whole tool surface: all read-only. Add search / verify_quote here when they are registered.
TOOL_NAMES = {"read_index", "fetch", "search", "verify_quote"}

SCHEMA_KEYS = {
    "id",
    "ts",
    "client",
    "client_info",
    "transport",
    "peer",
    "method",
    "tool",
    "arguments",
    "commit",
    "paths",
    "verdict",
    "bytes_out",
    "duration_ms",
    "outcome",
    "error",
}

DOC = """# Положение о тестовом хранении

## Статья 1. Общие положения

1. Настоящее положение определяет порядок хранения тестовых данных. MARKER-{version}
2. Оператор обязан хранить тестовые данные не более тридцати дней с момента их получения.

## Статья 2. Доступ

1. Доступ к тестовым данным предоставляется работникам по письменной заявке руководителя.
2. {filler}
"""

LAUNCHER = """import sys
ARGV = {argv!r}
if ARGV:
    sys.argv = ["docshelf", *ARGV]
from docshelf import cli
from docshelf.server.commands import audit, serve, token
for command in (serve, token, audit):
    cli.cli.add_command(command)
cli.main()
"""


def git(root: Path, *args: str) -> str:
    proc = subprocess.run(
        ["git", "-C", str(root), *args], check=True, capture_output=True, text=True, encoding="utf-8", timeout=HANG_S
    )
    return proc.stdout.strip()


def make_small_shelf(root: Path) -> Path:
    """A shelf with one short Markdown document (kept whole), committed; about 0.3 s."""
    src = root.parent / f"{root.name}-src" / "polozhenie.md"
    src.parent.mkdir(parents=True, exist_ok=True)
    src.write_text(DOC.format(version="V1", filler="Срок хранения продлевается приказом. " * 40), encoding="utf-8")
    shelf.init(root, name="Small shelf")
    shelf.add(root, [src], DocOptions(source="", category="internal", id="ПТХ"), progress=lambda _m: None)
    return root


def doc_path(root: Path) -> str:
    """The path of the small shelf's one document."""
    return shelf.metas(root)[0].entry


def make_version(root: Path, version: str) -> str:
    """Commit a new edition: section text, index and meta title all say ``version``; returns the sha."""
    path = doc_path(root)
    section = root / path
    section.write_text(section.read_text(encoding="utf-8").replace("MARKER-V1", f"MARKER-{version}"), encoding="utf-8")
    index = root / "index.md"
    index.write_text(index.read_text(encoding="utf-8") + f"\n<!-- edition {version} -->\n", encoding="utf-8")
    meta_file = section.with_suffix(".meta.json")
    meta = json.loads(meta_file.read_text(encoding="utf-8"))
    meta["title"] = f"Положение ({version})"
    for s in meta["sections"]:
        s["title"] = f"Положение ({version})"
    meta_file.write_text(json.dumps(meta, ensure_ascii=False, indent=2), encoding="utf-8")
    return gitrepo.commit(root, f"Edition {version}")


def write_launcher(directory: Path, argv: list[str] | None = None, name: str = "docshelf_cli.py") -> Path:
    script = directory / name
    script.write_text(LAUNCHER.format(argv=argv or []), encoding="utf-8")
    return script


def free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


def child_env(**extra: str) -> dict[str, str]:
    repo = str(Path(__file__).resolve().parents[1])
    env = {**os.environ, "PYTHONPATH": repo + os.pathsep + os.environ.get("PYTHONPATH", ""), **extra}
    env["PYTHONWARNDEFAULTENCODING"] = "1"
    return env


def printed(proc: subprocess.Popen[str]) -> str:
    """What a child process printed, once it is stopped: for the message of a failed wait."""
    if proc.poll() is None:
        proc.terminate()
    try:
        out, err = proc.communicate(timeout=HANG_S)
    except (subprocess.TimeoutExpired, ValueError):
        return "(its output could not be read)"
    return f"stdout: {(out or '')[-3000:]!r}; stderr: {(err or '')[-3000:]!r}"


def wait_until_ready(proc: subprocess.Popen[str], ready: Any, what: str, *, ceiling: float = HANG_S) -> None:
    """Poll ``ready()`` (a readiness signal: /healthz, /readyz, a page) until it is true.

    The ceiling only catches a hang; its expiry, or the process exiting first, reports what it printed.
    """
    deadline = time.monotonic() + ceiling
    while True:
        if proc.poll() is not None:
            raise RuntimeError(f"{what} exited {proc.returncode} before it was ready; {printed(proc)}")
        try:
            if ready():
                return
        except httpx2.TransportError:
            pass
        if time.monotonic() > deadline:
            raise TimeoutError(f"{what} gave no readiness signal in {ceiling:.0f} s; {printed(proc)}")
        time.sleep(0.1)


def stop(proc: subprocess.Popen[str]) -> None:
    """Terminate a child and close its pipes (kill it if it does not go)."""
    if proc.poll() is None:
        proc.terminate()
    try:
        proc.wait(timeout=HANG_S)
    except subprocess.TimeoutExpired:
        proc.kill()
        proc.wait(timeout=HANG_S)
    for stream in (proc.stdout, proc.stderr):
        if stream:
            stream.close()


@contextlib.contextmanager
def http_server(launcher: Path, args: list[str], port: int) -> Iterator[Any]:
    """``serve --transport http`` in a subprocess on 127.0.0.1:port, up when /healthz answers; always torn down."""
    proc = subprocess.Popen(
        [sys.executable, str(launcher), "serve", "--transport", "http", "--port", str(port), *args],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        encoding="utf-8",
        env=child_env(),
    )
    try:
        url = f"http://127.0.0.1:{port}/healthz"
        wait_until_ready(proc, lambda: httpx2.get(url, timeout=HANG_S).status_code == 200, "docshelf serve")
        yield proc
    finally:
        stop(proc)


def read_lines(path: Path) -> list[dict[str, Any]]:
    if not path.exists():
        return []
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line.strip()]


def payload(result: Any) -> dict[str, Any]:
    """A tool result as the library returns it: the structured fields plus the text the lean content carries.

    Lean results send a section's or index's text once, in the text content after a one-line header
    (and a warning line), followed by a «[cut: …]» line when more pages follow; this undoes exactly that.
    """
    data: dict[str, Any] = dict(result.structured_content or {})
    if "text" in data or "sha256" not in data:
        return data
    body = result.content[0].text.split("\n\n", 1)[1]
    if data.get("next_start") is not None:
        body = body.rsplit("\n\n[cut: ", 1)[0]
    return {**data, "text": body}


def npm_tool(package: str, version: str, binary: str) -> Path:
    """A pinned npm CLI installed once into ``~/.cache/docshelf-test-npm`` (or ``$DOCSHELF_TEST_NPM_CACHE``).

    Skips the calling test cleanly when npm or node is missing or the install fails (no network).
    """
    import pytest

    if shutil.which("npm") is None or shutil.which("node") is None:
        pytest.skip("npm/node not available")
    cache = Path(os.environ.get("DOCSHELF_TEST_NPM_CACHE") or Path.home() / ".cache" / "docshelf-test-npm")
    tool = cache / "node_modules" / ".bin" / binary
    installed = cache / "node_modules" / package / "package.json"
    if installed.is_file() and json.loads(installed.read_text(encoding="utf-8")).get("version") == version:
        return tool
    try:
        cache.mkdir(parents=True, exist_ok=True)
        if not (cache / "package.json").exists():
            (cache / "package.json").write_text('{"name": "docshelf-test-npm", "private": true}\n', encoding="utf-8")
        cmd = ["npm", "install", "--no-audit", "--no-fund", f"{package}@{version}"]
        subprocess.run(cmd, cwd=cache, check=True, capture_output=True, timeout=HANG_S)
    except (subprocess.CalledProcessError, subprocess.TimeoutExpired, OSError) as exc:
        pytest.skip(f"could not install {package}@{version} (offline?): {exc}")
    if not tool.exists():
        pytest.skip(f"{package}@{version} installed without its {binary} binary")
    return tool
