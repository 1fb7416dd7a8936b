"""The document-id vocabulary (law/docids.py): the spellings a citation may use for an id."""

from __future__ import annotations

import pytest

from docshelf.law import docids


@pytest.mark.parametrize(
    ("doc_id", "others"),
    [
        ("152-ФЗ", ["ФЗ-152"]),
        ("1-ФКЗ", ["ФКЗ-1"]),
        ("273-1-ФЗ", ["ФЗ-273-1"]),
        ("152-ФЗ (ред. 08.08.2024)", []),  # an edition's id: its act is found by EDITION_SUFFIX first
        ("RFC 4271", []),
    ],
)
def test_a_law_is_also_cited_with_its_kind_first(doc_id: str, others: list[str]) -> None:
    assert docids.id_spellings(doc_id) == others


@pytest.mark.parametrize(
    ("doc_id", "act"),
    [
        ("152-ФЗ (ред. 08.08.2024)", "152-ФЗ"),
        ("RFC 4271 (txt)", "RFC 4271"),
        ("Приказ ФСТЭК № 239", "Приказ ФСТЭК № 239"),
        ("NIST SP 800-171 Rev. 1", "NIST SP 800-171 Rev. 1"),
    ],
)
def test_an_edition_or_format_suffix_names_the_same_act(doc_id: str, act: str) -> None:
    assert docids.EDITION_SUFFIX.sub("", doc_id) == act


def test_the_date_an_editions_id_carries() -> None:
    found = docids.RU_DATE.search("152-ФЗ (ред. 08.08.2024)")
    assert found is not None and found.group(0) == "08.08.2024"


@pytest.mark.parametrize(
    ("doc_id", "said"),
    [
        ("ВК РФ", ["водного кодекса рф", "водном кодексе российской федерации", "водный кодекс"]),
        ("ГК РФ", ["гражданским кодексом рф", "гражданского кодекса"]),
        ("УПК РФ", ["уголовно-процессуального кодекса рф"]),
        ("КоАП РФ", ["кодекса российской федерации об административных правонарушениях"]),
        ("Конституция РФ", ["конституции", "конституцией российской федерации"]),
    ],
)
def test_a_code_is_cited_by_its_name_in_any_case(doc_id: str, said: list[str]) -> None:
    assert set(said) <= set(docids.id_spellings(doc_id))


@pytest.mark.parametrize(
    ("lines", "doc_id"),
    [
        (["РОССИЙСКАЯ ФЕДЕРАЦИЯ", "Водный кодекс Российской Федерации", "Принят Государственной Думой"], "ВК РФ"),
        (["ВОДНЫЙ КОДЕКС РОССИЙСКОЙ ФЕДЕРАЦИИ"], "ВК РФ"),
        (["Водный кодекс Российской Федерации от 03.06.2006 N 74-ФЗ (ред. от 08.08.2024)"], "ВК РФ"),
        (["КОНСТИТУЦИЯ РОССИЙСКОЙ ФЕДЕРАЦИИ"], "Конституция РФ"),
        (["Кодекс Российской Федерации об административных правонарушениях"], "КоАП РФ"),
        (["В соответствии с Водным кодексом Российской Федерации органы вправе"], "file-name"),  # a mention
        (["Водный кодекс Российской Федерации: комментарий к статьям"], "file-name"),  # a book about it
    ],
)
def test_a_codes_id_is_read_from_its_title(lines: list[str], doc_id: str) -> None:
    from docshelf.model import Block

    assert docids.derive_id(tuple(Block(t) for t in lines), "file-name") == doc_id


def test_an_issuers_act_is_also_cited_with_russia_and_without_its_kind() -> None:
    assert docids.id_spellings("Приказ ФСТЭК № 239") == [
        "Приказ ФСТЭК России № 239",
        "ФСТЭК России № 239",
        "ФСТЭК № 239",
    ]


@pytest.mark.parametrize(
    ("ref", "said"),
    [
        ("Федеральный закон от 27.07.2006 № 152-ФЗ ст. 6", ((27, 7, 2006), "152-ФЗ")),
        ("приказ от 11 февраля 2013 г. N 17 п. 3", ((11, 2, 2013), "17")),
        ("ВК РФ от 03.06.2006 ст. 6", ((3, 6, 2006), "")),
        ("152-ФЗ ст. 6", None),
    ],
)
def test_the_date_a_citation_gives_an_act(ref: str, said: docids.Dated | None) -> None:
    found = docids.cited_date(ref)
    assert (found[1] if found else None) == said
    if found:
        (start, end) = found[0]
        assert ref[start:end].startswith("от ") and not any(ch in ref[start:end] for ch in "№N")


def test_the_date_an_act_states_beside_its_own_number_not_its_amendments() -> None:
    text = (
        "27 июля 2006 года\n\nN 152-ФЗ\n\n> (в ред. Федеральных законов от 25.11.2009 N 266-ФЗ)\n"
        "(в ред. Федерального закона от 30.12.2020 N 519-ФЗ)\nМосква, Кремль 27 июля 2006 года N 152-ФЗ"
    )
    assert docids.stated_dates(text, "152-ФЗ") == {((27, 7, 2006), "152-ФЗ")}
    assert docids.stated_dates("Москва, Кремль 3 июня 2006 года N 74-ФЗ", "ВК РФ") == {((3, 6, 2006), "74-ФЗ")}


@pytest.mark.parametrize(
    ("doc_id", "title", "named"),
    [
        ("152-ФЗ", "О ПЕРСОНАЛЬНЫХ ДАННЫХ", "О ПЕРСОНАЛЬНЫХ ДАННЫХ"),
        ("149-ФЗ (ред. 2024)", "Об информации, информационных технологиях и о защите информации",
         "Об информации, информационных технологиях и о защите информации"),
        ("123-ФЗ", "О внесении изменений в отдельные законодательные акты", None),  # many laws share it
        ("ПП 1119", "Об утверждении требований к защите персональных данных", None),  # not a federal law
        ("1-ФКЗ", "О правительстве", None),  # two words: too general to name a law by
    ],
)  # fmt: skip
def test_a_federal_law_may_be_named_by_its_subject_title(doc_id: str, title: str, named: str | None) -> None:
    assert docids.law_title(doc_id, title) == named


def test_a_nist_publication_is_cited_with_or_without_its_revision() -> None:
    said = docids.id_spellings("NIST SP 800-53 Rev. 3")
    assert {"SP 800-53 Rev. 3", "NIST 800-53 Revision 3", "NIST SP 800-53r3"} <= set(said)
    assert docids.act_of("NIST SP 800-53 Rev. 3") == "NIST SP 800-53"  # «NIST SP 800-53 AC-2» names it too
    assert docids.act_of("152-ФЗ (ред. 08.08.2024)") == "152-ФЗ"
    assert docids.id_spellings("NIST SP 800-63A") == ["SP 800-63A", "NIST 800-63A", "NIST Special Publication 800-63A"]


def test_asvs_is_cited_without_owasp_and_with_a_v() -> None:
    assert {"ASVS 4.0.3", "ASVS v4.0.3", "OWASP ASVS v4.0.3"} <= set(docids.id_spellings("OWASP ASVS 4.0.3"))
