"""The CLI as a user runs it: exit codes, one-line errors, clean stdout, JSON shapes."""

from __future__ import annotations

import json
import os
import shlex
import subprocess
import sys
from pathlib import Path

import pytest

from docshelf.shelf import reader


def run(*args: str, cwd: Path | None = None, env: dict[str, str] | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "docshelf", *args],
        capture_output=True,
        text=True,
        encoding="utf-8",
        cwd=cwd,
        env={**os.environ, **(env or {})},
        timeout=300,
    )


def test_help_lists_every_command() -> None:
    res = run("--help")
    assert res.returncode == 0
    for command in ("init", "add", "rebuild", "check", "read-index", "fetch", "demo"):
        assert command in res.stdout


def test_usage_error_exits_2() -> None:
    res = run("add")
    assert res.returncode == 2 and "Usage" in res.stderr


def test_init_add_read_fetch_check(tmp_path: Path, regulation_pdf: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    root = tmp_path / "shelf"
    assert run("init", str(root), "--name", "Мой стеллаж").returncode == 0
    res = run("add", str(regulation_pdf), "--shelf", str(root), "--category", "laws", "--id", "999-ФЗ")
    assert res.returncode == 0, res.stderr
    assert res.stdout.startswith("999-ФЗ\tdocs/laws/999-fz/subindex.md\t")
    assert "converting regulation.pdf" in res.stderr  # progress goes to stderr
    index = json.loads(run("read-index", "--json", cwd=root).stdout)
    assert {"commit", "path", "text", "sha256"} <= set(index) and index["text"].startswith("# Мой стеллаж")
    sub = run("read-index", "docs/laws/999-fz/subindex.md", "--shelf", str(root)).stdout
    section = next(line.split("](")[1].split(")")[0] for line in sub.splitlines() if "ст. 3 " in line)
    assert section.startswith("/docs/laws/999-fz/")  # a subindex link is the path fetch takes, as written
    fetched = json.loads(run("fetch", section, "--json", "--shelf", str(root)).stdout)
    assert {"commit", "path", "title", "clauses", "text", "sha256", "next_start"} <= set(fetched)
    assert fetched["clauses"] == ["ст. 3"] and fetched["commit"] == index["commit"]
    assert fetched == reader.fetch(root, section).to_dict()  # CLI is a thin face
    env = {"DOCSHELF_SHELF": str(root)}
    assert run("check", env=env).returncode == 0
    assert run("rebuild", env=env).stdout.strip() == "rebuilt: no changes"
    # `add` stored the normalized text of what it committed: a server's first scan of the commit normalizes nothing.
    from docshelf.shelf import gitrepo
    from docshelf.text import normstore, verify

    made: list[str] = []
    real = normstore.normalize_text
    monkeypatch.setattr(normstore, "normalize_text", lambda text: made.append(text) or real(text))
    scanned = verify._shelf_text(root, gitrepo.resolve(root))
    assert made == [] and len(scanned.paths) == len(reader.metas_at(root, gitrepo.resolve(root))[0].sections) > 1


@pytest.mark.parametrize(
    ("args", "words"),
    [
        (["fetch", "../../etc/passwd"], "leaves the shelf"),
        (["read-index", "--at", "--output=x"], "Invalid ref"),
        (["read-index", "--at", "nosuchbranch"], "Unknown commit"),
        (["add", "nothing.pdf"], "no such file"),
    ],
)
def test_errors_are_one_line_and_exit_1(regulation_shelf: Path, args: list[str], words: str) -> None:
    res = run(*args, "--shelf", str(regulation_shelf))
    assert res.returncode == 1
    assert res.stderr.startswith("Error: ") and words in res.stderr
    assert "Traceback" not in res.stderr and res.stdout == ""


def test_not_a_shelf(tmp_path: Path) -> None:
    res = run("read-index", "--shelf", str(tmp_path))
    assert res.returncode == 1 and "docshelf init" in res.stderr


def test_check_exit_code_on_problem(tmp_path: Path, regulation_pdf: Path) -> None:
    root = tmp_path / "s"
    run("init", str(root))
    run("add", str(regulation_pdf), "--shelf", str(root))
    (root / "docs" / "general" / "orphan.md").write_text("# x\n", encoding="utf-8")
    res = run("check", "--shelf", str(root))
    assert res.returncode == 1 and "orphan" in res.stdout


def test_demo_runs(tmp_path: Path) -> None:
    res = run("demo", "--dir", str(tmp_path / "demo"))
    assert res.returncode == 0, res.stderr
    out = res.stdout
    assert "== read_index {}" in out and "== fetch {'path': '/docs/laws/999-fz/" in out
    verdicts = [line for line in out.splitlines() if line.startswith("verdict: ")]
    assert [v.split()[1] for v in verdicts] == ["ok", "not_found"]  # the honest quote, then the altered one
    assert "bytes of Markdown" in out
    # The next command it suggests runs as printed, from a shell where the venv is not activated.
    (hint,) = [line for line in out.splitlines() if line.startswith("Explore it: ")]
    explore = shlex.split(hint.removeprefix("Explore it: ").split("   ·   ")[0])
    bare = {k: v for k, v in os.environ.items() if k not in ("VIRTUAL_ENV", "PYTHONHOME")}
    walked = subprocess.run(explore, capture_output=True, text=True, encoding="utf-8", timeout=300,
                            env={**bare, "PATH": "/usr/bin:/bin"})  # fmt: skip
    assert walked.returncode == 0 and walked.stdout.startswith("# "), walked.stderr


VERBS_WITH_A_FILE = [
    ["audit", "--log"],
    ["eval", "--shelf", "{shelf}"],
    ["verify-quote", "--shelf", "{shelf}", "--batch"],
    ["token", "list", "--tokens"],
    ["add", "--shelf", "{shelf}", "--no-commit"],
]


@pytest.mark.parametrize("kind", ["binary", "too long a name", "unreadable"])
@pytest.mark.parametrize("verb", VERBS_WITH_A_FILE, ids=lambda v: v[0])
def test_every_verb_that_takes_a_file_answers_a_bad_one_with_one_error_line(
    tmp_path: Path, verb: list[str], kind: str
) -> None:
    if kind == "unreadable" and os.geteuid() == 0:
        pytest.skip("root reads a file whatever its mode")
    shelf = tmp_path / "shelf"
    assert run("init", str(shelf)).returncode == 0
    bad = tmp_path / ("x" * 300 if kind == "too long a name" else "given.jsonl")
    if kind != "too long a name":
        bad.write_bytes(bytes(range(128, 256)) * 4)  # not UTF-8
        if kind == "unreadable":
            bad.chmod(0)
    args = [a.replace("{shelf}", str(shelf)) for a in verb]
    result = run(*args, str(bad)) if verb[0] not in ("eval",) else run(verb[0], str(bad), *args[1:])
    errors = [line for line in result.stderr.splitlines() if line.startswith("Error:")]
    assert result.returncode != 0 and len(errors) == 1 and "Traceback" not in result.stderr, result.stderr


def test_help_imports_no_library_part_a_command_does_not_use() -> None:
    """`docshelf --help` and every command's parsing import only click and the command modules: Git, the
    converters, the search engine and the MCP SDK are imported by the commands that use them."""
    probe = (
        "import sys, docshelf.cli; heavy = ('git', 'pymupdf', 'mcp', 'pydantic', 'uvicorn', 'starlette', "
        "'docshelf.text', 'docshelf.build', 'docshelf.shelf', 'docshelf.law', 'docshelf.convert'); "
        "print(sorted(m for m in sys.modules if m.startswith(heavy)))"
    )
    res = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, encoding="utf-8", timeout=300)
    assert res.returncode == 0 and res.stdout.strip() == "[]", res.stdout + res.stderr


def test_every_json_flag_says_what_it_prints() -> None:
    import click

    from docshelf.cli import cli

    def commands(group: click.Group, prefix: str) -> list[tuple[str, click.Command]]:
        out: list[tuple[str, click.Command]] = []
        for name, command in group.commands.items():
            out.append((f"{prefix}{name}", command))
            if isinstance(command, click.Group):
                out += commands(command, f"{prefix}{name} ")
        return out

    flags = [(name, p) for name, c in commands(cli, "") for p in c.params if "--json" in getattr(p, "opts", [])]
    assert len(flags) >= 12
    assert [name for name, p in flags if not getattr(p, "help", None)] == []
