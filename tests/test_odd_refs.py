"""Every odd ``at``, ``ref`` and path gets an answer from the readable refs or an error that says what to do.

A generated list of revision-syntax and path inputs (reflog, upstream, peeling, ranges, paths in a
commit, message search, other refs, control and line-break characters, very long) goes through
the real MCP client. The verdict for each is known in advance: the readable refs (the served
branch and the tags, by default) and the commits in their history answer; everything else is a
tool error whose message explains itself — no traceback, no "Error executing tool".
"""

from __future__ import annotations

import itertools
import re
from typing import Any

import pytest
from click.testing import CliRunner
from mcp import Client
from server_support import doc_path, git, make_small_shelf, make_version

from docshelf import cli
from docshelf.errors import UnknownCommitError
from docshelf.server.app import create_server
from docshelf.server.pin import Pin, ReadableRefs
from docshelf.shelf import gitrepo

# An error explains itself when it says what to give or do instead.
ADVICE = re.compile(r"\b(Give|give|Use|use|Retry|Pass|Omit|omit|Read|read|List|Check|ask|Shorten|at most \d+)\b")
BASES = ["main", "v1", "HEAD", "@", "unreviewed", "origin/main", "refs/remotes/origin/main", "stash", "FETCH_HEAD"]
SUFFIXES = ["", "@{-1}", "@{yesterday}", "@{1.year.ago}", "@{0}", "@{u}", "@{push}", "^", "^{tree}", "^{/MARKER}",
            "~1", "^2", ":", ":../", ":index.md", "..main", "...v1", "\x00", "\u0085", "\u2028", "/", ".lock", "*",
            " ", "\n", "\t", "//x", "/..", ".", "@{-1}:../x"]  # fmt: skip
PREFIXES = ["", ":/", "-", "--", "^", "refs/", "refs/heads/", "refs/tags/", "../", "/", "~"]
PATHS = ["..", "../x.md", "docs/../../x.md", "docs/\x00.md", "docs/\u0085.md", "docs/\u2028x.md", "%2e%2e/x.md",
         "%252e%252e/x.md", "/etc/passwd", "C:\\x.md", "\\\\srv\\x.md", "docs//x.md", "~/x.md", "HEAD:index.md",
         ":/MARKER", "docs/internal/ptkh.md/..", "x" * 5000, "docs/" + "я" * 300 + ".md", ".git/config",
         ".docshelf/audit.jsonl", "docs/internal/ptkh.md@{-1}", "docs/internal/ptkh.md\x00"]  # fmt: skip


@pytest.fixture
def anyio_backend() -> str:
    return "asyncio"


@pytest.fixture(scope="module")
def shelf(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    """main with two commits and a tag; an unreviewed branch, a remote ref and a stash that ``at`` must not read."""
    root = make_small_shelf(tmp_path_factory.mktemp("odd") / "shelf")
    first = gitrepo.resolve(root)
    git(root, "tag", "v1")
    second = make_version(root, "V2")
    git(root, "checkout", "-q", "-b", "unreviewed")
    hidden = make_version(root, "UNREVIEWED")
    git(root, "checkout", "-q", "main")
    git(root, "update-ref", "refs/remotes/origin/main", hidden)
    (root / "index.md").write_text("stashed\n", encoding="utf-8")
    git(root, "stash", "-q")
    readable = {"main": second, "v1": first, "refs/heads/main": second, "refs/tags/v1": first, first: first,
                second: second, first[:10]: first, second[:7]: second}  # fmt: skip
    return {"root": root, "readable": readable, "hidden": hidden}


def ref_inputs(hidden: str) -> list[str]:
    odd = {p + b + s for p, b, s in itertools.product(PREFIXES, BASES, SUFFIXES)}
    odd |= {hidden, hidden[:10], "0" * 40, "deadbeef", "a" * 256, "v1" * 200, "\ufeffmain", "main\u0085"}
    return sorted(odd)


def explains(text: str) -> bool:
    # The SDK reports a DocShelfError as "Error executing tool NAME: <message>"; alone, that line
    # means an unexpected exception whose message was withheld.
    unexplained = re.fullmatch(r"Error executing tool \w+", text.strip()) is not None
    return "Traceback" not in text and not unexplained and bool(ADVICE.search(text))


@pytest.mark.anyio
async def test_every_odd_at_is_answered_from_a_readable_ref_or_refused_with_advice(shelf: dict[str, Any]) -> None:
    root, readable = shelf["root"], shelf["readable"]
    refs = ref_inputs(shelf["hidden"]) + list(readable)
    assert len(refs) >= 1000
    wrong: list[tuple[str, str]] = []
    async with Client(create_server(root, pin=Pin.at(root, "main"), audit=None)) as client:
        for at in refs:
            res = await client.call_tool("fetch", {"path": doc_path(root), "at": at})
            text = "".join(getattr(c, "text", "") for c in res.content)
            if at in readable:
                if res.is_error or res.structured_content["commit"] != readable[at]:
                    wrong.append((at, text[:200]))
            elif not res.is_error or not explains(text):
                wrong.append((at, text[:200]))
    assert wrong == []


@pytest.mark.anyio
async def test_every_odd_path_and_citation_is_refused_with_advice(shelf: dict[str, Any]) -> None:
    root = shelf["root"]
    calls = [("fetch", {"path": p}) for p in PATHS]
    calls += [("read_index", {"path": p}) for p in PATHS]
    calls += [("verify_quote", {"quote": "Оператор обязан хранить тестовые данные не более тридцати дней", "ref": p})
              for p in PATHS]  # fmt: skip
    wrong: list[tuple[str, str]] = []
    async with Client(create_server(root, pin=Pin.at(root), audit=None)) as client:
        for tool, args in calls:
            res = await client.call_tool(tool, args)
            text = "".join(getattr(c, "text", "") for c in res.content)
            verdict = (res.structured_content or {}).get("verdict")
            if tool == "verify_quote" and not res.is_error:
                if verdict != "unknown_ref":
                    wrong.append((f"{tool} {args}", text[:200]))
            elif not res.is_error or not explains(text):
                wrong.append((f"{tool} {args}", text[:200]))
    assert wrong == []


@pytest.mark.anyio
async def test_whitespace_around_a_path_is_trimmed_not_refused(shelf: dict[str, Any]) -> None:
    root = shelf["root"]
    async with Client(create_server(root, pin=Pin.at(root), audit=None)) as client:
        section = await client.call_tool("fetch", {"path": f"{doc_path(root)}\n"})
        index = await client.call_tool("read_index", {"path": " "})
    assert section.structured_content["path"] == doc_path(root) and index.structured_content["path"] == "index.md"


@pytest.mark.anyio
async def test_readable_refs_are_configurable(shelf: dict[str, Any]) -> None:
    root, hidden = shelf["root"], shelf["hidden"]
    readable = ReadableRefs(("refs/heads/unreviewed",))
    async with Client(create_server(root, pin=Pin.at(root, "main", readable=readable), audit=None)) as client:
        branch = await client.call_tool("read_index", {"at": "unreviewed"})
        by_sha = await client.call_tool("read_index", {"at": hidden})
        tag = await client.call_tool("read_index", {"at": "v1"})
    assert branch.structured_content["commit"] == hidden == by_sha.structured_content["commit"]
    assert tag.is_error and "refs/heads/unreviewed" in tag.content[0].text


def test_cli_at_explains_revision_syntax_it_cannot_read(shelf: dict[str, Any]) -> None:
    root = shelf["root"]
    # The CLI is the operator's own Git access: what Git reads works; what it cannot read is explained.
    for at in ("main@{yesterday}", "HEAD@{1.year.ago}", "HEAD:../", "main^{tree}", "@{-99}"):
        run = CliRunner().invoke(cli.cli, ["read-index", "--shelf", str(root), "--at", at])
        assert isinstance(run.exception, UnknownCommitError) and explains(str(run.exception)), (at, run.exception)
