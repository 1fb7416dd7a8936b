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
    assert docids.law_id_spellings(doc_id) == others


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
