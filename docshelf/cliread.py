"""The reading commands: ``read-index``, ``fetch``, ``search``, ``eval``, ``history``, ``diff``, ``verify-quote``.

Registered in the main group by ``docshelf.cli``; like every command they parse, call the library and
print. The library is imported inside each command, so ``docshelf --help`` and the other commands do
not pay for the search engine, the citation tables and their dictionaries.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import click

from docshelf.cliopts import AS_OF_OPTION, SHELF_OPTION, as_of_date, emit
from docshelf.cliopts import shelf_root as _shelf
from docshelf.errors import DocShelfError
from docshelf.model import DEFAULT_MAX_CHARS


@click.command("read-index")
@click.argument("path", default="index.md")
@SHELF_OPTION
@click.option("--at", default=None, help="Commit, tag or branch to read (default: HEAD).")
@AS_OF_OPTION
@click.option(
    "--json",
    "as_json",
    is_flag=True,
    help="Print the page, its path and the commit as JSON (the MCP tool's structured result).",
)
def read_index(path: str, shelf_dir: Path | None, at: str | None, as_of: str | None, as_json: bool) -> None:
    """Print the root index or a document's subindex."""
    from docshelf.shelf import reader

    page = reader.read_index(_shelf(shelf_dir), path, at, as_of=as_of_date(as_of))
    emit(page.to_dict(), as_json, reader.shown_index(page))


@click.command()
@click.argument("path", required=False, default="")
@click.option("--ref", default="", help="Instead of PATH: a citation; prints exactly that clause's text.")
@SHELF_OPTION
@click.option("--at", default=None, help="Commit, tag or branch to read (default: HEAD).")
@AS_OF_OPTION
@click.option("--start", default=0, type=click.IntRange(min=0), help="Character offset to start from.")
@click.option("--max-chars", default=DEFAULT_MAX_CHARS, type=click.IntRange(min=1), show_default=True)
@click.option("--json", "as_json", is_flag=True, help="Print the result as JSON (the MCP tool's structured result).")
def fetch(
    path: str,
    ref: str,
    shelf_dir: Path | None,
    at: str | None,
    as_of: str | None,
    start: int,
    max_chars: int,
    as_json: bool,
) -> None:
    """Print one section's original text (PATH), or exactly the clause a citation names (--ref)."""
    if bool(path) == bool(ref):
        raise click.UsageError("Give either a section PATH or --ref CITATION.")
    from docshelf.text import cited

    if ref:
        res = cited.fetch_ref(_shelf(shelf_dir), ref, at, start=start, max_chars=max_chars, as_of=as_of_date(as_of))
    else:
        res = cited.fetch_section(
            _shelf(shelf_dir), path, at, start=start, max_chars=max_chars, as_of=as_of_date(as_of)
        )
    for line in (res.note, res.warning):
        if line and not as_json:
            click.echo(line, err=True)
    tail = f"\n[cut: continue with --start {res.next_start}]\n" if res.next_start is not None else ""
    emit(res.to_dict(), as_json, res.text + tail)


@click.command("search")
@click.argument("query")
@SHELF_OPTION
@click.option("--limit", default=5, type=click.IntRange(min=1, max=100), show_default=True)
@click.option("--doc", default=None, help="Only this document (its citation id, e.g. 152-ФЗ).")
@click.option("--category", default=None, help="Only documents under this category folder.")
@click.option(
    "--status",
    type=click.Choice(["in_force", "not_yet_in_force", "repealed", "replaced", "unknown"]),
    default=None,
    help="Only documents with this edition status on --as-of (texts in force always come first).",
)
@AS_OF_OPTION
@click.option("--at", default=None, help="Commit, tag or branch to search (default: HEAD).")
@click.option(
    "--json",
    "as_json",
    is_flag=True,
    help="Print the hits, notes and commit as JSON (the MCP tool's structured result).",
)
def search_cmd(
    query: str,
    shelf_dir: Path | None,
    limit: int,
    doc: str | None,
    category: str | None,
    status: str | None,
    as_of: str | None,
    at: str | None,
    as_json: bool,
) -> None:
    """Find the sections that answer QUERY (Russian morphology, synonyms, identifiers such as УПД.1).

    Words in quotes ("срок хранения", «срок хранения») must stand together in that order in every hit;
    a word after a minus (-биометрические) must be in none.
    """
    from docshelf.text import search

    result = search.search(
        _shelf(shelf_dir), query, limit=limit, at=at, doc=doc, category=category, status=status, as_of=as_of_date(as_of)
    )
    emit(result.to_dict(), as_json, search.describe(result))


@click.command("eval")
@click.argument("queries", type=click.Path(dir_okay=False, exists=True, path_type=Path))
@SHELF_OPTION
@click.option("--k", "k", default=5, type=click.IntRange(min=1), show_default=True)
@click.option("--at", default=None, help="Commit, tag or branch to evaluate (default: HEAD).")
@click.option("--json", "as_json", is_flag=True, help="Print the metrics per kind and each query's rank as JSON.")
def eval_cmd(queries: Path, shelf_dir: Path | None, k: int, at: str | None, as_json: bool) -> None:
    """Score search on labelled QUERIES (JSON lines: query, gold, kind): hit@k, MRR, nDCG, empty rate."""
    from docshelf.text import evaluate

    report = evaluate.evaluate(_shelf(shelf_dir), evaluate.load_queries(queries), k=k, at=at)
    emit(report.to_dict(), as_json, report.format_table())


@click.command("history")
@click.argument("path")
@SHELF_OPTION
@click.option("--limit", default=50, type=click.IntRange(min=1), show_default=True)
@click.option("--json", "as_json", is_flag=True, help="Print the commits as JSON (sha, date, author, subject).")
def history_cmd(path: str, shelf_dir: Path | None, limit: int, as_json: bool) -> None:
    """List the commits that changed PATH (a section, a document folder, or a citation id), newest first."""
    from docshelf.text import history

    changes = history.history(_shelf(shelf_dir), path, limit=limit)
    text = "".join(f"{c.sha[:12]}  {c.date}  {c.author}\n    {c.subject}\n" for c in changes)
    emit({"path": path, "changes": [c.to_dict() for c in changes]}, as_json, text or "no changes\n")


@click.command("diff")
@click.argument("rev_a")
@click.argument("rev_b")
@click.argument("path", required=False)
@SHELF_OPTION
@click.option("--json", "as_json", is_flag=True, help="Print the changed documents, sections and clauses as JSON.")
def diff_cmd(rev_a: str, rev_b: str, path: str | None, shelf_dir: Path | None, as_json: bool) -> None:
    """Show what changed between two commits: documents, sections, and the text of each clause."""
    from docshelf.text import history

    result = history.diff(_shelf(shelf_dir), rev_a, rev_b, path)
    emit(result.to_dict(), as_json, result.format_text())


@click.command("verify-quote")
@click.argument("quote", required=False)
@click.option("--ref", default="", help="Where the quote is from: «152-ФЗ ст. 12 ч. 3» or docs/…/NNN-slug.md[#ч. 3].")
@click.option(
    "--batch",
    type=click.File("r", encoding="utf-8"),
    default=None,
    help='JSON lines of {"quote", "ref"} (or - for stdin): check all quotes of one answer at one commit.',
)
@SHELF_OPTION
@click.option("--at", default=None, help="Commit, tag or branch to check against (default: HEAD).")
@click.option(
    "--json",
    "as_json",
    is_flag=True,
    help="Print each verdict with its match, clause and commit as JSON (the MCP tool's structured result).",
)
@click.option("--check", "strict", is_flag=True, help="Exit 1 unless every quote is ok (for scripts and CI).")
@AS_OF_OPTION
def verify_quote_cmd(
    quote: str | None,
    ref: str,
    batch: Any,
    shelf_dir: Path | None,
    at: str | None,
    as_json: bool,
    strict: bool,
    as_of: str | None,
) -> None:
    """Prove that QUOTE is verbatim in the clause --ref names, or say what is wrong with it."""
    from docshelf.results import QuoteReport
    from docshelf.text import verify

    root = _shelf(shelf_dir)
    if batch is not None:
        items = [json.loads(line) for line in batch if line.strip()]
        result = verify.verify_quotes(root, items, at=at, as_of=as_of_date(as_of))
        lines = [f"{r.verdict:12} {r.ref}: {r.message}" for r in result.results]
        report = QuoteReport.of(result)  # what the verify_quote tool returns for the same batch
        emit(report.to_dict(), as_json, "\n".join([*lines, "PASS" if result.passed else "FAIL"]) + "\n")
        if strict and not result.passed:
            raise DocShelfError(f"{len(result.results) - result.counts.get('ok', 0)} quote(s) not verified")
        return
    if quote is None or not ref:
        raise click.UsageError("give QUOTE and --ref, or --batch FILE")
    check = verify.verify_quote(root, quote, ref, at=at, as_of=as_of_date(as_of))
    emit(QuoteReport.of(check).to_dict(), as_json, verify.describe(check.to_dict()))
    if strict and check.verdict != "ok":
        raise DocShelfError(f"quote not verified: {check.verdict}")


__all__ = ["diff_cmd", "eval_cmd", "fetch", "history_cmd", "read_index", "search_cmd", "verify_quote_cmd"]
