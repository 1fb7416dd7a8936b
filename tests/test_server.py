"""The MCP server in-process (``mcp.Client(server)``, both protocol eras): tools, paging, pins, resources, audit."""

from __future__ import annotations

import contextlib
import hashlib
import json
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner
from mcp import Client
from mcp.shared.exceptions import MCPError
from server_support import (
    HANG_S,
    SCHEMA_KEYS,
    TOOL_NAMES,
    child_env,
    doc_path,
    git,
    make_small_shelf,
    make_version,
    payload,
    read_lines,
)

from docshelf.demo.walk import build_demo_shelf
from docshelf.errors import SectionNotFoundError
from docshelf.server.app import build_instructions, create_server
from docshelf.server.audit import AuditLog, clip, parse_since, read_audit
from docshelf.server.commands import audit as audit_command
from docshelf.server.pin import Pin
from docshelf.shelf import gitrepo, reader
from docshelf.text import cited

MODES = ["auto", "legacy"]
LAW = "docs/laws/999-fz"


@pytest.fixture
def anyio_backend() -> str:
    return "asyncio"


@pytest.fixture(scope="module")
def demo(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The demo shelf (three documents, one split into sections); tests must not modify it."""
    return build_demo_shelf(tmp_path_factory.mktemp("demo") / "shelf")


@pytest.fixture(scope="module")
def section(demo: Path) -> str:
    return next(p for p in gitrepo.list_files(demo, gitrepo.resolve(demo), LAW) if "statia-3" in p)


@pytest.fixture
def small(tmp_path: Path) -> Path:
    return make_small_shelf(tmp_path / "small")


@pytest.fixture
def audit_log(tmp_path: Path) -> Iterator[AuditLog]:
    with AuditLog(tmp_path / "audit" / "audit.jsonl") as log:
        yield log


def server_for(root: Path, audit: AuditLog | None = None, **kw: Any) -> Any:
    return create_server(root, pin=Pin.at(root), audit=audit, **kw)


@pytest.mark.anyio
@pytest.mark.parametrize("mode", MODES)
async def test_tools_have_schemas_annotations_and_descriptions(demo: Path, mode: str) -> None:
    async with Client(server_for(demo), mode=mode) as client:
        tools = {t.name: t for t in (await client.list_tools()).tools}
    assert set(tools) == TOOL_NAMES  # no write tools, no placeholders
    for tool in tools.values():
        ann = tool.annotations
        assert ann is not None
        assert (ann.read_only_hint, ann.destructive_hint, ann.idempotent_hint, ann.open_world_hint) == (
            True,
            False,
            True,
            False,
        )
        assert tool.description and len(tool.description) > 100
        assert tool.output_schema is not None and "commit" in tool.output_schema["properties"]
        props = tool.input_schema["properties"]
        assert "at" in props and props["at"]["description"]
        assert all(p.get("description") for p in props.values())
    fetch = tools["fetch"].input_schema["properties"]
    assert fetch["start"]["minimum"] == 0
    assert fetch["max_chars"]["maximum"] <= 20000 and fetch["max_chars"]["default"] <= 20000
    assert tools["fetch"].input_schema.get("required", []) == [] and {"path", "ref"} <= set(fetch)  # one of them
    out = tools["fetch"].output_schema["properties"]
    assert {"sha256", "next_start", "clauses", "title", "text"} <= set(out)


def test_instructions_tell_the_workflow() -> None:
    now = build_instructions(["read_index", "fetch"])
    for words in ("read_index", "subindex.md", "fetch", "verbatim quotes", "not found in the shelf", "commit"):
        assert words in now
    assert "verify_quote" not in now  # never point the model at a tool the server does not have
    later = build_instructions(["read_index", "fetch", "search", "verify_quote"])
    assert "Call verify_quote for every quote" in later and "search" in later


@pytest.mark.anyio
@pytest.mark.parametrize("mode", MODES)
async def test_read_index_and_fetch_match_the_library(demo: Path, section: str, mode: str) -> None:
    sha = gitrepo.resolve(demo)
    async with Client(server_for(demo), mode=mode) as client:
        assert "not found in the shelf" in (client.instructions or "")
        root = await client.call_tool("read_index", {})
        sub = await client.call_tool("read_index", {"path": LAW})
        sec = await client.call_tool("fetch", {"path": section})
    assert not (root.is_error or sub.is_error or sec.is_error)
    assert payload(root) == reader.read_index(demo, at=sha).to_dict()
    assert payload(sub) == reader.read_index(demo, LAW, at=sha).to_dict()
    whole = reader.fetch(demo, section, at=sha)
    assert payload(sec) == whole.to_dict()
    assert sec.structured_content["commit"] == sha and sec.structured_content["clauses"] == ["ст. 3"]
    # The text content is what clients show the model: the verbatim text once, under a short header
    # (commit and sha256 abbreviated there, in full in the structured fields), never JSON.
    text = sec.content[0].text
    assert "text" not in sec.structured_content and text.count(whole.text) == 1
    assert text.startswith(f"[{section} @ {sha[:12]} · chars 0–{whole.total_chars} of {whole.total_chars} · sha256 ")
    assert sha not in text and whole.sha256 not in text


@pytest.mark.anyio
@pytest.mark.parametrize("mode", MODES)
async def test_fetch_by_ref_is_exactly_the_cited_clause_the_library_reads(demo: Path, section: str, mode: str) -> None:
    sha = gitrepo.resolve(demo)
    ref = "999-ФЗ п. 2 ч. 1 ст. 3"
    async with Client(server_for(demo), mode=mode) as client:
        res = await client.call_tool("fetch", {"ref": ref})
        both = await client.call_tool("fetch", {"path": section, "ref": ref})
        neither = await client.call_tool("fetch", {})
        document = await client.call_tool("fetch", {"ref": "999-ФЗ"})
    assert not res.is_error and payload(res) == cited.fetch_ref(demo, ref, at=sha).to_dict()
    got = res.structured_content
    assert (got["clause"], got["level"], got["path"], got["commit"]) == ("ст. 3 ч. 1 п. 2", "clause", section, sha)
    whole = reader.fetch(demo, section, at=sha).text
    assert (
        whole[got["span"][0] : got["span"][1]].startswith("2) ") and got["sha256"] == reader.fetch(demo, section).sha256
    )
    assert both.is_error and neither.is_error and document.is_error
    assert "cite one clause" in document.content[0].text


@pytest.mark.anyio
async def test_summary_content_does_not_repeat_the_text(demo: Path, section: str) -> None:
    async with Client(server_for(demo, content="summary")) as client:
        res = await client.call_tool("fetch", {"path": section})
    body = res.structured_content["text"]
    assert body and body not in res.content[0].text and res.structured_content["sha256"] in res.content[0].text


@pytest.mark.anyio
@pytest.mark.parametrize("mode", MODES)
async def test_fetch_pages_and_says_where_to_continue(demo: Path, section: str, mode: str) -> None:
    whole = reader.fetch(demo, section)
    pages, start = [], 0
    async with Client(server_for(demo), mode=mode) as client:
        for _ in range(100):  # bounded: the section is < 5,000 chars
            res = await client.call_tool("fetch", {"path": section, "start": start, "max_chars": 97})
            page = payload(res)
            pages.append(page["text"])
            assert page["sha256"] == whole.sha256 and page["total_chars"] == whole.total_chars
            if page["next_start"] is None:
                break
            assert f"start={page['next_start']}" in res.content[0].text
            start = page["next_start"]
        too_big = await client.call_tool("fetch", {"path": section, "max_chars": 20001})
        negative = await client.call_tool("fetch", {"path": section, "start": -1})
    assert "".join(pages) == whole.text and len(pages) > 2
    assert hashlib.sha256("".join(pages).encode("utf-8")).hexdigest() == whole.sha256
    assert too_big.is_error and negative.is_error


@pytest.mark.anyio
@pytest.mark.parametrize("mode", MODES)
async def test_at_reads_an_older_commit(small: Path, mode: str) -> None:
    first = gitrepo.resolve(small)
    git(small, "tag", "v1")
    second = make_version(small, "V2")
    path = doc_path(small)
    async with Client(server_for(small), mode=mode) as client:
        now = await client.call_tool("fetch", {"path": path})
        old = await client.call_tool("fetch", {"path": path, "at": first})
        tagged = await client.call_tool("read_index", {"at": "v1"})
        short = await client.call_tool("fetch", {"path": path, "at": first[:10]})
        bad = await client.call_tool("fetch", {"path": path, "at": "no-such-ref"})
    assert payload(now)["commit"] == second and "MARKER-V2" in payload(now)["text"]
    assert now.structured_content["title"] == "Положение (V2)"
    assert payload(old)["commit"] == first and "MARKER-V1" in payload(old)["text"]
    assert payload(tagged)["commit"] == first and "edition V2" not in payload(tagged)["text"]
    assert short.structured_content["commit"] == first
    assert bad.is_error and "Unknown commit" in bad.content[0].text


@pytest.mark.anyio
@pytest.mark.parametrize(
    ("tool", "args", "words"),
    [
        ("fetch", {"path": "index.md"}, "is not a section"),
        ("fetch", {"path": "docs/laws/none.md"}, "No file"),
        ("read_index", {"path": f"{LAW}/001-x.md"}, "is not an index"),
        ("fetch", {"path": "../secret.md"}, "leaves the shelf"),
        ("fetch", {"path": "docs/x.md", "at": "--output=/tmp/x"}, "Invalid ref"),
    ],
)
async def test_library_errors_reach_the_model_as_tool_errors(demo: Path, tool: str, args: dict[str, Any], words: str):
    async with Client(server_for(demo)) as client:
        res = await client.call_tool(tool, args)
    assert res.is_error and words in res.content[0].text and res.structured_content is None


@pytest.mark.anyio
async def test_a_wrong_path_names_the_tool_to_call_and_the_nearest_paths(demo: Path, section: str) -> None:
    typo = section.replace(".md", "x.md")
    async with Client(server_for(demo)) as client:
        res = await client.call_tool("fetch", {"path": typo})
    message = res.content[0].text
    assert res.is_error and f"Nearest: {section}" in message
    assert "(`read_index`)" in message and "read-index" not in message  # the tool, not the CLI command
    with pytest.raises(SectionNotFoundError) as info:  # the library (and so the CLI) names the CLI command
        reader.fetch(demo, typo)
    assert "(`read-index`)" in str(info.value) and f"Nearest: {section}" in str(info.value)


@pytest.mark.anyio
@pytest.mark.parametrize("mode", MODES)
async def test_shelf_files_are_resources(small: Path, mode: str) -> None:
    first = gitrepo.resolve(small)
    make_version(small, "V3")
    path = doc_path(small)
    async with Client(server_for(small), mode=mode) as client:
        templates = (await client.list_resource_templates()).resource_templates
        listed = (await client.list_resources()).resources
        index = await client.read_resource("shelf://index.md")
        now = await client.read_resource(f"shelf://{path}")
        old = await client.read_resource(f"shelf://{path}?at={first}")
        errors = []
        for uri in (f"shelf://{path}?at=-x", "shelf://.docshelf.json", "shelf://docs/none.md", "shelf://../x.md"):
            with pytest.raises(MCPError) as info:
                await client.read_resource(uri)
            errors.append(str(info.value))
    assert [t.uri_template for t in templates] == ["shelf://{+path}{?at}"]
    assert [str(r.uri) for r in listed] == ["shelf://index.md"] and "edition V3" in index.contents[0].text
    assert "MARKER-V3" in now.contents[0].text and "MARKER-V1" in old.contents[0].text
    assert "Invalid ref" in errors[0] and "not a Markdown file" in errors[1] and "No file" in errors[2]


def test_cli_and_mcp_give_the_same_answers(demo: Path, section: str) -> None:
    """Parity: `docshelf read-index/fetch --json` print exactly the tools' structured results."""
    import anyio

    sha = gitrepo.resolve(demo)

    def cli(*args: str) -> Any:
        cmd = [sys.executable, "-m", "docshelf", *args, "--shelf", str(demo), "--at", sha, "--json"]
        return json.loads(subprocess.run(cmd, check=True, capture_output=True, env=child_env(), timeout=HANG_S).stdout)

    async def mcp(tool: str, args: dict[str, Any]) -> Any:
        async with Client(server_for(demo)) as client:
            return payload(await client.call_tool(tool, {**args, "at": sha}))

    assert cli("read-index") == anyio.run(mcp, "read_index", {})
    assert cli("read-index", LAW) == anyio.run(mcp, "read_index", {"path": LAW})
    paged = cli("fetch", section, "--start", "100", "--max-chars", "300")
    assert paged == anyio.run(mcp, "fetch", {"path": section, "start": 100, "max_chars": 300})
    assert paged["next_start"] == 400
    assert cli("search", "обезличивание тестовых данных") == anyio.run(
        mcp, "search", {"query": "обезличивание тестовых данных"}
    )
    for quote, ref in [(QUOTE, "999-ФЗ ст. 3 ч. 2"), (QUOTE.replace("обязан", "вправе"), "999-ФЗ ст. 3 ч. 2")]:
        assert cli("verify-quote", quote, "--ref", ref) == anyio.run(mcp, "verify_quote", {"quote": quote, "ref": ref})
    batch = demo.parent / "batch.jsonl"
    batch.write_text("".join(json.dumps(i, ensure_ascii=False) + "\n" for i in BATCH), encoding="utf-8")
    assert cli("verify-quote", "--batch", str(batch)) == anyio.run(mcp, "verify_quote", {"items": BATCH})


@pytest.mark.anyio
async def test_every_face_prints_one_declared_model(demo: Path, section: str) -> None:
    """Each tool's output schema, its structuredContent and `--json` have the keys of one model in docshelf.results."""
    from click.testing import CliRunner

    from docshelf import cli
    from docshelf.results import FetchResult, IndexPage, QuoteCheck, QuoteReport, SearchResult

    calls = [
        ("read_index", {}, ["read-index"], IndexPage),
        ("fetch", {"path": section}, ["fetch", section], FetchResult),
        ("search", {"query": "обезличивание"}, ["search", "обезличивание"], SearchResult),
        ("verify_quote", {"quote": QUOTE, "ref": "999-ФЗ ст. 3"}, ["verify-quote", QUOTE, "--ref", "999-ФЗ ст. 3"],
         QuoteCheck),
    ]  # fmt: skip
    async with Client(server_for(demo)) as client:
        schemas = {t.name: t.output_schema for t in (await client.list_tools()).tools}
        for tool, args, argv, model in calls:
            structured = payload(await client.call_tool(tool, args))
            run = CliRunner().invoke(cli.cli, [*argv, "--shelf", str(demo), "--json"])
            assert run.exit_code == 0, run.output
            assert list(json.loads(run.stdout)) == list(model.model_fields), tool
            assert sorted(structured) == sorted(model.model_fields), tool  # a lean text comes back last
            published = QuoteReport if tool == "verify_quote" else model
            assert schemas[tool]["properties"].keys() == published.model_fields.keys()
            assert all(p.get("description") for p in schemas[tool]["properties"].values()), tool
        batch = (await client.call_tool("verify_quote", {"items": BATCH})).structured_content
    assert list(batch) == list(QuoteReport.model_fields)


@pytest.mark.anyio
async def test_one_lookup_of_the_ref_per_call(small: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The server resolves `at` once and passes the full sha down; the library trusts it without a second lookup."""
    from click.testing import CliRunner

    from docshelf import cli

    first = gitrepo.resolve(small)
    git(small, "tag", "v1")
    make_version(small, "V2")
    path = doc_path(small)
    lookups: list[str] = []
    real = gitrepo.refs._lookup  # the one place a ref is looked up

    def counting(root: Path, ref: str) -> str:
        lookups.append(ref)
        return real(root, ref)

    monkeypatch.setattr(gitrepo.refs, "_lookup", counting)
    calls = [
        ("fetch", {"path": path}),
        ("read_index", {}),
        ("search", {"query": "хранение тестовых данных"}),
        ("verify_quote", {"quote": "Оператор обязан хранить тестовые данные не более тридцати дней", "ref": "ПТХ"}),
    ]
    async with Client(server_for(small)) as client:  # the pin is resolved here, once
        lookups.clear()
        for tool, args in calls:
            for at, expected in (("v1", ["v1"]), (None, []), (first, [])):
                lookups.clear()
                res = await client.call_tool(tool, {**args, **({"at": at} if at else {})})
                assert not res.is_error, res.content
                assert lookups == expected, (tool, at)
                assert res.structured_content["commit"] == (first if at else gitrepo.resolve(small))
    lookups.clear()
    run = CliRunner().invoke(cli.cli, ["fetch", path, "--shelf", str(small), "--at", "v1", "--json"])
    assert run.exit_code == 0 and json.loads(run.stdout)["commit"] == first and lookups == ["v1"]


QUOTE = "Оператор обязан обеспечивать соблюдение принципов, указанных в части 1 настоящей статьи"
BATCH = [{"quote": QUOTE, "ref": "999-ФЗ ст. 3 ч. 2"}, {"quote": QUOTE, "ref": "999-ФЗ ст. 4"}]


@pytest.mark.anyio
@pytest.mark.parametrize("mode", MODES)
async def test_verify_quote_tool_single_and_batch(demo: Path, mode: str) -> None:
    async with Client(server_for(demo), mode=mode) as client:
        ok = await client.call_tool("verify_quote", {"quote": QUOTE, "ref": "999-ФЗ ст. 3 ч. 2"})
        assert not ok.is_error and ok.structured_content["verdict"] == "ok"
        assert ok.structured_content["clause"] == "ст. 3 ч. 2" and "ok: The quote is verbatim" in ok.content[0].text
        bad = await client.call_tool(
            "verify_quote", {"quote": QUOTE.replace("обязан", "вправе"), "ref": "999-ФЗ ст. 3"}
        )
        assert bad.structured_content["verdict"] == "not_found" and "вправе" in bad.content[0].text
        items = [{"quote": QUOTE, "ref": "999-ФЗ ст. 3 ч. 2"}, {"quote": QUOTE, "ref": "999-ФЗ ст. 4"}]
        batch = await client.call_tool("verify_quote", {"items": items})
        data = batch.structured_content
        assert data["passed"] is False and data["counts"] == {"ok": 1, "wrong_clause": 1}
        assert [r["verdict"] for r in data["results"]] == ["ok", "wrong_clause"] and data["verdict"] == "wrong_clause"


@pytest.mark.anyio
@pytest.mark.parametrize("mode", MODES)
async def test_audit_line_for_every_tool_and_failure(demo: Path, section: str, audit_log: AuditLog, mode: str):
    sha = gitrepo.resolve(demo)
    calls: list[tuple[str, Any, str]] = [
        ("read_index", {}, "ok"),
        ("fetch", {"path": section, "max_chars": 50, "_meta": {"x": 1}}, "ok"),
        ("fetch", {"path": "docs/none.md"}, "tool_error"),
        ("fetch", {"path": section, "at": "-bad"}, "tool_error"),
        ("read_index", {"path": "x" * 5000}, "tool_error"),
        ("resource", f"shelf://{section}", "ok"),
        ("resource", "shelf://docs/none.md", "error:MCPError"),
    ]
    async with Client(server_for(demo, audit_log), mode=mode) as client:
        for tool, args, _ in calls:
            if tool == "resource":
                with pytest.raises(MCPError) if "none" in args else contextlib.nullcontext():
                    await client.read_resource(args)
            else:
                await client.call_tool(tool, args)
    lines = read_lines(audit_log.path)
    assert [r["outcome"] for r in lines] == [c[2] for c in calls]
    for record in lines:
        assert set(record) == SCHEMA_KEYS
        assert record["ts"].endswith("Z") and record["transport"] == "stdio" and record["client"]
        assert record["client_info"]["name"] and isinstance(record["duration_ms"], float)
        assert isinstance(record["bytes_out"], int) and isinstance(record["paths"], list)
    ok_index, ok_fetch, missing, bad_ref, too_long, res_ok, res_missing = lines
    assert ok_index["tool"] == "read_index" and ok_index["paths"] == ["index.md"] and ok_index["commit"] == sha
    assert ok_fetch["arguments"] == {"path": section, "max_chars": 50} and ok_fetch["paths"] == [section]
    assert ok_fetch["bytes_out"] > 50 and ok_fetch["verdict"] is None and ok_fetch["error"] is None
    assert missing["commit"] == sha and "No file" in missing["error"]  # the commit it failed at
    assert bad_ref["commit"] is None and "Invalid ref" in bad_ref["error"]
    assert len(too_long["arguments"]["path"]) < 4200 and "sha256=" in too_long["arguments"]["path"]
    assert res_ok["method"] == "resources/read" and res_ok["tool"] is None and res_ok["paths"] == [section]
    assert res_ok["arguments"] == {"uri": f"shelf://{section}"} and res_missing["bytes_out"] == 0


def test_audit_reader_filters_and_cli(tmp_path: Path) -> None:
    path = tmp_path / "audit.jsonl"
    with AuditLog(path) as log:
        for ts, client in [("2026-11-29T10:00:00.000000Z", "alice"), ("2026-11-30T10:00:00.000000Z", "bob")]:
            log.write(
                {k: None for k in SCHEMA_KEYS}
                | {
                    "ts": ts,
                    "client": client,
                    "method": "tools/call",
                    "tool": "fetch",
                    "outcome": "ok",
                    "paths": ["a.md"],
                }
            )
    assert [r["client"] for r in read_audit(path)] == ["alice", "bob"]
    assert [r["client"] for r in read_audit(path, since="2026-11-30")] == ["bob"]
    assert [r["client"] for r in read_audit(path, client="alice")] == ["alice"]
    assert parse_since("2h").tzinfo is not None
    result = CliRunner().invoke(audit_command, ["--log", str(path), "--client", "bob", "--json"])
    assert result.exit_code == 0 and json.loads(result.output)["client"] == "bob"
    table = CliRunner().invoke(audit_command, ["--log", str(path), "--since", "2026-11-29T12:00"])
    assert table.exit_code == 0 and "bob\ttools/call\tfetch" in table.output and "alice" not in table.output
    assert clip({"q": "я" * 5000, "_meta": {}})["q"].startswith("я" * 4096)


def test_audit_log_is_append_only_and_thread_safe(tmp_path: Path) -> None:
    import threading

    path = tmp_path / "a.jsonl"
    path.write_text('{"ts": "2026-01-01T00:00:00Z", "client": "old"}\n', encoding="utf-8")
    with AuditLog(path) as log:
        threads = [
            threading.Thread(target=lambda i=i: [log.write({"n": i, "t": "\u2028" + "ж" * 3000}) for _ in range(50)])
            for i in range(8)
        ]
        for t in threads:
            t.start()
        for t in threads:
            t.join(timeout=HANG_S)
    lines = path.read_text(encoding="utf-8").split("\n")
    assert json.loads(lines[0])["client"] == "old" and len([x for x in lines if x]) == 401
    assert all(json.loads(x)["t"].startswith("\u2028") for x in lines[1:] if x)
    fresh = tmp_path / "new" / "audit.jsonl"
    AuditLog(fresh).close()
    assert oct(fresh.stat().st_mode & 0o777) == "0o600"  # it names clients and their arguments: owner only


def test_server_commands_take_the_cli_shelf_option(tmp_path: Path) -> None:
    from docshelf import cli

    def shelf_param(command: Any) -> dict[str, Any]:
        param = next(p for p in command.params if p.name == "shelf_dir")
        return {"opts": param.opts, "help": param.help, "default": param.default, "type": param.type.to_info_dict()}

    assert shelf_param(audit_command) == shelf_param(cli.cli.commands["read-index"])
    missing = CliRunner().invoke(audit_command, [], env={"DOCSHELF_SHELF": str(tmp_path)})
    assert str(tmp_path / ".docshelf" / "audit.jsonl") in str(missing.exception)
