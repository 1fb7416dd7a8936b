"""The only module that talks to Git: commits on build, pinned reads of one commit on serve."""

from __future__ import annotations

import atexit
import os
import threading
import weakref
from collections import OrderedDict
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

import git
from gitdb.exc import BadName, BadObject

from docshelf.errors import NotAShelfError, PathOutsideShelfError, SectionNotFoundError, ShelfError, UnknownCommitError

_ENV = {"GIT_TERMINAL_PROMPT": "0"}
_SYMLINK_MODE = 0o120000
_CACHED = 4  # repositories kept open per thread (each holds two `git cat-file` processes)
_local = threading.local()


def _reader(root: Path) -> git.Repo:
    """A repository handle for reads, kept open per thread: opening one costs ~5 ms and two processes.

    Reads go to immutable objects of a resolved commit, so a cached handle cannot serve stale text;
    objects fetched later (``serve --follow``) are found on a cache miss.
    """
    cache: OrderedDict[Path, git.Repo] = getattr(_local, "repos", None) or OrderedDict()
    _local.repos = cache
    key = root.resolve()
    repo = cache.pop(key, None) or open_repo(root)
    cache[key] = repo
    while len(cache) > _CACHED:
        _old, stale = cache.popitem(last=False)
        stale.close()
    _OPEN.add(repo)
    return repo


_OPEN: weakref.WeakSet[git.Repo] = weakref.WeakSet()


@atexit.register
def _close_all() -> None:
    for repo in list(_OPEN):
        repo.close()


def init(root: Path) -> None:
    with git.Repo.init(root, initial_branch="main") as repo:
        _ensure_identity(repo)


def open_repo(root: Path) -> git.Repo:
    try:
        return git.Repo(root)
    except (git.InvalidGitRepositoryError, git.NoSuchPathError) as exc:
        raise NotAShelfError(
            f"{root} is not a Git repository. Create a shelf with `docshelf init {root}` first."
        ) from exc


def _ensure_identity(repo: git.Repo) -> None:
    """Commits must work on a fresh machine with no global Git identity."""
    reader = repo.config_reader()
    if not reader.has_option("user", "email") and not os.environ.get("GIT_AUTHOR_EMAIL"):
        with repo.config_writer() as cw:
            cw.set_value("user", "name", "DocShelf")
            cw.set_value("user", "email", "docshelf@localhost")


def commit(root: Path, message: str, *, branch: str | None = None) -> str:
    """Stage everything under ``root`` (honouring .gitignore) and commit; returns the new sha."""
    with open_repo(root) as repo:
        _ensure_identity(repo)
        if branch:
            checkout_branch(repo, branch)
        repo.git.add("--all", env=_ENV)
        if repo.head.is_valid() and not repo.index.diff("HEAD") and not repo.untracked_files:
            return repo.head.commit.hexsha
        return repo.index.commit(message).hexsha


def checkout_branch(repo: git.Repo, branch: str) -> None:
    if branch.startswith("-"):
        raise ShelfError(f"Invalid branch name {branch!r}: it may not start with '-'.")
    if repo.active_branch.name == branch if not repo.head.is_detached else False:
        return
    names = [h.name for h in repo.heads]
    repo.git.checkout(branch if branch in names else ["-b", branch])


def is_dirty(root: Path) -> bool:
    with open_repo(root) as repo:
        return repo.is_dirty(untracked_files=True)


def resolve(root: Path, ref: str | None = None) -> str:
    """The full sha of ``ref`` (default HEAD). Refs that look like options are refused."""
    ref = ref or "HEAD"
    if ref.startswith("-") or "\x00" in ref:
        raise UnknownCommitError(f"Invalid ref {ref!r}: give a commit sha, tag or branch name.")
    try:
        return _reader(root).commit(ref).hexsha
    except (BadName, BadObject, ValueError, git.GitCommandError) as exc:
        raise UnknownCommitError(
            f"Unknown commit or ref {ref!r}. List commits with `docshelf history` or `git log`."
        ) from exc


def read(root: Path, path: str, at: str) -> bytes:
    """The bytes of ``path`` in commit ``at`` (a resolved sha), never from the working tree."""
    return _read_blob(_reader(root), path, at)


def _read_blob(repo: git.Repo, path: str, at: str) -> bytes:
    try:
        blob = repo.commit(at).tree / path
    except KeyError as exc:
        raise SectionNotFoundError(
            f"No file {path!r} at commit {at[:12]}. Read the index (`read-index`) for valid paths.",
            path=path,
            commit=at,
        ) from exc
    if blob.type != "blob":
        raise SectionNotFoundError(f"{path!r} is a folder, not a file; read its subindex.md.", path=path, commit=at)
    if blob.mode == _SYMLINK_MODE:
        # A committed symlink's blob is its target path; never serve it as text, never follow it.
        raise PathOutsideShelfError(f"{path!r} is a symbolic link; the shelf serves only regular files.")
    data: bytes = blob.data_stream.read()
    return data


def list_files(root: Path, at: str, prefix: str = "") -> list[str]:
    """Paths of all files in commit ``at`` under ``prefix``."""
    tree = _reader(root).commit(at).tree
    if prefix:
        try:
            tree = tree / prefix.rstrip("/")
        except KeyError:
            return []
    return sorted(str(item.path) for item in tree.traverse() if item.type == "blob")  # type: ignore[union-attr]


def read_tree(root: Path, at: str, prefix: str = "", suffix: str = "") -> dict[str, bytes]:
    """Every file under ``prefix`` ending in ``suffix`` at commit ``at``, read through one repository handle."""
    tree = _reader(root).commit(at).tree
    if prefix:
        try:
            tree = tree / prefix.rstrip("/")
        except KeyError:
            return {}
    return {
        str(item.path): item.data_stream.read()  # type: ignore[union-attr]
        for item in tree.traverse()
        if item.type == "blob" and item.mode != _SYMLINK_MODE and str(item.path).endswith(suffix)  # type: ignore[union-attr]
    }


# --- history: commits that touched paths -------------------------------------------------------

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


def _git(root: Path, *args: str) -> str:
    with open_repo(root) as repo:
        # quotepath=off: Cyrillic source names come back as UTF-8, not as octal escapes;
        # literal pathspecs: a path with * or :( is a path, never a pattern or magic.
        out: str = repo.git.execute(
            ["git", "-c", "core.quotepath=off", "--literal-pathspecs", *args], env={"GIT_TERMINAL_PROMPT": "0"}
        )
        return out


def kind_at(root: Path, commit: str, path: str) -> str | None:
    """``blob``, ``tree`` or None: what ``path`` is at ``commit``."""
    with open_repo(root) as repo:
        try:
            return str((repo.commit(commit).tree / path).type)
        except KeyError:
            return None


def log(root: Path, paths: list[str], *, follow: bool, limit: int) -> list[Change]:
    """``git log`` of ``paths``, newest first; ``follow`` tracks one file across renames."""
    fmt = f"--format={_RECORD}%H{_FIELD}%aI{_FIELD}%an <%ae>{_FIELD}%B{_FIELD}"
    args = ["log", fmt, "--name-status", f"--max-count={limit}", "--encoding=UTF-8"]
    out = _git(root, *args, *(["--follow"] if follow else []), "--", *paths)
    changes = []
    for record in out.split(_RECORD)[1:]:
        sha, when, author, message, status = record.split(_FIELD)
        files = [line.split("\t")[-1] for line in status.strip().splitlines() if "\t" in line]
        subject = message.strip().split("\n", 1)[0]
        changes.append(Change(sha, when, author, subject, message.strip(), files))
    return changes


def changed_paths(root: Path, commit_a: str, commit_b: str) -> set[str]:
    """Every path that differs between two commits (both sides of a rename)."""
    out = _git(root, "diff", "--name-only", "--no-renames", "-z", commit_a, commit_b, "--")
    return {p for p in out.split("\x00") if p}
