"""Server logs in one format, one line each: an error on the request path costs a line, not a rendered traceback.

The MCP SDK configures the root logger with a ``rich`` handler that renders tracebacks (about 0.2 CPU-second
each, on the event loop); a client that cuts its request body off could buy that for every connection it
opens. :func:`one_line_logs` replaces it: each record is one line on stderr, an exception is its type and
message, and the whole traceback only when the log level is DEBUG. Everything the server says goes through
``logging`` — its own status lines (:func:`status`, logger ``docshelf``), the SDK's and uvicorn's — so all of
it is one format: text, or one JSON object a line (``serve --log-format json``) for a log collector.
"""

from __future__ import annotations

import json
import logging
import sys
from typing import Any

STATUS_LOGGER = "docshelf"  # the server's own lines: shown at INFO whatever the root level
_json_lines = False  # the format chosen at start (``configure``); kept when the SDK's handler is replaced

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


class JsonLineFormatter(logging.Formatter):
    """A record as one JSON object: ts, level, logger, message, and the error (its traceback at DEBUG)."""

    def __init__(self, full_traces: bool = False) -> None:
        super().__init__()
        self.full_traces = full_traces

    def format(self, record: logging.LogRecord) -> str:
        data: dict[str, Any] = {
            "ts": self.formatTime(record, "%Y-%m-%dT%H:%M:%S%z"),
            "level": record.levelname,
            "logger": record.name,
            "message": record.getMessage(),
        }
        if record.exc_info and record.exc_info[1] is not None:
            exc = record.exc_info[1]
            data["error"] = f"{type(exc).__name__}: {exc}" if str(exc) else type(exc).__name__
            if self.full_traces:
                data["traceback"] = self.formatException(record.exc_info)
        return json.dumps(data, ensure_ascii=False)


def configure(level: str = "WARNING", *, json_lines: bool | None = None) -> None:
    """Set the one log format for this process (``json_lines``: one JSON object a line) and the level."""
    global _json_lines
    if json_lines is not None:
        _json_lines = json_lines
    one_line_logs(level)


def one_line_logs(level: str) -> None:
    """Every handler of the root logger replaced by one stderr handler writing one line a record."""
    root = logging.getLogger()
    for handler in list(root.handlers):
        root.removeHandler(handler)
    handler = logging.StreamHandler(sys.stderr)
    full = level.upper() == "DEBUG"
    handler.setFormatter(JsonLineFormatter(full) if _json_lines else OneLineFormatter(full_traces=full))
    root.addHandler(handler)
    root.setLevel(level.upper())
    own = logging.getLogger(STATUS_LOGGER)
    own.setLevel(min(logging.INFO, root.level))


def status(message: str) -> None:
    """One of the server's own lines (where it serves, what it follows): a log record, in the log's format."""
    logging.getLogger(STATUS_LOGGER).info(message)
