"""Edition statuses of search hits on a date: which texts are in force, and a filter by status."""

from __future__ import annotations

import json
from datetime import date

from docshelf.law.editions import Status, has_edition, meta_status
from docshelf.records import DocMeta
from docshelf.text.searchindex import Scope, SearchIndex


class Statuses:
    """Edition status codes on ``as_of``, computed once per document edition record."""

    def __init__(self, as_of: date | None) -> None:
        self.as_of = as_of
        self._status: dict[str, Status | None] = {}
        self.seen: set[str] = set()

    def _of(self, edition_json: str) -> Status | None:
        if edition_json not in self._status:
            meta = DocMeta("", "", edition=json.loads(edition_json))
            st = meta_status(meta, self.as_of) if has_edition(meta) else None
            self._status[edition_json] = st
            self.seen.add(st.code if st else "")
        return self._status[edition_json]

    def of(self, edition_json: str) -> str:
        st = self._of(edition_json)
        return st.code if st else ""

    def label(self, edition_json: str, english: bool) -> str:
        """What a reader is told of a text not plainly in force («repealed 2007-01-01»); "" for one that is."""
        st = self._of(edition_json)
        if st is None or (st.in_force and not st.valid_to):
            return ""
        return st.text("en" if english else "ru")


def with_status(index: SearchIndex, scope: Scope, statuses: Statuses, status: str) -> Scope:
    """``scope`` narrowed to documents with ``status``, before ranking: rare statuses are not crowded out."""
    docs = frozenset(
        d.doc_key for d in index.documents() if statuses.of(json.dumps(d.edition, ensure_ascii=False)) == status
    )
    return Scope(scope.doc_key, scope.category, docs)
