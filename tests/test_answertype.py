"""A question for a number finds the clause that states one, not the clause that only shares its words."""

from __future__ import annotations

from pathlib import Path

import pytest
from test_search import _make_shelf

from docshelf.text import answertype, ranking, search
from docshelf.text.analyzer import index_text

ARCHIVE = """# Об архиве

## Статья 4. Хранение сведений в архиве

1. Сведения о работниках хранятся в архиве организации.

## Статья 5. Сроки хранения

1. Документы с такими сведениями о работниках хранятся в течение пяти лет после увольнения.
"""


@pytest.mark.parametrize(
    ("query", "asks"),
    [
        ("за сколько дней оператор должен ответить", True),
        ("как долго хранятся сведения", True),
        ("в течение какого срока действует пропуск", True),
        ("how many octets may a label hold", True),
        ("how long is a session ticket valid", True),
        ("maximum password length", True),
        ("longest allowed domain name", True),
        ("какой наибольший размер файла", True),
        ("самый долгий срок хранения", True),
        ("кто отвечает за хранение сведений", False),
        ("порядок хранения сведений", False),
        ("how is a session ticket encrypted", False),
    ],
)
def test_which_questions_ask_for_a_number(query: str, asks: bool) -> None:
    assert answertype.asks_quantity(query) is asks


@pytest.mark.parametrize(
    ("text", "query", "states"),
    [
        ("в течение десяти рабочих дней с момента обращения", "за сколько дней", True),
        ("MUST NOT use any value greater than 604800 seconds", "how long", True),
        ("устанавливаются 4 уровня защищенности", "сколько уровней защищенности", True),
        ("устанавливаются уровни защищенности", "сколько уровней защищенности", False),
        ("статья 5 применяется к операторам", "за сколько дней", False),  # a number, but no unit after it
    ],
)
def test_what_states_a_quantity(text: str, query: str, states: bool) -> None:
    assert answertype.states_quantity(index_text(text), answertype.units_for(query)) is states


def test_a_question_for_a_number_puts_the_clause_stating_it_first(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    root = _make_shelf(tmp_path / "shelf", [("archive.md", "laws", "Закон об архиве", ARCHIVE)])
    question = "сколько хранятся сведения о работниках"
    assert search.search(root, question).hits[0].clause == "ст. 5"
    monkeypatch.setattr(ranking, "W_QUANTITY", 0.0)  # without the lift the article saying the words most wins
    assert search.search(root, question).hits[0].clause == "ст. 4"
