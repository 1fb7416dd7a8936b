"""Bytes on the wire per MCP result: the lean default against sending the text twice, in one run.

The same calls (read_index of every index page, fetch of every section, up to --calls of each) go
to one server per content mode — "text" (the text in the content and again in structuredContent,
the old default), "lean" (the default: the text once, in the content) and "summary" (the text
once, in structuredContent only) — and the JSON of each result is measured as it travels
(``CallToolResult`` serialized by alias, as the SDK sends it). Prints bytes per mode and the ratio
to "text".

    python bench/wire.py                   # the demo shelf
    python bench/wire.py --shelf SHELF     # any built shelf, e.g. the corpus
"""

from __future__ import annotations

import argparse
import sys
import tempfile
from pathlib import Path
from typing import Any

import anyio
from mcp import Client

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

from docshelf.demo.walk import build_demo_shelf  # noqa: E402
from docshelf.server.app import create_server  # noqa: E402
from docshelf.server.pin import Pin  # noqa: E402
from docshelf.server.tools import ContentMode  # noqa: E402
from docshelf.shelf import gitrepo  # noqa: E402

MODES: tuple[ContentMode, ...] = ("text", "lean", "summary")


def calls(root: Path, limit: int) -> list[tuple[str, dict[str, Any]]]:
    files = gitrepo.list_files(root, gitrepo.resolve(root), "docs")
    indexes = ["index.md", *(p for p in files if p.endswith("subindex.md"))][:limit]
    sections = [p for p in files if p.endswith(".md") and not p.endswith("subindex.md")][:limit]
    return [("read_index", {"path": p}) for p in indexes] + [("fetch", {"path": p}) for p in sections]


async def measure(root: Path, mode: ContentMode, work: list[tuple[str, dict[str, Any]]]) -> dict[str, int]:
    sizes = {"read_index": 0, "fetch": 0}
    async with Client(create_server(root, pin=Pin.at(root), audit=None, content=mode)) as client:
        for tool, args in work:
            result = await client.call_tool(tool, args)
            assert not result.is_error, result
            sizes[tool] += len(result.model_dump_json(by_alias=True, exclude_none=True).encode("utf-8"))
    return sizes


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--shelf", type=Path, help="a built shelf (default: the demo shelf, built in a temp dir)")
    ap.add_argument("--calls", type=int, default=80, help="most calls per tool")
    args = ap.parse_args()
    with tempfile.TemporaryDirectory(prefix="docshelf-bench-wire-") as tmp:
        root = args.shelf or build_demo_shelf(Path(tmp) / "shelf")
        work = calls(root, args.calls)
        results = {mode: anyio.run(measure, root, mode, work) for mode in MODES}
    counts = {tool: sum(1 for t, _ in work if t == tool) for tool in ("read_index", "fetch")}
    print("| mode | read_index bytes | fetch bytes | total | × text |")
    print("|---|---:|---:|---:|---:|")
    base = sum(results["text"].values())
    for mode in MODES:
        r = results[mode]
        total = sum(r.values())
        print(f"| {mode} | {r['read_index']:,} | {r['fetch']:,} | {total:,} | {total / base:.2f} |")
    print(f"\n{counts['read_index']} read_index and {counts['fetch']} fetch calls per mode.")


if __name__ == "__main__":
    main()
