"""What every part of the Git door shares: open repositories, the one ``git`` runner, the trusted shas."""

from __future__ import annotations

import atexit
import os
import re
import threading
import weakref
from collections import OrderedDict
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import git

from docshelf.errors import NotAShelfError, ShelfError

# No prompts, no pager (credential helpers still work).
_ENV = {"GIT_TERMINAL_PROMPT": "0", "GIT_ASKPASS": "", "SSH_ASKPASS": "", "GIT_PAGER": "cat"}

_SYMLINK_MODE = 0o120000

MAX_REF_CHARS = 256

FETCH_TIMEOUT_S = 60.0

_FULL_SHA = re.compile(r"^[0-9a-f]{40}$")

_NULL_SHA = "0" * 40

_BRANCH_CHARS = re.compile(r"^[^\x00-\x20\x7f~^:?*\[\\]+$")

_TRUSTED_MAX = 4096  # resolved shas remembered (per shelf root); each is a few dozen bytes

_trusted: OrderedDict[tuple[Path, str], None] = OrderedDict()

_trusted_lock = threading.Lock()

_CACHED = 4  # repositories kept open per thread (each holds two `git cat-file` processes)

_TREE_MAPS = 8  # commits whose path -> blob map is kept (a map is ~100 bytes per file)

_local = threading.local()


def _reader(root: Path) -> git.Repo:
    """A repository handle for reads, kept open per thread: opening one costs ~5 ms and two processes.

    Reads go to immutable objects of a resolved commit, so a cached handle cannot serve stale text;
    objects fetched later (``serve --follow``) are found on a cache miss.
    """
    cache: OrderedDict[Path, git.Repo] = getattr(_local, "repos", None) or OrderedDict()
    _local.repos = cache
    key = root.resolve()
    repo = cache.pop(key, None) or _open(root)
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


def git_version() -> str:
    """The installed ``git``'s version («2.39.5»); a ``ShelfError`` when there is none on PATH."""
    try:
        return ".".join(map(str, git.Git().version_info))
    except (git.GitCommandNotFound, git.GitCommandError) as exc:
        raise ShelfError(f"git is not installed or not on PATH ({exc}). Install git (apt-get install git).") from exc


def init(root: Path) -> None:
    with git.Repo.init(root, initial_branch="main") as repo:
        _ensure_identity(repo)


def _open(root: Path) -> git.Repo:
    try:
        return git.Repo(root)
    except (git.InvalidGitRepositoryError, git.NoSuchPathError) as exc:
        raise NotAShelfError(
            f"{root} is not a Git repository. Create a shelf with `docshelf init {root}` first."
        ) from exc


def require_repo(root: Path) -> None:
    """NotAShelfError (with its advice) unless ``root`` is a Git repository."""
    _open(root).close()


def _ensure_identity(repo: git.Repo) -> None:
    """Commits must work on a fresh machine with no global Git identity."""
    reader = repo.config_reader()
    if not reader.has_option("user", "email") and not os.environ.get("GIT_AUTHOR_EMAIL"):
        with repo.config_writer() as cw:
            cw.set_value("user", "name", "DocShelf")
            cw.set_value("user", "email", "docshelf@localhost")


def _run(
    root: Path, *args: str, timeout: float | None = None, env: dict[str, str] | None = None, stdin: Path | None = None
) -> str:
    """Run ``git <args>`` in the shelf and return its output; a failure is a ShelfError naming the command.

    ``env`` adds variables (e.g. ``GIT_INDEX_FILE``); ``stdin`` is a file fed to the command's input.
    """
    with _open(root) as repo, stdin.open("rb") if stdin is not None else _no_input() as istream:
        try:
            # quotepath=off: Cyrillic source names come back as UTF-8, not as octal escapes;
            # literal pathspecs: a path with * or :( is a path, never a pattern or magic.
            status, out, err = repo.git.execute(
                ["git", "-c", "core.quotepath=off", "--literal-pathspecs", *args],
                env={**_ENV, **(env or {})},
                istream=istream,
                kill_after_timeout=timeout,
                with_exceptions=False,
                with_extended_output=True,
            )
        except (git.CommandError, OSError) as exc:
            raise ShelfError(f"git {args[0]} could not run in {root}: {exc}. Check that Git is installed.") from exc
    if status != 0:
        raise ShelfError(f"git {args[0]} failed in {root}: {str(err).strip()[:300]}. Check the repository and retry.")
    return str(out)


@contextmanager
def _no_input() -> Iterator[None]:
    yield None


def _trust(root: Path, sha: str) -> None:
    key = (root.resolve(), sha)
    with _trusted_lock:
        _trusted[key] = None
        _trusted.move_to_end(key)
        while len(_trusted) > _TRUSTED_MAX:
            _trusted.popitem(last=False)


def _trusted_sha(root: Path, ref: str) -> bool:
    if not _FULL_SHA.match(ref):
        return False
    with _trusted_lock:
        return (root.resolve(), ref) in _trusted


def _git_dir(root: Path) -> Path:
    with _open(root) as repo:
        return Path(repo.git_dir)
