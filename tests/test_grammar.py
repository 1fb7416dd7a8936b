"""The one clause grammar: one table row per kind — a line of a document → kind, number, clause id;
a citation → clause id; what is not understood is named, never dropped."""

from __future__ import annotations

import pytest

from docshelf.build.structure import find_headings
from docshelf.law import grammar
from docshelf.law.clauses import section_clauses
from docshelf.model import Block


def _heading_kind(line: str) -> tuple[str, str] | None:
    for kind in grammar.HEADINGS:
        if m := kind.heading.match(line):
            return kind.name, m.group(1) or ""
    return None


@pytest.mark.parametrize(
    ("line", "kind", "number", "clause"),
    [
        ("Раздел II. Права субъекта", "razdel", "II", "разд. II"),
        ("РАЗДЕЛ 3 ОБЩИЕ ПОЛОЖЕНИЯ", "razdel", "3", "разд. 3"),
        ("Р а з д е л  I", "razdel", "I", "разд. I"),
        ("Глава 4. Обязанности оператора", "glava", "4", "гл. 4"),
        ("Г л а в а 2", "glava", "2", "гл. 2"),
        ("Статья 10.2-1. Особенности", "statya", "10.2-1", "ст. 10.2-1"),
        ("С т а т ь я  37. Водопользование", "statya", "37", "ст. 37"),
        ("СТАТЬЯ 5", "statya", "5", "ст. 5"),
        ("Приложение N 2", "prilozhenie", "2", "прил. 2"),
        ("Приложение № 1.2 к Требованиям", "prilozhenie", "1.2", "прил. 1.2"),
        ("Приложение", "prilozhenie", "", "прил."),
        ("Appendix B. Comparison", "appendix", "B", "Appendix B"),
        ("Appendix A References", "appendix", "A", "Appendix A"),
        ("Appendix F.1. Multiple Networks Per Message", "subappendix", "F.1", "§F.1"),
        ("Приложение А (обязательное)", "prilozhenie", "А", "прил. А"),
        ("AC-2 ACCOUNT MANAGEMENT", "control", "AC-2", "AC-2"),
        ("ПРИЛОЖЕНИЕ Б", "prilozhenie", "Б", "прил. Б"),
        ("IV. Порядок", "roman", "IV", "разд. IV"),
        ("4.2.1 Message Header", "num", "4.2.1", "п. 4.2.1"),
    ],
)
def test_heading_kinds(line: str, kind: str, number: str, clause: str) -> None:
    assert _heading_kind(line) == (kind, number)
    assert grammar.heading_clause_id(kind, number) == clause


@pytest.mark.parametrize(
    ("line", "expected"),
    [
        ("Appendix B provides definitions for security terminology.", None),  # a sentence, not a heading
        ("Приложение к приказу ФСТЭК России", ("prilozhenie", "")),  # an annex without a number, not «к»
    ],
)
def test_what_follows_an_annex_word_decides(line: str, expected: tuple[str, str] | None) -> None:
    assert _heading_kind(line) == expected


def test_english_numbered_heading_is_a_section() -> None:
    assert grammar.heading_clause_id("num", "4.2.1", english=True) == "§4.2.1"


def test_annex_number_is_read_whole_everywhere() -> None:
    """«Приложение N 1.2» is annex 1.2 for headings, clause tables and the annex of a section (one pattern)."""
    blocks = (Block("Приложение N 1.2 к Требованиям", bold=True), Block("Текст приложения."))
    (heading,) = find_headings(blocks)
    assert (heading.kind, heading.number) == ("prilozhenie", "1.2")
    md = "# Приложение N 1.2 к Требованиям\n\n| УПД.1 | Мера |\n"
    assert [c.id for c in section_clauses(md, "")] == ["прил. 1.2", "прил. 1.2 УПД.1"]


@pytest.mark.parametrize(
    ("paragraph", "law", "order"),
    [
        ("3. Третья часть.", "ч. 3", "п. 3"),
        ("29.1. Подпункт.", "ч. 29.1", "п. 29.1"),
        ("2) второй пункт;", "п. 2", "пп. 2"),
        ("б) буква;", "подп. «б»", "подп. «б»"),
    ],
)
def test_clause_openers(paragraph: str, law: str, order: str) -> None:
    in_law = [c.id for c in section_clauses(f"# Статья 1\n\n{paragraph}\n", "ст. 1")]
    in_order = [c.id for c in section_clauses(f"{paragraph}\n", "")]
    assert in_law[-1] == f"ст. 1 {law}"
    assert in_order[-1] == order


def test_paragraphs_of_a_clause() -> None:
    md = "# Статья 9\n\n1. Первый абзац.\n\nВторой абзац.\n\n2. Одна часть.\n"
    ids = {c.id: md[c.start : c.end] for c in section_clauses(md, "ст. 9")}
    assert ids["ст. 9 ч. 1 абз. 2"] == "Второй абзац."
    assert ids["ст. 9 ч. 1 абз. 1"] == "1. Первый абзац."
    assert "ст. 9 ч. 2 абз. 1" not in ids  # a one-paragraph part is its own абз. 1 (citations resolve it)


@pytest.mark.parametrize(
    ("citation", "clause"),
    [
        ("ст. 12 ч. 3", "ст. 12 ч. 3"),
        ("п. 1 ч. 2 ст. 12", "ст. 12 ч. 2 п. 1"),
        ("статья 19 часть 1", "ст. 19 ч. 1"),
        ("ст.12 ч.3", "ст. 12 ч. 3"),
        ("ст. 10.2-1", "ст. 10.2-1"),
        ("абз. 2 ч. 1 ст. 9", "ст. 9 ч. 1 абз. 2"),
        ("абзац третий пункта 2 статьи 5", "ст. 5 п. 2 абз. 3"),
        ("абзаце четвёртом части 1", "ч. 1 абз. 4"),
        ("подп. «а» п. 29", "п. 29 подп. «а»"),
        ("пп. 1 п. 5", "п. 5 пп. 1"),
        ("п. 4.2, перечисление а)", "п. 4.2 подп. «а»"),  # a ГОСТ's name for its list items
        ("перечисления 2 п. 5.1", "п. 5.1 пп. 2"),
        ("подпункта 2 пункта 5", "п. 5 пп. 2"),  # not «подп. «а»» read out of the word's ending
        ("прил. 2 УПД.1", "прил. 2 УПД.1"),
        ("Приложение № 1.2", "прил. 1.2"),
        ("гл. 3", "гл. 3"),
        ("раздел II", "разд. II"),
        ("§4.2", "§4.2"),
        ("Section 4.2.1", "§4.2.1"),
        ("Appendix A.1", "§A.1"),
        ("Appendix B", "Appendix B"),
        ("V2.1.1", "V2.1.1"),
        ("AC-2 (1)", "AC-2(1)"),
    ],
)
def test_citation_components(citation: str, clause: str) -> None:
    parsed = grammar.parse_citation(citation)
    assert parsed.clause() == clause
    assert parsed.unread == () and parsed.repeated == ()


@pytest.mark.parametrize(("citation", "english", "clause"), [("4.2", True, "§4.2"), ("5.1.1.2", False, "п. 5.1.1.2")])
def test_a_bare_number_alone_is_a_section_or_point(citation: str, english: bool, clause: str) -> None:
    assert grammar.parse_citation(citation, english=english).clause() == clause


@pytest.mark.parametrize(
    ("citation", "unread"),
    [
        ("nonsense words here", ("nonsense", "words", "here")),
        ("ст. 5 и 6", ("и", "6")),
        ("ст. 5 6", ("6",)),
        ("ст. 9 абзац последний", ("абзац", "последний")),
    ],
)
def test_what_is_not_understood_is_named(citation: str, unread: tuple[str, ...]) -> None:
    assert grammar.parse_citation(citation).unread == unread


def test_two_places_of_one_kind_are_named() -> None:
    assert grammar.parse_citation("ст. 5 ст. 6").repeated == ("ст. 6",)


def test_filler_words_and_part_names() -> None:
    parsed = grammar.parse_citation("Федерального закона, статья 5, часть 1", names=frozenset({"Требования"}))
    assert (parsed.clause(), parsed.unread) == ("ст. 5 ч. 1", ())
    parsed = grammar.parse_citation("Требования п. 13", names=frozenset({"Требования"}))
    assert (parsed.name, parsed.clause()) == ("Требования", "п. 13")


def test_editorial_mark_round_trip() -> None:
    text = grammar.editorial("152-ФЗ · ст. 12\nвторая строка")
    assert text == "> 152-ФЗ · ст. 12\n> вторая строка"
    assert all(grammar.is_editorial(ln) for ln in text.split("\n"))
    blanked = grammar.blank_editorial("Текст.\n" + text)
    assert len(blanked) == len("Текст.\n" + text) and blanked.strip() == "Текст."


@pytest.mark.parametrize(
    ("citation", "clause"),
    [("ст. 8 УПД.1", "ст. 8 УПД.1"), ("п. C.11 абз. 2", "п. C.11 абз. 2"), ("разд. ВТОРОЙ", "разд. ВТОРОЙ")],
)
def test_clause_ids_the_corpus_tables_hold(citation: str, clause: str) -> None:
    """Ids the sweep found unreadable once: a measure in an article's table, ASVS-ru «п. C.11», a word number."""
    assert grammar.parse_citation(citation).clause() == clause


@pytest.mark.parametrize("said", ["Требования", "Требований", "требованиям", "Требованиях"])
def test_a_part_is_named_in_any_case(said: str) -> None:
    from docshelf.law.grammar import parse_citation

    parsed = parse_citation(f"п. 18 {said}, утв. приказом", names=frozenset({"Требования"}))
    assert (parsed.name, parsed.unread, parsed.clause()) == ("Требования", (), "п. 18")


@pytest.mark.parametrize(
    ("line", "opens"),
    [
        ("3.1.1 Limit system access to authorized users.", True),
        ("4.4.2 IAL2 Trusted Referee Proofing Requirements ............................ 17", False),  # contents
        ("4.4.2 IAL2 Trusted Referee . . . . . . . 17", False),
        ("3.1 Access Control", False),  # a section heading's two levels, not a requirement's three
        ("3.1.1 the rest of a sentence", False),
    ],
)
def test_a_requirement_number_opens_a_clause_but_not_a_contents_line(line: str, opens: bool) -> None:
    from docshelf.law.grammar import REQUIREMENT_START

    assert (REQUIREMENT_START.match(line) is not None) is opens
