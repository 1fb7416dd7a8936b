"""Typed records of a document's ``*.meta.json``: the contract between the build and every reader.

The build writes one meta per document; the tables of contents, the reader, search, quote
verification, editions, citations and history read it. These frozen records are that contract in
code: ``DocMeta.from_json`` reads a parsed meta, ``to_json`` gives back the same JSON object, key
for key and in the same order, so a shelf built before the records existed is byte-identical when
written again. Keys a newer build adds (or an older one had) and this code does not know yet ride
along in ``extra`` untouched, so reading a meta never loses what a writer put there.
"""

from __future__ import annotations

import json
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from functools import cached_property
from typing import Any, NamedTuple

# Range pages of a big category: docs/<category>/_pages/<level>-<n>/subindex.md (build.toc writes them).
CATEGORY_PAGES = "_pages"
_SECTION_KEYS = frozenset(("path", "title", "clause", "part", "groups", "pages", "bytes", "tokens", "clauses", "gist"))
_DOC_KEYS = frozenset(
    (
        "id",
        "title",
        "category",
        "entry",
        "source",
        "converter",
        "pages",
        "language",
        "options",
        "edition",
        "sections",
        "expected_clauses",
        "warnings",
        "quality",
    )
)


def _extra(raw: Mapping[str, Any], known: frozenset[str]) -> dict[str, Any]:
    if raw.keys() <= known:  # the usual case, checked without building a dict
        return {}
    return {k: v for k, v in raw.items() if k not in known}


def _copy(value: Any) -> Any:
    return dict(value) if isinstance(value, Mapping) else value


class Clause(NamedTuple):
    """One addressable clause of a section: its id («ст. 19 ч. 2») and its character span in the text.

    A named tuple, not a dataclass: a large shelf holds hundreds of thousands, read on every write.
    """

    id: str
    start: int
    end: int

    @classmethod
    def from_json(cls, raw: Sequence[Any]) -> Clause:
        return cls._make(raw)

    def to_json(self) -> list[Any]:
        return [self.id, self.start, self.end]


@dataclass(frozen=True)
class SectionMeta:
    """One Markdown file of a document: where it is, what it is titled, which clauses it holds."""

    path: str
    title: str
    clause: str = ""  # the heading's own clause id («ст. 19»), "" for a preamble or a plain heading
    part: str = ""  # «2/3» when a long article was split into parts
    groups: tuple[str, ...] = ()  # the headings above it (Раздел, Глава), outermost first
    pages: tuple[int, ...] = ()  # first and last source page, (0, 0) when the format has none
    bytes: int = 0
    tokens: int = 0
    clauses: tuple[Clause, ...] = ()
    gist: str = ""  # its own first words per part or point, for the table of contents (build.gist)
    extra: Mapping[str, Any] = field(default_factory=dict, compare=False)

    @classmethod
    def from_json(cls, raw: Mapping[str, Any]) -> SectionMeta:
        return cls(
            path=str(raw["path"]),
            title=str(raw.get("title", "")),
            clause=str(raw.get("clause", "")),
            part=str(raw.get("part", "")),
            groups=tuple(raw.get("groups", ())),
            pages=tuple(raw.get("pages", ())),
            bytes=int(raw.get("bytes", 0)),
            tokens=int(raw.get("tokens", 0)),
            clauses=tuple(map(Clause._make, raw.get("clauses", ()))),
            gist=str(raw.get("gist", "")),
            extra=_extra(raw, _SECTION_KEYS),
        )

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            "path": self.path,
            "title": self.title,
            "clause": self.clause,
            "part": self.part,
            "groups": list(self.groups),
            "pages": list(self.pages),
            "bytes": self.bytes,
            "tokens": self.tokens,
            "clauses": [c.to_json() for c in self.clauses],
        }
        if self.gist:  # metas built before gists existed have no such key, and stay byte-identical
            out["gist"] = self.gist
        return {**out, **self.extra}

    def clause_ids(self) -> list[str]:
        return [c.id for c in self.clauses]


@dataclass(frozen=True)
class SourceFile:
    """The source a document was built from, as kept under ``sources/``."""

    file: str
    sha256: str = ""
    bytes: int = 0

    @classmethod
    def from_json(cls, raw: Mapping[str, Any]) -> SourceFile:
        return cls(str(raw.get("file", "")), str(raw.get("sha256", "")), int(raw.get("bytes", 0)))

    def to_json(self) -> dict[str, Any]:
        return {"file": self.file, "sha256": self.sha256, "bytes": self.bytes}


@dataclass(frozen=True)
class DocMeta:
    """A document on the shelf: identity, provenance, edition facts and its sections in reading order.

    ``edition`` stays the JSON as stored, a mapping of ISO dates and ids (see ``docshelf.law.editions``):
    it is edited by hand in meta files, so it may be malformed, and the editions module is the one
    place that interprets it (a malformed one reads as status ``unknown`` and ``check`` reports it).

    ``sections`` are read from ``section_data`` (the stored JSON objects, or records) when first
    used: a write reads every meta of the shelf for its root index, which needs only their sizes.
    """

    id: str
    title: str
    category: str = ""
    entry: str = ""  # what a table of contents links to: the subindex of a split document, else the file
    source: SourceFile = SourceFile("")
    converter: Mapping[str, str] = field(default_factory=dict)
    pages: int = 0
    language: str = "ru"
    options: Mapping[str, Any] = field(default_factory=dict)
    edition: Any = field(default_factory=dict)  # a JSON object when well formed; see the class docstring
    section_data: tuple[Mapping[str, Any] | SectionMeta, ...] = field(default=(), repr=False)
    expected_clauses: tuple[str, ...] = ()
    warnings: tuple[str, ...] = ()
    quality: Mapping[str, Any] | None = None  # the build's report on itself (build.quality); None before it existed
    extra: Mapping[str, Any] = field(default_factory=dict, compare=False)

    @classmethod
    def from_json(cls, raw: Mapping[str, Any]) -> DocMeta:
        return cls(
            id=str(raw["id"]),
            title=str(raw.get("title", "")),
            category=str(raw.get("category", "")),
            entry=str(raw.get("entry", "")),
            source=SourceFile.from_json(raw.get("source") or {}),
            converter=dict(raw.get("converter") or {}),
            pages=int(raw.get("pages") or 0),
            language=str(raw.get("language") or "ru"),
            options=dict(raw.get("options") or {}),
            edition=_copy(raw.get("edition") or {}),
            section_data=tuple(raw.get("sections", ())),
            expected_clauses=tuple(raw.get("expected_clauses", ())),
            warnings=tuple(raw.get("warnings", ())),
            quality=raw.get("quality"),
            extra=_extra(raw, _DOC_KEYS),
        )

    @classmethod
    def loads(cls, text: str | bytes) -> DocMeta:
        """A meta from the text of a ``*.meta.json`` file."""
        return cls.from_json(json.loads(text))

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            "id": self.id,
            "title": self.title,
            "category": self.category,
            "entry": self.entry,
            "source": self.source.to_json(),
            "converter": dict(self.converter),
            "pages": self.pages,
            "language": self.language,
            "options": dict(self.options),
            "edition": _copy(self.edition),
            "sections": [s.to_json() if isinstance(s, SectionMeta) else dict(s) for s in self.section_data],
            "expected_clauses": list(self.expected_clauses),
            "warnings": list(self.warnings),
        }
        if self.quality is not None:
            out["quality"] = dict(self.quality)
        return {**out, **self.extra}

    def dumps(self) -> str:
        """The text of the meta file, exactly as the build writes it."""
        return json.dumps(self.to_json(), ensure_ascii=False, indent=2) + "\n"

    @cached_property
    def sections(self) -> tuple[SectionMeta, ...]:
        return tuple(s if isinstance(s, SectionMeta) else SectionMeta.from_json(s) for s in self.section_data)

    @cached_property
    def size(self) -> tuple[int, int]:
        """(tokens, bytes) of all its sections, summed without reading the sections' clause tables."""
        tokens = size = 0
        for s in self.section_data:
            if isinstance(s, SectionMeta):
                tokens, size = tokens + s.tokens, size + s.bytes
            else:
                tokens, size = tokens + int(s.get("tokens", 0)), size + int(s.get("bytes", 0))
        return tokens, size

    @cached_property
    def clause_heads(self) -> frozenset[str]:
        """The first words of its clause ids that qualify a label after them («Правила» of «Правила п. 14»; not
        «Этап» of «Этап 2», a label itself): asked on every citation read."""
        pairs = (c.id.split(" ", 1) for s in self.sections for c in s.clauses)
        return frozenset(p[0] for p in pairs if len(p) == 2 and not p[1][:1].isdigit())

    @property
    def english(self) -> bool:
        return self.language == "en"

    @property
    def meta_path(self) -> str:
        """The meta file, from the entry: ``docs/c/x/subindex.md`` → ``docs/c/x.meta.json``."""
        base = self.entry.removesuffix("/subindex.md").removesuffix(".md")
        return base + ".meta.json"

    def section(self, path: str) -> SectionMeta | None:
        return next((s for s in self.sections if s.path == path), None)

    def clauses(self) -> Iterator[tuple[SectionMeta, Clause]]:
        """Every clause of the document with the section that holds it, in reading order."""
        for s in self.sections:
            for c in s.clauses:
                yield s, c
