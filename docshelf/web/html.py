"""Small HTML building blocks: escaping, the page frame, word diffs and highlighted text.

Everything a page shows passes through ``esc`` (shelf text, audit arguments and client names are
untrusted). Pages link only to this server; the one stylesheet is served from the package, or
inlined for an exported file so that it opens anywhere without a network.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping, Sequence
from html import escape
from importlib.resources import files
from urllib.parse import quote, urlencode

from docshelf.text.clausediff import word_diff

_MARKS = re.compile(r"(\[-.*?-\]|\{\+.*?\+\})", re.S)


def esc(value: object) -> str:
    return escape("" if value is None else str(value), quote=True)


def css_text() -> str:
    return files("docshelf.web").joinpath("static/desk.css").read_text(encoding="utf-8")


def url(path: str, **params: object) -> str:
    """A link to this server: path segments are percent-encoded, empty parameters dropped."""
    query = urlencode({k: str(v) for k, v in params.items() if v not in (None, "")})
    return quote(path, safe="/#") + (f"?{query}" if query else "")


def link(href: str, text: object, cls: str = "") -> str:
    return f'<a href="{esc(href)}"{f" class={esc(cls)!r}" if cls else ""}>{esc(text)}</a>'


def frame(title: str, body: str, *, nav: bool = True, inline_css: bool = False, user: str | None = None) -> str:
    """A whole page; ``inline_css`` makes it self-contained (exports)."""
    style = f"<style>{css_text()}</style>" if inline_css else '<link rel="stylesheet" href="/static/desk.css">'
    menu = ""
    if nav:
        who = f' <span class="who">{esc(user)} · <a href="/logout">log out</a></span>' if user else ""
        menu = f'<nav><a href="/">Audit</a> <a href="/check">Answer check</a>{who}</nav>'
    return (
        '<!doctype html><html lang="ru"><head><meta charset="utf-8">'
        f"<title>{esc(title)} · DocShelf</title>{style}</head>"
        f"<body>{menu}<main><h1>{esc(title)}</h1>{body}</main></body></html>"
    )


def table(head: Iterable[str], rows: Iterable[Iterable[str]], cls: str = "") -> str:
    """A table of cells that are already HTML."""
    th = "".join(f"<th>{esc(h)}</th>" for h in head)
    trs = "".join("<tr>" + "".join(f"<td>{c}</td>" for c in row) + "</tr>" for row in rows)
    return f'<table class="{esc(cls)}"><thead><tr>{th}</tr></thead><tbody>{trs}</tbody></table>'


def facts(pairs: Mapping[str, str]) -> str:
    """A definition list of label → HTML."""
    return '<dl class="facts">' + "".join(f"<dt>{esc(k)}</dt><dd>{v}</dd>" for k, v in pairs.items()) + "</dl>"


def marked_diff(marked: str) -> str:
    """``word_diff``'s «… [-old-]{+new+} …» as HTML with ``<del>`` and ``<ins>``."""
    out = []
    for part in _MARKS.split(marked):
        if part.startswith("[-") and part.endswith("-]"):
            out.append(f"<del>{esc(part[2:-2])}</del>")
        elif part.startswith("{+") and part.endswith("+}"):
            out.append(f"<ins>{esc(part[2:-2])}</ins>")
        else:
            out.append(esc(part))
    return '<span class="diff">' + "".join(out) + "</span>"


def html_word_diff(old: str, new: str) -> str:
    """The words of ``old`` (struck out) and ``new`` (inserted) that differ, with a little context."""
    return marked_diff(word_diff(old, new)[0])


def highlighted(text: str, start: int, end: int, mark_id: str = "match") -> str:
    """``text`` with ``[start, end)`` in a ``<mark>`` (nothing marked when the span is empty)."""
    if not 0 <= start < end <= len(text):
        return esc(text)
    return f'{esc(text[:start])}<mark id="{esc(mark_id)}">{esc(text[start:end])}</mark>{esc(text[end:])}'


def clause_anchor(clause: str) -> str:
    """An HTML id for a clause: «ст. 19 ч. 2» → «ст.19_ч.2» (ids may not hold spaces)."""
    return re.sub(r"\s+", "_", re.sub(r"\.\s+", ".", clause.strip()))


def clause_spans(
    text: str, spans: list[tuple[str, int, int]], target: str = "", links: Sequence[tuple[int, int, str]] = ()
) -> str:
    """``text`` with each clause span in a ``<span class="clause" id=…>`` (nested as the clauses are).

    ``target`` is a clause to mark as highlighted without relying on the URL fragment. ``links`` are
    (start, end, href) of cross-references: innermost, and left out where one would cross a clause's edge.
    """
    events: list[tuple[int, int, int, str]] = []  # (offset, 0 close / 1 open, order, html)
    ordered = sorted(spans, key=lambda s: (s[1], -s[2]))
    for order, (cid, a, b) in enumerate(ordered):
        if not 0 <= a < b <= len(text):
            continue
        anchor = clause_anchor(cid)
        cls = "clause target" if target and clause_anchor(target) == anchor else "clause"
        events.append((a, 1, order, f'<span class="{cls}" id="{esc(anchor)}" title="{esc(cid)}">'))
        events.append((b, 0, -order, "</span>"))
    edges = {e for _cid, a, b in ordered for e in (a, b)}
    for a, b, href in links:
        if 0 <= a < b <= len(text) and not any(a < e < b for e in edges):
            events.append((a, 1, len(ordered) + 1, f'<a class="xref" href="{esc(href)}">'))
            events.append((b, 0, -(len(ordered) + 1), "</a>"))
    events.sort(key=lambda e: (e[0], e[1], e[2]))
    out, pos = [], 0
    for offset, _kind, _order, tag in events:
        out.append(esc(text[pos:offset]))
        out.append(tag)
        pos = offset
    out.append(esc(text[pos:]))
    return "".join(out)
