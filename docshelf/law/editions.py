"""Editions: which text is in force on a date, and whether a shelf's edition relations hold together.

A document's meta carries an ``edition`` record (set by ``docshelf add`` flags or by editing the
meta file); every field is optional:

===================  ==========================================================================
field                meaning
===================  ==========================================================================
``adopted``          the date the act was signed / adopted
``valid_from``       the first day this text is in force
``valid_to``         the first day it is **no longer** in force (the day it «утратил силу»), so a
                     replaced act's ``valid_to`` equals its replacement's ``valid_from``
``replaced_by``      what replaces it (a document id on the shelf, or an external act, see below)
``amends``           what it amends
``amended_by``       what amends it
``publication``      the official publication, e.g. «publication.pravo.gov.ru № 0001202506170011»
``stated_repealed``  written by ``add``, not by hand: the document's own line saying it lost force
                     («Утратил силу - …»); without a ``valid_to`` the status is ``repealed``, «states
                     it is no longer in force (date not recorded)», until the date is recorded
===================  ==========================================================================

Dates are ``YYYY-MM-DD`` (``DD.MM.YYYY`` is accepted too). A relation field holds one id, several
separated by ``;``, or a JSON list. An id that is not on the shelf is written with the prefix
``ext:`` («ext:Приказ ФСТЭК № 117»): that says "external on purpose", so a typo in a shelf id is
still caught by :func:`check_relations`. The prefix keeps every value a plain string, so it works
from the ``--replaced-by`` flag as well as in the meta file.

Status is computed for a date, never stored: a text in force today is repealed tomorrow.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, KeysView, Mapping, Sequence
from dataclasses import dataclass
from datetime import date
from typing import Any

from docshelf.errors import EditionError
from docshelf.records import DocMeta

DATE_FIELDS = ("adopted", "valid_from", "valid_to")
RELATION_FIELDS = ("replaced_by", "amends", "amended_by")
STATED = "stated_repealed"  # the document's own words that it lost force (law/repealed.py)
EDITION_FIELDS = (*DATE_FIELDS, *RELATION_FIELDS, "publication", STATED)
EXTERNAL = "ext:"
STATUS_CODES = ("in_force", "not_yet_in_force", "repealed", "replaced", "unknown")
_ISO = re.compile(r"^(\d{4})-(\d{2})-(\d{2})$")
_RU = re.compile(r"^(\d{1,2})\.(\d{1,2})\.(\d{4})$")
_KEY = re.compile(r"[\W_]+")
_NUMBER_SIGN = re.compile(r"№|(?<!\w)n\s*(?=\d)")  # «N 152-ФЗ», «№ 17»: the sign is not part of the id


@dataclass(frozen=True)
class Status:
    """An edition's status on ``as_of``; ``label`` is Russian, ``label_en`` English, both short."""

    code: str  # one of STATUS_CODES
    label: str
    label_en: str
    as_of: date
    valid_from: date | None = None
    valid_to: date | None = None
    replaced_by: tuple[str, ...] = ()  # display names, without the ext: prefix
    amended_by: tuple[str, ...] = ()

    @property
    def in_force(self) -> bool:
        return self.code == "in_force"

    def text(self, language: str = "ru") -> str:
        return self.label_en if language == "en" else self.label

    def to_dict(self) -> dict[str, Any]:
        return {
            "code": self.code,
            "in_force": self.in_force,
            "label": self.label,
            "label_en": self.label_en,
            "as_of": self.as_of.isoformat(),
            "valid_from": self.valid_from.isoformat() if self.valid_from else None,
            "valid_to": self.valid_to.isoformat() if self.valid_to else None,
            "replaced_by": list(self.replaced_by),
            "amended_by": list(self.amended_by),
        }


def parse_date(text: str | date) -> date:
    """``2026-03-01`` or ``01.03.2026`` as a date; EditionError for anything else."""
    if isinstance(text, date):
        return text
    if not isinstance(text, str):
        raise EditionError(f"{text!r} is not a date: write YYYY-MM-DD (2026-03-01) or DD.MM.YYYY (01.03.2026).")
    value = text.strip()
    if m := _ISO.match(value):
        y, mo, d = m.groups()
    elif m := _RU.match(value):
        d, mo, y = m.groups()
    else:
        raise EditionError(f"{text!r} is not a date: write YYYY-MM-DD (2026-03-01) or DD.MM.YYYY (01.03.2026).")
    try:
        return date(int(y), int(mo), int(d))
    except ValueError as exc:
        raise EditionError(f"{text!r} is not a real date ({exc}). Write YYYY-MM-DD, e.g. 2026-03-01.") from exc


def relation_targets(value: object) -> list[str]:
    """The ids a relation field names, as written (``ext:`` kept): a string split at ``;``, or a list."""
    if value is None or value == "":
        return []
    items = value if isinstance(value, list) else str(value).split(";")
    return [str(v).strip() for v in items if str(v).strip()]


def is_external(target: str) -> bool:
    return target.startswith(EXTERNAL)


def display(target: str) -> str:
    """The name to show people: without the ``ext:`` marker."""
    return target.removeprefix(EXTERNAL).strip()


def id_key(text: str) -> str:
    """Compare ids as people write them: «Приказ ФСТЭК № 117» = «приказ фстэк N117» (not «4.0.3-en V2» → «ev2»)."""
    return _KEY.sub("", _NUMBER_SIGN.sub("", text.casefold()))


def _dates(edition: dict[str, Any]) -> dict[str, date]:
    out = {}
    for name in DATE_FIELDS:
        if edition.get(name):
            try:
                out[name] = parse_date(edition[name])
            except EditionError as exc:
                raise EditionError(f"edition.{name}: {exc}") from exc
    return out


def _contradictions(d: dict[str, date]) -> list[str]:
    """Field pairs in the wrong order: such a record cannot say what is in force."""
    pairs = (("adopted", "valid_from"), ("adopted", "valid_to"), ("valid_from", "valid_to"))
    return [
        f"{a} {d[a].isoformat()} is after {b} {d[b].isoformat()}" for a, b in pairs if a in d and b in d and d[a] > d[b]
    ]


def _ru(d: date) -> str:
    return d.strftime("%d.%m.%Y")


# Russian labels use the masculine forms legal databases print («Документ утратил силу»), whatever
# the act's own gender (закон, постановление, требования): one wording that every reader knows.


def edition_status(edition: dict[str, Any], as_of: date | None = None) -> Status:
    """The status of an edition on ``as_of`` (default: today).

    Args:
        edition: a meta's ``edition`` record (see the module docstring).
        as_of: the date to judge for.

    Returns:
        ``not_yet_in_force`` before ``valid_from`` (or before ``adopted`` when there is no
        ``valid_from``); ``replaced`` / ``repealed`` from ``valid_to`` on (replaced when
        ``replaced_by`` names something); ``replaced`` also when ``replaced_by`` is set without a
        ``valid_to`` (the cautious reading); ``unknown`` when dates contradict each other;
        otherwise ``in_force``, whose label warns of a ``valid_to`` still ahead.

    Raises:
        EditionError: a date field that is not a date.
    """
    day = as_of or date.today()
    d = _dates(edition)
    vf, vt = d.get("valid_from"), d.get("valid_to")
    repl = tuple(display(t) for t in relation_targets(edition.get("replaced_by")))
    amended = tuple(display(t) for t in relation_targets(edition.get("amended_by")))

    def status(code: str, ru: str, en: str) -> Status:
        return Status(code, ru, en, day, vf, vt, repl, amended)

    if bad := _contradictions(d):
        return status("unknown", "статус не определён: " + "; ".join(bad), "status unknown: " + "; ".join(bad))
    start = vf or d.get("adopted")
    names = ", ".join(repl)
    if start and day < start:
        word, word_en = ("вступает в силу", "in force from") if vf else ("дата принятия", "adopted")
        return status(
            "not_yet_in_force", f"не вступил в силу ({word} {_ru(start)})", f"not yet in force ({word_en} {start})"
        )
    if vt and day >= vt:
        if repl:
            return status(
                "replaced", f"утратил силу {_ru(vt)}, заменён: {names}", f"repealed {vt}, replaced by: {names}"
            )
        return status("repealed", f"утратил силу {_ru(vt)}", f"repealed {vt}")
    if edition.get(STATED) and not vt:  # the text says so; when, nobody recorded
        said = ", заменён: " + names if repl else ""
        return status(
            "repealed",
            f"по собственному тексту утратил силу (дата не записана){said}",
            "states it is no longer in force (date not recorded)" + (f", replaced by: {names}" if repl else ""),
        )
    if repl and not vt:
        return status(
            "replaced", f"заменён: {names} (дата утраты силы не указана)", f"replaced by: {names} (date not given)"
        )
    ru, en = ("в силе", "in force") if not vf else (f"в силе с {_ru(vf)}", f"in force since {vf}")
    if vt:
        ru += f"; утрачивает силу {_ru(vt)}" + (f", заменяется: {names}" if repl else "")
        en += f"; ceases {vt}" + (f", to be replaced by: {names}" if repl else "")
    return status("in_force", ru, en)


def has_edition(meta: DocMeta) -> bool:
    """True when the meta says anything about dates or relations (manuals and RFCs usually do not)."""
    edition = meta.edition
    return isinstance(edition, dict) and any(edition.get(k) for k in (*DATE_FIELDS, *RELATION_FIELDS, STATED))


def meta_status(meta: DocMeta, as_of: date | None = None) -> Status:
    """:func:`edition_status` of a document, never raising: a broken record reads as ``unknown``.

    Readers must keep working on a shelf whose meta has a typo; ``docshelf check`` reports it.
    """
    edition = meta.edition
    try:
        if not isinstance(edition, dict):
            raise EditionError("the edition record is not a JSON object")
        return edition_status(edition, as_of)
    except EditionError as exc:
        msg = str(exc)
        return Status("unknown", f"статус не определён: {msg}", f"status unknown: {msg}", as_of or date.today())


def status_note(meta: DocMeta, as_of: date | None = None) -> str:
    """The status for an index or subindex entry, in the document's language; "" when no edition is recorded.

    Date-dependent: render it when the index is read (for ``as_of``), not into files that
    ``rebuild`` must reproduce byte for byte (use :func:`edition_facts` there).
    """
    if not has_edition(meta):
        return ""
    st = meta_status(meta, as_of)
    english = meta.english
    note = st.text("en" if english else "ru")
    if st.amended_by and st.code in ("in_force", "not_yet_in_force"):
        note += ("; amended by: " if english else "; изменения: ") + ", ".join(st.amended_by)
    return note


def edition_facts(meta: DocMeta) -> str:
    """The edition as stored, independent of today's date: safe for index files kept in Git."""
    ed = meta.edition
    if not isinstance(ed, dict):
        return ""
    english = meta.english
    parts = []
    if adopted := _shown(ed.get("adopted"), english):
        parts.append(("adopted " if english else "принят ") + adopted)
    vf, vt = (_shown(ed.get(k), english) for k in ("valid_from", "valid_to"))
    if vf or vt:
        span = f"{vf or '…'} – {vt or '…'}" if english else f"с {vf or '…'} до {vt or '…'}"
        parts.append(("in force " if english else "действует ") + span)
    for name, ru, en in (("replaced_by", "заменён", "replaced by"), ("amended_by", "изменения", "amended by")):
        if targets := relation_targets(ed.get(name)):
            parts.append(f"{en if english else ru}: " + ", ".join(display(t) for t in targets))
    return "; ".join(parts)


def _shown(value: object, english: bool) -> str:
    """A stored date as people read it (an unreadable one as written: ``check`` reports it)."""
    if not value:
        return ""
    try:
        day = parse_date(str(value))
    except EditionError:
        return str(value)
    return day.isoformat() if english else _ru(day)


def by_key(metas: Iterable[DocMeta]) -> dict[str, DocMeta]:
    """The documents of a shelf by :func:`id_key`, for relation walks that must not rescan the shelf."""
    return {id_key(m.id): m for m in metas}


def replacement_chain(meta: DocMeta, shelf: Mapping[str, DocMeta]) -> list[str]:
    """The ids that replace ``meta``, in order: A's replacement, then its replacement, while on the shelf.

    ``shelf`` is :func:`by_key` of the commit's documents. Stops at an external or unknown id
    (included, shown without ``ext:``) and at a cycle.
    """
    chain: list[str] = []
    seen = {id_key(meta.id)}
    current: DocMeta | None = meta
    while current is not None:
        ed = current.edition
        targets = relation_targets(ed.get("replaced_by") if isinstance(ed, dict) else None)
        if not targets:
            break
        target = targets[0]
        chain.append(display(target))
        key = id_key(display(target))
        if is_external(target) or key in seen:
            break
        seen.add(key)
        current = shelf.get(key)
    return chain


def fetch_warning(meta: DocMeta, as_of: date | None = None, metas: Sequence[DocMeta] = ()) -> str | None:
    """A warning to put in front of a fetched text that is not (or soon not) in force; None when it is.

    ``metas`` (every document of the same commit) lets the warning say where the replacement is.
    """
    if not has_edition(meta):
        return None
    st = meta_status(meta, as_of)
    if st.in_force and not st.valid_to:
        return None
    english = meta.english
    day = st.as_of.isoformat() if english else _ru(st.as_of)
    doc = meta.id
    if st.in_force:
        head = f"{doc} on {day}: {st.label_en}." if english else f"{doc} на {day}: {st.label}."
    elif st.code == "not_yet_in_force":
        head = (
            f"Warning: {doc} is not yet in force on {day} ({st.label_en}); do not apply it as the law in force."
            if english
            else f"Внимание: {doc} на {day} ещё не вступил в силу ({st.label}); не применяйте его как действующий."
        )
    elif st.code == "unknown":
        head = (
            f"Warning: the edition status of {doc} is unknown ({st.label_en}); check which edition is in force."
            if english
            else f"Внимание: статус редакции {doc} не определён ({st.label}); проверьте действующую редакцию."
        )
    else:
        head = (
            f"Warning: {doc} is not in force on {day}: {st.label_en}. Do not cite it as the law in force."
            if english
            else f"Внимание: {doc} на {day} не действует: {st.label}. Не ссылайтесь на него как на действующий."
        )
    return head + _successor_note(meta, metas, english)


def _successor_note(meta: DocMeta, metas: Sequence[DocMeta], english: bool) -> str:
    shelf = by_key(metas)
    chain = replacement_chain(meta, shelf)
    if not chain:
        return ""
    on_shelf = shelf.get(id_key(chain[-1]))
    path = f" ({on_shelf.entry})" if on_shelf else (" (not on the shelf)" if english else " (нет на полке)")
    route = " → ".join(chain)
    return f" Replacement: {route}{path}." if english else f" Замена: {route}{path}."


def check_relations(metas: Sequence[DocMeta]) -> list[tuple[str, str, str]]:
    """Edition problems of a shelf as ``(path, kind, message)``, ready for ``check.Problem(*t)``.

    Kinds: ``edition-field`` (unknown field or not an object), ``edition-date`` (unreadable date),
    ``edition-dates`` (dates out of order), ``edition-relation`` (a relation naming nothing on the
    shelf without ``ext:``, an ``ext:`` id that is on the shelf, a self-reference),
    ``edition-valid-to`` (replaced without ``valid_to``), ``edition-cycle`` (A replaced by B
    replaced by A). Linear in the number of documents: one pass over one id table.
    """
    shelf = by_key(metas)
    out: list[tuple[str, str, str]] = []
    for meta in metas:
        out += _check_one(meta, shelf.keys())
    out += _cycles(metas, shelf)
    return out


def _check_one(meta: DocMeta, known: KeysView[str]) -> list[tuple[str, str, str]]:
    path, doc = meta.meta_path, meta.id
    ed = meta.edition
    if not isinstance(ed, dict):
        return [(path, "edition-field", f"{doc}: edition must be a JSON object of {', '.join(EDITION_FIELDS)}.")]
    out = [
        (path, "edition-field", f"{doc}: unknown edition field {k!r}; known: {', '.join(EDITION_FIELDS)}.")
        for k in sorted(set(ed) - set(EDITION_FIELDS))
    ]
    dates: dict[str, date] = {}
    for name in DATE_FIELDS:
        if ed.get(name):
            try:
                dates[name] = parse_date(ed[name])
            except EditionError as exc:
                out.append((path, "edition-date", f"{doc}: edition.{name}: {exc}"))
    out += [(path, "edition-dates", f"{doc}: {c}.") for c in _contradictions(dates)]
    for name in RELATION_FIELDS:
        out += [(path, "edition-relation", f"{doc}: {m}") for m in _relation_problems(doc, name, ed, known)]
    if relation_targets(ed.get("replaced_by")) and not ed.get("valid_to"):
        out.append(
            (path, "edition-valid-to", f"{doc}: replaced_by is set but valid_to is not; give the day it lost force.")
        )
    return out


def _relation_problems(doc: str, name: str, ed: dict[str, Any], known: KeysView[str]) -> Iterable[str]:
    for target in relation_targets(ed.get(name)):
        key = id_key(display(target))
        if key == id_key(doc):
            yield f"{name} names the document itself."
        elif is_external(target) and key in known:
            yield f"{name} {target!r} is on the shelf now: drop the {EXTERNAL} prefix."
        elif not is_external(target) and key not in known:
            yield (
                f"{name} names {target!r}, which is not on the shelf. Add it, fix the id, "
                f"or mark it external: {EXTERNAL}{target}."
            )


def _cycles(metas: Sequence[DocMeta], shelf: Mapping[str, DocMeta]) -> list[tuple[str, str, str]]:
    """Each replaced_by cycle among shelf documents, reported once, at its first member."""
    out: list[tuple[str, str, str]] = []
    reported: set[str] = set()
    for meta in metas:
        chain = [meta.id, *replacement_chain(meta, shelf)]
        keys = [id_key(c) for c in chain]
        if len(chain) > 2 and keys[-1] in keys[:-1] and keys[-1] in shelf and keys[-1] not in reported:
            loop = chain[keys.index(keys[-1]) :]
            if len(loop) > 2:  # a self-reference is reported by the relation check
                reported.update(id_key(c) for c in loop)
                first = shelf[keys[-1]]
                out.append((first.meta_path, "edition-cycle", "replaced_by forms a cycle: " + " → ".join(loop) + "."))
    return out
