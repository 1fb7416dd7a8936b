"""The commit the server answers from, and the refs a call may read with ``at``.

A ``Pin`` holds one full sha. A request reads it once (``resolve``) and passes that sha to every
library call it makes, so each answer comes wholly from one commit even while ``--follow`` swaps
the pin underneath; the next request sees the new commit.

``at`` reads deliberately configured refs only (``ReadableRefs``; by default the served branch and
the tags): a tag or branch name that matches them, or a commit sha in their history. Revision
syntax (``@{-1}``, ``main@{yesterday}``, ``HEAD:../``, ``:/regex``, ``^``, ``~``, ``..``) and any
other ref (unreviewed branches, other remotes, the reflog) are refused with a message that says
what to pass instead. A replica that has not fetched a commit yet fetches the served branch once
(``fetch_missing``) and looks again; if it is still missing the call is refused as retryable —
never answered from another commit.
"""

from __future__ import annotations

import contextlib
import fnmatch
import re
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from docshelf.errors import DocShelfError, UnknownCommitError
from docshelf.shelf import gitrepo

TAGS = "refs/tags/"
_HEX = re.compile(r"^[0-9a-fA-F]{4,40}$")
# Anything beyond a plain ref name: reflog and upstream (@{…}), peeling and ancestry (^ ~), paths
# and message search (:), ranges (..), globs, whitespace, and names Git itself refuses.
_REVISION_SYNTAX = re.compile(r"@\{|[\^~:?*\[\\\s]|\.\.|^@$|//|/\.|\.lock(?:/|$)|[/.]$|^/")
_SPECIAL = re.compile(r"^[A-Z_]*HEAD$")  # HEAD, FETCH_HEAD, ORIG_HEAD…: the working repository's state
_READABLE_CACHE = 4096
FETCH_EVERY_S = 1.0  # on-demand fetches of the served branch, at most this often
Fetch = Callable[[], None]


def _matches(full: str, pattern: str) -> bool:
    """``git for-each-ref`` pattern rules: a glob, or a literal match whole or up to a slash."""
    if any(c in pattern for c in "*?["):
        return fnmatch.fnmatchcase(full, pattern)
    return full == pattern or full.startswith(pattern.rstrip("/") + "/")


def check_pattern(pattern: str) -> str:
    """A readable-ref pattern as ``--refs`` takes it: ``refs/…``, optionally with a glob."""
    if not pattern.startswith("refs/") or ".." in pattern or any(ord(c) <= 0x20 for c in pattern):
        raise UnknownCommitError(
            f"Invalid readable ref {pattern!r}: give full ref names or patterns such as refs/heads/main, "
            "refs/tags/ or refs/heads/release/*."
        )
    return pattern


@dataclass(frozen=True)
class ReadableRefs:
    """The refs whose history ``at`` may read (patterns as ``git for-each-ref`` takes them)."""

    patterns: tuple[str, ...]

    @classmethod
    def default(cls, branch_ref: str | None) -> ReadableRefs:
        """The served branch (a full ref name, None when detached) and the tags."""
        return cls((*((branch_ref,) if branch_ref else ()), TAGS))

    def allows(self, full: str) -> bool:
        return any(_matches(full, p) for p in self.patterns)

    def describe(self) -> str:
        return ", ".join(p + ("*" if p.endswith("/") else "") for p in self.patterns) or "none"


class Pin:
    """The server's current commit; ``swap`` replaces it atomically; ``resolve`` reads ``at``."""

    def __init__(
        self,
        root: Path,
        commit: str,
        *,
        label: str = "",
        readable: ReadableRefs | None = None,
        fetch_missing: Fetch | None = None,
    ) -> None:
        self.root = root
        self.label = label  # what the pin follows, for messages: "HEAD", "tag v1", "branch main"
        self.readable = readable or ReadableRefs.default(gitrepo.head_branch(root))
        self.fetch_missing = fetch_missing
        self._commit = commit
        self._lock = threading.Lock()
        self._fetch_lock = threading.Lock()
        self._last_fetch = -FETCH_EVERY_S  # monotonic start time of the last on-demand fetch
        self._readable_shas: dict[str, None] = {}

    @classmethod
    def at(cls, root: Path, ref: str | None = None, *, readable: ReadableRefs | None = None) -> Pin:
        """A pin fixed at ``ref`` (default HEAD), resolved once now (the operator's choice: any ref)."""
        label = ref if ref is not None else "HEAD"
        return cls(root, gitrepo.resolve(root, label), label=label, readable=readable)

    @property
    def current(self) -> str:
        with self._lock:
            return self._commit

    def swap(self, commit: str) -> str:
        """Point the pin at ``commit`` (a full sha); returns the previous one."""
        with self._lock:
            old, self._commit = self._commit, commit
        return old

    def resolve(self, at: str | None) -> str:
        """The full sha a request reads: ``at`` resolved under the readable refs, or the current pin.

        Raises:
            UnknownCommitError: ``at`` is revision syntax, names a ref this server does not read,
                names no commit, or a commit outside the readable refs' history.
        """
        if at is None or at == "":
            return self.current
        gitrepo.check_ref(at)
        current = self.current
        if _HEX.match(at) and current.startswith(at.lower()):
            return current
        if _REVISION_SYNTAX.search(at) or _SPECIAL.match(at):
            raise UnknownCommitError(
                f"`at` {at!r} is not a commit sha, tag or branch name; revision expressions (@{{…}}, ^, ~, :, ..) "
                f"and HEAD are not read. Give the `commit` of an earlier result or a ref this server reads "
                f"({self.readable.describe()}), or omit `at` to read the current commit."
            )
        named = gitrepo.full_ref(self.root, at)
        if named is not None:
            return self._by_name(at, *named)
        if _HEX.match(at):
            return self._by_sha(at)
        raise UnknownCommitError(
            f"Unknown commit or ref {at!r}. Give the `commit` of an earlier result, a tag, or a branch this server "
            f"reads ({self.readable.describe()}); omit `at` to read the current commit."
        )

    def _by_name(self, at: str, full: str, sha: str) -> str:
        if not self.readable.allows(full):
            raise UnknownCommitError(
                f"{at!r} ({full}) is not readable on this server, which reads {self.readable.describe()}. "
                "Give one of those refs or a commit in their history; the operator sets them with `serve --refs`."
            )
        resolved = gitrepo.resolve(self.root, at)
        if resolved != sha:  # a file in .git or an ambiguous name resolved elsewhere: refuse, never guess
            raise UnknownCommitError(f"{at!r} is ambiguous in this repository. Give its full name, {full}.")
        return sha

    def _by_sha(self, at: str) -> str:
        try:
            sha = gitrepo.resolve(self.root, at)
        except UnknownCommitError as exc:
            if self.fetch_missing is None:
                raise UnknownCommitError(
                    f"No commit {at!r} on this shelf. Give the `commit` of an earlier result, a tag, or a branch "
                    f"this server reads ({self.readable.describe()}); omit `at` to read the current commit."
                ) from exc
            sha = self._after_fetch(at)
        if sha in self._readable_shas:
            return sha
        reachable = gitrepo.reachable(self.root, sha, self.readable.patterns)
        if not reachable and self.fetch_missing is not None:
            # A fetch writes the objects before it moves the ref: one may be half done right now.
            self._after_fetch(at)
            reachable = gitrepo.reachable(self.root, sha, self.readable.patterns)
        if not reachable:
            raise UnknownCommitError(
                f"Commit {sha[:12]} is not in the history of a ref this server reads ({self.readable.describe()}). "
                "Give the `commit` of an earlier result, or ask the operator to add its ref with `serve --refs`."
            )
        if len(self._readable_shas) >= _READABLE_CACHE:
            self._readable_shas.clear()
        self._readable_shas[sha] = None  # commits never change, and reviewed history stays reviewed
        return sha

    def _after_fetch(self, at: str) -> str:
        """Look ``at`` up again after a fetch of the served branch that started after it was missed.

        Fetches are one at a time and at most one a second; calls that miss while one runs share the
        next, so a burst of unknown shas costs one fetch a second, and a commit pushed before the
        miss is always found.
        """
        assert self.fetch_missing is not None
        missed = time.monotonic()
        try:
            with self._fetch_lock:
                if self._last_fetch <= missed:  # no fetch has started since the miss: run one
                    time.sleep(max(0.0, self._last_fetch + FETCH_EVERY_S - time.monotonic()))
                    self._last_fetch = time.monotonic()
                    with contextlib.suppress(DocShelfError):  # the remote is down: maybe the commit came anyway
                        self.fetch_missing()
            return gitrepo.resolve(self.root, at)
        except DocShelfError as exc:
            raise UnknownCommitError(
                f"Commit {at!r} is not on this server yet (a fetch of the served branch did not bring it). Retry in "
                "a few seconds; if it persists, the commit is not on a ref this server reads "
                f"({self.readable.describe()})."
            ) from exc
