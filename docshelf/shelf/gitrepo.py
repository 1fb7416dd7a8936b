"""The only module that runs Git: commits and rollback on build, refs, blobs and trees of one commit on serve.

Nothing else in DocShelf imports GitPython or starts a ``git`` process (a test checks it). The
rules live here once:

* a ref is checked (``check_ref``) before Git sees it: nothing that looks like an option, no
  control bytes, at most ``MAX_REF_CHARS``; ``--follow`` takes plain branch names (``check_branch``);
* ``resolve`` turns a ref into a full sha once; a full sha it has resolved before is trusted as
  it is (commits never change), so a caller that passes the sha down costs no second lookup;
* reads take a resolved sha and go to Git objects, never the working tree; a committed symlink is
  refused, never followed;
* every ``git`` process runs without prompts, pagers or a terminal, with a timeout when it
  touches the network.
"""

from __future__ import annotations

import atexit
import fcntl
import json
import os
import re
import shutil
import signal
import threading
import time
import weakref
from collections import OrderedDict
from collections.abc import Callable, Iterator, Mapping
from contextlib import contextmanager
from dataclasses import asdict, dataclass, field
from functools import lru_cache
from pathlib import Path
from typing import Any

import git
from gitdb.exc import BadName, BadObject

from docshelf.errors import NotAShelfError, PathOutsideShelfError, SectionNotFoundError, ShelfError, UnknownCommitError

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


# --- writing: commits, branches, rollback -------------------------------------------------------


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


# --- crash-safe writes: a commit built beside the working tree, then one ref update ----------------
#
# ``commit_files`` writes the blobs, builds the tree in a temporary index (GIT_INDEX_FILE), makes
# the commit with ``commit-tree`` and moves the branch with one ``update-ref`` (compare-and-swap
# on the old sha); only then is the working tree brought to the new commit. A journal written
# just before the ref moves names the old and the new commit, so a process killed while the
# working tree was being updated leaves a record that the next write (``write_lock``) finishes.
# Killed at any earlier step, the branch and the working tree are untouched. Writes hold an
# exclusive lock (``flock``: the kernel releases it when the holder dies, so it never goes stale).

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


def _git_dir(root: Path) -> Path:
    with _open(root) as repo:
        return Path(repo.git_dir)


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
        _run(root, "symbolic-ref", "HEAD", moved)
        _run(root, "reset", "--hard", "--quiet", j["new"])
    if work.exists():
        shutil.rmtree(work)


def commit_files(root: Path, changes: Mapping[str, bytes | None], message: str, *, branch: str | None = None) -> str:
    """Commit ``changes`` (path → new bytes, or None to delete) on top of HEAD; returns the commit (HEAD if no change).

    The commit goes to the branch HEAD is on, or to ``branch`` (made from HEAD; the working tree
    then switches to it). Call holding ``write_lock``, with a clean working tree.

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
    tmp.write_text(json.dumps({"ref": target, "old": old, "new": new}), encoding="utf-8")
    tmp.replace(work / JOURNAL)
    _crash_point("journal")
    # Compare-and-swap: the ref moves only if it is still where this write started (a new branch: absent).
    _run(root, "update-ref", "-m", f"docshelf: {message.splitlines()[0]}", target, new, old)
    _crash_point("ref")
    if target != head:
        _run(root, "symbolic-ref", "HEAD", target)
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


# --- refs: one set of rules ----------------------------------------------------------------------


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


# --- reading one commit --------------------------------------------------------------------------


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
    files = _tree_map(root, at)[0]
    return {
        p: _blob(root, sha)
        for p, (mode, sha) in sorted(files.items())
        if _under(p, prefix) and p.endswith(suffix) and mode != _SYMLINK_MODE
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


def kind_at(root: Path, commit: str, path: str) -> str | None:
    """``blob``, ``tree`` or None: what ``path`` is at ``commit``."""
    files, folders = _tree_map(root, commit)
    return "blob" if path in files else "tree" if path.rstrip("/") in folders else None


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


def changed_paths(root: Path, commit_a: str, commit_b: str) -> set[str]:
    """Every path that differs between two commits (both sides of a rename)."""
    out = _run(root, "diff", "--name-only", "--no-renames", "-z", commit_a, commit_b, "--")
    return {p for p in out.split("\x00") if p}


# --- following a branch ---------------------------------------------------------------------------


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
