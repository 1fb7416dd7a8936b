"""Reading one commit's FTS5 index file (:class:`Fts5Index`, the :class:`~docshelf.text.searchindex.SearchIndex`).

A finished index file never changes (a new one replaces it under another inode), so whatever a
query reads that depends on the file alone is kept instead of read again: the settings, the
section total, document frequencies, document rows, and the decoded key strings of recently
ranked sections. The cache module keeps one :class:`Fts5Index` per thread and file, beside its
connection; the key strings are shared by every thread reading the file (decoding them is most of
what fetching a candidate costs).

Lists of ids are bound as parameters padded to a few fixed lengths, so SQLite prepares each
statement once per connection rather than once per query.
"""

from __future__ import annotations

import json
import sqlite3
import threading
from collections import OrderedDict
from collections.abc import Hashable, Iterable, Sequence
from typing import Any, NamedTuple

from docshelf.text.searchindex import BM25_WEIGHTS, DocInfo, KeyRow, Scope, Stored, unpack, unpack_keys
from docshelf.text.synonyms import Concept, fts_expr

KEY_ROWS = 4096  # decoded key rows kept across queries (~3 KB each at 100 words a section)
DF_KEYS = 100_000  # document frequencies kept per index object before the memo starts over
_ID_SLOTS = (8, 32, 128)  # the lengths id lists are padded to (one prepared statement each)


class _Doc(NamedTuple):
    doc_id: str
    doc_key: str
    edition: str  # JSON, as stored
    meta_path: str


class _KeyRows:
    """Decoded key rows of recently ranked sections, least recently used out, shared by threads."""

    def __init__(self, size: int) -> None:
        self.size = size
        self._rows: OrderedDict[tuple[Hashable, int], KeyRow] = OrderedDict()
        self._lock = threading.Lock()

    def get(self, file: Hashable, ids: Iterable[int]) -> dict[int, KeyRow]:
        with self._lock:
            found = {}
            for rowid in ids:
                row = self._rows.get((file, rowid))
                if row is not None:
                    self._rows.move_to_end((file, rowid))
                    found[rowid] = row
            return found

    def put(self, file: Hashable, rows: dict[int, KeyRow]) -> None:
        with self._lock:
            for rowid, row in rows.items():
                self._rows[file, rowid] = row
            while len(self._rows) > self.size:
                self._rows.popitem(last=False)


_key_rows = _KeyRows(KEY_ROWS)


def _id_params(ids: list[int]) -> tuple[str, list[int]]:
    """``?, ?, …`` and the ids padded by repeating the last (``IN`` ignores repeats) to a fixed length."""
    n = next((s for s in _ID_SLOTS if s >= len(ids)), len(ids))
    return ",".join("?" * n), ids + ids[-1:] * (n - len(ids))


class Fts5Index:
    """:class:`SearchIndex` over one commit's SQLite file (opened read-only)."""

    def __init__(self, db: sqlite3.Connection, commit: str) -> None:
        self.db = db
        self.commit = commit
        self._settings: dict[str, str | None] = {}
        self._dfs: dict[str, int] = {}
        self._prefixed: dict[tuple[str, int], list[str]] = {}  # keys_from, memoized like the frequencies
        self._docs: dict[int, _Doc] = {}
        self._documents: tuple[DocInfo, ...] | None = None
        self._total = int(self.setting("total") or 0)
        # Key rows decoded by any reader of the same written file serve this one (a file written
        # before files had a stamp shares with no other reader).
        self._file: Hashable = self.setting("build") or object()

    def setting(self, key: str) -> str | None:
        if key not in self._settings:
            row = self.db.execute("SELECT value FROM meta WHERE key = ?", (key,)).fetchone()
            self._settings[key] = None if row is None else str(row[0])
        return self._settings[key]

    def total(self) -> int:
        return self._total

    def df(self, key: str) -> int:
        n = self._dfs.get(key)
        if n is None:
            row = self.db.execute("SELECT df FROM term WHERE key = ?", (key,)).fetchone()
            n = int(row[0]) if row else 0
            if len(self._dfs) >= DF_KEYS:
                self._dfs.clear()
            self._dfs[key] = n
        return n

    def _where(self, scope: Scope) -> tuple[str, list[Any]]:
        if scope.everything:
            return "", []
        where: list[str] = []
        params: list[Any] = []
        if scope.doc_key is not None:
            where.append("d.doc_key = ?")
            params.append(scope.doc_key)
        if scope.category is not None:
            cat = scope.category.strip("/")
            where.append("(d.category = ? OR substr(d.category, 1, ?) = ?)")
            params += [cat, len(cat) + 1, cat + "/"]
        if scope.doc_keys is not None:
            where.append(f"d.doc_key IN ({','.join('?' * len(scope.doc_keys))})")
            params += sorted(scope.doc_keys)
        return "SELECT s.id FROM section s JOIN doc d ON d.id = s.doc WHERE " + " AND ".join(where), params

    def has_scope(self, scope: Scope) -> bool:
        sql, params = self._where(scope)
        return not sql or self.db.execute(sql + " LIMIT 1", params).fetchone() is not None

    def candidates(
        self,
        concepts: Sequence[Concept],
        *,
        all_of: bool,
        prefix: bool,
        scope: Scope,
        limit: int,
        ranked: bool = True,
    ) -> dict[int, float]:
        if not concepts:
            return {}
        expr = (" AND " if all_of else " OR ").join(fts_expr(c, prefix) for c in concepts)
        within, params = self._where(scope)
        score = f"bm25(fts, {BM25_WEIGHTS})" if ranked else "0"
        sql = f"SELECT rowid, {score} AS r FROM fts WHERE fts MATCH ?"
        if within:
            sql += f" AND rowid IN ({within})"
        rows = self.db.execute(sql + (" ORDER BY r" if ranked else "") + " LIMIT ?", [expr, *params, limit])
        return {rowid: -score if ranked else 0.0 for rowid, score in rows}

    def _doc_rows(self, doc_ids: Iterable[int]) -> dict[int, _Doc]:
        """The rows of these documents (a shelf has few, and every query's candidates share them)."""
        missing = sorted({d for d in doc_ids if d not in self._docs})
        for start in range(0, len(missing), _ID_SLOTS[-1]):
            marks, params = _id_params(missing[start : start + _ID_SLOTS[-1]])
            sql = f"SELECT id, doc_id, doc_key, edition, meta_path FROM doc WHERE id IN ({marks})"
            for doc, *fields in self.db.execute(sql, params):
                self._docs[doc] = _Doc(*fields)
        return self._docs

    def keys(self, ids: Iterable[int]) -> dict[int, KeyRow]:
        wanted = sorted({int(i) for i in ids})
        found = _key_rows.get(self._file, wanted)
        rows = []
        missing = [i for i in wanted if i not in found]
        for start in range(0, len(missing), _ID_SLOTS[-1]):
            marks, params = _id_params(missing[start : start + _ID_SLOTS[-1]])
            sql = (
                "SELECT k.id, k.data, s.doc, s.continued, s.path, s.title, s.clause, s.apparatus "
                f"FROM keys k JOIN section s ON s.id = k.id WHERE k.id IN ({marks})"
            )
            rows += self.db.execute(sql, params).fetchall()
        docs = self._doc_rows(r[2] for r in rows)
        fresh = {}
        for rowid, data, doc, continued, path, title, clause, apparatus in rows:
            d = docs.get(doc)
            if d is None:
                continue  # a section without its document (never in a file this package wrote): as the join did
            head, ids_, ctx, body = unpack_keys(data)
            fields = (path, title, clause, d.doc_id, d.doc_key, d.edition, bool(apparatus))
            fresh[rowid] = KeyRow(head, ids_, ctx, body, bool(continued), *fields, run=continued or rowid)
        _key_rows.put(self._file, fresh)
        found |= fresh
        return {i: found[i] for i in wanted if i in found}  # by id, as the SQL of one list returned them

    def sections(self, ids: Iterable[int]) -> dict[int, Stored]:
        wanted = sorted({int(i) for i in ids})
        rows = []
        for start in range(0, len(wanted), _ID_SLOTS[-1]):
            marks, params = _id_params(wanted[start : start + _ID_SLOTS[-1]])
            sql = f"SELECT id, doc, path, title, clause, pages, clauses, text FROM section WHERE id IN ({marks})"
            rows += self.db.execute(sql, params).fetchall()
        docs = self._doc_rows(r[1] for r in rows)
        out = {}
        for rowid, doc, path, title, clause, pages, clauses, text in sorted(rows):
            d = docs.get(doc)
            if d is None:
                continue  # as the join did
            out[rowid] = Stored(path, title, clause, d.doc_id, d.doc_key, json.loads(pages), json.loads(d.edition),
                                json.loads(clauses), unpack(text), d.meta_path)  # fmt: skip
        return out

    def words_containing(self, fragment: str, limit: int) -> list[str]:
        if len(fragment) < 3:
            return []  # the trigram index cannot see shorter fragments
        expr = '"' + fragment.replace('"', '""') + '"'
        return [r[0] for r in self.db.execute("SELECT w FROM wordtri WHERE wordtri MATCH ? LIMIT ?", (expr, limit))]

    def vocabulary(self) -> list[str]:
        return [r[0] for r in self.db.execute("SELECT w FROM word")]

    def keys_from(self, prefix: str, limit: int) -> list[str]:
        found = self._prefixed.get((prefix, limit))
        if found is None:
            sql = "SELECT key FROM term WHERE key >= ? AND key < ? ORDER BY key LIMIT ?"
            found = [r[0] for r in self.db.execute(sql, (prefix, prefix + "\uffff", limit))]
            if len(self._prefixed) >= DF_KEYS:
                self._prefixed.clear()
            self._prefixed[prefix, limit] = found
        return list(found)

    def documents(self) -> list[DocInfo]:
        """Every document (read once: 2.7 ms at 1,000 documents, and every query naming an act asks).

        The edition dicts are shared by the calls: read them, do not change them.
        """
        if self._documents is None:
            rows = self.db.execute("SELECT doc_id, doc_key, category, edition, names FROM doc")
            self._documents = tuple(DocInfo(i, k, c, json.loads(e), tuple(json.loads(n))) for i, k, c, e, n in rows)
        return list(self._documents)

    def close(self) -> None:
        pass  # connections are cached per thread by the cache module
