"""The only package that runs Git: commits and rollback on build, refs, blobs and trees of one commit on serve.

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

One door, four rooms: ``_core`` (open repositories, the ``git`` runner, trusted shas), ``refs``,
``objects`` (reading one commit, history) and ``write`` (commits, crash-safe writes). Callers
import this package, never a room.
"""

from docshelf.shelf.gitrepo._core import FETCH_TIMEOUT_S, MAX_REF_CHARS, git_version, init, require_repo
from docshelf.shelf.gitrepo.objects import (
    Change,
    blob_shas,
    changed_paths,
    kind_at,
    last_having,
    list_files,
    log,
    read,
    read_blob,
    read_tree,
)
from docshelf.shelf.gitrepo.refs import (
    branch_tip,
    check_branch,
    check_ref,
    followed_ref,
    full_ref,
    head_branch,
    reachable,
    remote_of,
    resolve,
)
from docshelf.shelf.gitrepo.write import (
    CRASH_ENV,
    WRITE_STEPS,
    commit,
    commit_files,
    finish_interrupted_write,
    is_dirty,
    leftovers,
    rollback_on_error,
    write_lock,
)

__all__ = [
    "CRASH_ENV",
    "FETCH_TIMEOUT_S",
    "MAX_REF_CHARS",
    "WRITE_STEPS",
    "Change",
    "blob_shas",
    "branch_tip",
    "changed_paths",
    "check_branch",
    "check_ref",
    "commit",
    "commit_files",
    "finish_interrupted_write",
    "followed_ref",
    "full_ref",
    "git_version",
    "head_branch",
    "init",
    "is_dirty",
    "kind_at",
    "last_having",
    "leftovers",
    "list_files",
    "log",
    "reachable",
    "read",
    "read_blob",
    "read_tree",
    "remote_of",
    "require_repo",
    "resolve",
    "rollback_on_error",
    "write_lock",
]
