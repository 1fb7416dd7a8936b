"""``--follow BRANCH``: every N seconds fetch the branch (when the shelf has a remote) and re-pin to its tip.

The swap is one assignment in ``Pin``; a request that already resolved the old commit finishes
on it. A failed fetch keeps the current pin and is reported on stderr; the next tick tries again.
Only the remote-tracking ref (or, without a remote, the local branch ref) is read: the working
tree and the local branch are never changed.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import anyio

from docshelf.errors import DocShelfError, ShelfError
from docshelf.server import DEFAULT_INTERVAL_S
from docshelf.server.logs import status
from docshelf.server.pin import Pin, ReadableRefs
from docshelf.shelf import gitrepo


class Follower:
    """Keeps ``pin`` at the tip of ``branch``."""

    def __init__(
        self,
        root: Path,
        branch: str,
        pin: Pin,
        *,
        interval: float = DEFAULT_INTERVAL_S,
        log: Callable[[str], None] = status,
        prepare: Callable[[str], None] | None = None,
    ) -> None:
        if interval <= 0:
            raise ValueError("interval must be > 0 seconds")
        self.root, self.branch = root, gitrepo.check_branch(branch)
        self.pin, self.interval, self.log = pin, interval, log
        self.prepare = prepare  # reads a new tip before it is served: its first call is as quick as the next
        self.failures = 0

    @classmethod
    def start_pin(
        cls,
        root: Path,
        branch: str,
        *,
        log: Callable[[str], None] = status,
        readable: ReadableRefs | None = None,
    ) -> Pin:
        """The pin to start with: the branch tip after a first fetch, or the last fetched tip if the remote is down.

        ``at`` reads the followed ref and the tags unless ``readable`` says otherwise; a commit this
        replica has not fetched yet makes it fetch the branch once and look again.
        """
        gitrepo.check_branch(branch)
        try:
            tip = gitrepo.branch_tip(root, branch)
        except ShelfError as exc:
            # A Git server outage must not keep the shelf server from restarting on what it already has.
            tip = gitrepo.branch_tip(root, branch, fetch=False)
            log(f"docshelf serve: could not fetch {branch} ({exc}); starting at the last fetched {tip[:12]}")
        readable = readable or ReadableRefs.default(gitrepo.followed_ref(root, branch))

        def fetch() -> None:
            gitrepo.branch_tip(root, branch)

        return Pin(root, tip, label=f"branch {branch}", readable=readable, fetch_missing=fetch)

    def step(self) -> bool:
        """Fetch and re-pin once; True if the pin moved. Errors are logged, and the pin stays."""
        try:
            tip = gitrepo.branch_tip(self.root, self.branch)
        except DocShelfError as exc:
            self.failures += 1
            self.log(f"docshelf serve: following {self.branch} failed, still at {self.pin.current[:12]}: {exc}")
            return False
        if tip == self.pin.current:
            return False
        if self.prepare is not None:
            try:
                self.prepare(tip)
            except DocShelfError as exc:
                self.failures += 1
                self.log(f"docshelf serve: {self.branch} moved to {tip[:12]}, which cannot be prepared ({exc}); "
                         f"still serving {self.pin.current[:12]}")  # fmt: skip
                return False
        old = self.pin.swap(tip)
        self.log(f"docshelf serve: {self.branch} moved {old[:12]} → {tip[:12]}; now serving {tip}")
        return True

    async def run(self) -> None:
        """Step every ``interval`` seconds until cancelled (the server's task group cancels it on shutdown)."""
        while True:
            await anyio.sleep(self.interval)
            await anyio.to_thread.run_sync(self.step)
