"""The documents a query names: read once, with the names citations use (law/docnames).

* **A document on the shelf** named in any of its short forms («SP 800-53», «ГОСТ 7.32», «ASVS»): the
  query words that spell it become one concept, «any of these documents», found in the heading keys of
  each of its sections (a heading holds its document's id), so its sections rank up; the words of a
  name with a number are not also looked for one by one («7.32» alone is in no section), an acronym's
  are («TLS» is a word of many texts).
* **A document the query names but the shelf lacks** («приказ ФСТЭК № 117»): its number must not find
  «Статья 117» of some code; the note says that document is not on the shelf. A number a document's
  names hold as a whole number («ГОСТ 7.32» and «ГОСТ 7.32-2017», «закон 152» and «152-ФЗ») is on it.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from docshelf.law import docids, docnames
from docshelf.text.analyzer import index_text, is_ref_key, tokens
from docshelf.text.normalize import normalize_text
from docshelf.text.searchindex import DocInfo
from docshelf.text.synonyms import Concept

# A number naming an act: «приказ ФСТЭК № 117», «указ 250», «федеральный закон 999-фз», «RFC 9999».
_ACT = re.compile(
    r"\b(?P<kind>приказ\w*|указ\w*|постановлени\w*|распоряжени\w*|закон\w*|rfc|гост(?: р)?|sp)"
    r"(?P<between>(?: [^\W\d_]+){0,3}?)(?: №)? ?(?P<number>\d+(?:[-.]\d+)*(?:-[^\W\d_]{1,4})?)\b"
)
_ACT_ID = re.compile(r"\b\d+-(?:фз|фкз)\b")
# A code or the Constitution by its name in any case («ст. 10 Уголовного кодекса») or its abbreviation with
# «РФ» («УК РФ»; «ТК» alone is also a transport company): the one vocabulary of law/docids.py.
_CODE_OF = {normalize_text(said): code for code in docids.CODES.values() for said in (code, *docids.id_spellings(code))}
_CODE_IDS = frozenset(docids.CODES.values())
_CODE = re.compile(r"(?<![\w-])(?:" + "|".join(map(re.escape, sorted(_CODE_OF, key=len, reverse=True))) + r")(?![\w-])")


@dataclass(frozen=True)
class Mention:
    """A stretch of the query naming documents on the shelf: as written, and the documents it fits."""

    written: str
    doc_ids: tuple[str, ...]
    short: bool  # written in a shorter form than any of those documents' ids


@dataclass(frozen=True)
class SaidDocuments:
    """What a query says of documents: those of the shelf it names, and acts it names that the shelf lacks."""

    named: list[Mention]
    missing: list[tuple[str, str]]  # (as written, its number): see :func:`absent_acts`

    def note(self) -> str:
        out = "".join(
            f" No document {written} on the shelf: the hits do not come from it." for written, _n in self.missing
        )
        for m in self.named:
            if len(m.doc_ids) > 1 and m.short:
                out += (
                    f" «{m.written}» names {len(m.doc_ids)} documents: {', '.join(m.doc_ids)}; give one to keep to it."
                )
        return out


@dataclass(frozen=True)
class ShelfNames:
    """What «is this act on the shelf?» asks of every document, read once per commit (``of``), not per query:
    the codes the documents' ids and titles name, and the pieces of every name by each piece it holds."""

    codes: frozenset[str]
    by_piece: dict[str, list[tuple[docnames.Piece, ...]]]

    @classmethod
    def of(cls, docs: Sequence[DocInfo], titles: Sequence[str]) -> ShelfNames:
        names = [*(d.doc_key for d in docs), *map(normalize_text, titles)]
        codes = frozenset(code for name in names for code in _codes_in(name))
        by_piece: dict[str, list[tuple[docnames.Piece, ...]]] = {}
        for name in dict.fromkeys(n for d in docs for n in (d.names or (d.doc_id,))):
            held = docnames.pieces(name)
            for text in dict.fromkeys(p.text for p in held):
                by_piece.setdefault(text, []).append(held)
        return cls(codes, by_piece)

    def number_named(self, number: str) -> bool:
        """``docnames.number_named`` over every document's names: only the names holding its first piece."""
        wanted = docnames.pieces(number)
        return bool(wanted) and any(
            docnames.find(wanted, held) is not None for held in self.by_piece.get(wanted[0].text, ())
        )


def read_query(query: str, docs: Sequence[DocInfo], shelf: Callable[[], ShelfNames]) -> SaidDocuments:
    """The documents ``query`` names; ``shelf`` (the commit's :class:`ShelfNames`) is asked for only when the
    query names an act."""
    missing = absent_acts(query, shelf()) if names_an_act(query) else []  # the common case reads no list
    return SaidDocuments(mentions(query, docs), missing)


def narrowed(query: str, concepts: list[Concept], said: SaidDocuments) -> list[Concept]:
    """The query's concepts with each named document one concept, and no number of an absent act: «приказ
    № 117» is not on the shelf, so its number must not find «Статья 117» (nor a code's article number)."""
    concepts = with_documents(query, concepts, said.named)
    if said.missing:
        numbers = {k for _w, n in said.missing for k in index_text(n).split()}
        concepts = [c for c in concepts if not any(set(alt) <= numbers for alt in c.alts)]
        if names_absent_code(said.missing):
            concepts = [c for c in concepts if not any(is_ref_key(k) for alt in c.alts for k in alt)]
    return concepts


def mentions(query: str, docs: Sequence[DocInfo]) -> list[Mention]:
    """The documents of the shelf the query names, in the order it names them."""
    found = docnames.named_in(query, [(d.doc_id, d.names) for d in docs])
    ps = docnames.pieces(query)
    out = []
    for n in found:
        written = query[ps[n.start].start : ps[n.end - 1].end]
        ids = {docnames.length(i) for i in n.doc_ids}
        out.append(Mention(written, n.doc_ids, short=n.length < min(ids)))
    return out


def with_documents(query: str, concepts: list[Concept], named: Sequence[Mention]) -> list[Concept]:
    """The concepts with the words spelling each named document replaced by one concept: that document."""
    out = list(concepts)
    for m in named:
        at = query.find(m.written)
        # Positions count the query's words without its stopwords, as the concepts' do («по 152-ФЗ что такое
        # обезличивание»: the name is word 0, «обезличивание» word 1, whatever stands before the name).
        first = _words_in(query[:at])
        last = first + max(_words_in(m.written), 1) - 1
        alts = tuple(dict.fromkeys(_id_keys(i) for i in m.doc_ids))
        numbered = any(ch.isdigit() for ch in m.written)
        if numbered:  # «TLS», «GDPR» are also words of the texts: kept
            out = [c for c in out if not (first <= c.first and c.last <= last)]
        # An id with a number is matched, as identifiers are; an acronym alone does not make the query one
        # (it keeps the meaning rerank of a shelf with vectors).
        out.append(Concept(m.written, alts, numbered, first, last))
    return sorted(out, key=lambda c: (c.first, c.last))


def _words_in(text: str) -> int:
    return sum(1 for t in tokens(text) if not t.stop)


def _id_keys(doc_id: str) -> tuple[str, ...]:
    """The keys a heading of the document holds for its id (search index: title, clause, id)."""
    toks = tokens(docids.without_country(doc_id))
    return tuple(t.keys[0] for t in toks if not t.stop) or tuple(t.keys[0] for t in toks)


def names_an_act(query: str) -> bool:
    """Whether the query names an act by its number (cheap: the common query reads no document list)."""
    norm = normalize_text(query)
    return bool(_ACT.search(norm) or _ACT_ID.search(norm) or _CODE.search(norm))


def absent_acts(query: str, shelf: ShelfNames) -> list[tuple[str, str]]:
    """``(as written, its number)`` for each act the query names by number that no document of the shelf is;
    ``(its id, as named)`` for a code or the Constitution that no document's id or title names."""
    norm = normalize_text(query)
    found = [(m.group(0), m["number"]) for m in _ACT.finditer(norm)]
    found += [(m.group(0), m.group(0)) for m in _ACT_ID.finditer(norm) if not any(m.group(0) in f[0] for f in found)]
    out = []
    for text, number in found:
        if not shelf.number_named(number):
            out.append((_as_written(query, text), number))
    for m in _CODE.finditer(norm):  # a code is named by words, not a number: all of them stand for it
        code = _CODE_OF[m.group(0)]
        # on the shelf under its id, or under any id with its name in the title (an id chosen at `add`)
        if code not in shelf.codes:
            out.append((code, m.group(0)))
    return out


def names_absent_code(missing: Sequence[tuple[str, str]]) -> bool:
    """Whether an absent act (:func:`absent_acts`) is a code: «ст. 18 УК РФ» asks for the code's article, so
    the query's clause numbers must not find another document's ст. 18 either."""
    return any(written in _CODE_IDS for written, _said in missing)


def _codes_in(text: str) -> set[str]:
    return {_CODE_OF[m.group(0)] for m in _CODE.finditer(text)}


def _as_written(query: str, normalized: str) -> str:
    """The query's own spelling of a normalized span (case, «№»), when it can be found word by word."""
    words = normalized.split()
    pattern = r"\W*".join(re.escape(w) for w in words)
    m = re.search(pattern, query, re.IGNORECASE)
    return " ".join(m.group(0).split()) if m else normalized
