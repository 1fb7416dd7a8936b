"""A question asked in verbs finds a law written in verbal nouns: words of one root are one concept."""

from __future__ import annotations

from pathlib import Path

import pytest
from test_search import _make_shelf

from docshelf.text import derivation, search
from docshelf.text.analyzer import tokens

PLACEMENT = """# О серверных

## Статья 5. Размещение серверов

1. Размещение серверов с базами данных о работниках допускается только в охраняемом помещении.

## Статья 6. Блок управления

1. Блок управления устанавливается в отдельном помещении.

## Статья 7. Серверы с базами данных о работниках

1. Доступ к серверам с базами данных о работниках предоставляется по письменной заявке руководителя.
"""


def _stem(word: str) -> str:
    return tokens(word)[0].key


@pytest.mark.parametrize(
    ("verb", "noun"),
    [
        ("хранить", "хранение"),
        ("уведомлять", "уведомление"),
        ("предоставлять", "предоставление"),
        ("удалять", "удаление"),
        ("проверять", "проверка"),
        ("нарушать", "нарушитель"),
        ("использовать", "использование"),
        ("выполнять", "выполнение"),
        ("блокировать", "блокирование"),
        ("опечатывать", "опечатывание"),
    ],
)
def test_words_of_one_root_share_it(verb: str, noun: str) -> None:
    assert derivation.root(_stem(verb)) == derivation.root(_stem(noun))


@pytest.mark.parametrize(
    ("one", "other"),
    [
        ("блокировать", "блок"),  # «-ирова-» is not cut: the verb is not about a unit
        ("удаление", "уда"),
        ("решение", "решать"),  # a root under four letters is not cut: реш- would join unrelated words
        ("обрабатывать", "обработка"),  # a vowel alternation: left to the synonym dictionary
    ],
)
def test_words_a_suffix_rule_would_join_wrongly_stay_apart(one: str, other: str) -> None:
    assert derivation.root(_stem(one)) != derivation.root(_stem(other))


def test_latin_keys_are_left_to_the_english_stemmer() -> None:
    assert derivation.root("encrypt") == "encrypt"
    assert derivation.root("storag") == "storag"


def test_a_question_in_verbs_finds_the_article_in_nouns(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    root = _make_shelf(tmp_path / "shelf", [("servers.md", "laws", "Закон о серверных", PLACEMENT)])
    question = "где можно размещать серверы с базами данных о работниках"
    assert search.search(root, question).hits[0].clause == "ст. 5"
    with monkeypatch.context() as m:  # without roots «размещать» meets nothing, and the access article wins
        m.setattr(derivation, "widen", lambda _index, concepts: concepts)
        assert search.search(root, question).hits[0].clause == "ст. 7"
    # «блокировать» must not reach «Блок управления» through a cut suffix.
    assert search.search(root, "блокировать").mode != "exact"
