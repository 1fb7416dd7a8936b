"""Labels no family rule names, read by their shape: «T1059.001», «AC.L2-3.1.3», «APP.1.1.A3», «MASVS-STORAGE-1»,
«01.a», «Q3.», «R2.», «1-2», «М-01», «A01:2021».

A label is one token of letters and digits joined by «.», «-» or «:», printed at a block's start and followed by
a capital (its title or first sentence) or nothing. Its last part is its *value* (digits, or one letter after a
separator), what comes before is its *series* (labels of one series differ only in the value: «T1059.001»,
«T1059.002»), and the label it nests under is its *container* («T1059» for «T1059.001», «APP.1.1» for
«APP.1.1.A3», «01» for «01.a»). Reading a shape says nothing about whether the document numbers with it: that is
the outline's evidence (``law.outline.Outline``) — a label succeeds the one before it, is followed by its
successor, or nests under a container the document prints. A year, a date, a time, a bare number are no shape.

Pure: regular expressions, no I/O.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

GENERIC = "~"  # a style read from a label's shape starts with this
_SEGMENT = r"[A-Za-zА-Яа-яЁё0-9]+"
# The token, what closes it («.», «:», «)») and what may follow: a capital, a quote or a bracket (after a dash
# or not: «A01:2021 – Broken …»), or the end of the block.
# A specification's tag in square brackets is one too: «[R-12] The ground segment shall …».
_TOKEN = re.compile(
    rf"^(?:\[(?=[^\]\s]+\]))?({_SEGMENT}(?:[.\-:]{_SEGMENT})*)(\]|[.:)]?)"
    r"(?=[ \t\u00a0]+(?:[—–-][ \t\u00a0]+)?[A-ZА-ЯЁ«\"“(]|\s*$)"
)
_YEAR = re.compile(r"\b(?:19|20)\d\d\b")
_ENTRY_CHARS = 400  # how far into a bracketed tag's block a reference entry prints its year
_YEAR_SUFFIX = re.compile(r":(?:19|20)\d\d$")  # «A01:2021»: the edition the list is of, not its value
_VALUE = re.compile(r"(?<!\d)(\d{1,4})$|(?<=[.\-:])([a-zа-я])$")  # trailing digits, or one letter after a separator
_LETTERS = "abcdefghijklmnopqrstuvwxyz", "абвгдежзиклмнопрстуфхцчшщэюя"
_HEX = re.compile(r"(?:^|[^A-Za-z])0x$", re.IGNORECASE)
# A label printed at block starts this often in one document is a code it repeats («P1» of every control's
# priority line, a protocol state «FIN-WAIT-1» described in every event's section), not one place of a numbering.
REPEATS = 3


@dataclass(frozen=True)
class Shape:
    atom: str  # the label as printed, without what closes it («T1059.001»)
    printed: str  # with what closes it («Q3.»)
    style: str  # GENERIC + the series' shape + the value's («~Xn.00n»): labels of one style succeed each other
    value: int
    series: str  # the atom up to its value («T1059.»): what siblings share
    container: str  # the label it nests under, "" when it names none
    length: int  # characters of the block the label takes


def read_shape(text: str) -> Shape | None:
    """The shape of the label ``text`` starts with, or None when it starts with none."""
    m = _TOKEN.match(text)
    if m is None or text.startswith("[") != (m.group(2) == "]"):
        return None  # a bracket opened is closed right after the tag, and only then
    if text.startswith("[") and _YEAR.search(text[:_ENTRY_CHARS]):
        return None  # «[RFC-812] K. Harrenstien, … March 1982.»: an entry of a list of references, not a requirement
    atom = m.group(1)
    year = _YEAR_SUFFIX.search(atom)
    core, suffix = (atom[: year.start()], year.group(0)) if year else (atom, "")
    value_at = _VALUE.search(core)
    if value_at is None or not any(ch.isdigit() for ch in core) or re.search(r"\d:\d", core):
        return None  # no value, no number at all, or a time («10:30»)
    series = core[: value_at.start()]
    if not series or (not any(ch.isalpha() for ch in core) and "-" not in core):
        return None  # a bare or dotted number is the grammar's and the dotted reader's («12», «1.2», «12.05.2023»)
    if _HEX.search(series):
        return None  # «0x01»: a value, not a label
    if digits := value_at.group(1):
        value = int(digits)
        if len(digits) == 4 and digits.startswith(("19", "20")):
            return None  # a year («ISO/IEC 27001:2013» without its prefix, «FY2024»)
        width = len(digits) if digits.startswith("0") and len(digits) > 1 else 1
        mark = "0" * (width - 1) + "n"
    else:
        letter = value_at.group(2)
        alphabet = _LETTERS[0] if letter in _LETTERS[0] else _LETTERS[1]
        value = alphabet.index(letter) + 1 if letter in alphabet else 0
        mark = "a" if alphabet is _LETTERS[0] else "я"
    if value <= 0:
        return None
    style = f"{GENERIC}{_shape(series)}{mark}{suffix}"
    return Shape(atom, m.group(0), style, value, series, _container(series), m.end())


def neighbour(series: str, style: str, value: int) -> str:
    """How the label of a series with ``value`` is printed («T1059.002» for 2 in the series «T1059.» of style
    «~Xn.00n»); "" when the series has no label with that value."""
    mark = style.removeprefix(GENERIC)[len(_shape(series)) :]
    digits = mark.lstrip("0")  # the value's mark and the suffix: «n:2021»; the zeros pad the number
    kind, suffix, width = digits[:1], digits[1:], len(mark) - len(digits) + 1
    if value <= 0 or not kind:
        return ""
    if kind in ("a", "я"):
        alphabet = _LETTERS[0] if kind == "a" else _LETTERS[1]
        return f"{series}{alphabet[value - 1]}{suffix}" if value <= len(alphabet) else ""
    return f"{series}{str(value).zfill(width)}{suffix}"


def near_series(a: str, b: str) -> bool:
    """Whether two series are one, or differ in one digit only («AC.L1-3.1.», «AC.L2-3.1.»: a level the id
    carries changes while the numbering goes on)."""
    if a == b:
        return True
    diff = [(x, y) for x, y in zip(a, b, strict=False) if x != y]
    return len(a) == len(b) and len(diff) == 1 and diff[0][0].isdigit() and diff[0][1].isdigit()


def _container(series: str) -> str:
    """The label a series nests under: «T1059.» → «T1059», «APP.1.1.A» → «APP.1.1»; none for «Q» or «NSEC3RSASHA»
    (letters run into a number name no label before them), nor a bare number («6» of «6-15», a range in a table
    of codes: a bare number is too common a label to be evidence)."""
    if series[-1] in ".-:":
        head = series[:-1]
    else:
        head = series.rstrip("".join(_LETTERS) + "".join(_LETTERS).upper() + "ёЁйЙъЪыЫьЬ")
        head = head[:-1] if head and head[-1] in ".-:" else ""
    return head if any(ch.isalpha() for ch in head) else ""


def _shape(text: str) -> str:
    """Letters and digits of a series as their kind: «AC.L1-3.1.» → «X.Xn-n.n.», «М-» → «Я-»."""
    out = re.sub(r"[A-Z]+", "X", text)
    out = re.sub(r"[a-z]+", "x", out)
    out = re.sub(r"[А-ЯЁ]+", "Я", out)
    out = re.sub(r"[а-яё]+", "я", out)
    return re.sub(r"\d+", "n", out)


__all__ = ["GENERIC", "Shape", "near_series", "neighbour", "read_shape"]
