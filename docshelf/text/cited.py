"""``fetch`` by citation: the model names the clause, the shelf supplies its verbatim text.

A citation is resolved at a commit exactly as ``verify_quote`` resolves it (:mod:`text.citations`);
a clause-level citation returns exactly that clause's span of its section file, with the path,
span, pages, commit and the section's sha256, so the quote a model copies from it can be proven. A
citation that names no single clause or section is refused with what to cite instead.
"""

from __future__ import annotations

from datetime import date
from pathlib import Path
from typing import Any

from docshelf.errors import CitationError
from docshelf.model import DEFAULT_MAX_CHARS
from docshelf.results import FetchResult
from docshelf.shelf import gitrepo, reader
from docshelf.text import citations, xrefs


def fetch_section(
    root: Path,
    path: str,
    at: str | None = None,
    *,
    start: int = 0,
    max_chars: int = DEFAULT_MAX_CHARS,
    as_of: date | None = None,
) -> FetchResult:
    """One section by path (:func:`shelf.reader.fetch`), with the references its returned text makes."""
    page = reader.fetch(root, path, at, start=start, max_chars=max_chars, as_of=as_of)
    if not page.doc_id:
        return page
    whole = (
        page.text
        if start == 0 and page.next_start is None
        else gitrepo.read(root, page.path, page.commit).decode("utf-8")
    )
    found = [r.to_dict() for r in xrefs.references(root, page.commit, page.doc_id, whole)]
    return page.model_copy(update={"references": _within(found, start, start + len(page.text))})


def _within(found: list[dict[str, Any]], lo: int, hi: int) -> list[dict[str, Any]]:
    """The references that lie inside [lo, hi) of the section file: those of the text returned."""
    return [r for r in found if lo <= r["start"] and r["end"] <= hi]


def fetch_ref(
    root: Path,
    ref: str,
    at: str | None = None,
    *,
    start: int = 0,
    max_chars: int = DEFAULT_MAX_CHARS,
    as_of: date | None = None,
) -> FetchResult:
    """The text of exactly the clause ``ref`` cites at ``at``, paged inside the clause by ``start``."""
    if start < 0 or max_chars <= 0:
        raise ValueError("start must be ≥ 0 and max_chars > 0.")
    commit = gitrepo.resolve(root, at)
    found = citations.resolve_ref(root, ref, commit, as_of=as_of)
    paths = list(dict.fromkeys(t.path for t in found.targets))
    if found.level == "document" or (found.level == "section" and len(paths) > 1):
        where = ", ".join(paths[:5]) + (" …" if len(paths) > 5 else "")
        raise CitationError(
            f"{ref!r} names {'the whole document' if found.level == 'document' else 'several sections'} "
            f"{found.doc_id} ({where}): cite one clause (e.g. «{found.doc_id} {found.clause or 'п. 1'}») "
            "or fetch one of these paths."
        )
    target = found.targets[0]
    whole = fetch_section(root, target.path, commit, start=0, max_chars=1 << 30, as_of=as_of)
    section = whole.text
    begin, end = (0, len(section)) if not target.clause or target.end > len(section) else (target.start, target.end)
    chunk = section[begin + start : min(end, begin + start + max_chars)]
    more = begin + start + len(chunk) < end
    notes = [n for n in found.notes if n]
    if len(paths) > 1:
        notes.append(f"The clause continues in {', '.join(paths[1:])}: fetch the same ref there by path.")
    warning = " ".join(filter(None, [whole.warning, *notes])) or None
    return whole.model_copy(
        update=dict(
            text=chunk,
            start=start,
            next_start=start + len(chunk) if more else None,
            ref=ref,
            clause=found.clause or target.clause,
            level="clause" if target.clause else "section",
            span=[begin, end],
            clauses=[target.clause] if target.clause else whole.clauses,
            references=_within(whole.references, begin + start, begin + start + len(chunk)),
            warning=warning,
        )
    )


__all__ = ["fetch_ref", "fetch_section"]
