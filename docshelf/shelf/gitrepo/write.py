"""Writing: commits, branches, rollback, and crash-safe writes built beside the working tree.

``commit_files`` writes the blobs, builds the tree in a temporary index (GIT_INDEX_FILE), makes
the commit with ``commit-tree`` and moves the branch with one ``update-ref`` (compare-and-swap
on the old sha); only then is the working tree brought to the new commit. A journal written
just before the ref moves names the old and the new commit, so a process killed while the
working tree was being updated leaves a record that the next write (``write_lock``) finishes.
Killed at any earlier step, the branch and the working tree are untouched. Writes hold an
exclusive lock (``flock``: the kernel releases it when the holder dies, so it never goes stale).
"""

from __future__ import annotations

import fcntl
import json
import os
import shutil
import signal
import time
from collections.abc import Callable, Iterator, Mapping
from contextlib import contextmanager
from pathlib import Path

import git

from docshelf.errors import ShelfError, UnknownCommitError
from docshelf.shelf.gitrepo._core import (
    _ENV,
    _NULL_SHA,
    _ensure_identity,
    _git_dir,
    _open,
    _run,
    _trust,
)
from docshelf.shelf.gitrepo.refs import _lookup, check_branch, full_ref, head_branch


def commit(root: Path, message: str, *, branch: str | None = None) -> str:
    """Stage everything under ``root`` (honouring .gitignore) and commit; returns the new sha."""
    with _open(root) as repo:
        _ensure_identity(repo)
        if branch:
            _checkout_branch(repo, branch)
        repo.git.add("--all", env=_ENV)
        if repo.head.is_valid() and not repo.index.diff("HEAD") and not repo.untracked_files:
            sha = repo.head.commit.hexsha
        else:
            sha = repo.index.commit(message).hexsha
    _trust(root, sha)
    return sha


def _checkout_branch(repo: git.Repo, branch: str) -> None:
    if branch.startswith("-"):
        raise ShelfError(f"Invalid branch name {branch!r}: it may not start with '-'.")
    if repo.active_branch.name == branch if not repo.head.is_detached else False:
        return
    names = [h.name for h in repo.heads]
    repo.git.checkout(branch if branch in names else ["-b", branch])


def is_dirty(root: Path) -> bool:
    with _open(root) as repo:
        return repo.is_dirty(untracked_files=True)


@contextmanager
def rollback_on_error(root: Path, *, branch: str | None, rollback: bool) -> Iterator[None]:
    """Run the body on ``branch`` (made if needed); if it fails and ``rollback``, put everything back.

    Back means: the working tree reset to the commit it started from, untracked files removed,
    the starting branch checked out again, and a branch made for the body deleted.

    Raises:
        ShelfError: the repository has no commit yet.
    """
    with _open(root) as repo:
        start_branch = None if repo.head.is_detached else repo.active_branch.name
        if not repo.head.is_valid():
            raise ShelfError(f"{root} has no commit yet. Create shelves with `docshelf init`, or commit once first.")
        start = repo.head.commit.hexsha
        existed = {h.name for h in repo.heads}
        try:
            if branch:
                _checkout_branch(repo, branch)
            yield
        except BaseException:
            if rollback:
                repo.git.reset("--hard", start)
                repo.git.clean("-fdq")
                if start_branch and branch and start_branch != branch:
                    repo.git.checkout(start_branch)
                    if branch not in existed:
                        repo.git.branch("-D", branch)  # a branch made for this body goes too
            raise


WRITE_LOCK = "docshelf-write.lock"

WRITE_DIR = "docshelf-write"  # inside .git: the temporary index, blob files and the journal

JOURNAL = "journal.json"

LOCK_WAIT_S = 600.0

CRASH_ENV = "DOCSHELF_TEST_CRASH_AT"  # tests: SIGKILL this process at the named step

WRITE_STEPS = ("staged", "blobs", "tree", "commit", "journal", "ref", "worktree")


def _crash_point(step: str) -> None:
    """Die here, as ``kill -9`` would, when the crash test asks for this step (see ``WRITE_STEPS``)."""
    if os.environ.get(CRASH_ENV) == step:
        os.kill(os.getpid(), signal.SIGKILL)


@contextmanager
def write_lock(root: Path, *, say: Callable[[str], None], wait_s: float = LOCK_WAIT_S) -> Iterator[None]:
    """Hold the shelf's write lock for the body; finish an interrupted write first.

    A second writer waits (saying so) until the first is done, then goes on.

    Raises:
        ShelfError: the lock was not free within ``wait_s`` seconds.
    """
    path = _git_dir(root) / WRITE_LOCK
    fd = os.open(path, os.O_RDWR | os.O_CREAT, 0o644)
    try:
        if not _try_lock(fd):
            holder = os.pread(fd, 64, 0).decode("utf-8", "replace").strip() or "?"
            say(f"Another docshelf write is running on this shelf (pid {holder}); waiting for it to finish…")
            deadline = time.monotonic() + wait_s
            while not _try_lock(fd):
                if time.monotonic() > deadline:
                    raise ShelfError(
                        f"Another docshelf write (pid {holder}) has held {path} for over {wait_s:.0f} s. "
                        "Wait for it to finish, or stop that process, and retry."
                    )
                time.sleep(0.1)
        os.ftruncate(fd, 0)
        os.pwrite(fd, f"{os.getpid()}\n".encode(), 0)
        finish_interrupted_write(root)
        yield
    finally:
        os.close(fd)  # closing the descriptor releases the lock


def _try_lock(fd: int) -> bool:
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except BlockingIOError:
        return False
    return True


def leftovers(root: Path) -> list[str]:
    """What an interrupted write left behind, each with what to do (``docshelf check`` reports these)."""
    work = _git_dir(root) / WRITE_DIR
    found = []
    moved = _interrupted_move(root)
    if moved is not None:
        found.append(
            f"A write was interrupted after {moved} moved to its new commit, while the working tree was being "
            "updated: the working tree may not match the commit. The next `docshelf add` or `rebuild` finishes it."
        )
    elif work.exists():
        found.append(
            f"{work} is left from an interrupted write that never moved the branch: the shelf is unchanged. "
            "The next `docshelf add` or `rebuild` removes it."
        )
    if (_git_dir(root) / "index.lock").exists():
        found.append(
            ".git/index.lock exists: a Git command was interrupted. If no git or docshelf process is running, "
            "the next `docshelf add` or `rebuild` removes it after an interrupted write, or delete it by hand."
        )
    return found


def _interrupted_move(root: Path) -> str | None:
    """The ref an interrupted write already moved (so the working tree lags behind it), or None."""
    journal = _git_dir(root) / WRITE_DIR / JOURNAL
    if not journal.is_file():
        return None
    j = json.loads(journal.read_text(encoding="utf-8"))
    try:
        now = _lookup(root, j["ref"])
    except UnknownCommitError:
        return None  # a branch the write was to create, never created
    if now == j["new"]:
        return str(j["ref"])
    if now != j["old"]:
        raise ShelfError(
            f"An interrupted docshelf write was to move {j['ref']} to {j['new'][:12]}, but it is at {now[:12]} "
            f"now. Check `git status` and `git log`, then delete {journal} and retry."
        )
    return None


def finish_interrupted_write(root: Path) -> None:
    """Bring the working tree to the commit an interrupted write left the branch at (call holding the lock).

    Raises:
        ShelfError: the branch was moved by something else since; the message says what to check.
    """
    work = _git_dir(root) / WRITE_DIR
    moved = _interrupted_move(root)
    if moved is not None:
        j = json.loads((work / JOURNAL).read_text(encoding="utf-8"))
        (_git_dir(root) / "index.lock").unlink(missing_ok=True)  # left by the killed `read-tree -u`
        if j.get("follow", True):  # a new branch for a pull request leaves the working tree where it was
            _run(root, "symbolic-ref", "HEAD", moved)
            _run(root, "reset", "--hard", "--quiet", j["new"])
    if work.exists():
        shutil.rmtree(work)


def commit_files(root: Path, changes: Mapping[str, bytes | None], message: str, *, branch: str | None = None) -> str:
    """Commit ``changes`` (path → new bytes, or None to delete) on top of HEAD; returns the commit (HEAD if no change).

    The commit goes to the branch HEAD is on, or to ``branch`` (made from HEAD for a pull request:
    HEAD and the working tree stay on the branch they were on, which this write did not change).
    Call holding ``write_lock``, with a clean working tree.

    Raises:
        ShelfError: HEAD is detached or unborn, ``branch`` exists apart from HEAD, or Git failed.
    """
    head = head_branch(root)
    if head is None:
        raise ShelfError(f"{root}: HEAD is not on a branch. Check out a branch (git switch main) and retry.")
    parent = _lookup(root, "HEAD")
    target = f"refs/heads/{check_branch(branch)}" if branch else head
    if target != head and full_ref(root, target) is not None:
        raise ShelfError(
            f"Branch {branch} already exists. Switch to it first (git switch {branch}), or name a new one."
        )
    work = _git_dir(root) / WRITE_DIR
    shutil.rmtree(work, ignore_errors=True)
    (work / "blobs").mkdir(parents=True)
    env = {"GIT_INDEX_FILE": str(work / "index")}
    _run(root, "read-tree", parent, env=env)
    _crash_point("staged")
    _run(root, "update-index", "--index-info", env=env, stdin=_index_info(root, work, changes))
    _crash_point("blobs")
    tree = _run(root, "write-tree", env=env).strip()
    _crash_point("tree")
    if tree == _run(root, "rev-parse", f"{parent}^{{tree}}").strip() and target == head:
        shutil.rmtree(work)
        return parent
    (work / "message").write_text(message + "\n", encoding="utf-8")
    new = _run(root, "commit-tree", tree, "-p", parent, "-F", str(work / "message")).strip()
    _crash_point("commit")
    tmp = work / (JOURNAL + ".tmp")
    old = parent if target == head else ""
    # «follow»: the working tree is to show the new commit (a write to HEAD's own branch).
    tmp.write_text(json.dumps({"ref": target, "old": old, "new": new, "follow": target == head}), encoding="utf-8")
    tmp.replace(work / JOURNAL)
    _crash_point("journal")
    # Compare-and-swap: the ref moves only if it is still where this write started (a new branch: absent).
    _run(root, "update-ref", "-m", f"docshelf: {message.splitlines()[0]}", target, new, old)
    _crash_point("ref")
    if target == head:
        _run(root, "read-tree", "-m", "-u", parent, new)  # the working tree, from the old commit to the new one
    _crash_point("worktree")
    shutil.rmtree(work)
    _trust(root, new)
    return new


def _index_info(root: Path, work: Path, changes: Mapping[str, bytes | None]) -> Path:
    """``update-index --index-info`` input for ``changes``: blobs written with one ``hash-object`` call."""
    for rel in changes:
        if any(c in rel for c in "\n\t\r\x00") or rel.startswith(("/", ".git/")) or ".." in rel.split("/"):
            raise ShelfError(f"Cannot commit the path {rel!r}: rename the source file without tabs or line breaks.")
    written = sorted(p for p, data in changes.items() if data is not None)
    listing = work / "blob-paths"
    files = []
    for n, rel in enumerate(written):
        blob = work / "blobs" / str(n)
        blob.write_bytes(changes[rel] or b"")
        files.append(str(blob))
    listing.write_text("".join(f + "\n" for f in files), encoding="utf-8")
    shas = _run(root, "hash-object", "-w", "--no-filters", "--stdin-paths", stdin=listing).split() if files else []
    lines = [f"100644 {sha}\t{rel}\n" for rel, sha in zip(written, shas, strict=True)]
    lines += [f"0 {_NULL_SHA}\t{rel}\n" for rel, data in sorted(changes.items()) if data is None]
    info = work / "index-info"
    info.write_text("".join(lines), encoding="utf-8")
    return info
