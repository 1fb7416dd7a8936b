"""The closed perimeter of the default install: no ML runtime, no network lookups, nothing written outside the shelf.

``add``, ``embed`` (with docshelf[encoder]), ``search`` and ``serve`` run as an operator runs them, in
subprocesses whose HOME (and XDG directories) point into an empty folder that must still be empty
afterwards. The in-process check runs in a fresh interpreter, because the test process may have
imported the layout engine for another test.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import httpx2
import pytest
from server_support import HANG_S, child_env, free_port, stop, wait_until_ready

from docshelf.convert.pdf_layout import convert_pdf_layout
from docshelf.errors import MissingDependencyError
from docshelf.text import encoder

REPO = Path(__file__).resolve().parents[1]
DEMO_PDF = REPO / "docshelf" / "demo" / "zakon-o-testovyh-dannyh.pdf"
HEADERS = {"Accept": "application/json, text/event-stream", "Content-Type": "application/json"}

# Run in a fresh interpreter: import the package, convert a PDF, build its shelf files, and report
# which modules got loaded and every name lookup or connection attempted (by any thread).
PROBE = """
import json, sys
events = []
def hook(event, args):
    if event in ("socket.getaddrinfo", "socket.connect", "socket.gethostbyname"):
        events.append(event)
sys.addaudithook(hook)
import pymupdf
import docshelf
from docshelf import cli
from docshelf.build.options import ShelfConfig
from docshelf.build.pipeline import DocOptions, build_document
data = open(sys.argv[1], "rb").read()
doc = build_document(data, DocOptions(source="demo.pdf", category="laws"), ShelfConfig(name="probe"))
heavy = sorted(m for m in sys.modules if m.split(".")[0] in ("onnxruntime", "pymupdf4llm", "pymupdf_layout",
               "torch", "marker", "numpy"))
print(json.dumps({"sections": len(doc.meta.sections), "heavy": heavy, "network": events}))
"""


# Loaded by every child Python (sitecustomize): writes each name lookup or connection that is not
# to this machine, from any thread, to the file $NET_LOG.
NETWATCH = """
import json, os, sys
LOCAL = {None, "", "localhost", "127.0.0.1", "::1", b"localhost", b"127.0.0.1"}
def hook(event, args):
    if event in ("socket.getaddrinfo", "socket.gethostbyname"):
        host = args[0]
    elif event == "socket.connect":
        host = args[1][0] if isinstance(args[1], tuple) else None  # a Unix socket path stays local
    else:
        return
    if host not in LOCAL:
        with open(os.environ["NET_LOG"], "a", encoding="utf-8") as log:
            log.write(json.dumps([event, repr(host), sys.argv[:3]]) + "\\n")
sys.addaudithook(hook)
"""


def empty_home_env(home: Path) -> dict[str, str]:
    """The child's environment: HOME and every XDG base directory inside one empty folder, network watched.

    The watch (``NETWATCH``) lives beside HOME, never in it; its log is ``<home>.net.log``.
    """
    watch = home.parent / f"{home.name}.netwatch"
    watch.mkdir(exist_ok=True)
    (watch / "sitecustomize.py").write_text(NETWATCH, encoding="utf-8")
    env = child_env(HOME=str(home), USERPROFILE=str(home), NET_LOG=str(net_log(home)))
    env["PYTHONPATH"] = str(watch) + os.pathsep + env["PYTHONPATH"]
    for name, sub in (("XDG_CACHE_HOME", ".cache"), ("XDG_CONFIG_HOME", ".config"), ("XDG_DATA_HOME", ".local/share"),
                      ("XDG_STATE_HOME", ".local/state"), ("XDG_RUNTIME_DIR", "run")):  # fmt: skip
        env[name] = str(home / sub)
    for name in ("GIT_CONFIG_GLOBAL", "HF_HOME", "HF_HUB_CACHE", "DOCSHELF_SHELF"):
        env.pop(name, None)
    return env


def docshelf(env: dict[str, str], *args: str) -> subprocess.CompletedProcess[str]:
    proc = subprocess.run(
        [sys.executable, "-m", "docshelf", *args],
        capture_output=True,
        text=True,
        encoding="utf-8",
        env=env,
        timeout=300,
    )
    assert proc.returncode == 0, proc.stderr
    return proc


def net_log(home: Path) -> Path:
    return home.parent / f"{home.name}.net.log"


def contents(home: Path) -> list[str]:
    return sorted(str(p.relative_to(home)) for p in home.rglob("*"))


@pytest.fixture
def home(tmp_path: Path) -> Path:
    path = tmp_path / "home"
    path.mkdir()
    return path


@pytest.fixture
def shelf_dir(tmp_path: Path, home: Path) -> Path:
    root = tmp_path / "shelf"
    docshelf(empty_home_env(home), "init", str(root), "--name", "Perimeter")
    return root


@pytest.fixture
def served(shelf_dir: Path, home: Path) -> Iterator[int]:
    docshelf(empty_home_env(home), "add", str(DEMO_PDF), "--shelf", str(shelf_dir), "--category", "laws")
    port = free_port()
    proc = subprocess.Popen(
        [sys.executable, "-m", "docshelf", "serve", "--shelf", str(shelf_dir), "--transport=http", f"--port={port}"],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        text=True,
        encoding="utf-8",
        env=empty_home_env(home),
    )
    try:
        url = f"http://127.0.0.1:{port}/healthz"
        wait_until_ready(proc, lambda: httpx2.get(url, timeout=HANG_S).status_code == 200, "docshelf serve")
        yield port
    finally:
        stop(proc)


def test_add_search_and_serve_write_and_look_up_nothing_outside(shelf_dir: Path, home: Path, served: int) -> None:
    env = empty_home_env(home)
    if encoder.available():  # docshelf[encoder]: its vectors go to the shelf's cache, its search reranks by them
        assert "embedded" in docshelf(env, "embed", "--shelf", str(shelf_dir)).stdout
    hits = json.loads(docshelf(env, "search", "тестовые данные", "--shelf", str(shelf_dir), "--json").stdout)
    assert hits["hits"], hits
    call = {"jsonrpc": "2.0", "id": 1, "method": "tools/call", "params": {"name": "read_index", "arguments": {}}}
    answer = httpx2.post(f"http://127.0.0.1:{served}/mcp", json=call, headers=HEADERS, timeout=HANG_S)
    assert answer.status_code == 200, answer.text
    assert answer.json()["result"]["structuredContent"]["commit"] == hits["commit"]
    assert contents(home) == []
    assert not net_log(home).exists(), net_log(home).read_text(encoding="utf-8")


def test_import_and_conversion_load_no_ml_runtime_and_look_nothing_up(tmp_path: Path) -> None:
    proc = subprocess.run(
        [sys.executable, "-c", PROBE, str(DEMO_PDF)],
        capture_output=True,
        text=True,
        encoding="utf-8",
        env=empty_home_env(tmp_path),
        timeout=HANG_S,
        cwd=tmp_path,
    )
    assert proc.returncode == 0, proc.stderr
    report = json.loads(proc.stdout)
    assert report["sections"] > 1
    assert report["heavy"] == []
    assert report["network"] == []


def test_layout_engine_without_its_extra_names_the_extra(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "pymupdf4llm", None)  # what an install without docshelf[layout] sees
    with pytest.raises(MissingDependencyError, match=r"pip install 'docshelf\[layout\]'"):
        convert_pdf_layout(DEMO_PDF.read_bytes(), name="demo.pdf")
