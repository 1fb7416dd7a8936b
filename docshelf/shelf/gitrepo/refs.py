"""Refs, one set of rules: what a ref may look like, resolving it once, reachability, following a branch."""

from __future__ import annotations

import threading
from pathlib import Path
from typing import Any

import git
from gitdb.exc import BadName, BadObject

from docshelf.errors import ShelfError, UnknownCommitError
from docshelf.shelf.gitrepo._core import (
    _BRANCH_CHARS,
    _FULL_SHA,
    _NULL_SHA,
    FETCH_TIMEOUT_S,
    MAX_REF_CHARS,
    _reader,
    _run,
    _trust,
    _trusted_lock,
    _trusted_sha,
)


def check_ref(ref: str) -> str:
    """``ref`` if it can only name a revision; refs that look like options or carry control bytes are refused."""
    if not ref or ref.startswith("-") or len(ref) > MAX_REF_CHARS or any(ord(c) < 0x20 or c == "\x7f" for c in ref):
        raise UnknownCommitError(f"Invalid ref {ref!r}: give a commit sha, tag or branch name (not starting with '-').")
    return ref


def check_branch(branch: str) -> str:
    """A plain branch name (what ``--follow`` accepts): no options, no revision syntax, no '..'."""
    check_ref(branch)
    if not _BRANCH_CHARS.match(branch) or ".." in branch or branch.endswith((".", "/", ".lock")) or "@{" in branch:
        raise ShelfError(f"Invalid branch name {branch!r}. Give a branch of the shelf repository, e.g. main.")
    return branch


def resolve(root: Path, ref: str | None = None) -> str:
    """The full sha of ``ref`` (default HEAD), checked by ``check_ref`` first.

    A full sha this process resolved before (or committed) is returned as it is: commits never
    change, so resolve once and pass the sha down.

    Raises:
        UnknownCommitError: ``ref`` is malformed or names no commit.
    """
    ref = check_ref(ref or "HEAD")
    if _trusted_sha(root, ref):
        return ref
    sha = _lookup(root, ref)
    _trust(root, sha)
    return sha


def _lookup(root: Path, ref: str) -> str:
    """Ask Git for the commit ``ref`` names (the one place a ref is looked up)."""
    try:
        sha = _reader(root).commit(ref).hexsha
    except (BadName, BadObject, ValueError, git.GitCommandError) as exc:
        raise UnknownCommitError(
            f"Unknown commit or ref {ref!r}. List commits with `docshelf history` or `git log`."
        ) from exc
    except (IndexError, KeyError, NotImplementedError, TypeError, AttributeError) as exc:
        # GitPython parses revision syntax itself and fails on what it cannot read (@{-1}, @{yesterday}, HEAD:../).
        raise UnknownCommitError(
            f"Cannot read the revision {ref!r}: give a commit sha, tag or branch name (reflog and revision "
            "expressions such as @{…}, ^, ~ or : are not supported). List commits with `docshelf history`."
        ) from exc
    if sha == _NULL_SHA:  # GitPython takes the all-zero sha for a commit without looking
        raise UnknownCommitError(f"Unknown commit {ref!r}. List commits with `docshelf history` or `git log`.")
    return sha


def _tree(root: Path, at: str) -> Any:
    """The root tree of commit ``at`` (a resolved sha)."""
    try:
        return _reader(root).commit(at).tree
    except (BadName, BadObject, ValueError) as exc:
        raise UnknownCommitError(f"Unknown commit {at!r}. Resolve the ref first; list commits with `git log`.") from exc


def head_branch(root: Path) -> str | None:
    """The full name of the branch HEAD is on (``refs/heads/main``), or None when HEAD is detached."""
    head = _reader(root).head
    return None if head.is_detached else str(head.ref.path)


def full_ref(root: Path, name: str) -> tuple[str, str] | None:
    """(full ref name, commit sha) of the ref ``name`` means, in Git's order, or None if it names no ref.

    ``name`` must already be a plain ref name (no revision syntax). Read in Python (loose and
    packed refs), without starting a process.
    """
    repo = _reader(root)
    for full in (name, f"refs/{name}", f"refs/tags/{name}", f"refs/heads/{name}", f"refs/remotes/{name}"):
        if not full.startswith("refs/"):
            continue
        ref = git.Reference(repo, full, check_path=False)
        try:
            return full, str(ref.commit.hexsha)
        except (ValueError, KeyError, TypeError, OSError, BadName, BadObject):
            continue
    return None


def reachable(root: Path, sha: str, patterns: tuple[str, ...]) -> bool:
    """True when commit ``sha`` is in the history of a ref matching ``patterns`` (``git for-each-ref`` rules)."""
    if not _FULL_SHA.match(sha) or not patterns:
        return False
    out = _run(root, "for-each-ref", "--count=1", "--format=%(refname)", f"--contains={sha}", *patterns)
    return bool(out.strip())


def remote_of(root: Path) -> str | None:
    """The remote ``--follow`` fetches from: ``origin`` if there is one, else the first remote, else None."""
    remotes = _run(root, "remote", timeout=10.0).split()
    if not remotes:
        return None
    return "origin" if "origin" in remotes else remotes[0]


def followed_ref(root: Path, branch: str) -> str:
    """The ref ``--follow BRANCH`` reads: ``refs/remotes/<remote>/BRANCH``, or ``refs/heads/BRANCH`` with no remote."""
    check_branch(branch)
    remote = remote_of(root)
    return f"refs/heads/{branch}" if remote is None else f"refs/remotes/{remote}/{branch}"


def branch_tip(root: Path, branch: str, *, fetch: bool = True) -> str:
    """The sha ``branch`` points to now: after a fetch from the remote if the shelf has one, else locally.

    With a remote, the remote-tracking ref ``refs/remotes/<remote>/<branch>`` is updated and read; the
    local branch and the working tree are left alone (a maintainer may be working in them).
    """
    check_branch(branch)
    remote = remote_of(root)
    tracking = f"refs/heads/{branch}" if remote is None else f"refs/remotes/{remote}/{branch}"
    if fetch and remote is not None:
        # '--' ends options: the remote and refspec can never be read as flags.
        refspec = f"+refs/heads/{branch}:{tracking}"
        with _fetch_lock(root):  # the --follow loop and an on-demand fetch would race for the ref's lock
            _run(root, "fetch", "--quiet", "--no-tags", "--no-recurse-submodules", "--", remote, refspec,
                 timeout=FETCH_TIMEOUT_S)  # fmt: skip
    return resolve(root, tracking)


_fetch_locks: dict[Path, threading.Lock] = {}


def _fetch_lock(root: Path) -> threading.Lock:
    """One fetch at a time per repository in this process."""
    with _trusted_lock:
        return _fetch_locks.setdefault(root.resolve(), threading.Lock())
