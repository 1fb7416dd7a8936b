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
        ("Приказ ФСТЭК № 239", []),
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
