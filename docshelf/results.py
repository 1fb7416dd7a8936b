"""What the read commands return, declared once: the library builds these, ``--json`` prints them,
and the MCP tools publish them as their output schema and ``structuredContent``.

* ``IndexPage``    read_index / ``docshelf read-index``
* ``FetchResult``  fetch / ``docshelf fetch``
* ``SearchResult`` search / ``docshelf search`` (its ``hits`` are ``Hit``)
* ``QuoteCheck``   one verdict of verify_quote; ``BatchCheck`` all quotes of one answer;
  ``QuoteReport`` what verify_quote and ``docshelf verify-quote`` print for either

A face turns a result into JSON with ``to_dict()`` and nothing else, so the CLI and the MCP tool
cannot drift apart. Fields may be added; the named ones keep their meaning (PRODUCT.md).
"""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel, ConfigDict, Field

# A relation (replaced_by, amended_by …) may name several acts: «a; b» as written, or a list in a hand-made meta.
Edition = dict[str, str | list[str]]
COMMIT_DOC = "Full Git sha of the commit this was read from; pass it as `at` to repeat the read."
CALL_ID_DOC = (
    "The id of this call's audit record, to name the call an answer relied on; null outside an audited MCP server."
)


class Result(BaseModel):
    """A result record: immutable, no unknown fields, JSON through ``to_dict``."""

    model_config = ConfigDict(frozen=True, extra="forbid", defer_build=True)  # built on first use: one-shot CLI calls

    def to_dict(self) -> dict[str, Any]:
        """The JSON object both faces print (the CLI's ``--json``, the tool's ``structuredContent``)."""
        return self.model_dump(mode="json")


class IndexPage(Result):
    commit: str = Field(description=COMMIT_DOC)
    path: str = Field(description="The index file that was read (index.md or docs/…/subindex.md).")
    text: str = Field(
        default="",
        description="The index as Markdown: one line per document or section, with paths. Over MCP it is "
        "sent once, in the result's text content, and left out here.",
    )
    sha256: str = Field(default="", description="sha256 of the index text at this commit.")
    as_of: str = Field(default="", description="The date the edition statuses are for.")
    statuses: list[dict[str, str]] = Field(
        default_factory=list,
        description="Documents listed here that are not (or not only) in force on as_of: id, status, label.",
    )
    call_id: str | None = Field(default=None, description=CALL_ID_DOC)


class FetchResult(Result):
    commit: str = Field(description=COMMIT_DOC)
    path: str = Field(description="The section file that was read.")
    title: str = Field(description="Title of the section (or of the whole document).")
    doc_id: str = Field(description="Citation id of the document, e.g. 152-ФЗ.")
    clauses: list[str] = Field(description="Clause ids this section covers, e.g. ['ст. 3'].")
    pages: list[int] = Field(description="Pages of the source document the section came from.")
    text: str = Field(
        default="",
        description="The original text of this page of the section, verbatim. Over MCP it is sent once, in "
        "the result's text content (after a one-line header), and left out here.",
    )
    sha256: str = Field(description="sha256 of the whole section text at this commit.")
    start: int = Field(description="Character offset of `text` in the section.")
    next_start: int | None = Field(description="Pass as `start` to read the rest; null when this is the end.")
    total_chars: int = Field(description="Length of the whole section in characters.")
    edition: Edition = Field(
        default_factory=dict, description="Edition fields: adopted, valid_from, valid_to, replaced_by, amends."
    )
    status: dict[str, Any] = Field(
        default_factory=dict, description="The edition's status on as_of (code, label, in_force, dates)."
    )
    warning: str | None = Field(
        default=None, description="Set when the text is not in force on as_of; names what replaced it."
    )
    ref: str = Field(default="", description="The citation fetched by `ref`, as given; '' for a fetch by path.")
    clause: str = Field(default="", description="For a fetch by `ref`: the clause id it was read as.")
    level: str = Field(default="", description="For a fetch by `ref`: clause or section, what the text is.")
    span: list[int] = Field(
        default_factory=list, description="For a fetch by `ref`: the clause's [start, end] in the section file."
    )
    references: list[dict[str, Any]] = Field(
        default_factory=list,
        description="References the returned text makes to clauses of this or another document on the shelf: "
        "{text, start, end (offsets in the section file), doc_id, clause, path, level} — fetch the clause by "
        "ref «doc_id clause» or by path.",
    )
    moved_from: str = Field(
        default="",
        description="The path asked for, when it is a path of an earlier commit: `path` is the section holding "
        "the same clause now.",
    )
    note: str = Field(default="", description="How the path was read, when it was redirected; '' otherwise.")
    call_id: str | None = Field(default=None, description=CALL_ID_DOC)


class Hit(Result):
    path: str = Field(description="Section file to fetch.")
    title: str = Field(description="Section title.")
    doc_id: str = Field(description="Citation id of the document.")
    clause: str = Field(description="The section's clause id.")
    snippet: str = Field(description="Original text around the best match, cut at word boundaries.")
    score: float = Field(description="Relevance; higher is better, comparable within one result only.")
    pages: list[int] = Field(description="Source pages of the section.")
    edition: Edition = Field(description="Edition fields of the document.")
    snippet_clause: str = Field(default="", description="The innermost clause holding the snippet, to cite.")
    start: int = Field(default=0, description="Where the snippet's clause begins in the section: fetch's `start`.")
    max_chars: int = Field(
        default=0,
        description="How many characters from `start` hold that clause (or the text around the snippet): "
        "fetch's `max_chars` to read just it. 0: not known, fetch the section.",
    )
    status: str = Field(
        default="", description="Edition status of the document on as_of; '' when it has no edition data."
    )
    status_label: str = Field(
        default="", description="The status in words when the text is not plainly in force on as_of; '' otherwise."
    )
    also_in: list[dict[str, str]] = Field(
        default_factory=list,
        description="The same clause elsewhere, folded into this hit: other editions or formats (kind 'copy') and "
        "the other parts of a split article (kind 'part'); each with doc_id, clause, path and status.",
    )


class SearchResult(Result):
    commit: str = Field(description=COMMIT_DOC)
    query: str = Field(description="The query as searched.")
    mode: str = Field(description="exact | prefix | substring | none: how the hits matched.")
    hits: list[Hit] = Field(description="Best sections first.")
    low_confidence: bool = Field(description="True when nothing matches well: the shelf may not answer this.")
    keys: list[str] = Field(description="The analysed query terms.")
    note: str = Field(default="", description="What was tried and what is missing when the answer is weak.")
    call_id: str | None = Field(default=None, description=CALL_ID_DOC)


class QuoteCheck(Result):
    """The verdict on one quote; ``match`` is the original text of the shelf, verbatim."""

    commit: str = Field(description=COMMIT_DOC)
    verdict: str = Field(description="ok | not_found | wrong_clause | too_short | unknown_ref")
    ref: str = Field(description="The reference as given.")
    quote: str = Field(description="The quote as given.")
    message: str = Field(description="What the verdict means and what to do next.")
    doc_id: str = Field(default="", description="Citation id of the document the quote was found in (ok).")
    path: str = Field(default="", description="Section file of the match (ok).")
    clause: str = Field(
        default="", description="The innermost clause id that contains the match, e.g. 'ст. 12 ч. 3' (ok)."
    )
    match: str | None = Field(default=None, description="The matched span of the shelf's original text (ok).")
    partial: bool = Field(
        default=False, description="True when the quote cuts its sentence before a condition or after a negation."
    )
    full_sentence: str | None = Field(default=None, description="The whole sentence when `partial` is true.")
    found_in: list[dict[str, str]] = Field(
        default_factory=list, description="Where the quote really is (wrong_clause, unknown_ref)."
    )
    closest: dict[str, Any] | None = Field(
        default=None, description="Nearest passage of the cited clause and a word diff (not_found)."
    )
    level: str = Field(default="", description="What an ok proves: clause | section | document ('' otherwise).")
    fetch_ref: str = Field(
        default="",
        description="For an ok: the citation of the innermost clause holding the match; fetch(ref=…) returns "
        "exactly that clause, and it is the reference to give in the answer.",
    )
    candidates: list[str] = Field(default_factory=list, description="Other documents the citation also matched.")
    status: dict[str, Any] = Field(
        default_factory=dict,
        description="Edition status on as_of of the document the quote was proven in (code, in_force, label, "
        "replaced_by); {} when it has no edition data. An ok on a text not in force proves the words, not the law.",
    )
    notes: list[str] = Field(
        default_factory=list, description="How the reference was read (the edition chosen, an ambiguity)."
    )


class BatchCheck(Result):
    """All quotes of one answer, checked at one commit: the answer passes only if every quote is ``ok``."""

    commit: str = Field(description=COMMIT_DOC)
    passed: bool = Field(description="True only if every quote is ok.")
    counts: dict[str, int] = Field(description="How many quotes got each verdict.")
    results: list[QuoteCheck] = Field(description="One verdict per quote, in order.")


BATCH_FIELDS = ("passed", "counts", "results")


class QuoteReport(QuoteCheck):
    """What verify_quote answers: one verdict, or a batch led by its first failing verdict plus every verdict.

    The batch fields are left out of ``to_dict`` for a single quote, so a single verdict prints
    exactly the ``QuoteCheck`` fields.
    """

    passed: bool | None = Field(default=None, description="Batch: true only if every quote is ok.")
    counts: dict[str, int] | None = Field(default=None, description="Batch: how many quotes got each verdict.")
    results: list[QuoteCheck] | None = Field(default=None, description="Batch: one verdict per quote, in order.")
    call_id: str | None = Field(default=None, description=CALL_ID_DOC)

    @classmethod
    def of(cls, result: QuoteCheck | BatchCheck) -> QuoteReport:
        """The report of one verdict, or of a batch (its first failing verdict leads, with a count message)."""
        if isinstance(result, QuoteCheck):
            return cls(**dict(result))
        lead = next((q for q in result.results if q.verdict != "ok"), result.results[0]) if result.results else None
        fields = dict(lead) if lead is not None else {}
        verdict = "ok" if result.passed else fields.get("verdict", "not_found")
        message = f"{result.counts.get('ok', 0)} of {len(result.results)} quotes verified."
        return cls(**{**fields, **dict(result), "verdict": verdict, "ref": "", "quote": "", "message": message})

    def to_dict(self) -> dict[str, Any]:
        data = super().to_dict()
        if self.results is None:
            for key in BATCH_FIELDS:
                del data[key]
            if self.call_id is None:  # a single verdict is exactly a QuoteCheck until the server stamps it
                del data["call_id"]
        return data
