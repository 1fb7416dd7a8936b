"""The deployment files say what they promise: non-root, read-only, health-checked, options ``serve`` really has.

Docker is not needed for the static checks. The image build and smoke test run where a Docker
engine answers (``docker info``) and are skipped cleanly where it does not.
"""

from __future__ import annotations

import configparser
import re
import shlex
import shutil
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import httpx2
import pytest
import yaml
from server_support import HANG_S, free_port, http_server, make_small_shelf, write_launcher

from docshelf.cliprogress import counted, progress
from docshelf.server.auth import add_token
from docshelf.server.commands import serve

REPO = Path(__file__).resolve().parents[1]
SERVE_OPTIONS = {opt for p in serve.params for opt in p.opts}


def dockerfile() -> list[tuple[str, str]]:
    """(instruction, arguments) per Dockerfile instruction, continuation lines joined, comments dropped."""
    text = (REPO / "Dockerfile").read_text(encoding="utf-8")
    lines = [line for line in text.splitlines() if not line.lstrip().startswith("#")]
    joined = "\n".join(lines).replace("\\\n", " ")
    out = []
    for line in joined.splitlines():
        if line.strip():
            word, _, rest = line.strip().partition(" ")
            out.append((word.upper(), rest.strip()))
    return out


def compose() -> dict[str, Any]:
    data: dict[str, Any] = yaml.safe_load((REPO / "compose.yaml").read_text(encoding="utf-8"))
    return data


def serve_args(argv: list[str]) -> list[str]:
    """The options of a ``docshelf serve`` command line (after ``serve``)."""
    return [a.split("=", 1)[0] for a in argv[argv.index("serve") + 1 :] if a.startswith("--")]


def test_the_image_runs_as_a_non_root_user_with_the_shelf_as_a_volume_and_a_healthcheck() -> None:
    steps = dockerfile()
    users = [args for word, args in steps if word == "USER"]
    assert users and users[-1].split(":")[0] not in ("root", "0")
    [health] = [args for word, args in steps if word == "HEALTHCHECK"]
    assert "/healthz" in health
    assert any(word == "VOLUME" and "/shelf" in args for word, args in steps)
    [cmd] = [args for word, args in steps if word == "CMD"]
    argv = yaml.safe_load(cmd)  # exec form: a JSON list
    assert set(serve_args(argv)) <= SERVE_OPTIONS and "--audit-log" in argv


def test_compose_runs_a_git_server_two_read_only_replicas_and_a_tls_proxy() -> None:
    services = compose()["services"]
    replicas = {name: s for name, s in services.items() if "serve" in (s.get("command") or [])}
    assert len(replicas) >= 2
    for service in replicas.values():
        assert service["read_only"] is True and "/tmp" in service["tmpfs"]
        assert set(serve_args(service["command"])) <= SERVE_OPTIONS
        assert "--follow" in service["command"] and "--tokens" in service["command"]
        assert service["environment"]["DOCSHELF_REMOTE"].startswith("git://git/")
    assert "daemon" in services["git"]["entrypoint"]
    assert "443:443" in services["proxy"]["ports"]
    caddy = (REPO / "deploy" / "Caddyfile").read_text(encoding="utf-8")
    for name in replicas:
        assert f"{name}:8765" in caddy
    assert "health_uri /readyz" in caddy and "tls " in caddy


def test_the_systemd_unit_serves_with_real_options_and_is_sandboxed() -> None:
    unit = configparser.ConfigParser(strict=False, interpolation=None)
    unit.optionxform = str  # type: ignore[assignment,method-assign]
    unit.read_string((REPO / "deploy" / "docshelf.service").read_text(encoding="utf-8").replace("\\\n", " "))
    service = unit["Service"]
    argv = shlex.split(service["ExecStart"])
    assert argv[0].endswith("/docshelf") and set(serve_args(argv)) <= SERVE_OPTIONS
    assert service["User"] not in ("root", "0")
    assert service["NoNewPrivileges"] == "yes" and service["ProtectSystem"] == "strict"
    assert "HUP" in service["ExecReload"]


def _docker_ok() -> bool:
    if shutil.which("docker") is None:
        return False
    return subprocess.run(["docker", "info"], capture_output=True, timeout=HANG_S, check=False).returncode == 0


@pytest.mark.skipif(not _docker_ok(), reason="no Docker engine here (docker info failed)")
def test_the_image_builds_and_serves_a_shelf_read_only(tmp_path: Path) -> None:
    root = make_small_shelf(tmp_path / "shelf")
    subprocess.run(["docker", "build", "-t", "docshelf:test", str(REPO)], check=True, timeout=1800)
    port = free_port()
    name = f"docshelf-test-{port}"
    run = [
        "docker",
        "run",
        "-d",
        "--rm",
        "--name",
        name,
        "--read-only",
        "--tmpfs",
        "/tmp",
        "--user",
        f"{root.stat().st_uid}:{root.stat().st_gid}",
        "-v",
        f"{root}:/shelf",
        "-p",
        f"127.0.0.1:{port}:8765",
        "docshelf:test",
        "serve",
        "--transport",
        "http",
        "--host",
        "0.0.0.0",
        "--port",
        "8765",
        "--allowed-host",
        "127.0.0.1",
        "--tokens",
        "/shelf/.docshelf/tokens.json",
        "--audit-log",
        "-",
    ]
    add_token(root / ".docshelf" / "tokens.json", "smoke")
    subprocess.run(run, check=True, timeout=HANG_S, capture_output=True)
    try:
        deadline = time.monotonic() + HANG_S
        while True:
            try:
                health = httpx2.get(f"http://127.0.0.1:{port}/healthz", timeout=HANG_S)
                break
            except httpx2.TransportError:
                assert time.monotonic() < deadline, "the container did not come up"
                time.sleep(0.5)
        assert health.status_code == 200 and len(health.json()["commit"]) == 40
    finally:
        subprocess.run(["docker", "rm", "-f", name], capture_output=True, timeout=HANG_S, check=False)


def test_progress_is_plain_lines_off_a_terminal(capsys: pytest.CaptureFixture[str]) -> None:
    lines = ["[1/2] converting a.pdf (10 KB)…", "      warning: x", "[2/2] converting b.pdf (12 KB)…"]
    with progress(interactive=False) as say:
        for line in lines:
            say(line)
    assert capsys.readouterr() == ("", "\n".join(lines) + "\n")


def test_progress_of_several_documents_is_a_bar_with_the_details_above_it(capsys: pytest.CaptureFixture[str]) -> None:
    with progress(interactive=True) as say:
        say("[1/3] converting a.pdf (10 KB)…")
        say("      warning: the contents list names ст. 9, which is missing")
        say("[2/3] converting b.pdf (12 KB)…")
        say("[3/3] converting c.pdf (1 KB)…")
    out, err = capsys.readouterr()
    assert out == "" and "warning: the contents list names ст. 9" in err
    assert "[1/3]" not in err  # the steps drive the bar instead of printing lines


def test_progress_of_one_document_stays_plain(capsys: pytest.CaptureFixture[str]) -> None:
    with progress(interactive=True) as say:
        say("[1/1] converting a.pdf (10 KB)…")
    assert capsys.readouterr().err == "[1/1] converting a.pdf (10 KB)…\n"


def test_counted_progress_starts_before_the_work_and_moves_each_percent() -> None:
    said: list[str] = []
    tick = counted(said.append, "embedding section texts…")
    for done in range(251):
        tick(done, 250)
    assert said[0] == "[1/250] embedding section texts…"  # before the first text: the bar's clock starts here
    assert said[1] == "[3/250] embedding section texts…" and said[-1] == "[249/250] embedding section texts…"
    assert len(said) == 125  # every 2 texts of 250: a hundred-odd lines, never one a text


def test_embed_reports_progress_before_its_first_text(tmp_path: Path) -> None:
    from docshelf.text import encoder

    if not encoder.available():
        pytest.skip("docshelf[encoder] is not installed")
    root = make_small_shelf(tmp_path / "shelf")
    calls: list[tuple[int, int]] = []
    done, _had = encoder.embed_commit(root, "HEAD", lambda n, total: calls.append((n, total)), jobs=1)
    assert done >= 1 and calls[0] == (0, done) and calls[-1] == (done, done)


def test_the_tokens_folder_is_mounted_not_the_file_and_the_proxy_is_hardened_like_the_replicas() -> None:
    """A single-file bind mount keeps the inode it was given: an atomically replaced tokens file (a revoked
    token) would stay valid in the container. The replicas mount the folder that holds it."""
    doc = compose()
    services = doc["services"]
    assert "secrets" not in doc
    for name in ("replica-1", "replica-2"):
        service = services[name]
        tokens = service["command"][service["command"].index("--tokens") + 1]
        mounts = {v.split(":")[1]: v.split(":")[2:] for v in service["volumes"]}  # target -> [mode]
        assert mounts[tokens.rpartition("/")[0]] == ["ro"]  # the folder, read-only
    [cmd] = [args for word, args in dockerfile() if word == "CMD"]
    assert "/run/docshelf/tokens.json" in yaml.safe_load(cmd)
    proxy = services["proxy"]
    assert proxy["read_only"] is True and proxy["cap_drop"] == ["ALL"] and proxy["cap_add"] == ["NET_BIND_SERVICE"]
    caddy = proxy["networks"]["internal"]["ipv4_address"]
    for name in ("replica-1", "replica-2"):  # the replicas trust exactly the proxy's fixed address
        command = services[name]["command"]
        assert command[command.index("--trusted-proxy") + 1] == caddy
    assert proxy["security_opt"] == ["no-new-privileges:true"]


@pytest.mark.skipif(shutil.which("systemd-analyze") is None, reason="no systemd-analyze here")
def test_the_systemd_unit_scores_below_one_in_systemd_analyze_security() -> None:
    unit = REPO / "deploy" / "docshelf.service"
    res = subprocess.run(["systemd-analyze", "security", "--offline=true", str(unit)], capture_output=True,
                         text=True, encoding="utf-8", timeout=HANG_S)  # fmt: skip
    found = re.search(r"Overall exposure level for docshelf\.service: (\d+\.\d)", res.stdout)
    assert found is not None, res.stdout + res.stderr
    assert float(found.group(1)) < 1.0, res.stdout


def _refuse_exec_gain() -> bool:
    import ctypes

    try:
        return ctypes.CDLL(None).prctl(65, 1, 0, 0, 0) == 0  # PR_SET_MDWE, PR_MDWE_REFUSE_EXEC_GAIN
    except (OSError, AttributeError):
        return False


def test_the_server_answers_with_memory_deny_write_execute(tmp_path: Path) -> None:
    """The unit sets MemoryDenyWriteExecute=yes: the server (Python, SQLite FTS5, the stemmer, Git) must run
    where no memory may be both written and executed. Linux's PR_SET_MDWE sets the same rule on a process."""
    probe = subprocess.run([sys.executable, "-c", f"import sys; sys.path.insert(0, {str(REPO / 'tests')!r}); "
                            "import test_server_ops_deploy as t; sys.exit(0 if t._refuse_exec_gain() else 1)"],
                           capture_output=True, timeout=HANG_S)  # fmt: skip
    if probe.returncode != 0:
        pytest.skip("this kernel has no PR_SET_MDWE (Linux 6.3+)")
    root = make_small_shelf(tmp_path / "shelf")
    launcher = write_launcher(tmp_path)
    guarded = tmp_path / "mdwe_launcher.py"
    guarded.write_text(
        "import ctypes, runpy, sys\n"
        "assert ctypes.CDLL(None).prctl(65, 1, 0, 0, 0) == 0\n"
        f"sys.argv[0] = {str(launcher)!r}\n"
        f"runpy.run_path({str(launcher)!r}, run_name='__main__')\n",
        encoding="utf-8",
    )
    port = free_port()
    with http_server(guarded, ["--shelf", str(root), "--audit-log", str(tmp_path / "audit.jsonl")], port):
        for name, arguments in (("search", {"query": "срок хранения"}), ("read_index", {})):
            call = {"jsonrpc": "2.0", "id": 1, "method": "tools/call", "params": {"name": name, "arguments": arguments}}
            answer = httpx2.post(f"http://127.0.0.1:{port}/mcp", json=call, timeout=HANG_S,
                                 headers={"Accept": "application/json, text/event-stream"})  # fmt: skip
            assert answer.status_code == 200 and not answer.json()["result"]["isError"], answer.text
