"""Where a shelf keeps what it derives from its commits: a module of names only, so a command that just
asks whether a file exists (``add`` telling the maintainer to embed) does not import the search stack."""

from __future__ import annotations

from pathlib import Path

INDEX_DIR = ".docshelf"  # the cache folder at the shelf's root (git-ignored)
VECTOR_STORE = "vectors.sqlite"  # the meaning vectors of every commit, by section text


def vector_store(root: Path) -> Path:
    return root.resolve() / INDEX_DIR / VECTOR_STORE


def prepare(folder: Path) -> None:
    """The cache folder, made if needed, with a ``.gitignore`` so that Git never sees what is cached."""
    folder.mkdir(exist_ok=True)
    ignore = folder / ".gitignore"
    if not ignore.exists():  # a shelf made without the template must not see the cache as a change
        ignore.write_text("*\n", encoding="utf-8")
