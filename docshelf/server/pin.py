"""The commit the server answers from.

A ``Pin`` holds one full sha. A request reads it once (``resolve``) and passes that sha to every
library call it makes, so each answer comes wholly from one commit even while ``--follow`` swaps
the pin underneath; the next request sees the new commit. Refs are checked and resolved by
``gitrepo.resolve`` under the same rules as the CLI's ``--at``; the library trusts the full sha
it gets back and does not look it up again.
"""

from __future__ import annotations

import threading
from pathlib import Path

from docshelf.shelf import gitrepo


class Pin:
    """The server's current commit; ``swap`` replaces it atomically."""

    def __init__(self, root: Path, commit: str, *, label: str = "") -> None:
        self.root = root
        self.label = label  # what the pin follows, for messages: "HEAD", "tag v1", "branch main"
        self._commit = commit
        self._lock = threading.Lock()

    @classmethod
    def at(cls, root: Path, ref: str | None = None) -> Pin:
        """A pin fixed at ``ref`` (default HEAD), resolved once now."""
        label = ref if ref is not None else "HEAD"
        return cls(root, gitrepo.resolve(root, label), label=label)

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
        """The full sha a request reads: ``at`` resolved in the shelf repository, or the current pin."""
        if at is None or at == "":
            return self.current
        return gitrepo.resolve(self.root, at)
