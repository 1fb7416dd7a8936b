"""Reading one commit: files by path through a per-commit path -> blob map, trees, and the history of paths."""

from __future__ import annotations

from dataclasses import asdict, dataclass, field
from functools import lru_cache
from pathlib import Path
from typing import Any

from docshelf.errors import PathOutsideShelfError, SectionNotFoundError
from docshelf.shelf.gitrepo._core import (
    _SYMLINK_MODE,
    _TREE_MAPS,
    _reader,
    _run,
)
from docshelf.shelf.gitrepo.refs import _tree


@lru_cache(maxsize=_TREE_MAPS)
def _tree_map(root: Path, at: str) -> tuple[dict[str, tuple[int, str]], frozenset[str]]:
    """(file path -> (mode, blob sha), folder paths) of commit ``at``: one ``git ls-tree`` per commit.

    Commits never change, so the map is built once and every read of that commit is a dict lookup
    and one object read from the repository's open ``cat-file`` process, whatever the shelf's size.
    """
    _tree(root, at)  # a commit Git does not have: UnknownCommitError with its advice
    files: dict[str, tuple[int, str]] = {}
    folders: set[str] = set()
    for record in _run(root, "ls-tree", "-r", "-t", "-z", "--full-tree", at).split("\0"):
        if not record:
            continue
        head, _, path = record.partition("\t")
        mode, kind, sha = head.split(" ")
        if kind == "tree":
            folders.add(path)
        elif kind == "blob":
            files[path] = (int(mode, 8), sha)
    return files, frozenset(folders)


def _blob(root: Path, sha: str) -> bytes:
    data: bytes = _reader(root).odb.stream(bytes.fromhex(sha)).read()
    return data


def read(root: Path, path: str, at: str) -> bytes:
    """The bytes of ``path`` (shelf-relative, already checked) in commit ``at`` (a resolved sha).

    Never the working tree.

    Raises:
        SectionNotFoundError: no such file at that commit, or it is a folder.
        PathOutsideShelfError: it is a committed symbolic link (its blob is a path, not shelf text).
    """
    files, folders = _tree_map(root, at)
    entry = files.get(path)
    if entry is None:
        if path in folders:
            raise SectionNotFoundError(f"{path!r} is a folder, not a file; read its subindex.md.", path=path, commit=at)
        raise SectionNotFoundError(
            f"No file {path!r} at commit {at[:12]}. Read the index (`read-index`) for valid paths.",
            path=path,
            commit=at,
        )
    mode, sha = entry
    if mode == _SYMLINK_MODE:
        # A committed symlink's blob is its target path; never serve it as text, never follow it.
        raise PathOutsideShelfError(f"{path!r} is a symbolic link, not a shelf file. Use a path from the index.")
    return _blob(root, sha)


def _under(path: str, prefix: str) -> bool:
    return not prefix or path.startswith(prefix.rstrip("/") + "/")


def list_files(root: Path, at: str, prefix: str = "") -> list[str]:
    """Paths of all files in commit ``at`` under ``prefix``."""
    return sorted(p for p in _tree_map(root, at)[0] if _under(p, prefix))


def read_tree(root: Path, at: str, prefix: str = "", suffix: str = "") -> dict[str, bytes]:
    """Every file under ``prefix`` ending in ``suffix`` at commit ``at`` (symbolic links left out), in path order."""
    return {p: _blob(root, sha) for p, sha in blob_shas(root, at, prefix, suffix).items()}


def blob_shas(root: Path, at: str, prefix: str = "", suffix: str = "") -> dict[str, str]:
    """The blob sha of every file :func:`read_tree` would read, in path order, without reading any: a content key."""
    files = _tree_map(root, at)[0]
    return {
        p: sha
        for p, (mode, sha) in sorted(files.items())
        if _under(p, prefix) and p.endswith(suffix) and mode != _SYMLINK_MODE
    }


def read_blob(root: Path, sha: str) -> bytes:
    """The bytes of one blob :func:`blob_shas` named."""
    return _blob(root, sha)


def kind_at(root: Path, commit: str, path: str) -> str | None:
    """``blob``, ``tree`` or None: what ``path`` is at ``commit``."""
    files, folders = _tree_map(root, commit)
    return "blob" if path in files else "tree" if path.rstrip("/") in folders else None


_FIELD, _RECORD = "\x1f", "\x1e"


@dataclass(frozen=True)
class Change:
    """One commit that touched the path: ``paths`` are the matching files as named in that commit."""

    sha: str
    date: str  # author date, ISO 8601 with offset
    author: str  # "Name <email>"
    subject: str
    message: str
    paths: list[str] = field(default_factory=list)

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)


def log(root: Path, paths: list[str], *, follow: bool, limit: int) -> list[Change]:
    """``git log`` of ``paths``, newest first; ``follow`` tracks one file across renames."""
    fmt = f"--format={_RECORD}%H{_FIELD}%aI{_FIELD}%an <%ae>{_FIELD}%B{_FIELD}"
    args = ["log", fmt, "--name-status", f"--max-count={limit}", "--encoding=UTF-8"]
    out = _run(root, *args, *(["--follow"] if follow else []), "--", *paths)
    changes = []
    for record in out.split(_RECORD)[1:]:
        sha, when, author, message, status = record.split(_FIELD)
        files = [line.split("\t")[-1] for line in status.strip().splitlines() if "\t" in line]
        subject = message.strip().split("\n", 1)[0]
        changes.append(Change(sha, when, author, subject, message.strip(), files))
    return changes


def last_having(root: Path, path: str, at: str) -> str | None:
    """The newest commit reachable from ``at`` whose tree holds ``path``, when ``at`` itself does not: the
    parent of the commit that removed it (None: no commit before ``at`` had it)."""
    removed = _run(root, "log", "-1", "--format=%H", at, "--", path).strip()
    if not removed:
        return None
    parents = _run(root, "rev-list", "--parents", "-n", "1", removed).split()[1:]
    return next((p for p in parents if kind_at(root, p, path) == "blob"), None)


def changed_paths(root: Path, commit_a: str, commit_b: str) -> set[str]:
    """Every path that differs between two commits (both sides of a rename)."""
    out = _run(root, "diff", "--name-only", "--no-renames", "-z", commit_a, commit_b, "--")
    return {p for p in out.split("\x00") if p}
