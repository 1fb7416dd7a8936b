"""Every cleaning pass on real-looking snippets: repairs extraction damage, never rewords."""

from __future__ import annotations

import pytest

from docshelf.build import clean
from docshelf.model import Block


def _texts(blocks: tuple[Block, ...]) -> list[str]:
    return [b.text for b in blocks]


_BODY = [
    "1. Оператор обязан принимать меры, необходимые и достаточные для обеспечения выполнения обязанностей.",
    "2. Обработка персональных данных должна ограничиваться достижением конкретных целей.",
    "3) обезличивание персональных данных;",
    "Согласие может быть отозвано субъектом персональных данных.",
]


def _pages(n: int, header: str, footer: str, unique_top: dict[int, str] | None = None) -> tuple[Block, ...]:
    out: list[Block] = []
    for p in range(1, n + 1):
        out.append(Block(header, page=p, size=0.8))
        if unique_top and p in unique_top:
            out.append(Block(unique_top[p], page=p, bold=True))
        out.append(Block(_BODY[p % len(_BODY)], page=p))
        out.append(Block(footer.format(p=p, n=n), page=p, size=0.8))
    return tuple(out)


def test_furniture_removed_when_repeating_unique_top_line_kept() -> None:
    blocks = _pages(
        6,
        "Федеральный закон от 27.07.2004 № 79-ФЗ",
        "Стр. {p} из {n}",
        {4: "Статья 69. Индивидуальный служебный спор"},
    )
    out = _texts(clean.strip_furniture(blocks))
    assert not any(t.startswith(("Стр.", "Федеральный закон от")) for t in out)
    assert "Статья 69. Индивидуальный служебный спор" in out
    assert all(t in out for t in _BODY)


def test_furniture_needs_same_style_a_title_equal_to_the_header_survives() -> None:
    blocks = (Block("Закон о данных", page=1, size=1.3, bold=True), *_pages(5, "Закон о данных", "{p}"))
    out = clean.strip_furniture(blocks)
    assert out[0].text == "Закон о данных" and out[0].bold
    assert sum(1 for b in out if b.text == "Закон о данных") == 1


def test_furniture_not_touched_on_one_page_documents() -> None:
    blocks = _pages(1, "Шапка", "Страница {p} из {n}")
    assert clean.strip_furniture(blocks) == blocks


_WORDS = "ноль первый второй третий четвертый пятый шестой седьмой восьмой".split()
_CONSULTANT_FOOTER = (
    "КонсультантПлюс",
    "www.consultant.ru",
    "Страница {p} из {n}",
    "делу. Отче...",
    "надежная правовая поддержка",
)


def _long_furniture_pages(n: int) -> tuple[Block, ...]:
    """Pages with a two-line header and a five-line footer (a ConsultantPlus export) around unique body text."""
    out: list[Block] = []
    for p in range(1, n + 1):
        out += [
            Block("Документ предоставлен КонсультантПлюс", page=p, size=0.9),
            Block("Дата сохранения: 20.09.2018", page=p),
        ]
        out += [Block(f"Пункт {_WORDS[p]} стандарта, который встречается один раз.", page=p)]
        out += [Block(line.format(p=p, n=n), page=p) for line in _CONSULTANT_FOOTER]
    return tuple(out)


def test_furniture_spanning_several_lines_is_removed() -> None:
    out = _texts(clean.strip_furniture(_long_furniture_pages(8)))
    assert out == [f"Пункт {_WORDS[p]} стандарта, который встречается один раз." for p in range(1, 9)]
    assert clean.surviving_furniture(clean.strip_furniture(_long_furniture_pages(8))) == []


def test_surviving_furniture_is_reported() -> None:
    blocks = _long_furniture_pages(8)
    left = clean.surviving_furniture(blocks)
    assert "Страница 3 из 8" in left and "надежная правовая поддержка" in left


def test_page_numbers_anywhere_on_the_page_but_not_a_heading_number() -> None:
    # A Word → PDF export: the page number and the DOI line sit in the middle of the reading order.
    blocks: list[Block] = []
    for p in range(1, 9):
        blocks += [Block("NIST SP 800-99", page=p, size=0.82), Block(f"Text at the top of page {p}.", page=p)]
        if p == 3:
            blocks += [Block("1", page=p, bold=True), Block("Purpose", page=p, bold=True)]  # a heading number
        blocks += [
            Block(str(p + 4), page=p),
            Block("This publication is available free of charge from:", page=p, size=0.74),
        ]
        blocks += [Block(f"Closing words of page {p} that nobody repeats.", page=p)]
    out = _texts(clean.strip_furniture(tuple(blocks)))
    assert "1" in out and "Purpose" in out
    assert not any(t.isdigit() and t != "1" for t in out)
    assert not any(t.startswith(("This publication", "NIST SP")) for t in out)


def test_a_body_line_that_repeats_is_not_furniture_in_the_middle_of_a_page() -> None:
    blocks: list[Block] = []
    for p in range(1, 9):
        blocks += [Block(f"Header page {p}", page=p), Block(f"Control {_WORDS[p]} opens the page.", page=p)]
        blocks += [Block(f"Body of control {_WORDS[p]}.", page=p), Block("Control Enhancements:", page=p)]
        blocks += [Block(f"The {_WORDS[p]} enhancement.", page=p), Block(f"Closing {_WORDS[p]}.", page=p)]
        blocks += [Block(f"Footer {p}", page=p)]
    out = _texts(clean.strip_furniture(tuple(blocks)))
    assert out.count("Control Enhancements:") == 8


def test_soft_hyphen_inside_and_across_blocks() -> None:
    blocks = (Block("инфор\u00adмации и защи\u00ad"), Block("те информации"))
    assert _texts(clean.fix_soft_hyphens(blocks)) == ["информации и защите информации"]


def test_page_break_join_only_for_unfinished_paragraph() -> None:
    blocks = (
        Block("1. Оператор обязан принимать меры, необходимые и", page=3),
        Block("достаточные для обеспечения выполнения обязанностей.", page=4),
        Block("2. Следующая часть.", page=4),
        Block("Статья 19. Меры", page=5, bold=True),
    )
    out = _texts(clean.join_page_breaks(blocks))
    assert (
        out[0]
        == "1. Оператор обязан принимать меры, необходимые и достаточные для обеспечения выполнения обязанностей."
    )
    assert out[1:] == ["2. Следующая часть.", "Статья 19. Меры"]


def test_a_paragraph_is_joined_across_the_notes_at_the_foot_of_its_page() -> None:
    """«3.2.2. Проверка …, при которой» / «¹ Лицензия …» (small print at the page's foot) / «устанавливается:» on the
    next page: one paragraph, the note after it (a sentence across the page was cut by the note and unprovable)."""
    blocks = (
        Block("3.2.2. Проверка реализации мер защиты информации, при которой", page=2),
        Block("¹ Лицензия на деятельность по технической защите информации обязательна.", page=2, size=0.75),
        Block("устанавливается:", page=3),
        Block("а) наличие средств защиты информации;", page=3),
    )
    assert _texts(clean.join_page_breaks(blocks)) == [
        "3.2.2. Проверка реализации мер защиты информации, при которой устанавливается:",
        "¹ Лицензия на деятельность по технической защите информации обязательна.",
        "а) наличие средств защиты информации;",
    ]
    body_size = (blocks[0], Block("Примечание к рисунку.", page=2), blocks[2])  # not small print: nothing joined
    assert len(clean.join_page_breaks(body_size)) == 3


def test_page_break_join_keeps_real_hyphen_after_digit() -> None:
    blocks = (Block("от 02.03.2007 № 24-", page=1), Block("ФЗ, от 12.04.2007", page=2))
    # «ФЗ» starts with a capital: not a continuation by the lowercase rule, left alone.
    assert len(clean.join_page_breaks(blocks)) == 2


def test_superscript_article_numbers() -> None:
    blocks = (
        Block("**Статья 20**<sup>1</sup> **. Представление сведений**"),
        Block("ст. 15<sup>2</sup> закона"),
    )
    assert _texts(clean.fix_superscripts(blocks)) == [
        "**Статья 20.1. Представление сведений**",
        "ст. 15.2 закона",
    ]


def test_glued_law_numbers_restored() -> None:
    out = clean.restore_law_hyphens((Block("от 02.03.2007 № 24ФЗ и № 3ФКЗ; ФЗ без номера"),))
    assert out[0].text == "от 02.03.2007 № 24-ФЗ и № 3-ФКЗ; ФЗ без номера"


def test_spaces_normalized_yo_kept() -> None:
    out = clean.normalize_spaces((Block("Принят\u00a0\u00a0\u00a0Думой  7\u00a0июля; учёт 152\u2011ФЗ"),))
    assert out[0].text == "Принят Думой 7 июля; учёт 152-ФЗ"


def test_tables_are_not_reflowed() -> None:
    table = Block("| a | b |\n|---|---|\n| 1  2 | 3 |", kind="table")
    assert clean.normalize_spaces((table,)) == (table,)


def test_editorial_notes_marked_not_dropped() -> None:
    blocks = (
        Block("(в ред. Федерального закона от 25.07.2011 N 261-ФЗ)"),
        Block("(часть 1.1 введена Федеральным законом от 14.07.2022 N 266-ФЗ)"),
        Block("Документ предоставлен КонсультантПлюс"),
        Block("1. Оператор обязан (в ред. закона) соблюдать конфиденциальность."),
    )
    out = clean.mark_editorial(blocks)
    assert [b.editorial for b in out] == [True, True, True, False]
    assert _texts(out) == _texts(blocks)


def test_split_table_merged_with_repeated_header_dropped() -> None:
    head = "| Мера | УЗ 1 |\n|---|---|"
    blocks = (
        Block(head + "\n| ИАФ.1 | + |", page=4, kind="table"),
        Block(head + "\n| УПД.1 | + |", page=5, kind="table"),
    )
    out = clean.merge_split_tables(blocks)
    assert len(out) == 1
    assert out[0].text == head + "\n| ИАФ.1 | + |\n| УПД.1 | + |"


def test_split_table_without_repeated_header_keeps_first_row() -> None:
    blocks = (
        Block("| Мера | УЗ 1 |\n|---|---|\n| ИАФ.1 | + |", page=4, kind="table"),
        Block("| УПД.1 | + |\n|---|---|\n| УПД.2 | + |", page=5, kind="table"),
    )
    assert clean.merge_split_tables(blocks)[0].text.endswith("| ИАФ.1 | + |\n| УПД.1 | + |\n| УПД.2 | + |")


def test_clean_runs_all_passes_in_order() -> None:
    blocks = _pages(4, "КонсультантПлюс www.consultant.ru", "Страница {p} из {n}")
    out = clean.clean(blocks)
    assert all("Страница" not in b.text and "КонсультантПлюс" not in b.text for b in out)


def test_false_headings_demoted_and_joined() -> None:
    blocks = (
        Block("Гражданский служащий обязан соблюдать Конституцию Российской", page=3),
        Block("Федерации.", kind="heading", level=1, page=4),
        Block("1 000 до 5 000 рублей.", kind="heading", level=3),
        Block("$ docshelf add law.pdf", kind="heading", level=1),
        Block("Статья 6. Права", kind="heading", level=2),
    )
    out = clean.demote_false_headings(blocks)
    assert [(b.kind, b.text) for b in out] == [
        ("para", "Гражданский служащий обязан соблюдать Конституцию Российской Федерации."),
        ("heading", "1 000 до 5 000 рублей."),  # numbered: the structure stage decides
        ("para", "$ docshelf add law.pdf"),
        ("heading", "Статья 6. Права"),
    ]
    tail = (
        Block("обработка данных осуществляется", page=1),
        Block("в порядке, установленном законом,", kind="heading"),
    )
    assert [b.text for b in clean.demote_false_headings(tail)] == [
        "обработка данных осуществляется в порядке, установленном законом,"
    ]


def test_repeated_heading_is_a_colontitle() -> None:
    blocks = tuple(Block("Федеральный закон о данных", kind="heading", level=1, page=p) for p in range(1, 5))
    assert {b.kind for b in clean.demote_false_headings(blocks)} == {"para"}


def test_wrapped_headings_merged() -> None:
    blocks = (
        Block("Статья 4. Права и обязанности оператора тестовых данных (глава", kind="heading", level=3),
        Block("1)", kind="heading", level=3),
        Block("Статья 20.2. Представление сведений о размещении информации в", bold=True),
        Block('информационно-телекоммуникационной сети "Интернет"', bold=True),
        Block("Текст статьи."),
    )
    out = clean.merge_wrapped_headings(blocks)
    assert [b.text for b in out] == [
        "Статья 4. Права и обязанности оператора тестовых данных (глава 1)",
        "Статья 20.2. Представление сведений о размещении информации в "
        'информационно-телекоммуникационной сети "Интернет"',
        "Текст статьи.",
    ]


def test_consultant_notes_and_future_edition_lines_are_editorial() -> None:
    blocks = (
        Block("КонсультантПлюс: примечание."),
        Block("Положения ст. 6 (в ред. ФЗ от 30.12.2020 N 519-ФЗ) применяются с 01.03.2021."),
        Block("С 01.09.2025 в п. 9.1 ч. 1 ст. 6 вносятся изменения (ФЗ от 08.08.2024 N 233-ФЗ). См. будущую редакцию."),
        Block("1. Обработка персональных данных должна осуществляться на законной основе."),
    )
    assert [b.editorial for b in clean.mark_editorial(blocks)] == [True, True, True, False]
    # A note printed in one paragraph holds its body: the act's next paragraph is the act's.
    one = (
        Block("КонсультантПлюс: примечание. Положения статьи 12.1 (в ред. ФЗ N 199-ФЗ) применяются с 01.03.2025."),
        Block("1. Заявление о внесении сведений в реестр может быть представлено в форме электронного документа."),
    )
    assert [b.editorial for b in clean.mark_editorial(one)] == [True, False]


def test_numbered_clauses_at_the_foot_of_two_pages_are_text() -> None:
    blocks = tuple(
        Block(text, page=p)
        for p in (1, 2)
        for text in ("Заголовок страницы", f"{p + 1}. Пункт {p + 1} раздела, который кончает страницу.")
    )
    out = _texts(clean.strip_furniture(blocks))  # equal but for their digits, like a running footer
    assert out == ["2. Пункт 2 раздела, который кончает страницу.", "3. Пункт 3 раздела, который кончает страницу."]


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("С т а т ь я 1. Основные понятия", "Статья 1. Основные понятия"),
        (
            "Правительство Российской Федерации п о с т а н о в л я е т:",
            "Правительство Российской Федерации постановляет:",
        ),
        ("пункты а, б, в и г", "пункты а, б, в и г"),  # a list of letters is not a spaced word
        ("в и с", "в и с"),  # three one-letter words may stand together
        ("R F C 1035", "R F C 1035"),  # Latin capitals a space apart are left as they are
    ],
)
def test_letter_spaced_words_are_joined(text: str, expected: str) -> None:
    assert clean.join_letter_spacing((Block(text, page=1),))[0].text == expected


def _chapter_pages(first: int, last: int, header: str, step: int = 1) -> list[Block]:
    """Pages of one chapter of a book: its running header on every ``step``-th page, over unique text."""
    out: list[Block] = []
    for p in range(first, last + 1):
        if (p - first) % step == 0:
            out.append(Block(header, page=p, bold=True))
        out += [Block(f"Text {_word(p)} of a page, told once.", page=p), Block(f"Closing {_word(p)}.", page=p)]
    return out


def test_a_chapter_header_that_runs_page_after_page_is_furniture_even_when_numbered() -> None:
    # A manual's header names the section («4.2. Configuration File Grammar»): on a few pages of many,
    # too few for the share rule, but page after page, on book pages every other page.
    blocks = [Block("4.2. Configuration File Grammar", page=1, bold=True, size=1.3)]  # the heading itself
    blocks += _chapter_pages(1, 3, "Chapter 4. Configuration Reference")
    blocks += _chapter_pages(4, 12, "4.2. Configuration File Grammar", step=2)
    blocks += _chapter_pages(13, 40, "")
    out = clean.strip_furniture(tuple(b for b in blocks if b.text))
    texts = _texts(out)
    assert texts.count("4.2. Configuration File Grammar") == 1 and out[0].size == 1.3
    assert "Chapter 4. Configuration Reference" not in texts
    assert sum(t.startswith("Text ") for t in texts) == 40


def _word(n: int) -> str:
    """A word of its own for each page: furniture keys read digits as any number."""
    return "".join("abcdefghij"[int(d)] for d in str(n))


def test_a_sentence_the_text_repeats_stays_even_where_it_falls_at_page_edges() -> None:
    # An RFC's state machine repeats «- changes its state to Idle.»: on three pages in a row a copy falls
    # at the page's edge, the others sit inside pages; all are text.
    blocks: list[Block] = []
    for p in range(1, 30):
        w = _word(p)
        opening = "- changes its state to Idle." if 10 <= p <= 12 else f"Page {w} opens with its own words."
        blocks += [Block(f"RFC 4271 BGP-4 January 2006 {p}", page=p), Block(opening, page=p)]
        blocks += [Block(f"Event {w} arrives.", page=p), Block("- changes its state to Idle.", page=p)]
        blocks += [Block(f"Then {w} more.", page=p), Block(f"Page {w} ends.", page=p), Block(f"Foot {p}", page=p)]
    texts = _texts(clean.strip_furniture(tuple(blocks)))
    assert texts.count("- changes its state to Idle.") == 29 + 3


def test_a_paragraph_cut_between_a_reference_word_and_its_number_is_joined() -> None:
    """«… described in Section» / «10. Each timer …» across a page break: the number is the reference's, no label
    opening a paragraph. A paragraph that ends its sentence, a list item's «…; and», or the same page are not joined."""
    from docshelf.build.clean import join_page_breaks

    cut = (Block("The timers are described in Section", page=3), Block("10. Each timer has a time.", page=4))
    assert [b.text for b in join_page_breaks(cut)] == ["The timers are described in Section 10. Each timer has a time."]
    ended = (Block("The timers are described below.", page=3), Block("10. Each timer has a time.", page=4))
    items = (Block("(1) A policy that addresses purpose; and", page=3), Block("(2) Procedures to apply it.", page=4))
    same_page = (Block("The timers are described in Section", page=3), Block("10. Each timer has a time.", page=3))
    assert len(join_page_breaks(ended)) == len(join_page_breaks(items)) == len(join_page_breaks(same_page)) == 2


def test_hard_wrapped_text_does_not_start_a_paragraph_at_a_references_number() -> None:
    """An RFC's «… described in Section» wrapped before «10.  Each timer …»: one paragraph, not item 10."""
    from docshelf.convert.text import convert_text

    text = (
        "   The mandatory attributes related to timers are described in Section\n"
        '   10.  Each timer has a "timer" and a "time" (the initial value).\n\n'
        "   1.  A numbered item on its own.\n"
    )
    got = [b.text for b in convert_text(text.encode(), name="r.txt").blocks]
    assert got[0].endswith('described in Section 10. Each timer has a "timer" and a "time" (the initial value).')
    assert got[-1].startswith("1. A numbered item")
