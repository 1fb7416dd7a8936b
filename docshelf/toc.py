"""Tables of contents: the root ``index.md`` (llms.txt-compatible) and a ``subindex.md`` per document.

Pure and byte-stable: the same metas give the same Markdown. Every entry carries what a model needs
to choose without opening it: title, clause, pages and size.
"""

from __future__ import annotations

import posixpath
from collections.abc import Iterable
from typing import Any


def _size(tokens: int, size_bytes: int) -> str:
    return f"~{tokens} tok, {size_bytes / 1024:.1f} KB"


def _pages(pages: list[int]) -> str:
    if not pages or not pages[0]:
        return ""
    return f"p. {pages[0]}" if pages[0] == pages[1] else f"p. {pages[0]}–{pages[1]}"


def _edition_note(meta: dict[str, Any]) -> str:
    ed = meta.get("edition") or {}
    parts = []
    if ed.get("valid_to"):
        parts.append(f"valid to {ed['valid_to']}")
    if ed.get("replaced_by"):
        parts.append(f"replaced by {ed['replaced_by']}")
    return "; ".join(parts)


def render_subindex(meta: dict[str, Any]) -> str:
    """The document's own table of contents, grouped by its chapters/sections."""
    lines = [f"# {meta['title']}", ""]
    facts = [meta["id"]]
    if meta.get("pages"):
        facts.append(f"{meta['pages']} pages")
    facts.append(f"source: {meta['source']['file']}")
    if note := _edition_note(meta):
        facts.append(note)
    lines += ["> " + " · ".join(facts), ""]
    here = posixpath.dirname(meta["entry"])
    current: list[str] = []
    for s in meta["sections"]:
        groups = s["groups"]
        common = 0
        while common < min(len(groups), len(current)) and groups[common] == current[common]:
            common += 1
        for depth in range(common, len(groups)):
            lines += ["", "#" * min(depth + 2, 6) + " " + groups[depth], ""]
        current = list(groups)
        lines.append(_entry(s, here))
    return "\n".join(_tidy(lines)) + "\n"


def _entry(s: dict[str, Any], here: str) -> str:
    link = posixpath.relpath(s["path"], here)
    note = " · ".join(p for p in (s["clause"], _pages(s["pages"]), _size(s["tokens"], s["bytes"])) if p)
    return f"- [{s['title']}]({link}): {note}"


def _tidy(lines: list[str]) -> Iterable[str]:
    """Drop blank-line runs so the output is stable whatever the grouping."""
    prev_blank = False
    for ln in lines:
        blank = not ln.strip()
        if blank and prev_blank:
            continue
        prev_blank = blank
        yield ln


def render_index(name: str, description: str, metas: list[dict[str, Any]]) -> str:
    """The shelf's root ``index.md``: H1, ``>`` summary, H2 per category, one line per document."""
    lines = [f"# {name}", "", f"> {description}", ""]
    if not metas:
        lines += ["No documents yet: add some with `docshelf add FILE`.", ""]
    by_cat: dict[str, list[dict[str, Any]]] = {}
    for m in metas:
        by_cat.setdefault(m["category"], []).append(m)
    for cat in sorted(by_cat):
        lines += [f"## {cat}", ""]
        for m in sorted(by_cat[cat], key=lambda m: (m["id"], m["entry"])):
            tokens = sum(s["tokens"] for s in m["sections"])
            size = sum(s["bytes"] for s in m["sections"])
            facts = [
                m["id"],
                f"{len(m['sections'])} sections" if len(m["sections"]) > 1 else "",
                _size(tokens, size),
            ]
            if note := _edition_note(m):
                facts.append(note)
            lines.append(f"- [{m['title']}]({m['entry']}): " + " · ".join(f for f in facts if f))
        lines.append("")
    return "\n".join(_tidy(lines)).rstrip("\n") + "\n"
