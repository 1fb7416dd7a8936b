"""Index builds of one process in one bounded queue: a few at once, a few waiting, the rest told to retry.

A build reads and writes a whole commit (seconds to a minute on a large shelf). Ten clients asking with ``at``
for ten old commits would otherwise run ten builds side by side and starve every other call. So builds take a
slot first (:data:`RUNNING` at once; ``serve --max-builds``), at most :data:`WAITING` more wait for one, and a
build past that is refused with :class:`~docshelf.errors.IndexBusyError`, which says when to retry. A call whose
commit's index is cached never touches the queue.
"""

from __future__ import annotations

import threading
from collections.abc import Iterator
from contextlib import contextmanager

from docshelf.errors import IndexBusyError

RUNNING = 1
WAITING = 4
RETRY_S = 30  # what a refused call is told: about one build of a large shelf


class BuildQueue:
    """Slots for index builds; counts what it ran and refused (``/metrics`` reads them)."""

    def __init__(self, running: int = RUNNING, waiting: int = WAITING) -> None:
        self._guard = threading.Lock()
        self.configure(running, waiting)
        self.started = 0
        self.refused = 0

    def configure(self, running: int, waiting: int) -> None:
        if running < 1 or waiting < 0:
            raise ValueError("at least one build at a time, and no negative queue")
        with self._guard:
            self.running, self.waiting = running, waiting
            self._slots = threading.BoundedSemaphore(running)
            self._queued = 0

    @property
    def queued(self) -> int:
        """Builds running or waiting now."""
        with self._guard:
            return self._queued

    @contextmanager
    def slot(self, commit: str) -> Iterator[None]:
        slots = self._slots
        with self._guard:
            if self._queued >= self.running + self.waiting:
                self.refused += 1
                raise IndexBusyError(
                    f"The search index of commit {commit[:12]} is not built yet and {self._queued} builds are "
                    f"running or waiting on this server. Retry in about {RETRY_S} s, or read the current commit "
                    "(omit `at`)."
                )
            self._queued += 1
        try:
            with slots:
                with self._guard:
                    self.started += 1
                yield
        finally:
            with self._guard:
                self._queued -= 1


BUILDS = BuildQueue()
