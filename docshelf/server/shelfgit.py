"""The server's own Git access: files of one commit (symlinks refused) and following a branch.

Everything else goes through ``docshelf.gitrepo``. These two needs are the server's alone: a
resource read must see the tree entry's mode (a committed symlink is a blob whose content is the
link target, and must not be served as if it were a shelf file), and ``--follow`` must fetch.
Neither ever touches the working tree.
"""

from __future__ import annotations

import os
import re
import stat
import subprocess
from pathlib import Path

from docshelf.errors import PathOutsideShelfError, SectionNotFoundError, ShelfError, UnknownCommitError
from docshelf.shelf import gitrepo
from docshelf.shelf.reader import safe_path

FETCH_TIMEOUT_S = 60.0
# No prompts, no pager, no system/global config surprises (credential helpers still work).
_GIT_ENV = {"GIT_TERMINAL_PROMPT": "0", "GIT_ASKPASS": "", "SSH_ASKPASS": "", "GIT_PAGER": "cat"}
_REF_CHARS = re.compile(r"^[^\x00-\x20\x7f~^:?*\[\\]+$")


def check_ref(ref: str) -> str:
    """``ref`` if it can only name a revision; refs that look like options or carry control bytes are refused."""
    if not ref or ref.startswith("-") or len(ref) > 256 or any(ord(c) < 0x20 or c == "\x7f" for c in ref):
        raise UnknownCommitError(f"Invalid ref {ref!r}: give a commit sha, tag or branch name (not starting with '-').")
    return ref


def check_branch(branch: str) -> str:
    """A plain branch name (what ``--follow`` accepts): no options, no revision syntax, no '..'."""
    check_ref(branch)
    if not _REF_CHARS.match(branch) or ".." in branch or branch.endswith((".", "/", ".lock")) or "@{" in branch:
        raise ShelfError(f"Invalid branch name {branch!r}. Give a branch of the shelf repository, e.g. main.")
    return branch


def read_file(root: Path, path: str, commit: str) -> tuple[str, bytes]:
    """The shelf-relative path and bytes of ``path`` in ``commit`` (a resolved sha).

    Raises:
        PathOutsideShelfError: the path leaves the shelf, or is a symbolic link in the tree.
        SectionNotFoundError: no such file at that commit, or it is a folder.
    """
    rel = safe_path(path)
    with gitrepo.open_repo(root) as repo:
        try:
            obj = repo.commit(commit).tree / rel
        except KeyError as exc:
            raise SectionNotFoundError(
                f"No file {rel!r} at commit {commit[:12]}. Read the index for valid paths.", path=rel, commit=commit
            ) from exc
        if obj.type != "blob":
            raise SectionNotFoundError(f"{rel!r} is a folder; read its subindex.md.", path=rel, commit=commit)
        if stat.S_ISLNK(obj.mode):
            # The blob holds the link target; serving it would pass off a path as shelf text.
            raise PathOutsideShelfError(f"{rel!r} is a symbolic link, not a shelf file. Use a path from the index.")
        data: bytes = obj.data_stream.read()
    return rel, data


def _git(root: Path, *args: str, timeout: float = FETCH_TIMEOUT_S) -> str:
    try:
        proc = subprocess.run(
            ["git", "-C", str(root), *args],
            stdin=subprocess.DEVNULL,
            capture_output=True,
            text=True,
            encoding="utf-8",
            errors="replace",
            timeout=timeout,
            env={**os.environ, **_GIT_ENV},
            check=False,
        )
    except (OSError, subprocess.TimeoutExpired) as exc:
        raise ShelfError(f"git {args[0]} could not run in {root}: {exc}") from exc
    if proc.returncode != 0:
        raise ShelfError(f"git {args[0]} failed in {root}: {proc.stderr.strip()[:300]}")
    return proc.stdout


def remote_of(root: Path) -> str | None:
    """The remote ``--follow`` fetches from: ``origin`` if there is one, else the first remote, else None."""
    remotes = _git(root, "remote", timeout=10.0).split()
    if not remotes:
        return None
    return "origin" if "origin" in remotes else remotes[0]


def branch_tip(root: Path, branch: str, *, fetch: bool = True) -> str:
    """The sha ``branch`` points to now: after a fetch from the remote if the shelf has one, else locally.

    With a remote, the remote-tracking ref ``refs/remotes/<remote>/<branch>`` is updated and read; the
    local branch and the working tree are left alone (a maintainer may be working in them).
    """
    check_branch(branch)
    remote = remote_of(root)
    if remote is None:
        return gitrepo.resolve(root, f"refs/heads/{branch}")
    tracking = f"refs/remotes/{remote}/{branch}"
    if fetch:
        # '--' ends options: the remote and refspec can never be read as flags.
        refspec = f"+refs/heads/{branch}:{tracking}"
        _git(root, "fetch", "--quiet", "--no-tags", "--no-recurse-submodules", "--", remote, refspec)
    return gitrepo.resolve(root, tracking)
