"""Questions for a term's meaning find the item that defines the term, not the sections that use it most."""

from __future__ import annotations

from pathlib import Path

import pytest
from test_search import _make_shelf

from docshelf.text import definitions, search, synonyms
from docshelf.text.analyzer import query_tokens

TERMS = """Для целей настоящего Федерального закона используются следующие основные понятия:

1) автоматизированная система управления - комплекс программных и программно-аппаратных средств;

2) компьютерный инцидент - факт нарушения и (или) прекращения функционирования объекта;

Под информационной системой понимается совокупность содержащейся в базах данных информации;
resolver: a program that extracts information from name servers
"""


def _concepts(query: str) -> list[synonyms.Concept]:
    return synonyms.parse(None).concepts(query_tokens(query))


@pytest.mark.parametrize(
    ("query", "asks"),
    [
        ("что такое компьютерный инцидент", True),
        ("инцидент компьютерный это что", True),
        ("кто вообще считается оператором", True),
        ("что понимается под информационной системой", True),
        ("КИИ определение", True),
        ("definition of CUI", True),
        ("как долго можно хранить персональные данные", False),
        ("что будет компании за нарушение закона", False),
        ("how is a TCP connection shut down", False),
    ],
)
def test_which_questions_ask_for_a_meaning(query: str, asks: bool) -> None:
    assert definitions.asks_definition(query) is asks


def test_the_terms_a_text_defines() -> None:
    terms = list(definitions.defined_terms(TERMS))
    assert frozenset({"компьютерн", "инцидент"}) in terms and frozenset({"resolv"}) in terms
    assert frozenset({"информацион", "систем"}) in terms  # «под … понимается»
    assert not any("основн" in t for t in terms)  # the lead-in sentence defines nothing


@pytest.mark.parametrize(
    ("query", "defined"),
    [
        ("что такое компьютерный инцидент", True),
        ("что понимается под информационной системой", True),
        ("что такое система", False),  # «информационная система» is not «система»
        ("что такое система управления", False),  # the term is «автоматизированная система управления»
    ],
)
def test_a_text_defines_the_term_only_when_the_query_names_all_of_it(query: str, defined: bool) -> None:
    assert definitions.defines(TERMS, _concepts(query)) is defined


DEFINED = """# Об инцидентах

## Статья 2. Основные понятия

1) компьютерный инцидент - факт нарушения функционирования объекта;

2) объект - информационная система;

## Статья 9. Реагирование

1. Субъект информирует о компьютерных инцидентах; компьютерный инцидент расследуется; о компьютерном инциденте
сообщается; каждый компьютерный инцидент учитывается в реестре компьютерных инцидентов.
"""


def test_a_question_for_a_meaning_puts_the_definition_first(tmp_path: Path) -> None:
    root = _make_shelf(tmp_path / "shelf", [("kii.md", "laws", "187-ФЗ", DEFINED)])
    assert search.search(root, "компьютерный инцидент").hits[0].clause == "ст. 9"  # used most: BM25's answer
    assert search.search(root, "что такое компьютерный инцидент").hits[0].clause == "ст. 2"
