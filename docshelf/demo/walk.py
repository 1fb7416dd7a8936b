"""``docshelf demo``: build a shelf from the built-in samples and walk it the way a model does."""

from __future__ import annotations

import tempfile
from importlib import resources
from pathlib import Path

import click

from .. import reader, shelf
from ..build import DocOptions

SAMPLES = (
    ("zakon-o-testovyh-dannyh.pdf", "laws", "999-ФЗ"),
    ("polozhenie-o-dostupe.md", "internal", "Положение о доступе"),
    ("glossary.txt", "reference", "Glossary"),
)


def _sample(name: str) -> Path:
    return Path(str(resources.files("docshelf.demo") / name))


def build_demo_shelf(root: Path) -> Path:
    """A new shelf at ``root`` holding the three sample documents (one commit per add)."""
    shelf.init(root, name="DocShelf demo")
    for name, category, doc_id in SAMPLES:
        shelf.add(
            root,
            [_sample(name)],
            DocOptions(source="", category=category, id=doc_id),
            progress=lambda _m: None,
        )
    return root


def _shelf_bytes(root: Path, commit: str) -> int:
    from .. import gitrepo

    return sum(len(gitrepo.read(root, p, commit)) for p in gitrepo.list_files(root, commit) if p.endswith(".md"))


def run_demo(directory: Path | None) -> None:
    """Print the trace of a model's walk: index → subindex → section, with bytes read and the commit."""
    root = directory or Path(tempfile.mkdtemp(prefix="docshelf-demo-")) / "shelf"
    click.echo(f"Building the demo shelf in {root} …", err=True)
    build_demo_shelf(root)
    read = 0
    index = reader.read_index(root)
    read += len(index.text.encode("utf-8"))
    click.echo(f"== read_index index.md @ {index.commit[:12]}\n{index.text}")
    law = next(m for m in shelf.metas(root) if m["id"] == "999-ФЗ")
    sub = reader.read_index(root, law["entry"])
    read += len(sub.text.encode("utf-8"))
    click.echo(f"== read_index {sub.path}\n{sub.text}")
    target = next((s for s in law["sections"] if s["clause"].startswith("ст.")), law["sections"][0])
    section = reader.fetch(root, target["path"])
    read += len(section.text.encode("utf-8"))
    click.echo(f"== fetch {section.path} ({', '.join(section.clauses) or 'no clause'}; pages {section.pages})")
    click.echo(section.text)
    total = _shelf_bytes(root, index.commit)
    click.echo(
        f"== read {read} of {total} bytes of Markdown ({100 * read / total:.0f}% of the shelf) at commit {index.commit}"
    )
    click.echo(f"Explore it: docshelf read-index --shelf {root}")
