"""An index of the audit log by byte offset, so a page never reads the whole log.

The log is scanned once, in blocks, and from then on only the bytes appended since the last
request are read (a ``stat`` per request tells whether any were). Each record keeps a small entry
in memory: its offset, id and the fields the list filters on; a page reads only its own records
from disk (``seek`` to the offset, one line each), and ``/call/<id>`` is a dictionary lookup. A
rotated log (a new file under the same path, or a shorter one) is indexed again from its start.

Records written before call ids existed get the id ``o<byte offset>``, stable while the file is.
"""

from __future__ import annotations

import json
import os
import sys
import threading
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

BLOCK = 1 << 20  # read the log a megabyte at a time
PAGE_SIZE = 50
MENU_FIELDS = ("client", "tool", "verdict")


@dataclass(frozen=True, slots=True)
class Entry:
    """What the list shows and filters on, without the record itself."""

    offset: int
    id: str
    ts: str
    client: str
    tool: str  # the tool name; the method for a resource read or a refused HTTP request
    verdict: str
    outcome: str
    doc: str  # paths and references the call named, lower case, for the document filter


@dataclass(frozen=True)
class Filters:
    client: str = ""
    tool: str = ""
    doc: str = ""
    verdict: str = ""
    since: str = ""  # 2026-11-30 or an ISO time: records at or after
    until: str = ""  # 2026-11-30 (the whole day) or an ISO time: records at or before

    def any(self) -> bool:
        return any((self.client, self.tool, self.doc, self.verdict, self.since, self.until))


@dataclass(frozen=True)
class Page:
    entries: list[Entry]  # newest first
    total: int  # records matching the filters
    number: int  # 1-based
    pages: int


def _doc_key(record: dict[str, Any]) -> str:
    args = record.get("arguments") or {}
    names = [str(p) for p in record.get("paths") or []]
    names += [str(args[k]) for k in ("path", "ref", "doc", "uri") if isinstance(args.get(k), str)]
    names += [str(i.get("ref", "")) for i in args.get("items") or [] if isinstance(i, dict)]
    return " ".join(names).lower()


def entry_of(record: dict[str, Any], offset: int) -> Entry:
    # Interned: clients, tools, verdicts and the documents named repeat across thousands of records.
    return Entry(
        offset=offset,
        id=str(record.get("id") or f"o{offset}"),
        ts=str(record.get("ts") or ""),
        client=sys.intern(str(record.get("client") or "")),
        tool=sys.intern(str(record.get("tool") or record.get("method") or "")),
        verdict=sys.intern(str(record.get("verdict") or "")),
        outcome=sys.intern(str(record.get("outcome") or "")),
        doc=sys.intern(_doc_key(record)),
    )


class AuditIndex:
    """The entries of one audit log file, kept up to date by reading only what was appended."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self._lock = threading.Lock()
        self._entries: list[Entry] = []
        self._by_id: dict[str, int] = {}
        self._end = 0  # bytes indexed: always just after a newline
        self._file: tuple[int, int] | None = None
        # Columns for the filters: the menu fields' positions by value (ascending), times and documents.
        self._postings: dict[str, dict[str, list[int]]] = {f: {} for f in MENU_FIELDS}
        self._ts: list[str] = []
        self._docs: list[str] = []
        self.unreadable = 0  # lines that are not JSON records (shown as a warning)

    def refresh(self) -> None:
        """Index what was appended since the last call (or everything, after a rotation)."""
        with self._lock:
            try:
                st = os.stat(self.path)
            except FileNotFoundError:
                self._reset(None)
                return
            file = (st.st_dev, st.st_ino)
            if file != self._file or st.st_size < self._end:
                self._reset(file)
            if st.st_size > self._end:
                self._scan()

    def _reset(self, file: tuple[int, int] | None) -> None:
        self._entries, self._by_id, self._end, self._file, self.unreadable = [], {}, 0, file, 0
        self._postings, self._ts, self._docs = {f: {} for f in MENU_FIELDS}, [], []

    def _scan(self) -> None:
        with self.path.open("rb") as fh:
            fh.seek(self._end)
            rest = b""
            while block := fh.read(BLOCK):
                data = rest + block
                cut = data.rfind(b"\n") + 1
                self._add_lines(data[:cut], self._end)
                self._end += cut
                rest = data[cut:]  # a line still being written: read again next time

    def _add_lines(self, data: bytes, base: int) -> None:
        pos = 0
        while pos < len(data):
            nl = data.index(b"\n", pos)
            line = data[pos:nl]
            if line.strip():
                try:
                    record = json.loads(line)
                except ValueError:
                    self.unreadable += 1
                else:
                    if isinstance(record, dict):
                        self._add(entry_of(record, base + pos))
                    else:
                        self.unreadable += 1
            pos = nl + 1

    def _add(self, entry: Entry) -> None:
        n = len(self._entries)
        self._by_id[entry.id] = n
        self._entries.append(entry)
        self._ts.append(entry.ts)
        self._docs.append(entry.doc)
        for f, postings in self._postings.items():
            postings.setdefault(getattr(entry, f), []).append(n)

    def _matching(self, filters: Filters) -> Sequence[int]:
        """Positions of the entries matching ``filters``, ascending: the rarest menu value first, then
        one tight pass per other filter over what is left (no per-entry function calls)."""
        chosen = {f: getattr(filters, f) for f in MENU_FIELDS if getattr(filters, f)}
        lists = [self._postings[f].get(v, []) for f, v in chosen.items()]
        found: Sequence[int] = min(lists, key=len) if lists else range(len(self._entries))
        for f, v in chosen.items():
            column = self._postings[f].get(v, [])
            if column is not found:
                members = set(column)
                found = [i for i in found if i in members]
        ts, docs = self._ts, self._docs
        if filters.since:
            found = [i for i in found if ts[i] >= filters.since]
        if filters.until:
            n, until = len(filters.until), filters.until
            found = [i for i in found if ts[i][:n] <= until]
        if filters.doc:
            needle = filters.doc.lower()
            found = [i for i in found if needle in docs[i]]
        return found

    def __len__(self) -> int:
        return len(self._entries)

    def newest_first(self) -> Iterator[Entry]:
        return reversed(self._entries)

    def page(self, filters: Filters, number: int = 1, size: int = PAGE_SIZE) -> Page:
        """One page of the records matching ``filters``, newest first."""
        self.refresh()
        with self._lock:
            found = self._matching(filters)
            total = len(found)
            pages = max(1, -(-total // size))
            number = min(max(1, number), pages)
            hi = total - (number - 1) * size
            chosen = [self._entries[i] for i in found[max(0, hi - size) : hi]]
        return Page(list(reversed(chosen)), total, number, pages)

    def values(self, field: str) -> list[str]:
        """The distinct values of an entry field (for the filter menus), sorted."""
        with self._lock:
            return sorted(v for v in self._postings[field] if v)

    def get(self, call_id: str) -> Entry | None:
        self.refresh()
        with self._lock:
            i = self._by_id.get(call_id)
            return None if i is None else self._entries[i]

    def record(self, entry: Entry) -> dict[str, Any]:
        """The full record of ``entry``, read from its offset."""
        return self.records([entry])[0]

    def records(self, entries: list[Entry]) -> list[dict[str, Any]]:
        """The full records of ``entries`` (one open, one seek and one line each)."""
        if not entries:
            return []
        out = []
        with self.path.open("rb") as fh:
            for e in entries:
                fh.seek(e.offset)
                record: dict[str, Any] = json.loads(fh.readline())
                record["id"] = e.id  # a record written before call ids existed is named by its offset
                out.append(record)
        return out
