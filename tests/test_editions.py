"""Edition status for a date, relation checks, and the statuses of real repealed and current acts."""

from __future__ import annotations

from datetime import date
from pathlib import Path
from typing import Any

import pytest
from conftest import corpus_file

from docshelf.build.pipeline import DocOptions
from docshelf.errors import DocShelfError, EditionError, ShelfError
from docshelf.law.editions import (
    by_key,
    check_relations,
    edition_facts,
    edition_status,
    fetch_warning,
    meta_status,
    parse_date,
    replacement_chain,
    status_note,
)
from docshelf.law.repealed import repeal_notice, stated_repeal
from docshelf.records import DocMeta
from docshelf.shelf import store as shelf
from docshelf.shelf.check import Problem
from docshelf.shelf.gitrepo import resolve
from docshelf.text.citations import metas_at

ORDER_117 = "Приказ ФСТЭК № 117"
# Приказ ФСТЭК № 17 as it stands: repealed by № 117 (published 17.06.2025, in force from 01.03.2026).
ORDER_17 = {
    "adopted": "2013-02-11",
    "valid_from": "2013-09-01",
    "valid_to": "2026-03-01",
    "replaced_by": f"ext:{ORDER_117}",
}


def quiet(_message: str) -> None:
    """Progress goes nowhere in tests."""


def meta(doc_id: str, language: str = "ru", **edition: Any) -> DocMeta:
    slug = doc_id.casefold().replace(" ", "-")
    return DocMeta(doc_id, doc_id, language=language, entry=f"docs/acts/{slug}/subindex.md", edition=edition)


# --- dates ---------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "expected"),
    [("2026-03-01", date(2026, 3, 1)), ("01.03.2026", date(2026, 3, 1)), ("1.3.2026", date(2026, 3, 1))],
)
def test_parse_date_accepts_iso_and_russian_order(text: str, expected: date) -> None:
    assert parse_date(text) == expected
    assert parse_date(f"  {text} ") == expected


@pytest.mark.parametrize("text", ["2026-13-01", "31.02.2026", "01/03/2026", "завтра", "", "2026-3-1", "20260301"])
def test_parse_date_refuses_what_it_cannot_read(text: str) -> None:
    with pytest.raises(EditionError, match="YYYY-MM-DD"):
        parse_date(text)


def test_bad_date_is_a_shelf_error_naming_the_field() -> None:
    assert issubclass(EditionError, ShelfError) and issubclass(EditionError, DocShelfError)
    with pytest.raises(EditionError, match=r"edition\.valid_to: '2026-02-30' is not a real date"):
        edition_status({"valid_to": "2026-02-30"}, date(2026, 1, 1))
    with pytest.raises(EditionError, match=r"edition\.adopted"):
        edition_status({"adopted": 2013}, date(2026, 1, 1))


# --- status for a date ---------------------------------------------------------------------------


def test_no_dates_is_in_force() -> None:
    st = edition_status({}, date(2026, 1, 1))
    assert (st.code, st.label, st.label_en, st.in_force) == ("in_force", "в силе", "in force", True)


def test_default_date_is_today() -> None:
    assert edition_status({}).as_of == date.today()


def test_not_yet_in_force_until_valid_from() -> None:
    st = edition_status({"adopted": "2025-04-11", "valid_from": "2026-03-01"}, date(2025, 12, 1))
    assert st.code == "not_yet_in_force"
    assert st.label == "не вступил в силу (вступает в силу 01.03.2026)"
    assert st.label_en == "not yet in force (in force from 2026-03-01)"
    assert edition_status({"valid_from": "2026-03-01"}, date(2026, 3, 1)).code == "in_force"  # from that day


def test_adopted_in_the_future_without_valid_from() -> None:
    st = edition_status({"adopted": "2027-01-01"}, date(2026, 1, 1))
    assert st.code == "not_yet_in_force" and "01.01.2027" in st.label


def test_repealed_from_valid_to_on() -> None:
    ed = {"valid_from": "1995-11-23", "valid_to": "2007-01-01"}
    assert edition_status(ed, date(2006, 12, 31)).code == "in_force"
    st = edition_status(ed, date(2007, 1, 1))
    assert (st.code, st.label, st.label_en) == ("repealed", "утратил силу 01.01.2007", "repealed 2007-01-01")


def test_order_17_replaced_by_external_order_117() -> None:
    before = edition_status(ORDER_17, date(2026, 2, 28))
    assert before.code == "in_force"
    assert before.label == f"в силе с 01.09.2013; утрачивает силу 01.03.2026, заменяется: {ORDER_117}"
    after = edition_status(ORDER_17, date(2026, 3, 1))
    assert after.code == "replaced"
    assert after.label == f"утратил силу 01.03.2026, заменён: {ORDER_117}"  # no «ext:» shown to people
    assert after.replaced_by == (ORDER_117,)
    assert after.to_dict() == {
        "code": "replaced",
        "in_force": False,
        "label": after.label,
        "label_en": f"repealed 2026-03-01, replaced by: {ORDER_117}",
        "as_of": "2026-03-01",
        "valid_from": "2013-09-01",
        "valid_to": "2026-03-01",
        "replaced_by": [ORDER_117],
        "amended_by": [],
    }


def test_replaced_without_a_date_is_read_cautiously() -> None:
    st = edition_status({"replaced_by": "Приказ № 2"}, date(2026, 1, 1))
    assert st.code == "replaced" and "дата утраты силы не указана" in st.label


def test_russian_dates_in_the_record_work_too() -> None:
    assert edition_status({"valid_to": "01.03.2026"}, date(2026, 3, 2)).code == "repealed"


@pytest.mark.parametrize(
    "edition",
    [
        {"valid_from": "2026-03-01", "valid_to": "2020-01-01"},
        {"adopted": "2026-03-01", "valid_from": "2025-01-01"},
    ],
)
def test_contradictory_dates_are_unknown(edition: dict[str, str]) -> None:
    st = edition_status(edition, date(2026, 1, 1))
    assert st.code == "unknown" and "is after" in st.label and not st.in_force


def test_meta_status_never_raises_on_a_broken_record() -> None:
    st = meta_status(meta("X", valid_to="вчера"), date(2026, 1, 1))
    assert st.code == "unknown" and "valid_to" in st.label
    assert meta_status(DocMeta("Y", "Y", edition="2026")).code == "unknown"


# --- notes and warnings for readers --------------------------------------------------------------


def test_status_note_is_empty_when_nothing_is_recorded() -> None:
    assert status_note(meta("RFC 4271", language="en")) == ""
    assert fetch_warning(meta("RFC 4271", language="en")) is None
    assert edition_facts(meta("RFC 4271")) == ""


def test_status_note_in_the_documents_language_with_amendments() -> None:
    m = meta(ORDER_117, valid_from="2026-03-01", amended_by="ext:Приказ ФСТЭК № 137")
    assert status_note(m, date(2026, 4, 1)) == "в силе с 01.03.2026; изменения: Приказ ФСТЭК № 137"
    en = meta("RFC 9999", language="en", valid_to="2025-01-01")
    assert status_note(en, date(2026, 1, 1)) == "repealed 2025-01-01"


def test_edition_facts_do_not_depend_on_the_date() -> None:
    m = meta("Приказ ФСТЭК № 17", **ORDER_17)
    assert edition_facts(m) == f"принят 11.02.2013; действует с 01.09.2013 до 01.03.2026; заменён: {ORDER_117}"
    en = meta("RFC 1", language="en", valid_to="01.01.2000", replaced_by="ext:RFC 2")
    assert edition_facts(en) == "in force … – 2000-01-01; replaced by: RFC 2"
    assert edition_facts(meta("X", valid_from="весной")) == "действует с весной до …"  # as written; check reports it


def test_fetch_warning_names_the_replacement() -> None:
    m = meta("Приказ ФСТЭК № 17", **ORDER_17)
    warning = fetch_warning(m, date(2026, 3, 10))
    assert warning is not None
    assert warning.startswith("Внимание: Приказ ФСТЭК № 17 на 10.03.2026 не действует: утратил силу 01.03.2026")
    assert warning.endswith(f"Замена: {ORDER_117} (нет на полке).")
    ahead = fetch_warning(m, date(2025, 12, 1))
    assert ahead == (  # a text about to lapse says so
        f"Приказ ФСТЭК № 17 на 01.12.2025: в силе с 01.09.2013; утрачивает силу 01.03.2026, заменяется: {ORDER_117}."
        f" Замена: {ORDER_117} (нет на полке)."
    )
    assert fetch_warning(meta("152-ФЗ", valid_from="2024-09-01"), date(2025, 1, 1)) is None
    assert "ещё не вступил в силу" in (fetch_warning(meta("Z", valid_from="2030-01-01"), date(2026, 1, 1)) or "")


def test_replacement_chain_follows_the_shelf_to_the_text_in_force() -> None:
    a = meta("Приказ № 1", valid_to="2020-01-01", replaced_by="Приказ № 2")
    b = meta("Приказ № 2", valid_from="2020-01-01", valid_to="2025-01-01", replaced_by="Приказ N 3")
    c = meta("Приказ № 3", valid_from="2025-01-01", replaced_by="ext:Приказ № 4", valid_to="2030-01-01")
    shelf_metas = [a, b, c]
    assert replacement_chain(a, by_key(shelf_metas)) == ["Приказ № 2", "Приказ N 3", "Приказ № 4"]
    warning = fetch_warning(a, date(2026, 1, 1), [*shelf_metas[:2], meta("Приказ № 3", valid_from="2025-01-01")])
    assert warning is not None and warning.endswith(
        "Замена: Приказ № 2 → Приказ N 3 (docs/acts/приказ-№-3/subindex.md)."
    )
    en = fetch_warning(meta("RFC 1", language="en", valid_to="2000-01-01", replaced_by="ext:RFC 2"), date(2026, 1, 1))
    assert en == "Warning: RFC 1 is not in force on 2026-01-01: repealed 2000-01-01, replaced by: RFC 2. " + (
        "Do not cite it as the law in force. Replacement: RFC 2 (not on the shelf)."
    )


# --- relation checks -----------------------------------------------------------------------------


def test_check_relations_passes_a_consistent_shelf() -> None:
    metas = [
        meta("Приказ ФСТЭК № 17", **ORDER_17),
        meta("152-ФЗ", valid_from="2024-09-01", amended_by="ext:233-ФЗ; ext:23-ФЗ"),
        meta("ПП 1119", amends="152-ФЗ", adopted="01.11.2012"),
        meta("Руководство"),
    ]
    assert check_relations(metas) == []


def kinds(problems: list[tuple[str, str, str]]) -> list[str]:
    return [k for _p, k, _m in problems]


def test_relation_to_a_document_not_on_the_shelf() -> None:
    problems = check_relations([meta("Приказ ФСТЭК № 17", valid_to="2026-03-01", replaced_by=ORDER_117)])
    assert problems == [
        (
            "docs/acts/приказ-фстэк-№-17.meta.json",
            "edition-relation",
            f"Приказ ФСТЭК № 17: replaced_by names '{ORDER_117}', which is not on the shelf. "
            f"Add it, fix the id, or mark it external: ext:{ORDER_117}.",
        )
    ]
    assert Problem(*problems[0]).kind == "edition-relation"  # check.py can take them as they are


def test_external_mark_on_a_document_that_is_on_the_shelf() -> None:
    problems = check_relations([meta("Приказ ФСТЭК № 17", **ORDER_17), meta("Приказ ФСТЭК N 117")])
    assert kinds(problems) == ["edition-relation"] and "drop the ext: prefix" in problems[0][2]


def test_dates_fields_and_self_references() -> None:
    problems = check_relations(
        [
            meta("A", valid_from="2026-03-01", valid_to="2020-01-01"),
            meta("B", valid_untill="2020-01-01"),
            meta("C", valid_from="31.31.2020"),
            meta("D", replaced_by="ext:E"),
            meta("F", amends="F"),
        ]
    )
    assert kinds(problems) == ["edition-dates", "edition-field", "edition-date", "edition-valid-to", "edition-relation"]
    assert "valid_from 2026-03-01 is after valid_to 2020-01-01" in problems[0][2]
    assert "'valid_untill'" in problems[1][2]
    assert "names the document itself" in problems[4][2]


def test_replaced_by_cycle_is_reported_once() -> None:
    metas = [
        meta("A", valid_to="2020-01-01", replaced_by="B"),
        meta("B", valid_to="2021-01-01", replaced_by="A"),
        meta("C", valid_to="2019-01-01", replaced_by="A"),
    ]
    problems = check_relations(metas)
    assert kinds(problems) == ["edition-cycle"]
    assert problems[0][2] == "replaced_by forms a cycle: A → B → A."


# --- real acts: the 1995 Water Code (repealed) and the 2006 one (in force) ------------------------


@pytest.fixture(scope="module")
def water_shelf(tmp_path_factory: pytest.TempPathFactory) -> Path:
    old = corpus_file("ru-regulations/deep-foundation__russian-laws/102038209.html")
    new = corpus_file("ru-regulations/deep-foundation__russian-laws/102107048.html")
    root = shelf.init(tmp_path_factory.mktemp("water") / "shelf", name="Water")
    ed_1995 = {"adopted": "1995-11-16", "valid_to": "2007-01-01", "replaced_by": "Водный кодекс РФ"}
    title = "Водный кодекс Российской Федерации (1995)"
    shelf.add(root, [old], DocOptions("", "laws", "Водный кодекс РФ 1995", title, edition=ed_1995), progress=quiet)
    ed_2006 = {"adopted": "2006-06-03", "valid_from": "2007-01-01"}
    shelf.add(root, [new], DocOptions("", "laws", "Водный кодекс РФ", edition=ed_2006), progress=quiet)
    return root


def test_water_codes_statuses_through_time(water_shelf: Path) -> None:
    metas = list(metas_at(water_shelf, resolve(water_shelf)))
    by_id = {m.id: m for m in metas}
    old, new = by_id["Водный кодекс РФ 1995"], by_id["Водный кодекс РФ"]
    assert check_relations(metas) == []
    assert meta_status(old, date(2006, 6, 10)).code == "in_force"
    assert meta_status(new, date(2006, 6, 10)).code == "not_yet_in_force"
    assert status_note(old, date(2006, 6, 10)) == "в силе; утрачивает силу 01.01.2007, заменяется: Водный кодекс РФ"
    assert meta_status(old, date(2025, 1, 1)).code == "replaced"
    assert meta_status(new, date(2025, 1, 1)).code == "in_force"
    assert status_note(new, date(2025, 1, 1)) == "в силе с 01.01.2007"
    warning = fetch_warning(old, date(2025, 1, 1), metas)
    assert warning is not None
    assert "не действует: утратил силу 01.01.2007, заменён: Водный кодекс РФ" in warning
    assert warning.endswith(f"Замена: Водный кодекс РФ ({new.entry}).")
    assert fetch_warning(new, date(2025, 1, 1), metas) is None


# --- a text that says it is repealed ------------------------------------------------------------


@pytest.mark.parametrize(
    ("opening", "edition", "said"),
    [
        (["ВОДНЫЙ КОДЕКС", "Утратил силу - Федеральный закон от 03.06.2006 г. N 73-ФЗ"], {}, "Утратил силу - Федер"),
        (["Документ утратил силу с 01.03.2026"], {"valid_from": "2013-09-01"}, "Документ утратил силу"),
        (["NIST SP 800-63-2", "This publication has been withdrawn."], {}, "This publication has been withdrawn"),
        (["Приказ", "Утратил силу"], {"valid_to": "2026-03-01"}, None),  # already recorded
        (["Статья 10.2. Утратила силу. - Федеральный закон от 29.07.2017 N 276-ФЗ."], {}, None),  # one article
        (["Положение о порядке, утратившем силу приказом № 5"], {}, None),
    ],
)
def test_add_says_when_the_text_reads_repealed_but_the_meta_does_not(
    opening: list[str], edition: dict[str, str], said: str | None
) -> None:
    notice = repeal_notice(stated_repeal(opening), edition)
    if said is None:
        assert notice is None
    else:
        assert notice is not None and f"«{said}" in notice and "--valid-to YYYY-MM-DD" in notice


def test_the_repealed_water_code_of_1995_gets_the_notice_at_add(tmp_path: Path) -> None:
    source = corpus_file("ru-regulations/deep-foundation__russian-laws/102038209.html")
    root = shelf.init(tmp_path / "shelf")
    (doc,) = shelf.add(root, [source], DocOptions("", "laws", "Водный кодекс РФ 1995"), progress=quiet)
    (notice,) = [w for w in doc.meta.warnings if w.startswith("edition:")]
    assert "«Утратил силу - Федеральный закон от 03.06.2006" in notice
    # Recorded, so every reader is told: the status is «repealed» without a date until one is recorded.
    assert doc.meta.edition == {"stated_repealed": "Утратил силу - Федеральный закон от 03.06.2006 г. N 73-ФЗ"}
    st = meta_status(doc.meta)
    assert (st.code, st.label_en) == ("repealed", "states it is no longer in force (date not recorded)")
    dated = DocOptions("", "laws", "Водный кодекс РФ 1995 (b)", edition={"valid_to": "2007-01-01"})
    (again,) = shelf.add(root, [source], dated, progress=quiet)
    assert not [w for w in again.meta.warnings if w.startswith("edition:")]
    assert meta_status(again.meta).label_en == "repealed 2007-01-01"
