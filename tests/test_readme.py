"""Every ``docshelf`` command shown in README.md runs, in the README's order, and says what the README says.

The README builds ``my-shelf`` from real regulations (``ФЗ152.pdf``, ``ПП 1119.pdf``, …): they are
copied from the corpus beside the checkout under the README's file names, so the test skips
cleanly where the corpus is absent. ``docshelf demo`` builds its shelf from the demo documents the
package carries. Each README command needs an entry in ``CHECKS`` (what its output must show) or
in ``SKIPS`` (why it cannot run here); a command with neither fails the test, so a new example
cannot go untested.
"""

from __future__ import annotations

import json
import re
import shlex
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import httpx2
import pytest
from mcp import Client
from mcp.client.stdio import StdioServerParameters, stdio_client
from server_support import HANG_S, child_env, free_port, http_server, write_launcher

REPO = Path(__file__).resolve().parents[1]
CORPUS = REPO.parent / "shared" / "corpus" / "ru-regulations"
SOURCES = {
    "ФЗ152.pdf": "ale88andr__obs-vault/ФЗ152.pdf",
    "ПП 1119.pdf": "ale88andr__obs-vault/ПП 1119.pdf",
    "order239.pdf": "ale88andr__obs-vault/ФСТЭК239.pdf",
    "order17.html": "KonstantinElfimow__information_security_requirements/index_order.html",
    "152fz-2024.docx": "vladimir-chernikin__normative-docs-qa/Федеральный закон от 27.07.2006 № 152-ФЗ-О "
    "персональных данных.docx",
}
OK_QUOTE = "Оператор обязан принимать меры, необходимые и достаточные для обеспечения выполнения обязанностей"
HTTP_SERVE = (
    "docshelf serve --shelf my-shelf --transport http --host 0.0.0.0 --port 8765 --tokens tokens.json "
    "--allowed-host docshelf.corp.local --follow main"
)
SKIPS = {
    "docshelf eval bench/search_queries.jsonl --shelf corpus-shelf": "needs the corpus shelf bench/search.py builds "
    "(minutes); tests/test_evaluate.py runs eval",
    HTTP_SERVE: "binds every interface on the fixed port 8765; before `audit` this test serves the same options "
    "on a free loopback port and makes one call as analyst-1",
    "docshelf web --shelf my-shelf": "a long-running server; tests/test_web*.py drive the desk",
    "docshelf embed --shelf my-shelf": "embeds every section of the README's shelf (minutes, and its later searches "
    "would be reordered); tests/test_encoder.py runs embed and the rerank on a small shelf",
    "docshelf web --shelf my-shelf --host 0.0.0.0 --port 8766 --tokens tokens.json --allowed-host "
    "docshelf.corp.local": "binds every interface; tests/test_web*.py drive the desk with tokens",
}


class Run:
    """One README command's result."""

    def __init__(self, proc: subprocess.CompletedProcess[str]) -> None:
        self.code, self.out, self.err = proc.returncode, proc.stdout, proc.stderr

    def json(self) -> Any:
        return json.loads(self.out)


def _ok(run: Run, *words: str) -> None:
    assert run.code == 0, run.err
    for word in words:
        assert word in run.out + run.err, word


def _read_index_json(run: Run) -> None:
    _ok(run)
    data = run.json()
    assert {"commit", "path", "text"} <= set(data) and data["path"] == "docs/laws/152-fz/subindex.md"


def _fetch_article_19(run: Run) -> None:
    _ok(run)
    data = run.json()
    assert data["clauses"] == ["ст. 19"] and data["title"].endswith("(ч. 1–4)") and "\n1. " in data["text"]


def _search_abroad(run: Run) -> None:
    _ok(run)
    first = run.out.splitlines()[1]
    assert first.startswith("1. Статья 12. Трансграничная передача") and "[152-ФЗ · ст. 12" in first


def _search_quoted(run: Run) -> None:
    _ok(run)
    assert "as quoted" not in run.out  # the README's shelf says the phrase: every hit holds it together
    first = run.out.split("\n2. ")[0].lower()
    assert "срок хранения" in first or "сроки хранения" in first


def _search_without(run: Run) -> None:
    _ok(run, "Excluded «биометрических»")
    _header, note, hits = run.out.split("\n", 2)
    assert note.startswith("Excluded") and "1. " in hits and "биометрическ" not in hits.lower()  # in no hit


def _search_upd1(run: Run) -> None:
    _ok(run)
    [hit, *_] = run.json()["hits"]
    assert "prikaz-fstek-239" in hit["path"] and "| УПД.1 |" in hit["snippet"]


def _diff(run: Run) -> None:
    _ok(run, "152-ФЗ")
    assert re.search(r"^\s+\+ ст\. 19 ч\. 2 п\. 3\.1 ", run.out, re.M), run.out


def _verdict(verdict: str) -> Callable[[Run], None]:
    def check(run: Run) -> None:
        _ok(run)
        assert run.out.startswith(f"{verdict}:"), run.out

    return check


def _audit(run: Run) -> None:
    _ok(run)
    lines = [line.split("\t") for line in run.out.splitlines()]
    assert lines and all(cells[1] == "analyst-1" for cells in lines)
    assert "1 record(s)" in run.err


def _fetch_by_ref(run: Run) -> None:
    _ok(run)
    got = run.json()
    assert (got["clause"], got["level"]) == ("ст. 19 ч. 2", "clause")
    assert got["text"].startswith("2. ") and got["span"][1] - got["span"][0] >= len(got["text"])


def _convert_sections(run: Run) -> None:
    _ok(run)
    rows = [line.split("\t") for line in run.out.splitlines()]
    assert any(r[1] == "ст. 19" for r in rows) and all(r[0].startswith("docs/") for r in rows)


def _stdio_config(run: Run) -> None:
    _ok(run, "paste into")
    entry = json.loads(run.out)["mcpServers"]["docshelf"]
    assert Path(entry["command"]).is_absolute() and Path(entry["args"][-1]).is_absolute()


def _http_config(run: Run) -> None:
    _ok(run, "DOCSHELF_TOKEN")
    entry = json.loads(run.out)["mcpServers"]["docshelf"]
    assert entry["url"] == "http://docshelf.corp.local:8765/mcp"
    assert entry["headers"] == {"Authorization": "Bearer ${env:DOCSHELF_TOKEN}"}


CHECKS: dict[str, Callable[[Run], None]] = {
    "docshelf demo": lambda run: _ok(run, "verify_quote", "ok", "not_found"),
    "docshelf init my-shelf --name 'ИБ: нормативная база'": lambda run: _ok(run, "Created shelf my-shelf"),
    "docshelf add 'ФЗ152.pdf' --shelf my-shelf --category laws --id '152-ФЗ'": lambda run: _ok(
        run, "152-ФЗ\tdocs/laws/152-fz/subindex.md"
    ),
    "docshelf add 'ПП 1119.pdf' order239.pdf --shelf my-shelf --category acts": lambda run: _ok(
        run, "ПП 1119\tdocs/acts/pp-1119/", "Приказ ФСТЭК № 239\tdocs/acts/prikaz-fstek-239/"
    ),
    "docshelf convert 'ФЗ152.pdf' --sections": _convert_sections,
    "docshelf doctor": lambda run: _ok(run, "ok   Python", "ok   Git"),
    "docshelf check --shelf my-shelf": lambda run: _ok(run, "ok: no problems"),
    "docshelf rebuild --shelf my-shelf": lambda run: _ok(run, "rebuilt: no changes"),
    "docshelf read-index --shelf my-shelf": lambda run: _ok(run, "# ИБ: нормативная база", "docs/laws/152-fz/"),
    "docshelf read-index docs/laws/152-fz --shelf my-shelf --json": _read_index_json,
    "docshelf fetch docs/laws/152-fz/028-statia-19-mery-po-obespecheniiu-b-ch-1-4.md --at 'HEAD~1' --json": (
        _fetch_article_19
    ),
    "docshelf fetch --ref '152-ФЗ ч. 2 ст. 19' --shelf my-shelf --json": _fetch_by_ref,
    "docshelf search 'можно ли передавать данные за рубеж' --shelf my-shelf": _search_abroad,
    "docshelf search 'УПД.1' --doc 'Приказ ФСТЭК № 239' --json": _search_upd1,
    """docshelf search '"срок хранения" персональных данных' --shelf my-shelf""": _search_quoted,
    "docshelf search 'согласие на обработку -биометрических' --shelf my-shelf": _search_without,
    "docshelf add order17.html --category acts --id 'Приказ ФСТЭК № 17' --valid-to 2026-03-01 --replaced-by "
    "'ext:Приказ ФСТЭК № 117'": lambda run: _ok(run, "Приказ ФСТЭК № 17\tdocs/acts/prikaz-fstek-17/"),
    "docshelf add 152fz-2024.docx --id '152-ФЗ' --update --valid-from 2024-08-08": lambda run: _ok(
        run, "152-ФЗ\tdocs/laws/152-fz/subindex.md"
    ),
    "docshelf fetch docs/acts/prikaz-fstek-17/003-i-obshchie-polozheniia.md --as-of 2026-11-30": lambda run: _ok(
        run, "не действует: утратил силу 01.03.2026", "Приказ ФСТЭК № 117"
    ),
    "docshelf history '152-ФЗ'": lambda run: _ok(run, "Update 152-ФЗ", "Add 152-ФЗ"),
    "docshelf diff 'HEAD~1' HEAD '152-ФЗ'": _diff,
    f"docshelf verify-quote '{OK_QUOTE}' --ref '152-ФЗ ст. 18.1 ч. 1' --shelf my-shelf": _verdict("ok"),
    f"docshelf verify-quote '{OK_QUOTE.replace('обязан ', 'вправе ')}' --ref '152-ФЗ ст. 18.1 ч. 1'": _verdict(
        "not_found"
    ),
    "docshelf verify-quote --batch answer-quotes.jsonl --check": lambda run: _ok(run, "PASS"),
    "docshelf serve --shelf my-shelf": lambda run: _ok(run, "# ИБ: нормативная база"),
    "docshelf token add analyst-1 --tokens tokens.json": lambda run: _ok(run, "dsk_"),
    "docshelf audit --log my-shelf/.docshelf/audit.jsonl --since 1d --client analyst-1": _audit,
    "docshelf config claude-desktop --shelf my-shelf": _stdio_config,
    "docshelf config cursor --url http://docshelf.corp.local:8765/mcp": _http_config,
}


def readme_commands() -> list[str]:
    """Every ``docshelf`` command in the README's bash blocks, continuation lines joined, comments dropped."""
    text = (REPO / "README.md").read_text(encoding="utf-8")
    commands = []
    for block in re.findall(r"```bash\n(.*?)```", text, re.S):
        for line in block.replace("\\\n", " ").splitlines():
            found = re.search(r"(?:^|&& |\.venv/bin/)(docshelf .*)$", line.strip())
            if found:
                commands.append(shlex.join(shlex.split(found.group(1), comments=True)))
    return commands


def test_every_readme_command_has_a_check_or_a_reason() -> None:
    commands = readme_commands()
    assert [c for c in commands if c not in CHECKS and c not in SKIPS] == []
    assert [c for c in [*CHECKS, *SKIPS] if c not in commands] == []  # no check for an example that is gone


def _stdio_serve(argv: list[str], cwd: Path, env: dict[str, str]) -> Run:
    """``docshelf serve`` on stdio, driven by the real MCP client: one read_index call."""
    import anyio

    async def call() -> str:
        params = StdioServerParameters(command=sys.executable, args=["-m", *argv], env=env, cwd=str(cwd))
        async with Client(stdio_client(params)) as client:
            result = await client.call_tool("read_index", {})
        return "".join(getattr(c, "text", "") for c in result.content)

    return Run(subprocess.CompletedProcess(argv, 0, anyio.run(call), ""))


def _call_as_analyst(cwd: Path, token: str) -> None:
    """What the skipped HTTP example does for `audit` to find: one call as analyst-1, on a free loopback port."""
    port = free_port()
    args = ["--shelf", str(cwd / "my-shelf"), "--tokens", str(cwd / "tokens.json"), "--follow", "main"]
    with http_server(write_launcher(cwd), args, port):
        body = {"jsonrpc": "2.0", "id": 1, "method": "tools/call", "params": {"name": "read_index", "arguments": {}}}
        headers = {"Authorization": f"Bearer {token}", "Accept": "application/json, text/event-stream"}
        answer = httpx2.post(f"http://127.0.0.1:{port}/mcp", json=body, headers=headers, timeout=HANG_S)
        assert answer.status_code == 200, answer.text


def test_the_readme_commands_do_what_the_readme_says(tmp_path: Path) -> None:
    for name, rel in SOURCES.items():
        if not (CORPUS / rel).is_file():
            pytest.skip(f"the README's example documents come from ../shared/corpus, which lacks {rel}")
        (tmp_path / name).write_bytes((CORPUS / rel).read_bytes())
    (tmp_path / "answer-quotes.jsonl").write_text(
        json.dumps({"quote": OK_QUOTE, "ref": "152-ФЗ ст. 18.1 ч. 1"}, ensure_ascii=False) + "\n", encoding="utf-8"
    )
    env = child_env(DOCSHELF_SHELF=str(tmp_path / "my-shelf"))
    failures: list[str] = []
    token = ""
    for command in readme_commands():
        if command in SKIPS:
            continue
        argv = shlex.split(command)
        if command == "docshelf serve --shelf my-shelf":
            run = _stdio_serve(argv, tmp_path, env)
        else:
            if argv[1] == "audit":
                _call_as_analyst(tmp_path, token)
            proc = subprocess.run([sys.executable, "-m", *argv], capture_output=True, text=True, encoding="utf-8",
                                  env=env, cwd=tmp_path, timeout=600)  # fmt: skip
            run = Run(proc)
        if argv[1:3] == ["token", "add"]:
            token = run.out.strip()
        try:
            CHECKS[command](run)
        except AssertionError as exc:
            failures.append(f"{command}\n  {exc}\n  stdout: {run.out[:400]!r}\n  stderr: {run.err[-400:]!r}")
    assert failures == [], "\n".join(failures)
