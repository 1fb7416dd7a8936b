"""The fence: generated traversal and injection attempts through tool arguments and resource URIs; none escapes.

The shelf under attack has files outside it, a committed symlink to each of them (relative,
absolute, and a symlinked folder), an uncommitted working-tree file, and its own ``.git``. An
attempt "escapes" if any of their marker strings comes back, or a result names a path that is
not a file of the served commit.
"""

from __future__ import annotations

import itertools
import os
from pathlib import Path
from typing import Any

import pytest
from mcp import Client
from mcp.shared.exceptions import MCPError
from server_support import TOOL_NAMES, doc_path, git, make_small_shelf

from docshelf.server.app import create_server
from docshelf.server.pin import Pin
from docshelf.shelf import gitrepo

OUTSIDE = "TOPSECRET-OUTSIDE-7f3a"
WORKTREE = "WORKTREE-ONLY-91c2"
FORBIDDEN = (OUTSIDE, WORKTREE, "[core]", "repositoryformatversion", "root:x:0:0")


@pytest.fixture
def anyio_backend() -> str:
    return "asyncio"


@pytest.fixture(scope="module")
def target(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path]:
    base = tmp_path_factory.mktemp("fence")
    outside = base / "outside"
    outside.mkdir()
    (outside / "secret.md").write_text(f"# Secret\n\n{OUTSIDE}\n", encoding="utf-8")
    root = make_small_shelf(base / "shelf")
    links = root / "docs" / "internal"
    os.symlink("../../../outside/secret.md", links / "evil.md")
    os.symlink(str(outside / "secret.md"), links / "abs.md")
    os.symlink(str(outside), root / "docs" / "leakdir")
    gitrepo.commit(root, "Commit symlinks that point out of the shelf")
    assert "120000" in git(root, "ls-files", "-s", "docs/internal/evil.md")  # really committed as a symlink
    (links / "worktree.md").write_text(f"# Not committed\n\n{WORKTREE}\n", encoding="utf-8")
    return root, outside


def _bases(outside: Path) -> list[str]:
    secret = "outside/secret.md"
    return [
        f"../{secret}",
        f"../../{secret}",
        f"../../../{secret}",
        f"docs/../../{secret}",
        f"docs/internal/../../../{secret}",
        f"./../{secret}",
        f"docs/./../../{secret}",
        f"....//{secret}",
        f"..;/{secret}",
        f"docs/internal/ptkh.md/../../../../{secret}",
        str(outside / "secret.md"),
        "/etc/passwd",
        "~/secret.md",
        "~root/.ssh/id_rsa",
        "C:/Windows/win.ini",
        "c:\\windows\\win.ini",
        "\\\\server\\share\\secret.md",
        ".git/config",
        ".git/HEAD",
        "docs/../.git/config",
        "docs/internal/evil.md",
        "docs/internal/abs.md",
        "docs/leakdir/secret.md",
        "docs/internal/worktree.md",
        "file:///etc/passwd",
    ]


def _encodings(raw: str) -> list[str]:
    return [
        raw,
        raw.replace("..", "%2e%2e"),
        raw.replace("..", "%2E%2E").replace("/", "%2F"),
        raw.replace("..", "%252e%252e").replace("/", "%252f"),
        raw.replace("..", "%25252e%25252e"),
        raw.replace("/", "\\"),
        raw.replace("../", "..\\/"),
        raw + "\x00.md",
        raw.replace("/", "/\x00", 1),
        raw.replace("..", "．．").replace("/", "／"),  # fullwidth: NFKC would turn these into ../
        raw.replace("..", "%c0%ae%c0%ae"),  # overlong UTF-8
        " " + raw,
    ]


def attempts(outside: Path) -> list[str]:
    return list(dict.fromkeys(itertools.chain.from_iterable(_encodings(b) for b in _bases(outside))))


BAD_REFS = [
    "-h",
    "--output=/tmp/docshelf-pwned",
    "--upload-pack=touch /tmp/docshelf-pwned",
    "-c core.pager=sh",
    "HEAD\x00",
    "HEAD:../outside/secret.md",
    "HEAD:index.md",
    "HEAD^{tree}",
    ":/MARKER",
    "@{-1}",
    "main\nHEAD",
    "../../outside",
]


def _assert_contained(root: Path, commit: str | None, text: str, path: str | None) -> None:
    for marker in FORBIDDEN:
        assert marker not in text, f"escaped: {marker} came back"
    if path is not None:
        assert commit is not None and path in gitrepo.list_files(root, commit), f"{path} is not a shelf file"


@pytest.mark.anyio
async def test_tool_arguments_never_escape(target: tuple[Path, Path]) -> None:
    root, outside = target
    paths = attempts(outside)
    served: list[str] = []
    async with Client(create_server(root, pin=Pin.at(root), audit=None)) as client:
        for tool, path in itertools.product(("fetch", "read_index"), paths):
            res = await client.call_tool(tool, {"path": path})
            text = " ".join(getattr(c, "text", "") for c in res.content)
            data: dict[str, Any] = res.structured_content or {}
            _assert_contained(root, data.get("commit"), text + data.get("text", ""), data.get("path"))
            if not res.is_error:
                served.append(data["path"])
        for ref in BAD_REFS:
            res = await client.call_tool("fetch", {"path": doc_path(root), "at": ref})
            assert res.is_error, ref
    assert len(paths) * 2 + len(BAD_REFS) >= 200
    # The only successes are links served as what Git stores (the link target string), never their target's text.
    assert set(served) <= {"docs/internal/evil.md", "docs/internal/abs.md"}


@pytest.mark.anyio
async def test_resource_uris_never_escape(target: tuple[Path, Path]) -> None:
    root, outside = target
    uris = [f"shelf://{p}" for p in attempts(outside)]
    uris += [f"shelf://{doc_path(root)}?at={ref}" for ref in BAD_REFS]
    uris += [f"shelf:///{doc_path(root)}", f"shelf://{doc_path(root)}#../../x", "shelf://", "shelf://docs/"]
    ok = 0
    async with Client(create_server(root, pin=Pin.at(root), audit=None)) as client:
        for uri in uris:
            try:
                res = await client.read_resource(uri)
            except MCPError:
                continue
            ok += 1
            _assert_contained(root, None, "".join(getattr(c, "text", "") for c in res.contents), None)
    assert len(uris) >= 200
    assert ok <= 2  # at most the harmless shapes (an extra slash, a fragment) of a real file


@pytest.mark.anyio
async def test_symlinks_are_refused_as_resources_and_never_followed(target: tuple[Path, Path]) -> None:
    root, _ = target
    async with Client(create_server(root, pin=Pin.at(root), audit=None)) as client:
        for link in ("docs/internal/evil.md", "docs/internal/abs.md", "docs/leakdir/secret.md"):
            with pytest.raises(MCPError):
                await client.read_resource(f"shelf://{link}")
            res = await client.call_tool("fetch", {"path": link})
            assert OUTSIDE not in str(res.content) and OUTSIDE not in str(res.structured_content)


@pytest.mark.anyio
async def test_no_write_tools_and_the_working_tree_is_never_read(target: tuple[Path, Path]) -> None:
    root, _ = target
    before = git(root, "status", "--porcelain")
    async with Client(create_server(root, pin=Pin.at(root), audit=None)) as client:
        tools = (await client.list_tools()).tools
        missing = await client.call_tool("fetch", {"path": "docs/internal/worktree.md"})
    assert all(t.annotations and t.annotations.read_only_hint for t in tools)
    assert {t.name for t in tools} == TOOL_NAMES
    assert missing.is_error and WORKTREE not in str(missing.content)
    assert git(root, "status", "--porcelain") == before and not Path("/tmp/docshelf-pwned").exists()


@pytest.mark.anyio
async def test_fetch_refuses_committed_symlinks(target: tuple[Path, Path]) -> None:
    root, _ = target
    async with Client(create_server(root, pin=Pin.at(root), audit=None)) as client:
        res = await client.call_tool("fetch", {"path": "docs/internal/evil.md"})
    assert res.is_error
