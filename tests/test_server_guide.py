"""Prompts (the workflow as slash commands) and completions (paths, ids, the commit) through the real SDK client."""

from __future__ import annotations

from pathlib import Path

import pytest
from mcp import Client
from mcp.types import PromptReference, ResourceTemplateReference, TextContent
from server_support import make_version

from docshelf.demo.walk import build_demo_shelf
from docshelf.server.app import RESOURCE_TEMPLATE, create_server
from docshelf.server.guide import ANSWER_PROMPT, CHECK_PROMPT
from docshelf.server.pin import Pin
from docshelf.shelf import gitrepo

MODES = ["auto", "legacy"]
TEMPLATE = ResourceTemplateReference(type="ref/resource", uri=RESOURCE_TEMPLATE)


@pytest.fixture
def anyio_backend() -> str:
    return "asyncio"


@pytest.fixture(scope="module")
def demo(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return build_demo_shelf(tmp_path_factory.mktemp("guide") / "shelf")


@pytest.mark.anyio
@pytest.mark.parametrize("mode", MODES)
async def test_the_prompts_carry_the_workflow_with_the_users_words(demo: Path, mode: str) -> None:
    async with Client(create_server(demo, pin=Pin.at(demo), audit=None), mode=mode) as client:
        listed = {p.name: p for p in (await client.list_prompts()).prompts}
        answer = await client.get_prompt(
            ANSWER_PROMPT, {"question": "Сколько хранятся тестовые данные?", "doc": "999-ФЗ"}
        )
        check = await client.get_prompt(
            CHECK_PROMPT, {"answer": "«тестовые данные подлежат уничтожению» (999-ФЗ ст. 7)"}
        )
    assert set(listed) == {ANSWER_PROMPT, CHECK_PROMPT}
    assert [(a.name, a.required) for a in listed[ANSWER_PROMPT].arguments or []] == [("question", True), ("doc", False)]
    (message,) = answer.messages
    assert message.role == "user" and isinstance(message.content, TextContent)
    text = message.content.text
    assert "Сколько хранятся тестовые данные?" in text and "Look in 999-ФЗ first" in text
    for step in (
        "search",
        "low_confidence",
        "read_index",
        "fetch",
        "in force",
        "verify_quote",
        "not found in the shelf",
    ):
        assert step in text, step
    (checking,) = check.messages
    assert isinstance(checking.content, TextContent)
    assert "(999-ФЗ ст. 7)" in checking.content.text and "`items`" in checking.content.text


@pytest.mark.anyio
@pytest.mark.parametrize("mode", MODES)
async def test_completions_suggest_paths_ids_and_the_served_commit(demo: Path, mode: str) -> None:
    sha = gitrepo.resolve(demo)
    files = [p for p in gitrepo.list_files(demo, sha, "docs/laws/999-fz") if p.endswith(".md")]
    async with Client(create_server(demo, pin=Pin.at(demo), audit=None), mode=mode) as client:
        paths = await client.complete(TEMPLATE, {"name": "path", "value": "docs/laws/999"})
        slash = await client.complete(TEMPLATE, {"name": "path", "value": "/docs/laws/999-fz/0"})
        inner = await client.complete(TEMPLATE, {"name": "path", "value": "statia-3"})
        at = await client.complete(TEMPLATE, {"name": "at", "value": sha[:4]})
        docs = await client.complete(
            PromptReference(type="ref/prompt", name=ANSWER_PROMPT), {"name": "doc", "value": "99"}
        )
        nothing = await client.complete(TEMPLATE, {"name": "path", "value": "docs/none"})
        bad_at = await client.complete(TEMPLATE, {"name": "path", "value": "docs"}, {"at": "no-such-ref"})
    assert sorted(paths.completion.values) == sorted(files) and paths.completion.has_more is False
    assert slash.completion.values == [p for p in sorted(files) if p.startswith("docs/laws/999-fz/0")]
    assert [p for p in inner.completion.values] == [p for p in files if "statia-3" in p]  # a word inside a path
    assert at.completion.values == [sha]
    assert docs.completion.values == ["999-ФЗ"]
    assert nothing.completion.values == [] and bad_at.completion.values == []


@pytest.mark.anyio
async def test_completions_follow_the_at_argument(tmp_path: Path) -> None:
    from server_support import make_small_shelf

    root = make_small_shelf(tmp_path / "small")
    first = gitrepo.resolve(root)
    make_version(root, "V2")
    async with Client(create_server(root, pin=Pin.at(root), audit=None)) as client:
        now = await client.complete(TEMPLATE, {"name": "path", "value": "docs"})
        then = await client.complete(TEMPLATE, {"name": "path", "value": "docs"}, {"at": first})
    assert now.completion.values == [
        p for p in gitrepo.list_files(root, gitrepo.resolve(root), "docs") if p.endswith(".md")
    ]
    assert then.completion.values == [p for p in gitrepo.list_files(root, first, "docs") if p.endswith(".md")]
