"""The MCP tools: a Pydantic result model (the output schema) and a thin function over the library each.

Adding a tool (e.g. ``search``) takes about fifteen lines here:

    class SearchOut(BaseModel):                      # the fields of SearchResult.to_dict()
        commit: str = COMMIT
        mode: str
        hits: list[SearchHit]

    def search(shelf: ShelfAccess) -> ToolFn:
        def search(
            query: Annotated[str, Field(description="Words or an identifier to look for.", max_length=2000)],
            limit: Annotated[int, Field(description="How many sections to return.", ge=1, le=50)] = 5,
            at: At = None,
        ) -> Annotated[CallToolResult, SearchOut]:
            \"\"\"<what the tool does, its arguments and limits, written for the model>\"\"\"
            return shelf.run(SearchOut, lambda sha: library.search(shelf.root, query, limit=limit, at=sha), at)
        return search

    TOOLS = (read_index, fetch, search)

``ShelfAccess.run`` resolves the commit once, calls the library, turns ``DocShelfError`` into a
tool error the model reads, and returns the result; the audit middleware picks up the commit,
paths and ``verdict`` from the structured result by itself. The result passes through the model,
so a library field the model lacks is dropped: list them all (the CLI/MCP parity test catches a
missing one). Then add the name to ``TOOL_NAMES`` in ``tests/test_server_support.py``.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass
from datetime import date
from pathlib import Path
from typing import Annotated, Any, Literal, Protocol, TypeVar

from mcp.server.mcpserver.exceptions import ToolError
from mcp.types import CallToolResult, TextContent, ToolAnnotations
from pydantic import BaseModel, Field

from docshelf.errors import DocShelfError
from docshelf.server import audit
from docshelf.server.pin import Pin
from docshelf.shelf import reader
from docshelf.text import search as search_lib
from docshelf.text import verify

READ_ONLY = ToolAnnotations(read_only_hint=True, destructive_hint=False, idempotent_hint=True, open_world_hint=False)
MAX_PAGE_CHARS = 20000  # a page of fetch stays well under the ~25k-token result caps of MCP clients
DEFAULT_PAGE_CHARS = min(reader.DEFAULT_MAX_CHARS, MAX_PAGE_CHARS)  # the CLI's default, so both faces page alike
COMMIT = Field(description="Full Git sha of the commit this was read from; pass it as `at` to repeat the read.")

At = Annotated[
    str | None,
    Field(
        description="Commit sha, tag or branch of the shelf to read. Omit to read the server's current commit. "
        "Pass the `commit` of an earlier result to keep a multi-step answer on one version.",
        max_length=256,
    ),
]
AsOf = Annotated[
    date | None,
    Field(description="The date edition statuses are computed for (YYYY-MM-DD); default today."),
]
ContentMode = Literal["text", "summary"]
M = TypeVar("M", bound=BaseModel)


class ToolFn(Protocol):
    __name__: str

    def __call__(self, *args: Any, **kwargs: Any) -> CallToolResult: ...


class LibraryResult(Protocol):
    """What the library's read functions return (IndexPage, FetchResult, SearchResult, QuoteCheck)."""

    def to_dict(self) -> dict[str, Any]: ...


@dataclass(frozen=True)
class ShelfAccess:
    """What a tool function needs: the shelf, its pin, and how to fill the result's text content."""

    root: Path
    pin: Pin
    content: ContentMode = "text"

    def run(
        self,
        model: type[M],
        call: Callable[[str], LibraryResult],
        at: str | None,
        render: Callable[[M], str] | None = None,
    ) -> CallToolResult:
        """Call the library at one commit and wrap its result; a ``DocShelfError`` becomes a tool error."""
        try:
            sha = self.pin.resolve(at)
            audit.note(commit=sha)
            out = model.model_validate(call(sha).to_dict())
        except DocShelfError as exc:
            raise ToolError(str(exc)) from exc
        if self.content == "summary" or render is None:
            text = _summary(out)
        else:
            text = render(out)
        return CallToolResult(
            content=[TextContent(type="text", text=text)], structured_content=out.model_dump(mode="json")
        )


def _summary(out: BaseModel) -> str:
    """The content text when the payload is not repeated: every field but ``text``, as JSON."""
    data = out.model_dump(mode="json", exclude={"text"})
    note = " The text is in structuredContent.text." if "text" in type(out).model_fields else ""
    return json.dumps(data, ensure_ascii=False) + note


# ---- read_index -------------------------------------------------------------------------------


class IndexOut(BaseModel):
    commit: str = COMMIT
    path: str = Field(description="The index file that was read (index.md or docs/…/subindex.md).")
    text: str = Field(description="The index as Markdown: one line per document or section, with paths.")
    sha256: str = Field(description="sha256 of the index text at this commit.")
    as_of: str = Field(description="The date the edition statuses are for.")
    statuses: list[dict[str, str]] = Field(
        description="Documents listed here that are not (or not only) in force on as_of: id, status, label."
    )


def _render_index(out: IndexOut) -> str:
    notes = "".join(f"\n[{s['id']}: {s['label']} ({out.as_of})]" for s in out.statuses)
    return f"[{out.path} @ {out.commit}]{notes}\n\n{out.text}"


def read_index(shelf: ShelfAccess) -> ToolFn:
    def read_index(
        path: Annotated[
            str,
            Field(
                description="index.md for the whole shelf, or a document's folder / subindex.md path "
                "taken from the root index (e.g. docs/laws/152-fz/subindex.md).",
                min_length=1,
                max_length=1024,
            ),
        ] = "index.md",
        at: At = None,
        as_of: AsOf = None,
    ) -> Annotated[CallToolResult, IndexOut]:
        """Read a table of contents of the document shelf.

        Without `path` it returns the root index.md: one line per document with its path, citation
        id (e.g. 152-ФЗ) and size. A long document's line points to its subindex.md; read that to get
        the document's sections with their clause numbers (статья, пункт, раздел, section) and sizes.
        Returns the Markdown text and the commit it was read from. Section text is read with fetch.
        """
        return shelf.run(
            IndexOut, lambda sha: reader.read_index(shelf.root, path, at=sha, as_of=as_of), at, _render_index
        )

    return read_index


# ---- fetch ------------------------------------------------------------------------------------


class FetchOut(BaseModel):
    commit: str = COMMIT
    path: str = Field(description="The section file that was read.")
    title: str = Field(description="Title of the section (or of the whole document).")
    doc_id: str = Field(description="Citation id of the document, e.g. 152-ФЗ.")
    clauses: list[str] = Field(description="Clause ids this section covers, e.g. ['ст. 3'].")
    pages: list[int] = Field(description="Pages of the source document the section came from.")
    text: str = Field(description="The original text of this page of the section, verbatim.")
    sha256: str = Field(description="sha256 of the whole section text at this commit.")
    start: int = Field(description="Character offset of `text` in the section.")
    next_start: int | None = Field(description="Pass as `start` to read the rest; null when this is the end.")
    total_chars: int = Field(description="Length of the whole section in characters.")
    edition: dict[str, str] = Field(description="Edition fields: adopted, valid_from, valid_to, replaced_by, amends.")
    status: dict[str, Any] = Field(description="The edition's status on as_of (code, label, in_force, dates).")
    warning: str | None = Field(description="Set when the text is not in force on as_of; names what replaced it.")


def _render_fetch(out: FetchOut) -> str:
    clauses = ", ".join(out.clauses) or "no clause id"
    head = f"[{out.path} @ {out.commit}] {out.title} ({out.doc_id or 'no id'}; {clauses}; pages {out.pages or '?'})"
    span = f"chars {out.start}–{out.start + len(out.text)} of {out.total_chars}"
    tail = f"\n\n[cut: call fetch with start={out.next_start} to continue]" if out.next_start is not None else ""
    warning = f"\n[{out.warning}]" if out.warning else ""
    return f"{head}\n[{span}; sha256 {out.sha256}]{warning}\n\n{out.text}{tail}"


def fetch(shelf: ShelfAccess) -> ToolFn:
    def fetch(
        path: Annotated[
            str,
            Field(
                description="A section path from a subindex (docs/…/NNN-slug.md), or a short document's "
                "path from the root index (docs/…/name.md).",
                min_length=1,
                max_length=1024,
            ),
        ],
        start: Annotated[int, Field(description="Character offset to start reading from.", ge=0)] = 0,
        max_chars: Annotated[
            int, Field(description="Most characters to return in this call.", ge=1, le=MAX_PAGE_CHARS)
        ] = DEFAULT_PAGE_CHARS,
        at: At = None,
        as_of: AsOf = None,
    ) -> Annotated[CallToolResult, FetchOut]:
        """Read the original text of one section of the shelf, verbatim.

        Returns the text with the document title, citation id, the clause ids the section covers,
        the source pages, the edition status, the commit and the sha256 of the whole section. A
        section longer than `max_chars` comes in pages: when `next_start` is not null, call fetch
        again with `start` set to it to read the rest. Indexes are read with read_index.
        """
        return shelf.run(
            FetchOut,
            lambda sha: reader.fetch(shelf.root, path, at=sha, start=start, max_chars=max_chars, as_of=as_of),
            at,
            _render_fetch,
        )

    return fetch


# ---- verify_quote -----------------------------------------------------------------------------


class QuoteOut(BaseModel):
    commit: str = COMMIT
    verdict: str = Field(description="ok | not_found | wrong_clause | too_short | unknown_ref")
    ref: str = Field(description="The reference as given.")
    quote: str = Field(description="The quote as given.")
    message: str = Field(description="What the verdict means and what to do next.")
    doc_id: str = Field(description="Citation id of the document the quote was found in (ok).")
    path: str = Field(description="Section file of the match (ok).")
    clause: str = Field(description="The innermost clause id that contains the match, e.g. 'ст. 12 ч. 3' (ok).")
    match: str | None = Field(description="The matched span of the shelf's original text, verbatim (ok).")
    partial: bool = Field(description="True when the quote cuts its sentence before a condition or after a negation.")
    full_sentence: str | None = Field(description="The whole sentence when `partial` is true.")
    found_in: list[dict[str, str]] = Field(description="Where the quote really is (wrong_clause, unknown_ref).")
    closest: dict[str, Any] | None = Field(
        description="Nearest passage of the cited clause and a word diff (not_found)."
    )


class VerifyOut(QuoteOut):
    passed: bool | None = Field(default=None, description="Batch: true only if every quote is ok.")
    counts: dict[str, int] | None = Field(default=None, description="Batch: how many quotes got each verdict.")
    results: list[QuoteOut] | None = Field(default=None, description="Batch: one verdict per quote, in order.")


class QuoteItem(BaseModel):
    quote: str = Field(max_length=200_000)
    ref: str = Field(max_length=1024)


class _Batch:
    """A batch result shaped like one verdict (the first failing one) plus the per-quote list."""

    def __init__(self, result: verify.BatchCheck) -> None:
        self.result = result

    def to_dict(self) -> dict[str, Any]:
        r = self.result
        lead = next((q for q in r.results if q.verdict != "ok"), r.results[0]).to_dict() if r.results else {}
        summary = {"verdict": "ok" if r.passed else lead.get("verdict", "not_found"), "ref": "", "quote": ""}
        message = f"{r.counts.get('ok', 0)} of {len(r.results)} quotes verified."
        return {**lead, **summary, "message": message, **r.to_dict()}


def _render_verdict(out: VerifyOut) -> str:
    if out.results is not None:
        lines = [f"{q.verdict:12} {q.ref}: {q.message}" for q in out.results]
        return f"[{'PASS' if out.passed else 'FAIL'} @ {out.commit}] {out.message}\n" + "\n".join(lines)
    return f"[@ {out.commit}] " + verify.describe(out.model_dump())


def verify_quote(shelf: ShelfAccess) -> ToolFn:
    def verify_quote(
        quote: Annotated[
            str, Field(description="The quote exactly as written in the answer.", max_length=200_000)
        ] = "",
        ref: Annotated[
            str,
            Field(
                description="Where the quote is from: a citation such as '152-ФЗ ст. 12 ч. 3' or "
                "'Приказ ФСТЭК № 239 Требования п. 29 подп. «а»', or a section path, optionally with "
                "'#<clause>' (docs/…/NNN-slug.md#ч. 3).",
                max_length=1024,
            ),
        ] = "",
        items: Annotated[
            list[QuoteItem] | None,
            Field(description="Instead of quote/ref: all quotes of one answer, checked at one commit.", max_length=200),
        ] = None,
        at: At = None,
    ) -> Annotated[CallToolResult, VerifyOut]:
        """Check that a quote is verbatim in the clause it cites (after typographic normalization).

        Verdicts: ok (returns the original span and the exact clause), not_found (returns the
        closest passage of the cited clause and a word-level diff), wrong_clause (the quote is
        verbatim elsewhere; found_in says where), too_short (fewer than 6 words), unknown_ref (the
        reference names no clause on the shelf). '…' or '...' inside a quote means fragments in
        this order within the clause. Publishers' notes and amendment lines never match. Pass
        `items` to check every quote of an answer in one call; `passed` is true only if all are ok.
        """

        def call(sha: str) -> LibraryResult:
            if items is not None:
                return _Batch(verify.verify_quotes(shelf.root, [i.model_dump() for i in items], at=sha))
            return verify.verify_quote(shelf.root, quote, ref, at=sha)

        return shelf.run(VerifyOut, call, at, _render_verdict)

    return verify_quote


# ---- search -----------------------------------------------------------------------------------


class HitOut(BaseModel):
    path: str = Field(description="Section file to fetch.")
    title: str = Field(description="Section title.")
    doc_id: str = Field(description="Citation id of the document.")
    clause: str = Field(description="The section's clause id.")
    snippet: str = Field(description="Original text around the best match.")
    score: float = Field(description="Relevance; higher is better, comparable within one result only.")
    pages: list[int] = Field(description="Source pages of the section.")
    edition: dict[str, str] = Field(description="Edition fields of the document.")
    snippet_clause: str = Field(description="The innermost clause holding the snippet, to cite.")
    status: str = Field(description="Edition status of the document on as_of; '' when it has no edition data.")


class SearchOut(BaseModel):
    commit: str = COMMIT
    query: str = Field(description="The query as searched.")
    mode: str = Field(description="exact | prefix | substring | none: how the hits matched.")
    hits: list[HitOut] = Field(description="Best sections first.")
    low_confidence: bool = Field(description="True when nothing matches well: the shelf may not answer this.")
    keys: list[str] = Field(description="The analysed query terms.")
    note: str = Field(description="What was tried and what is missing when the answer is weak.")


def _render_search(out: SearchOut) -> str:
    data = out.model_dump()
    result = search_lib.SearchResult(**{**data, "hits": [search_lib.Hit(**h) for h in data["hits"]]})
    return f"[@ {out.commit}] " + search_lib.describe(result)


def search(shelf: ShelfAccess) -> ToolFn:
    def search(
        query: Annotated[
            str, Field(description="Words, a question or identifiers (УПД.1, ст. 10.2-1).", max_length=2000)
        ],
        limit: Annotated[int, Field(description="How many sections to return.", ge=1, le=50)] = 5,
        doc: Annotated[str | None, Field(description="Only this document id, e.g. 152-ФЗ.", max_length=256)] = None,
        category: Annotated[str | None, Field(description="Only this category folder.", max_length=256)] = None,
        status: Annotated[
            Literal["in_force", "not_yet_in_force", "repealed", "replaced", "unknown"] | None,
            Field(description="Only documents with this edition status on as_of."),
        ] = None,
        at: At = None,
        as_of: AsOf = None,
    ) -> Annotated[CallToolResult, SearchOut]:
        """Find the sections of the shelf that best answer a question.

        Understands Russian word forms, common colloquial wording (e.g. «за рубеж» for
        трансграничная передача) and identifiers (152-ФЗ, ст. 18.1, УПД.1, 4.2.1). Returns ranked
        sections with path, title, clause and a snippet of the original text; `low_confidence` means
        nothing matched well, so the shelf may not contain the answer. Fetch a hit before quoting it.
        """
        return shelf.run(
            SearchOut,
            lambda sha: search_lib.search(
                shelf.root, query, limit=limit, at=sha, doc=doc, category=category, status=status, as_of=as_of
            ),
            at,
            _render_search,
        )

    return search


# The tools the server offers, in this order.
TOOLS: tuple[Callable[[ShelfAccess], ToolFn], ...] = (read_index, fetch, search, verify_quote)
