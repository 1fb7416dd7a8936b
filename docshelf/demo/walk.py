"""``docshelf demo``: build a shelf from the built-in samples and walk it the way a model does,
through a real in-process MCP client: read_index → subindex → fetch → verify_quote (one honest quote,
one altered), printing the trace, the bytes read against the shelf's size, and the commit."""

from __future__ import annotations

import re
import shlex
import shutil
import tempfile
from importlib import resources
from pathlib import Path
from typing import Any

import click

from docshelf.build.pipeline import DocOptions
from docshelf.shelf import gitrepo
from docshelf.shelf import store as shelf

SAMPLES = (
    ("zakon-o-testovyh-dannyh.pdf", "laws", "999-ФЗ"),
    ("polozhenie-o-dostupe.md", "internal", "Положение о доступе"),
    ("glossary.txt", "reference", "Glossary"),
)
ARTICLE = "ст. 7"  # the article the walk reads and quotes


def _sample(name: str) -> Path:
    return Path(str(resources.files("docshelf.demo") / name))


def build_demo_shelf(root: Path) -> Path:
    """A new shelf at ``root`` holding the three sample documents (one commit per add)."""
    shelf.init(root, name="DocShelf demo")
    for name, category, doc_id in SAMPLES:
        shelf.add(root, [_sample(name)], DocOptions(source="", category=category, id=doc_id), progress=lambda _m: None)
    return root


def _shelf_bytes(root: Path, commit: str) -> int:
    return sum(len(data) for data in gitrepo.read_tree(root, commit, "", ".md").values())


def _quotes(section_text: str) -> tuple[str, str]:
    """An honest quote (the first 12 words of part 2) and the same quote with a negation slipped in."""
    part = next(m.group(1) for m in re.finditer(r"(?m)^2\. (.+)$", section_text))
    words = part.split()[:12]
    honest = " ".join(words)
    altered = " ".join([*words[:3], "не", *words[3:]])
    return honest, altered


Step = tuple[str, dict[str, Any], dict[str, Any]]  # tool, arguments, structured result


async def _walk(root: Path) -> list[Step]:
    from mcp import Client
    from mcp.types import TextContent

    from docshelf.server.app import create_server
    from docshelf.server.pin import Pin

    trace: list[Step] = []
    async with Client(create_server(root, pin=Pin.at(root), audit=None)) as client:

        async def call(tool: str, args: dict[str, Any]) -> dict[str, Any]:
            result = await client.call_tool(tool, args)
            shown = "".join(c.text for c in result.content if isinstance(c, TextContent))
            if result.is_error:  # the demo's own walk must not fail quietly
                raise RuntimeError(f"{tool} failed: {shown}")
            data: dict[str, Any] = dict(result.structured_content or {})
            if "sha256" in data and "text" not in data:  # a lean result: the text is in the content, once
                data["text"] = shown
            trace.append((tool, args, data))
            return data

        index = await call("read_index", {})
        law = re.search(r"\]\((docs/laws/[^)]+/subindex\.md)\)", index["text"])
        sub = await call("read_index", {"path": law.group(1) if law else "index.md", "at": index["commit"]})
        section = re.search(rf"\]\(([^)]+)\): {ARTICLE} ·", sub["text"])
        fetched = await call("fetch", {"path": section.group(1) if section else "", "at": index["commit"]})
        honest, altered = _quotes(fetched["text"])
        for quote in (honest, altered):
            await call("verify_quote", {"quote": quote, "ref": f"999-ФЗ {ARTICLE} ч. 2", "at": index["commit"]})
    return trace


def run_demo(directory: Path | None) -> None:
    """Print the trace of a model's walk over the demo shelf."""
    import anyio

    root = directory or Path(tempfile.mkdtemp(prefix="docshelf-demo-")) / "shelf"
    click.echo(f"Building the demo shelf in {root} …", err=True)
    build_demo_shelf(root)
    trace = anyio.run(_walk, root)
    commit = trace[0][2]["commit"]
    read = 0
    for tool, args, data in trace:
        shown = {k: v for k, v in args.items() if k != "at"}
        click.echo(f"== {tool} {shown} @ {data.get('commit', '')[:12]}")
        if tool in ("read_index", "fetch"):
            read += len(str(data["text"]).encode("utf-8"))
            click.echo(data["text"])
        else:
            click.echo(f"verdict: {data['verdict']} — {data['message']}")
            if data.get("match"):
                click.echo(f"  {data['doc_id']} {data['clause']}: {data['match']}")
            for diff in (data.get("closest") or {}).get("diff", []):
                click.echo(f"  quote «{diff['quote']}» vs source «{diff['source']}»")
    total = _shelf_bytes(root, commit)
    click.echo(
        f"== read {read} of {total} bytes of Markdown ({100 * read / total:.0f}% of the shelf) at commit {commit}"
    )
    exe = _docshelf_command()
    click.echo(f"Explore it: {exe} read-index --shelf {root}   ·   serve it: {exe} serve --shelf {root}")


def _docshelf_command() -> str:
    """How to call docshelf from the shell this demo runs in: as typed when it is on PATH, else its full path
    (``.venv/bin/docshelf`` before the venv is activated)."""
    from docshelf.server.clients import docshelf_command

    command = docshelf_command()
    on_path = shutil.which("docshelf")
    if len(command) == 1 and on_path and Path(on_path).resolve() == Path(command[0]).resolve():
        return "docshelf"
    return shlex.join(command)
