"""Edition statuses of search hits on a date: which texts are in force, and a filter by status."""

from __future__ import annotations

import json
from datetime import date

from docshelf.law.editions import has_edition, meta_status
from docshelf.records import DocMeta
from docshelf.text.searchindex import Scope, SearchIndex


class Statuses:
    """Edition status codes on ``as_of``, computed once per document edition record."""

    def __init__(self, as_of: date | None) -> None:
        self.as_of = as_of
        self._codes: dict[str, str] = {}
        self.seen: set[str] = set()

    def of(self, edition_json: str) -> str:
        code = self._codes.get(edition_json)
        if code is None:
            meta = DocMeta("", "", edition=json.loads(edition_json))
            code = meta_status(meta, self.as_of).code if has_edition(meta) else ""
            self._codes[edition_json] = code
            self.seen.add(code)
        return code


def with_status(index: SearchIndex, scope: Scope, statuses: Statuses, status: str) -> Scope:
    """``scope`` narrowed to documents with ``status``, before ranking: rare statuses are not crowded out."""
    docs = frozenset(
        d.doc_key for d in index.documents() if statuses.of(json.dumps(d.edition, ensure_ascii=False)) == status
    )
    return Scope(scope.doc_key, scope.category, docs)
