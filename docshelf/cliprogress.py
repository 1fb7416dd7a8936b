"""Progress of a multi-document ``add``, ``rebuild`` or ``embed``: a bar on a terminal, plain lines elsewhere.

The library reports progress as lines (``[n/N] converting …``, then details and warnings). On a
terminal, once a line says there are several documents, they drive a ``rich`` bar on stderr with
details and warnings printed above it; when stderr is not a terminal (CI, a pipe, a log file) the
lines are printed as they are, so logs stay plain text. Nothing goes to stdout, which carries the
command's result.
"""

from __future__ import annotations

import re
import sys
from collections.abc import Callable, Iterator
from contextlib import ExitStack, contextmanager
from typing import Any

import click

Say = Callable[[str], None]
_STEP = re.compile(r"^\[(\d+)/(\d+)\] (.*)$")  # how the library announces the n-th of N documents


def _plain(message: str) -> None:
    click.echo(message, err=True)


@contextmanager
def progress(*, interactive: bool | None = None) -> Iterator[Say]:
    """A progress callback for the library: a bar for several documents on a terminal, else plain lines."""
    if not (sys.stderr.isatty() if interactive is None else interactive):
        yield _plain
        return
    with ExitStack() as stack:
        state: dict[str, Any] = {}

        def say(message: str) -> None:
            step = _STEP.match(message)
            if step is not None and "bar" not in state and int(step.group(2)) > 1:
                state["bar"] = stack.enter_context(_bar())
                state["task"] = state["bar"].add_task("", total=int(step.group(2)))
            bar = state.get("bar")
            if bar is None:
                _plain(message)
            elif step is None:
                bar.console.print(message, markup=False, highlight=False)
            else:
                bar.update(state["task"], completed=int(step.group(1)) - 1, description=step.group(3))

        yield say
        if "bar" in state:
            state["bar"].update(state["task"], completed=state["bar"].tasks[0].total)


def counted(say: Say, doing: str) -> Callable[[int, int], None]:
    """A ``(done, total)`` callback as progress lines: the first before any work (so the bar and its clock
    start with it), then one a percent, so a long run visibly moves and a log holds about a hundred lines."""

    def tick(done: int, total: int) -> None:
        if done < total and done % max(1, total // 100) == 0:
            say(f"[{done + 1}/{total}] {doing}")

    return tick


def _bar() -> Any:
    from rich.console import Console
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

    columns = (TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(), TimeElapsedColumn())
    return Progress(*columns, console=Console(stderr=True), transient=True)
