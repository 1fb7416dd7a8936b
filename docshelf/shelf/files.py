"""The shelf's own files as the build reads them: regular files inside the shelf, reached through no link.

A symbolic link committed into ``sources/`` or ``docs/`` (or a folder of them) would let ``rebuild`` read a
file from outside the shelf and commit its text, and let ``check`` read a device or a binary file. Reads by
``rebuild``, ``check`` and the writers go through :func:`regular` (which refuses) or :func:`oddity` (which
says why a path is not a shelf file, for ``check`` to report); serving never reads the working tree at all.
"""

from __future__ import annotations

from pathlib import Path, PurePosixPath

from docshelf.errors import ShelfError


def oddity(root: Path, rel: str) -> str | None:
    """Why ``root/rel`` is not a regular file of the shelf («a symbolic link», «not a regular file»), or None.

    A missing file is no oddity here: the callers say «missing» in their own words.
    """
    here = root
    for part in PurePosixPath(rel).parts:
        here = here / part
        if here.is_symlink():
            at = here.relative_to(root).as_posix()
            return "a symbolic link" if at == rel else f"under a symbolic link ({at})"
    path = root / rel
    if path.exists() and not path.is_file():
        return "not a regular file"
    return None


def regular(root: Path, rel: str) -> Path:
    """``root/rel``, a regular file of the shelf reached through no link; ShelfError saying what to do otherwise."""
    if (why := oddity(root, rel)) is not None:
        raise ShelfError(
            f"{rel} is {why}: a shelf holds only regular files, so it is not read. Replace it with the file "
            "itself (git rm the link, add the file), then run the command again."
        )
    return root / rel


def refuse_linked_folders(root: Path) -> None:
    """ShelfError when a folder the build writes into (``docs``, ``sources``) is a symbolic link."""
    for folder in ("docs", "sources"):
        if (root / folder).is_symlink():
            raise ShelfError(
                f"{folder}/ of the shelf is a symbolic link: the build would write outside the shelf. Make it a "
                "folder of the shelf (git rm the link, move the files in), then run the command again."
            )
