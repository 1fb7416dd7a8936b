"""The only place DocShelf defines exceptions.

Every message says what to do next. The CLI maps ``DocShelfError`` to ``Error: …`` and exit 1 in
one place; MCP tools let it propagate so the client gets an ``is_error`` result it can read.

* DocShelfError
  + ConversionError            a source could not be turned into text
    - MissingDependencyError   an optional extra is not installed (names the pip line)
    - UnsupportedSourceError   the file type is not one DocShelf reads
    - NoTextLayerError         a scan / garbled PDF with no usable text
  + ShelfError                 the shelf on disk or in Git is not as expected
    - NotAShelfError
    - DuplicateIdError
    - SectionNotFoundError
    - PathOutsideShelfError
    - UnknownCommitError
    - EditionError             edition metadata that cannot be read (a bad date, an unknown field)
  + CitationError              a reference that resolves to nothing
  + SearchError                a search or evaluation that cannot run (empty query, bad filter or file)
  + ServeError                 a serve/token/audit setting that cannot work (what to change is in the message)
"""

from __future__ import annotations


class DocShelfError(Exception):
    """Base class: anything DocShelf reports to a user."""


class ConversionError(DocShelfError):
    """A source file could not be converted."""

    def __init__(self, message: str, *, source: str | None = None) -> None:
        super().__init__(message)
        self.source = source


class MissingDependencyError(ConversionError):
    """An optional dependency (extra) is needed for this operation."""


class UnsupportedSourceError(ConversionError):
    """The source's type is not supported."""


class NoTextLayerError(ConversionError):
    """The PDF (or some of its pages) has no usable text layer."""


class ShelfError(DocShelfError):
    """The shelf is missing, inconsistent or was asked for something it does not hold."""


class NotAShelfError(ShelfError):
    """The directory is not a DocShelf shelf."""


class DuplicateIdError(ShelfError):
    """A document with this id already exists on the shelf."""


class SectionNotFoundError(ShelfError):
    """No such section or document at the requested commit."""

    def __init__(self, message: str, *, path: str | None = None, commit: str | None = None) -> None:
        super().__init__(message)
        self.path = path
        self.commit = commit


class PathOutsideShelfError(ShelfError):
    """A path that would leave the shelf (``..``, absolute, NUL, links out)."""


class UnknownCommitError(ShelfError):
    """A commit, tag or branch that the shelf's Git repository does not know."""


class EditionError(ShelfError):
    """A document's edition fields are malformed: a date DocShelf cannot read, a field it does not know."""


class CitationError(DocShelfError):
    """A citation that resolves to no clause on the shelf."""


class SearchError(DocShelfError):
    """A search or evaluation request that cannot run: empty query, unknown filter, bad synonyms or queries file."""


class IndexBusyError(SearchError):
    """The index a call needs is not built and the server's build queue is full: retry later (``text.buildqueue``)."""


class ModelError(DocShelfError):
    """A meaning model the shelf names cannot be loaded or reached (a missing folder, file, extra or endpoint)."""


class ServeError(DocShelfError):
    """The server cannot start as configured, or a tokens / audit file is unusable."""
