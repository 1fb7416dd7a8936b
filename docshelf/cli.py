"""The ``docshelf`` command: a thin face over the library (each command parses, calls, prints).

Errors: every ``DocShelfError`` becomes ``Error: …`` on stderr and exit 1, in one place
(``main``); usage errors exit 2 (click). Progress goes to stderr, results to stdout.
"""

from __future__ import annotations

import json
import sys
from collections.abc import Iterable
from pathlib import Path

import click

from docshelf.cliopts import SHELF_OPTION
from docshelf.cliopts import shelf_root as _shelf
from docshelf.errors import DocShelfError

# The library is imported inside each command: `docshelf --help` and a command's own work should not pay for
# the parts another command needs (the search engine, the converters, Git).


@click.group(context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(package_name="docshelf")
def cli() -> None:
    """DocShelf: regulations and manuals as a Git shelf of Markdown sections, served over MCP."""


@cli.command()
@click.argument("directory", type=click.Path(file_okay=False, path_type=Path))
@click.option("--name", help="The shelf's name (default: the directory name).")
def init(directory: Path, name: str | None) -> None:
    """Create a new shelf in DIRECTORY from the template, with a first commit."""
    from docshelf.shelf import store as shelf

    shelf.init(directory, name=name)
    click.echo(f"Created shelf {directory}. Add documents with: docshelf add FILE --shelf {directory}")


@cli.command()
@click.argument("sources", nargs=-1, required=True, type=click.Path(path_type=Path))
@SHELF_OPTION
@click.option("--category", default="", help="Folder under docs/ (e.g. laws/personal-data).")
@click.option("--id", "doc_id", default="", help="Citation id as people cite it: 152-ФЗ, ПП 1119, RFC 4271.")
@click.option("--title", default="", help="Document title (default: taken from the document).")
@click.option(
    "--quality",
    type=click.Choice(["fast", "high"]),
    default="fast",
    show_default=True,
    help="fast: DocShelf's own extractor; high: marker-pdf (needs docshelf[marker] and its models).",
)
@click.option("--no-split", is_flag=True, help="Keep the document as one file.")
@click.option(
    "--branch", default=None, help="Commit on this new branch, for a pull request; the shelf stays on its own branch."
)
@click.option("--no-commit", is_flag=True, help="Write the files but do not commit.")
@click.option("--adopted", default="", help="Date the act was adopted (YYYY-MM-DD).")
@click.option("--valid-from", default="", help="Date this edition enters into force.")
@click.option("--valid-to", default="", help="Date this edition stops being in force.")
@click.option("--replaced-by", default="", help="Id of the document that replaces this one.")
@click.option("--amends", default="", help="Id of the document this one amends.")
@click.option("--amended-by", default="", help="Id(s) of the documents that amend this one (separate with ;).")
@click.option("--publication", default="", help="Official publication reference (e.g. publication.pravo.gov.ru №).")
@click.option("--update", is_flag=True, help="The file is a new edition of the document with this --id: replace it.")
@click.option("--json", "as_json", is_flag=True, help="Print each document's id, entry and build quality as JSON.")
def add(
    sources: tuple[Path, ...],
    shelf_dir: Path | None,
    category: str,
    doc_id: str,
    title: str,
    quality: str,
    no_split: bool,
    branch: str | None,
    no_commit: bool,
    adopted: str,
    valid_from: str,
    valid_to: str,
    replaced_by: str,
    amends: str,
    amended_by: str,
    publication: str,
    update: bool,
    as_json: bool,
) -> None:
    """Convert SOURCES (PDF, DOCX, HTML, TXT, Markdown) and add them to the shelf in one commit.

    Edition dates are YYYY-MM-DD (or DD.MM.YYYY); an act that is not on the shelf is named with the
    prefix ext: («--replaced-by "ext:Приказ ФСТЭК № 117"»).
    """
    from docshelf.build.pipeline import DocOptions
    from docshelf.cliprogress import progress
    from docshelf.law import editions
    from docshelf.shelf import store as shelf
    from docshelf.text.cachepaths import vector_store

    dates = {k: editions.parse_date(v).isoformat() for k, v in (("adopted", adopted), ("valid_from", valid_from),
             ("valid_to", valid_to)) if v}  # fmt: skip
    edition = {
        **dates,
        "replaced_by": replaced_by,
        "amends": amends,
        "amended_by": amended_by,
        "publication": publication,
    }
    opts = DocOptions(
        source="",
        category=category,
        id=doc_id,
        title=title,
        quality=quality,
        split=not no_split,
        edition={k: v for k, v in edition.items() if v},
    )
    if update and not doc_id:
        raise click.UsageError("--update needs --id: the id of the document this file is a new edition of")
    root = _shelf(shelf_dir)
    with progress() as say:
        docs = shelf.add(root, list(sources), opts, branch=branch, commit=not no_commit, update=update,
                         progress=say)  # fmt: skip
    if not no_commit:
        from docshelf.text import normstore

        normstore.store_built(root, ((d.files[s.path], s) for d in docs for s in d.meta.sections if s.path in d.files))
    if vector_store(root).exists():
        from docshelf.text import encoder  # the search stack, imported only where vectors are kept

        if encoder.wanted(root):  # this shelf reranks by meaning
            click.echo(
                "meaning vectors: run `docshelf embed` for the new sections (until then search says so)", err=True
            )
    if as_json:
        rows = [{"id": d.id, "entry": d.entry_path, "sections": len(d.meta.section_data),
                 "quality": dict(d.meta.quality or {})} for d in docs]  # fmt: skip
        click.echo(json.dumps(rows, ensure_ascii=False, indent=2))
        return
    for d in docs:
        click.echo(f"{d.id}\t{d.entry_path}\t{len(d.meta.section_data)} section(s)")
        _echo_quality((d.id, w) for w in (d.meta.quality or {}).get("warnings", []))


def _echo_quality(notes: Iterable[tuple[str, str]]) -> None:
    """The build's quality warnings, on stderr: a short list a maintainer reads before committing."""
    for doc_id, warning in notes:
        click.echo(f"quality: {doc_id}: {warning}", err=True)


@cli.command()
@SHELF_OPTION
@click.option("--no-commit", is_flag=True, help="Write the files but do not commit.")
@click.option(
    "--json", "as_json", is_flag=True, help="Print whether files changed and each document's quality warnings."
)
def rebuild(shelf_dir: Path | None, no_commit: bool, as_json: bool) -> None:
    """Regenerate all sections and indexes from sources/ (idempotent)."""
    from docshelf.cliprogress import progress
    from docshelf.shelf import check as check_mod
    from docshelf.shelf import store as shelf

    root = _shelf(shelf_dir)
    with progress() as say:
        changed = shelf.rebuild(root, commit=not no_commit, progress=say)
    notes = check_mod.quality_notes(root)
    if as_json:
        quality = [{"id": doc_id, "warning": w} for doc_id, w in notes]
        click.echo(json.dumps({"changed": changed, "quality": quality}, ensure_ascii=False, indent=2))
        return
    _echo_quality(notes)
    click.echo("rebuilt: changes written" if changed else "rebuilt: no changes")


@cli.command("rm")
@click.argument("ids", nargs=-1, required=True)
@SHELF_OPTION
@click.option("--no-commit", is_flag=True, help="Delete the files but do not commit.")
def rm(ids: tuple[str, ...], shelf_dir: Path | None, no_commit: bool) -> None:
    """Remove documents by citation id (IDS) in one commit; earlier commits still hold them."""
    from docshelf.shelf import store as shelf

    for meta in shelf.remove(_shelf(shelf_dir), list(ids), commit=not no_commit):
        click.echo(f"removed\t{meta.id}\t{meta.entry}")


@cli.command()
@SHELF_OPTION
@click.option("--at", default=None, help="Commit, tag or branch whose sections to embed (default: HEAD).")
@click.option("--jobs", default=0, type=click.IntRange(min=0), help="Worker processes (default: one per core).")
@click.option("--prune", is_flag=True, help="Then delete the vectors of texts this commit no longer has.")
def embed(shelf_dir: Path | None, at: str | None, jobs: int, prune: bool) -> None:
    """Compute the meaning vectors search reranks by (docshelf[encoder]; ~0.1 CPU-s a chunk, once per text)."""
    from docshelf.cliprogress import counted, progress
    from docshelf.shelf import gitrepo
    from docshelf.text import encoder

    root = _shelf(shelf_dir)
    commit = gitrepo.resolve(root, at)
    with progress() as say:
        done, had = encoder.embed_commit(root, commit, counted(say, "embedding section texts…"), jobs)
    click.echo(f"embedded {done} section texts, {had} already had vectors (commit {commit[:12]})")
    if prune:
        click.echo(f"pruned {encoder.prune(root, commit)} vectors of texts no longer at {commit[:12]}")


@cli.command()
@SHELF_OPTION
@click.option("--json", "as_json", is_flag=True, help="Print problems as JSON.")
@click.option("--strict", is_flag=True, help="Also fail documents below the quality floors of .docshelf.json.")
def check(shelf_dir: Path | None, as_json: bool, strict: bool) -> None:
    """Lint the shelf; exit 1 on any problem (use it as the shelf's CI gate).

    Quality warnings of the build are shown on stderr; with --strict, a document whose headings
    miss its own contents or whose text keeps page furniture is a problem.
    """
    from docshelf.shelf import check as check_mod

    root = _shelf(shelf_dir)
    problems = check_mod.check(root, strict=strict)
    if as_json:
        click.echo(json.dumps([p.to_dict() for p in problems], ensure_ascii=False, indent=2))
    else:
        _echo_quality(check_mod.quality_notes(root))
        for p in problems:
            click.echo(f"{p.path}: {p.kind}: {p.message}")
        click.echo(f"{len(problems)} problem(s)" if problems else "ok: no problems", err=True)
    if problems:
        sys.exit(1)


@cli.command()
@click.option(
    "--dir",
    "directory",
    type=click.Path(file_okay=False, path_type=Path),
    default=None,
    help="Where to build the demo shelf (default: a new temporary directory).",
)
def demo(directory: Path | None) -> None:
    """Build a shelf from the built-in sample documents and walk it as a model would."""
    from docshelf.demo.walk import run_demo

    run_demo(directory)


from docshelf.cliread import diff_cmd, eval_cmd, fetch, history_cmd, read_index, search_cmd, verify_quote_cmd  # noqa: E402
from docshelf.firststeps import config_cmd, convert_cmd, doctor_cmd  # noqa: E402
from docshelf.server.commands import audit, serve, token  # noqa: E402  (the group above must exist first)
from docshelf.web.command import web  # noqa: E402

for _reading in (read_index, fetch, search_cmd, eval_cmd, history_cmd, diff_cmd, verify_quote_cmd):
    cli.add_command(_reading)
cli.add_command(serve)
cli.add_command(token)
cli.add_command(audit)
cli.add_command(web)
cli.add_command(convert_cmd)
cli.add_command(doctor_cmd)
cli.add_command(config_cmd)


def main() -> None:
    """Entry point: map DocShelf errors to ``Error: …`` and exit 1."""
    try:
        cli(standalone_mode=False)
    except click.exceptions.Abort:
        click.echo("Aborted.", err=True)
        sys.exit(1)
    except click.ClickException as exc:
        exc.show()
        sys.exit(exc.exit_code)
    except DocShelfError as exc:
        click.echo(f"Error: {exc}", err=True)
        sys.exit(1)
    except UnicodeDecodeError as exc:  # a file given that is not text: one line, never a traceback
        click.echo(
            f"Error: a file given is not UTF-8 text (byte {exc.start}); give the text file it asks for.", err=True
        )
        sys.exit(1)
    except OSError as exc:  # unreadable, missing, a name too long for the file system
        name = str(exc.filename or "")
        shown = name if len(name) <= 120 else name[:120] + "…"
        click.echo(
            f"Error: {shown or 'a file given'}: {exc.strerror or exc}. Check the path and its permissions.", err=True
        )
        sys.exit(1)
