"""Server logs in one line each: an error on the request path costs a line, not a rendered traceback.

The MCP SDK configures the root logger with a ``rich`` handler that renders tracebacks (about 0.2 CPU-second
each, on the event loop); a client that cuts its request body off could buy that for every connection it
opens. :func:`one_line_logs` replaces it: each record is one line on stderr, an exception is its type and
message, and the whole traceback only when the log level is DEBUG.
"""

from __future__ import annotations

import logging
import sys

FORMAT = "%(asctime)s %(levelname)s %(name)s: %(message)s"


class OneLineFormatter(logging.Formatter):
    """A record as one line; an exception as ``(Type: message)`` unless the logger is at DEBUG."""

    def __init__(self, full_traces: bool = False) -> None:
        super().__init__(FORMAT)
        self.full_traces = full_traces

    def format(self, record: logging.LogRecord) -> str:
        if self.full_traces:
            return super().format(record)
        line = super().formatMessage(self._with_time(record))
        exc = record.exc_info[1] if record.exc_info else None
        if exc is not None:
            line += f" ({type(exc).__name__}: {exc})" if str(exc) else f" ({type(exc).__name__})"
        return " ".join(line.split("\n"))

    def _with_time(self, record: logging.LogRecord) -> logging.LogRecord:
        record.message = record.getMessage()
        record.asctime = self.formatTime(record)
        return record


def one_line_logs(level: str) -> None:
    """Every handler of the root logger replaced by one stderr handler writing one line a record."""
    root = logging.getLogger()
    for handler in list(root.handlers):
        root.removeHandler(handler)
    handler = logging.StreamHandler(sys.stderr)
    handler.setFormatter(OneLineFormatter(full_traces=level.upper() == "DEBUG"))
    root.addHandler(handler)
    root.setLevel(level.upper())
