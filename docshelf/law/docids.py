"""How documents name themselves and how people cite them: the vocabulary of document ids, in one place.

A document's id is what a lawyer or engineer writes when citing it: «152-ФЗ», «ПП 1119», «Приказ
ФСТЭК № 239», «Указ № 763», «RFC 4271», «NIST SP 800-63A», «OWASP ASVS 4.0.3», «ГОСТ Р 57580.1-2017».
:func:`derive_id` reads it from a document's opening lines at ``add``; citations and search read the
same spellings from a reference. A new family of documents is added here, as patterns and a test,
not as another copy of a regex in the module that happens to need it.
"""

from __future__ import annotations

import re
from itertools import pairwise

from docshelf.model import Block

# --- as a reference names them --------------------------------------------------------------------

_LAW_NUMBER = r"(\d+(?:-\d+)?)-(ФЗ|ФКЗ)"  # «152-ФЗ», «1-ФКЗ», «273-1-ФЗ»
LAW_ID = re.compile(rf"^{_LAW_NUMBER}$")  # an id that is a federal law's number
EDITION_SUFFIX = re.compile(r"\s*\([^()]*\)\s*$")  # «152-ФЗ (ред. 08.08.2024)», «RFC 4271 (txt)»: one act
RU_DATE = re.compile(r"\d{1,2}\.\d{1,2}\.\d{4}")  # the date an edition's id carries


# Russian codes and the Constitution, by the name their title gives them (the words «Российской Федерации»
# left out), and the id lawyers cite them by: «ст. 6 ВК РФ», «ст. 21 Конституции».
CODES = {
    "гражданский кодекс": "ГК РФ",
    "уголовный кодекс": "УК РФ",
    "налоговый кодекс": "НК РФ",
    "трудовой кодекс": "ТК РФ",
    "жилищный кодекс": "ЖК РФ",
    "земельный кодекс": "ЗК РФ",
    "водный кодекс": "ВК РФ",
    "лесной кодекс": "ЛК РФ",
    "бюджетный кодекс": "БК РФ",
    "семейный кодекс": "СК РФ",
    "воздушный кодекс": "ВзК РФ",
    "градостроительный кодекс": "ГрК РФ",
    "арбитражный процессуальный кодекс": "АПК РФ",
    "гражданский процессуальный кодекс": "ГПК РФ",
    "уголовно-процессуальный кодекс": "УПК РФ",
    "уголовно-исполнительный кодекс": "УИК РФ",
    "кодекс об административных правонарушениях": "КоАП РФ",
    "кодекс административного судопроизводства": "КАС РФ",
    "кодекс торгового мореплавания": "КТМ РФ",
    "кодекс внутреннего водного транспорта": "КВВТ РФ",
    "конституция": "Конституция РФ",
}
_SUBJECT_TITLE = re.compile(r"^(?:О|Об|Обо)\s", re.IGNORECASE)
_AMENDING_TITLE = re.compile(r"^О\s+внесении\b", re.IGNORECASE)
_NIST_ID = re.compile(r"^NIST SP (\S+?)(?: Rev\. (\d+))?$")
_ASVS_ID = re.compile(r"^OWASP ASVS (\d+\.\d+(?:\.\d+)?)$")
_ISSUED = re.compile(r"^(Приказ|Постановление|Распоряжение)\s+(\S+)\s+№\s+(\S+)$")
_COUNTRY = re.compile(r"\s+(?:российской федерации|рф)\b")
_NOUN_CASES = {"кодекс": ("кодекс", "кодекса", "кодексу", "кодексом", "кодексе"),
               "конституция": ("конституция", "конституции", "конституцию", "конституцией")}  # fmt: skip


def act_of(doc_id: str) -> str:
    """The act an id is an edition, a format or a revision of («152-ФЗ» for «152-ФЗ (ред. 08.08.2024)», «RFC
    4271» for «RFC 4271 (txt)», «NIST SP 800-53» for «NIST SP 800-53 Rev. 3»): a citation of it names them all."""
    act = EDITION_SUFFIX.sub("", doc_id)
    m = _NIST_ID.match(act)
    return f"NIST SP {m.group(1)}" if m and m.group(2) else act


def law_title(doc_id: str, title: str) -> str | None:
    """A federal law's title when citations may name the law by it («ст. 6 Закона о персональных данных»,
    «Федерального закона «Об информации, …»»): a subject title of three words or more; not an amending law's
    «О внесении изменений …», which many laws share."""
    if not LAW_ID.match(EDITION_SUFFIX.sub("", doc_id)):
        return None
    said = " ".join(title.split())
    if _SUBJECT_TITLE.match(said) and not _AMENDING_TITLE.match(said) and len(said.split()) >= 3:
        return said
    return None


def without_country(doc_id: str) -> str:
    """The id without «РФ» («ВК РФ 1995» → «ВК 1995»): what tells the document apart from the shelf's other
    Russian acts. A section's heading keys hold this, so a question saying «в России» does not lift every
    article of a code above the laws that answer it."""
    return " ".join(w for w in doc_id.split() if w != "РФ") or doc_id


def id_spellings(doc_id: str) -> list[str]:
    """Other ways people write a document's id: «ФЗ-152» for «152-ФЗ»; a code's or the Constitution's name in
    any case, with or without «РФ» / «Российской Федерации» («Водного кодекса РФ» for «ВК РФ»); [] for others."""
    if m := LAW_ID.match(doc_id):
        return [f"{m.group(2)}-{m.group(1)}"]
    if m := _NIST_ID.match(doc_id):  # «SP 800-53 Rev 3», «NIST 800-53 Revision 3», «NIST SP 800-53r3»
        number, revision = m.groups()
        bases = [f"NIST SP {number}", f"SP {number}", f"NIST {number}", f"NIST Special Publication {number}"]
        if revision is None:
            return bases[1:]
        return [f"{b}{r}" for b in bases for r in (f" Rev. {revision}", f" Revision {revision}", f"r{revision}")][1:]
    if m := _ASVS_ID.match(doc_id):  # «ASVS 4.0.3», «OWASP ASVS v4.0.3»
        v = m.group(1)
        return [f"ASVS {v}", f"ASVS v{v}", f"OWASP ASVS v{v}", f"Application Security Verification Standard {v}"]
    if m := _ISSUED.match(doc_id):  # «(приказом) ФСТЭК России № 239»: the kind in any case, or left out
        kind, issuer, number = m.groups()
        return [f"{kind} {issuer} России № {number}", f"{issuer} России № {number}", f"{issuer} № {number}"]
    name = next((n for n, code in CODES.items() if code == doc_id), None)
    if name is None:
        return []
    # «Кодекс (Российской Федерации) об административных правонарушениях»: the country may stand after the noun
    noun_first = name.split()[0] in _NOUN_CASES and " " in name
    out = []
    for form in _declined(name):
        noun, _, tail = form.partition(" ") if noun_first else (form, "", "")
        for country in ("", "российской федерации", "рф"):
            out += [" ".join(w for w in (form, country) if w), " ".join(w for w in (noun, country, tail) if w)]
    return list(dict.fromkeys(out))


def _declined(name: str) -> list[str]:
    """A code's name in the five cases a citation uses (nominative … prepositional)."""
    words = name.split()
    noun = next(i for i, w in enumerate(words) if w in _NOUN_CASES)
    forms = []
    for case in range(len(_NOUN_CASES[words[noun]])):
        said = [_adjective(w, case) for w in words[:noun]] + [_NOUN_CASES[words[noun]][case]] + words[noun + 1 :]
        forms.append(" ".join(said))
    return forms


def _adjective(word: str, case: int) -> str:
    """«водный» → водного, водному, водным, водном; «гражданский» → …ским; the first part of «уголовно-…» stays."""
    if case == 0 or not word.endswith(("ый", "ий", "ой")):
        return word
    base, soft = word[:-2], word.endswith("ий") and word[-3] in "кгх"
    return base + ("ого", "ому", "им" if soft else "ым", "ом")[case - 1]


# An act's date as a citation gives it, with the act's number after it or not: «от 27.07.2006 № 152-ФЗ»,
# «от 27 июля 2006 г.»; and as the act states it beside its number: «27 июля 2006 года N 152-ФЗ».
_MONTHS = ("января", "февраля", "марта", "апреля", "мая", "июня", "июля", "августа", "сентября", "октября",
           "ноября", "декабря")  # fmt: skip
_DATE = (
    rf"(?:(\d{{1,2}})\.(\d{{1,2}})\.(\d{{4}})|(\d{{1,2}})\s+({'|'.join(_MONTHS)})\s+(\d{{4}}))"
    r"\s*(?:г\.|года|г(?!\w))?"
)
_NUMBERED = r"\s*(?:N|№)\s*(\d+(?:-\d+)?(?:-[^\W\d_]{1,4})?)"
# the date alone is the span; the number after it (the document's id, or a code's law number) is only seen
_CITED_DATE = re.compile(rf"(?<!\w)от\s+{_DATE}(?=(?:{_NUMBERED})?)", re.IGNORECASE)
_STATED_DATE = re.compile(rf"{_DATE}{_NUMBERED}", re.IGNORECASE)
_OWN_NUMBER = re.compile(r"\d+(?:-\d+)?(?:-[^\W\d_]{1,4})?")
Dated = tuple[tuple[int, int, int], str]  # (day, month, year), the act's number («» when not given)


def _when(m: re.Match[str]) -> tuple[int, int, int]:
    if m.group(1):
        return int(m.group(1)), int(m.group(2)), int(m.group(3))
    return int(m.group(4)), _MONTHS.index(m.group(5).lower()) + 1, int(m.group(6))


def cited_date(ref: str) -> tuple[tuple[int, int], Dated] | None:
    """The span of an act's date in a citation («от 03.06.2006») and its reading, with the number after it
    («74-ФЗ», or «» when none follows), or None."""
    m = _CITED_DATE.search(ref)
    return None if m is None else ((m.start(), m.end()), (_when(m), (m.group(7) or "").upper()))


def stated_dates(text: str, doc_id: str) -> set[Dated]:
    """The dates a document's text gives itself beside its number («27 июля 2006 года N 152-ФЗ»), with that
    number: the number in ``doc_id`` when it has one (152-ФЗ, Приказ ФСТЭК № 239), else any; never the dates
    of amending acts, which editorial lines and «(в ред. …)» lists give."""
    own = _OWN_NUMBER.search(doc_id)
    said = "\n".join(ln for ln in text.splitlines() if not ln.startswith(">") and not _AMENDMENTS.search(ln))
    found = {(_when(m), m.group(7).upper()) for m in _STATED_DATE.finditer(said)}
    return {(w, n) for w, n in found if own is None or n == own.group(0).upper()}


# --- as a document names itself on its first lines ------------------------------------------------

_HEAD_BLOCKS = 20
_TAIL_BLOCKS = 8  # a decree's signature block: «Президент … Москва, Кремль 1 мая 2022 года N 250»
_LAW = re.compile(rf"(?:N|№)\s*({_LAW_NUMBER})")  # «N 152-ФЗ» on a law's first lines
_RFC = re.compile(r"Request for Comments:\s*(\d{1,5})")
_RFC_COLON = re.compile(r"(?:^|\s)RFC:\s*(\d{1,5})\b")  # the 1981 layout «RFC: 793»
_NIST_SP = re.compile(r"(?:NIST\s+)?Special\s+Publication\s+(800-\d{1,3}[A-Za-z]?)\b(?:\s*,?\s*Revision\s+(\d+))?")
_ASVS = re.compile(r"Application Security Verification Standard\s+(?:Version\s+)?(\d+\.\d+(?:\.\d+)?)")
# The Russian translation of the same standard: its id says which one, and «(ru)» keeps it one act for citations.
_ASVS_RU = re.compile(r"Стандарт верификации требований к безопасности приложений\s+(\d+\.\d+(?:\.\d+)?)")
# Federal Register documents: the issue's masthead opens them, the document number «[FR Doc. 2020–17221 Filed …]»
# closes them, and the subject is the line above «AGENCY:».
_FEDERAL_REGISTER = re.compile(r"\bFederal Register\b", re.IGNORECASE)
_FR_DOC = re.compile(r"\[FR Doc\.\s*(\d{4})\s*[–-]\s*(\d+)")
_FR_AGENCY = re.compile(r"^AGENCY:")
_GOST = re.compile(r"ГОСТ\s+(?:Р\s+)?(?:ИСО/МЭК\s+|ISO/IEC\s+)?\d+(?:\.\d+)*-\d{2,4}\b")
_ACT = re.compile(r"^(ПРИКАЗ|ПОСТАНОВЛЕНИЕ|УКАЗ|РАСПОРЯЖЕНИЕ)\b", re.IGNORECASE)
_ACT_NUMBER = re.compile(r"\bот\s+\d{1,2}[\s.]+\S+[\s.]+\d{4}\s*(?:г\.|года)?\s*(?:N|№)\s*(\d+[\w/-]*)", re.IGNORECASE)
_SIGNED_NUMBER = re.compile(r"\b\d{1,2}\s+[а-я]{3,8}\s+\d{4}\s*(?:г\.|года)\s*(?:N|№)\s*(\d+[\w/-]*)")
_AMENDMENTS = re.compile(r"\(в ред\.|в редакции|список изменяющих|утратил|признан", re.IGNORECASE)
_ISSUERS = (
    ("ФСТЭК", re.compile(r"ФСТЭК|ТЕХНИЧЕСКОМУ И ЭКСПОРТНОМУ КОНТРОЛЮ", re.IGNORECASE)),
    ("ФСБ", re.compile(r"ФЕДЕРАЛЬНАЯ СЛУЖБА БЕЗОПАСНОСТИ|ФСБ России", re.IGNORECASE)),
    ("Минцифры", re.compile(r"МИНИСТЕРСТВО ЦИФРОВОГО РАЗВИТИЯ|Минцифры", re.IGNORECASE)),
)


def derive_id(blocks: tuple[Block, ...], fallback: str) -> str:
    """A citation id from the document's own opening lines (not from amendment lists); else ``fallback``."""
    head = [b.text for b in blocks[:_HEAD_BLOCKS] if not b.editorial and not _AMENDMENTS.search(b.text)]
    joined = " ".join(head)
    if m := _RFC.search(joined) or _RFC_COLON.search(joined):
        return f"RFC {m.group(1)}"
    if m := _NIST_SP.search(joined):  # «NIST SP 800-63A», «NIST SP 800-171 Rev. 1»: as people cite them
        return f"NIST SP {m.group(1).upper()}" + (f" Rev. {m.group(2)}" if m.group(2) else "")
    if m := _ASVS.search(joined):
        return f"OWASP ASVS {m.group(1)}"
    if m := _ASVS_RU.search(joined):
        return f"OWASP ASVS {m.group(1)} (ru)"
    if _FEDERAL_REGISTER.search(joined) and (m := _fr_doc(blocks)):
        return f"FR Doc. {m.group(1)}-{m.group(2)}"
    for text in head[:6]:  # the standard's own number opens a line; a ГОСТ it refers to does not
        if m := _GOST.match(text.lstrip('"«')):
            return " ".join(m.group(0).split())
    tail = [b.text for b in blocks[-_TAIL_BLOCKS:] if not b.editorial and not _AMENDMENTS.search(b.text)]
    if act := _act_id(head, tail):
        return act
    if code := _code_id(head[:6]):
        return code
    for text in head[:4]:  # «27 июля 2006 года N 152-ФЗ» opens a law; later numbers are references
        if m := _LAW.search(text):
            return m.group(1)
    return fallback


def _code_id(lines: list[str]) -> str:
    """«Водный кодекс Российской Федерации» (alone on a line, or opening a legal database's header line
    «… от 03.06.2006 N 74-ФЗ»): «ВК РФ»; a code mentioned inside a sentence is not its title."""
    for text in lines:
        said = _COUNTRY.sub("", " ".join(text.strip(' "«»').casefold().split()))
        for name, code in CODES.items():
            if said == name or said.startswith((f"{name} от ", f"{name} (")):
                return code
    return ""


def _fr_doc(blocks: tuple[Block, ...]) -> re.Match[str] | None:
    """The Federal Register document number, printed after the document's last paragraph."""
    return next((m for b in reversed(blocks) if (m := _FR_DOC.search(b.text))), None)


def register_subject(blocks: tuple[Block, ...]) -> str:
    """A Federal Register document's subject («Airworthiness Directives; The Boeing Company Airplanes»), or ""."""
    head = blocks[:_HEAD_BLOCKS]
    if not any(_FEDERAL_REGISTER.search(b.text) for b in head):
        return ""
    for before, block in pairwise(head):
        if _FR_AGENCY.match(block.text) and before.bold:
            return before.text.strip()
    return ""


def _act_id(head: list[str], tail: list[str]) -> str:
    for i, text in enumerate(head):
        kind = _ACT.match(text.strip())
        if not kind:
            continue
        # «Указ … от 1 февраля 2024 г. № 763» near the top; the date and number printed above the act's name
        # (a legal database's layout: «1 мая 2022 года» «N 250» «УКАЗ»); the signature block «Москва, Кремль
        # 1 февраля 2024 года № 763» in the opening lines or at the document's end.
        m = (
            _ACT_NUMBER.search(" ".join(head[i : i + 3]))
            or _SIGNED_NUMBER.search(" ".join(head[max(0, i - 3) : i]))
            or _SIGNED_NUMBER.search(" ".join(head[i:]))
            or _SIGNED_NUMBER.search(" ".join(tail))
        )
        if not m:
            continue
        before = " ".join(head[: i + 1])
        number = m.group(1)
        word = kind.group(1).lower()
        if word == "постановление" and re.search(r"ПРАВИТЕЛЬСТВ", before, re.IGNORECASE):
            return f"ПП {number}"
        if word == "указ":
            return f"Указ № {number}"
        issuer = next((name for name, pat in _ISSUERS if pat.search(before)), "")
        return " ".join(p for p in (word.capitalize(), issuer, "№", number) if p)
    return ""
