"""Questions that ask for a number: «за сколько дней…», «как долго…», "how many bytes…".

Their answer is a clause that states a quantity: a number or a numeral followed by a unit («в
течение десяти рабочих дней», «604800 seconds») or by the thing counted («4 уровня» for «сколько
уровней»). A text that only shares the question's words («срок хранения» without a term) is not
the answer; such a question lifts the candidates whose text states a quantity by
``ranking.W_QUANTITY``. Everything here works on analyzer keys, so a numeral in any case form
(«десяти», «десять») is one key.
"""

from __future__ import annotations

import itertools
import re

from docshelf.text.analyzer import tokens
from docshelf.text.normalize import normalize_text

_ASKS = re.compile(
    r"\b(?:сколько|как долго|как часто|как скоро|како[йве]\w* срок\w*|каков\w* срок\w*|в течение какого|"
    r"за какое время|через какое время|какое время|максимальн\w*|минимальн\w*|предельн\w*|наибольш\w*|"
    r"наименьш\w*|самы\w* (?:длинн|коротк|больш|маленьк|долг)\w*|"
    r"how (?:long|many|much|often|soon|big|large|frequently)|maximum|minimum|longest|shortest|largest|biggest|"
    r"smallest|what is the (?:limit|size|length))\b"
)
# The word after these names what is counted: «сколько уровней», "how many octets".
_COUNTING = re.compile(r"\b(?:сколько|how many|how much)\s+(\w+)")


def _keys(words: str) -> frozenset[str]:
    return frozenset(t.key for t in tokens(words))


NUMERALS = _keys(
    """один одного одной одну два двух две двум три трех трем четыре четырех пять пяти шесть шести семь семи
    восемь восьми девять девяти десять десяти одиннадцати двенадцати пятнадцати двадцать двадцати тридцать
    тридцати сорок сорока пятьдесят пятидесяти шестьдесят шестидесяти девяносто ста сто двести трехсот триста
    тысяча тысячи полгода полутора
    one two three four five six seven eight nine ten eleven twelve fifteen twenty thirty sixty ninety hundred
    thousand"""
)
UNITS = _keys(
    """день дня дней дни сутки суток час часа часов минута минут минуты секунда секунд неделя недели недель
    месяц месяца месяцев год года лет рабочих календарных процентов процента символов раз раза рублей
    second seconds minute minutes hour hours day days week weeks month months year years byte bytes octet
    octets bit bits characters times percent milliseconds"""
)


def asks_quantity(query: str) -> bool:
    """Whether the question asks how long, how many, how often or how big."""
    return bool(_ASKS.search(normalize_text(query)))


def units_for(query: str) -> frozenset[str]:
    """The keys a stated quantity may be followed by: units, and what the question counts."""
    counted = {k for m in _COUNTING.finditer(normalize_text(query)) for k in _keys(m.group(1))}
    return UNITS | counted


def states_quantity(keys: str, units: frozenset[str]) -> bool:
    """Whether a key string holds a number or a numeral followed by one of ``units``."""
    return any((a.isdigit() or a in NUMERALS) and b in units for a, b in itertools.pairwise(keys.split()))
