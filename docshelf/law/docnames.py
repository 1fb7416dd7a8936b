"""Which documents a text names, with ids as people write them: short forms read off each id and title.

People cite a document without its revision, year, publisher or format: «SP 800-53» for «NIST SP
800-53 Rev. 3», «ГОСТ 7.32» for «ГОСТ 7.32-2017», «ASVS» for «OWASP ASVS 4.0.3», «SSDF» for the
publication whose title says «(SSDF)». :func:`names` derives those forms from the id and the title (no
table of families); :func:`find` looks for one in a text with word boundaries, so that «SP 800-53» is
not found inside «SP 800-53A», nor «Приказ ФСТЭК № 17» inside «… № 172». Citations (``verify_quote``,
``fetch``) and ``search`` share this one reading, so a document is named alike by every tool.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from functools import lru_cache

from docshelf.law import docids

# A piece is a run of letters or of digits; ``sep`` is what stood before it ("" glued, as «53» and «r» in
# «800-53r3»). «№» and an «N» before a number are signs, not part of an id («N 152-ФЗ» = «152-ФЗ»).
_RUN = re.compile(r"[^\W\d_]+|\d+")
_SIGN = {"n", "№"}
# What an id carries besides the document's name: a format or edition note, a revision, a year of issue.
_REVISION = re.compile(
    r"(?:\s*,?\s*(?:Rev\.?|Revision|Version|Ver\.|v)\s*\d+(?:\.\d+)*|(?<=\d)r\d+|\s+\d+\.\d+\.\d+)$", re.IGNORECASE
)
# A version of three parts or more is also named by its first two, as people write it: «ASVS 5.0» for 5.0.0.
_VERSION_TAIL = re.compile(r"(?<=\d\.\d)(?:\.\d+)+$|(?<=\d\.\d\d)(?:\.\d+)+$")
_YEAR = re.compile(r"(?:(?<=\d)[-:/]|(?<=[^\W\d_])\s+)(?:19|20)\d\d$")
_PUBLISHER = re.compile(r"^[A-Z]{3,}[\s.]+(?=[A-Z])")  # «NIST SP …», «OWASP ASVS …», «NIST.AI.100-1»
_JOINT = re.compile(r"^([A-Z]{2,})/([A-Z]{2,})\s+(?=\d)")  # «ISO/IEC 27001», a standard of two bodies
_KIND_ONLY = re.compile(r"^[A-Z]{2,}\s+(?=\d+(?:-\d+[A-Z]?)\b)")  # «SP 800-53» → «800-53»
_ACRONYM = re.compile(r"\((?P<name>[A-Z][A-Za-z]*[A-Z](?:\s+[A-Z]{2,})*)(?:\s+(?P<version>\d+(?:\.\d+)*))?\)")


@dataclass(frozen=True)
class Piece:
    text: str  # casefolded
    sep: str  # what stood before it: "" glued to the piece before, " " any separator, "." a dot
    start: int  # where it stands in the text read
    end: int


@lru_cache(maxsize=16384)  # every query meets every document's names: read each name once
def pieces(text: str) -> tuple[Piece, ...]:
    """The text as pieces of letters and digits (casefolded), signs of number left out."""
    out: list[Piece] = []
    end = 0
    runs = list(_RUN.finditer(text))
    for i, m in enumerate(runs):
        between = text[end : m.start()]
        end = m.end()
        word = m.group(0).casefold()
        if word in _SIGN and i + 1 < len(runs) and runs[i + 1].group(0).isdigit():
            continue
        sep = "" if out and not between else ("." if between.strip() == "." else " ")
        out.append(Piece(word, sep, m.start(), m.end()))
    return tuple(out)


def _continues(before: Piece, after: Piece) -> bool:
    """Whether ``after`` is more of the same word or number as ``before`` («53» then «a» glued, «7.32» then «.1»)."""
    if after.sep == "":
        return True
    return after.sep == "." and before.text.isdigit() and after.text.isdigit()


def find(name: Sequence[Piece], text: Sequence[Piece]) -> int | None:
    """Where the name stands in the text as whole words (its first piece's index), or None."""
    n = len(name)
    if not n:
        return None
    words = [p.text for p in name]
    for i in range(len(text) - n + 1):
        if [p.text for p in text[i : i + n]] != words:
            continue
        if i > 0 and _continues(text[i - 1], text[i]):
            continue
        if i + n < len(text) and _continues(text[i + n - 1], text[i + n]):
            continue
        return i
    return None


def without(text: str, name: str) -> str:
    """The text with the first place it names ``name`` cut out (with a sign of number before it), or as it was."""
    text_pieces, name_pieces = pieces(text), pieces(name)
    at = find(name_pieces, text_pieces)
    if at is None:
        return text
    start, end = text_pieces[at].start, text_pieces[at + len(name_pieces) - 1].end
    closing = name[len(name.rstrip(')»”"')) :]  # «… 4.0.3 (ru)»: the bracket the name closes goes with it
    if closing and text[end:].startswith(closing):
        end += len(closing)
    sign = re.search(r"(?:№|\bN)\s*$", text[:start])
    return text[: sign.start() if sign else start] + " " + text[end:]


def length(name: str) -> int:
    """How much of a text a name covers (letters and digits): the longer name found is the closer match."""
    return sum(len(p.text) for p in pieces(name))


def _stripped(doc_id: str) -> list[str]:
    """The id with what is not its name taken off, one thing at a time, each step kept."""
    forms = [doc_id] + ([doc_id.replace(".", " ")] if " " not in doc_id and "." in doc_id else [])  # NIST.AI.100-1
    for pattern in (docids.EDITION_SUFFIX, _REVISION, _YEAR, _PUBLISHER):
        forms = list(dict.fromkeys([*forms, *(pattern.sub("", f).strip() for f in forms)]))
    latin = [f for f in forms if f.isascii()]
    forms += [_KIND_ONLY.sub("", f) for f in latin if _bare_number_ok(_KIND_ONLY.sub("", f))]
    # «ISO/IEC 27001»: people name it by either body, «ISO 27001»
    forms += [f"{m[body]} {f[m.end() :]}" for f in latin if (m := _JOINT.match(f)) for body in (1, 2)]
    return list(dict.fromkeys(forms))


def _bare_number_ok(form: str) -> bool:
    """A number alone names a document only when it cannot be a clause's number: «800-53», «27001»."""
    return bool(re.fullmatch(r"\d+-\d+[A-Z]?|\d{5,}", form))


def _from_title(title: str) -> list[str]:
    """The acronym a title gives the document, «(SSDF)», «(AI RMF 1.0)», with and without its version."""
    out = []
    for m in _ACRONYM.finditer(title):
        name, version = m["name"], m["version"]
        if len(name.replace(" ", "")) >= 3:
            out += [f"{name} {version}", name] if version else [name]
    return out


@lru_cache(maxsize=4096)
def names(doc_id: str, title: str = "") -> tuple[str, ...]:
    """Every way of naming the document that :func:`find` should accept, the id itself first."""
    forms = _stripped(doc_id) + _stripped(docids.act_of(doc_id))
    out = [*forms, *(spelling for f in forms for s in docids.id_spellings(f) for spelling in _stripped(s))]
    out += _from_title(title)
    out += [short for f in out if (short := _VERSION_TAIL.sub("", f)) != f]
    return tuple(f for f in dict.fromkeys(out) if _is_name(f))


def _is_name(form: str) -> bool:
    """A form that still names something: a number, or an acronym of three letters or more («ASVS»)."""
    ps = pieces(form)
    if any(p.text.isdigit() for p in ps):
        return True
    return bool(ps) and (len(ps) > 1 or (len(ps[0].text) >= 3 and form.strip().isupper()))


@dataclass(frozen=True)
class Named:
    """A stretch of a text that names documents: where it is, as written, and which documents it names."""

    start: int  # piece indexes into the text's :func:`pieces`
    end: int
    length: int  # characters of the name matched: a longer name is a closer match
    doc_ids: tuple[str, ...]


def named_in(text: str, docs: Iterable[tuple[str, Sequence[str]]]) -> list[Named]:
    """The stretches of ``text`` naming documents of ``docs`` (``(doc_id, names)``), longest name first
    where two overlap; each lists every document its name fits (several editions, or a short form
    shared by two publications)."""
    text_pieces = pieces(text)
    words = {p.text for p in text_pieces}
    found: dict[tuple[int, int], tuple[int, list[str]]] = {}
    for doc_id, doc_names in docs:
        best: tuple[int, int, int] | None = None
        for name in doc_names:
            np = pieces(name)
            if not np or np[0].text not in words:
                continue  # its first word is not in the text: the common case, decided without a scan
            at = find(np, text_pieces)
            covered = sum(len(p.text) for p in np)
            if at is not None and (best is None or covered > best[2]):
                best = (at, at + len(np), covered)
        if best is not None:
            span = (best[0], best[1])
            found.setdefault(span, (best[2], []))[1].append(doc_id)
    ordered = sorted(found.items(), key=lambda kv: (-kv[1][0], kv[0]))
    out: list[Named] = []
    for (start, end), (covered, ids) in ordered:
        if any(start < o.end and o.start < end for o in out):
            continue  # inside a longer name already read («SP 800-53» within «NIST SP 800-53 Rev. 3»)
        out.append(Named(start, end, covered, tuple(ids)))
    return sorted(out, key=lambda n: n.start)


def number_named(number: str, doc_names: Iterable[str]) -> bool:
    """Whether a document's names hold ``number`` as a whole number («7.32» in «ГОСТ 7.32-2017», «152» in
    «152-ФЗ», not «17» in «… № 172» nor «800-53» in «SP 800-53A»)."""
    wanted = pieces(number)
    return any(find(wanted, pieces(name)) is not None for name in doc_names)
