"""The shared normalization: each folding step, the offset map, properties and speed."""

from __future__ import annotations

import time
from collections.abc import Callable

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from docshelf.text.normalize import Normalized, normalize, normalize_text, words

NBSP = "\u00a0"
SHY = "\u00ad"


def locate(section: str, quote: str) -> str | None:
    """What quote verification does: find the normalized quote, return the verbatim original."""
    norm = normalize(section)
    needle = normalize_text(quote)
    i = norm.text.find(needle)
    if i < 0:
        return None
    a, b = norm.span(i, i + len(needle))
    return section[a:b]


# --- one test per folding step -------------------------------------------------------------------


@pytest.mark.parametrize(
    ("raw", "expected"),
    [
        (f"№{NBSP}152\u2011ФЗ", "№ 152-фз"),  # NBSP, non-breaking hyphen U+2011
        ("№ 152-ФЗ", "№ 152-фз"),  # NFKC would make it «No»
        ("учёт Ёмкость", "учет емкость"),
        (f"инфор{SHY}мации", "информации"),
        ("\u200bОпе\u200dратор\u2060 \ufeffобязан", "оператор обязан"),
        ("\u200eТОЧНО\u200f \u202bтак\u202c \u2066да\u2069", "точно так да"),
        ("стр.\x02 5", "стр. 5"),  # PDF control debris
    ],
)
def test_invisible_characters_spaces_and_yo(raw: str, expected: str) -> None:
    assert normalize_text(raw) == expected


@pytest.mark.parametrize(
    "space", [NBSP, "\u2002", "\u2009", "\u200a", "\u202f", "\u205f", "\u3000", "\t", "\r\n", "\n\n"]
)
def test_every_space_variant_is_one_space(space: str) -> None:
    assert normalize_text(f"персональных{space}данных") == "персональных данных"


@pytest.mark.parametrize("dash", ["-", "\u2010", "\u2011", "\u2012", "\u2013", "\u2014", "\u2015", "\u2212", "\ufe58"])
def test_every_dash_is_a_hyphen_minus(dash: str) -> None:
    assert normalize_text(f"1{dash}2 и 152{dash}ФЗ") == "1-2 и 152-фз"


@pytest.mark.parametrize(("left", "right"), [("«", "»"), ("„", "“"), ("“", "”"), ("‘", "’"), ('"', '"'), ("″", "′")])
def test_every_quote_mark_is_one_double_quote(left: str, right: str) -> None:
    assert normalize_text(f"сети {left}Интернет{right}") == 'сети "интернет"'


def test_english_apostrophe_folds_like_a_quote() -> None:
    assert normalize_text("don't") == normalize_text("don’t") == 'don"t'


@pytest.mark.parametrize(
    ("raw", "expected"),
    [
        ("Статья 20¹", "статья 20.1"),
        ("Статья 20<sup>1</sup> закона", "статья 20.1 закона"),
        ("статья 15¹²", "статья 15.12"),
        ("100 м²", "100 м2"),  # not after a digit: plain digits
        ("100 м<sup>2</sup>", "100 м2"),
        ("CO<sub>2</sub>", "co2"),
    ],
)
def test_superscripts(raw: str, expected: str) -> None:
    assert normalize_text(raw) == expected


@pytest.mark.parametrize(
    ("raw", "expected"), [("ﬁnal", "final"), ("１５２", "152"), ("и т.д…", "и т.д..."), ("½", "1⁄2")]
)
def test_nfkc(raw: str, expected: str) -> None:
    assert normalize_text(raw) == expected


def test_decomposed_letters_compose() -> None:
    assert normalize_text("и\u0306 е\u0308") == normalize_text("й ё") == "й е"


@pytest.mark.parametrize(
    ("raw", "expected"),
    [
        ("**Статья 1.** Текст", "статья 1. текст"),
        ("__жирный__ и _курсив_, *звезда*", "жирный и курсив, звезда"),
        ("snake_case и __init__ и file_name_2", "snake_case и init и file_name_2"),
        ("см. [текст](http://x) далее", "см. текст далее"),
        ("![схема](img/1.png) Рисунок", "рисунок"),
        ("код `SELECT 1` тут", "код select 1 тут"),
        ("строка<br>строка<br/>строка<BR />", "строка строка строка"),
        ("<b>Статья</b> <span class='x'>5</span>", "статья 5"),
        ("<td>a</td><td>b</td>", "a b"),
        ("| a | b |", "a b"),
        ("| Поле | Значение |\n|---|:---:|\n| срок | 10 дней |", "поле значение срок 10 дней"),
        ("ячейка a \\| b", "ячейка a b"),  # the converter escapes pipes inside cells
        (
            "# Глава 1\n## Статья 2\n> цитата\n- пункт\n* пункт\n+ пункт\n• пункт",
            "глава 1 статья 2 цитата пункт пункт пункт пункт",
        ),
        ("-5 градусов\n1. Пункт\n#хэштег", "-5 градусов 1. пункт #хэштег"),
        ("[[a](b)](c) <<b>br>", "a"),  # nested markup is removed down to the text
        ("a < b > c", "a < b > c"),  # not a tag
    ],
)
def test_markdown_and_html_markup(raw: str, expected: str) -> None:
    assert normalize_text(raw) == expected


@pytest.mark.parametrize(
    ("raw", "expected"),
    [
        ("госу-\nдарственной", "государственной"),
        ("Госу-  \n   дарственной", "государственной"),
        (f"инфор{SHY}\nмации", "информации"),
        ("152-\nФЗ", "152-фз"),  # left ends in a digit and right starts with a capital
        ("статья 5-\n1", "статья 5-1"),
        ("Москва-\nРека", "москва-река"),  # right starts with a capital
        ("интернет-\nресурс", "интернет-ресурс"),  # known compound head
        ("Северо-\nзападный", "северо-западный"),
        ("каких-\nлибо", "каких-либо"),  # known compound tail
        ("мини-\nстерство", "министерство"),  # «мини» is deliberately not a compound head
        ("экс-\nпертиза", "экспертиза"),
        ("слово -\nслово", "слово - слово"),  # a spaced dash is not hyphenation
        ("слово-\n- пункт", "слово- пункт"),
    ],
)
def test_line_break_hyphenation(raw: str, expected: str) -> None:
    assert normalize_text(raw) == expected


@pytest.mark.parametrize(
    ("raw", "expected"),
    [
        ("cоcтоянию", "состоянию"),  # Latin c, a real case
        ("ОOО «Pомашка»", 'ооо "ромашка"'),  # Latin O and P
        ("CТАТЬЯ", "статья"),
        ("PDFфайл", "pdfфайл"),  # d, f have no Cyrillic look-alike: a real Latin word, left alone
        ("Windows и pH", "windows и ph"),
        ("IT-компания", "it-компания"),
    ],
)
def test_latin_homoglyphs_inside_cyrillic_words(raw: str, expected: str) -> None:
    assert normalize_text(raw) == expected


def test_homoglyph_word_matches_the_clean_word() -> None:
    assert normalize_text("по cоcтоянию на") == normalize_text("по состоянию на")


@pytest.mark.parametrize(("raw", "expected"), [("ТОЧНО", "точно"), ("Straße", "strasse"), ("  a \n\n b  ", "a b")])
def test_casefold_and_whitespace(raw: str, expected: str) -> None:
    assert normalize_text(raw) == expected


def test_words_keep_identifiers() -> None:
    text = (
        "Федеральный закон от 27.07.2006 №\u00a0152\u2011ФЗ «О персональных данных», "
        "п. 10.2-1, УПД.1 — т.е. snake_case."
    )
    assert words(text) == [
        "федеральный", "закон", "от", "27.07.2006", "№", "152-фз", "о", "персональных", "данных",
        "п", "10.2-1", "упд.1", "т.е", "snake_case",
    ]  # fmt: skip


def test_words_of_markup_only_text_is_empty() -> None:
    assert words("** | --- | ![x](y)") == []


# --- offset map -----------------------------------------------------------------------------------


def test_quote_span_skips_leading_markup_and_keeps_inner_invisibles() -> None:
    section = f"**Статья 5.** Оператор{NBSP}обязан учи{SHY}тывать ёмкость **носителей**"
    assert locate(section, "оператор обязан учитывать емкость") == f"Оператор{NBSP}обязан учи{SHY}тывать ёмкость"
    assert locate(section, "Статья 5. Оператор") == "Статья 5.** Оператор"


def test_quote_span_excludes_trailing_markup() -> None:
    assert locate("хранение **учёта**.", "учета") == "учёта"
    assert locate("см. [статью 5](http://x/5) закона", "статью 5") == "статью 5"


def test_quote_span_over_folded_characters() -> None:
    section = "Закон от 27.07.2006 №\u00a0152\u2011ФЗ «О персональных данных»"
    assert locate(section, '№ 152-ФЗ "о персональных данных"') == "№\u00a0152\u2011ФЗ «О персональных данных»"
    assert locate("Статья 20¹ закона", "статья 20.1") == "Статья 20¹"
    assert locate("Статья 20<sup>1</sup> закона", "20.1") == "20<sup>1"
    assert locate("в госу-\nдарственной тайне", "государственной") == "госу-\nдарственной"
    assert locate("по cоcтоянию на", "состоянию") == "cоcтоянию"


def test_span_of_a_character_from_a_multi_character_original() -> None:
    norm = normalize("x е\u0308 ß")  # «ё» decomposed, ß -> ss
    assert norm.text == "x е ss"
    assert norm.span(2, 3) == (2, 4)
    assert norm.span(4, 6) == (5, 6)


def test_offsets_shape_and_empty_spans() -> None:
    original = "  **Текст**  "
    norm = normalize(original)
    assert norm.text == "текст"
    assert norm.offsets == (4, 5, 6, 7, 8, len(original))
    assert norm.span(2, 2) == (6, 6)
    assert norm.span(0, 5) == (4, 9)
    with pytest.raises(ValueError):
        norm.span(3, 9)
    assert normalize("") == Normalized("", (0,), ())


# --- properties -----------------------------------------------------------------------------------

_TRICKY = [*"аеоёЁcoCOрpхxтТ-‑—\u00ad\u200b\u200f\u00a0 \n\t*_`|#>[]()!<>/\\019¹²«»\"'№.,:+•ßİ＊＿…\u0308\u0301"]
_TRICKY += ["<sup>", "</sup>", "<br>", "<b>", "](", "Статья", "госу-\nдарственной"]
texts = st.one_of(st.text(), st.lists(st.sampled_from(_TRICKY), max_size=60).map("".join))
prop = settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])


@prop
@given(texts)
def test_normalization_is_idempotent(s: str) -> None:
    once = normalize_text(s)
    assert normalize_text(once) == once


@prop
@given(texts)
def test_output_invariants_and_offset_map(s: str) -> None:
    norm = normalize(s)
    text = norm.text
    assert text == normalize_text(s)  # the fast path and the mapped path agree
    assert "  " not in text and text == text.strip()
    assert not set(text) & {SHY, NBSP, "ё", "Ё", "\n", "\t", "\u200b"}
    assert len(norm.offsets) == len(text) + 1 and len(norm.ends) == len(text)
    assert norm.offsets[-1] == len(s)
    assert all(a <= b for a, b in zip(norm.offsets, norm.offsets[1:], strict=False))
    assert all(0 <= a < b <= len(s) for a, b in zip(norm.offsets, norm.ends, strict=False))


_VOCAB = [
    "оператор", "обязан", "обеспечить", "запись", "систематизацию", "накопление", "хранение",
    "уточнение", "персональных", "данных", "граждан", "Российской", "Федерации", "учёт", "статья",
    "20¹", "№", "152-ФЗ", "10.2-1", "ПРИМЕНЯЕТСЯ", "cоcтоянию", "«Интернет»",
]  # fmt: skip
_SEPARATORS = [" ", NBSP, "\n", " \t", "\u2009", "  \n  "]


@st.composite
def decorated_text(draw: st.DrawFn) -> tuple[list[str], str]:
    """Words joined by odd spaces, some in **bold** or with a soft hyphen inside."""
    chosen = draw(st.lists(st.sampled_from(_VOCAB), min_size=1, max_size=30))
    pieces = []
    for word in chosen:
        style = draw(st.sampled_from(["plain", "bold", "shy"]))
        if style == "bold":
            word = f"**{word}**"
        elif style == "shy" and len(word) > 3:
            word = word[:2] + SHY + word[2:]
        pieces.append(word + draw(st.sampled_from(_SEPARATORS)))
    return chosen, "".join(pieces)


@prop
@given(decorated_text(), st.data())
def test_a_quote_of_consecutive_words_is_found_verbatim(case: tuple[list[str], str], data: st.DataObject) -> None:
    chosen, section = case
    i = data.draw(st.integers(0, len(chosen) - 1))
    j = data.draw(st.integers(i + 1, len(chosen)))
    quote = " ".join(chosen[i:j]).replace("ё", "е").upper()
    found = locate(section, quote)
    assert found is not None
    assert normalize_text(found) == normalize_text(quote)  # the verbatim slice says the same


# --- speed ----------------------------------------------------------------------------------------

_PARAGRAPH = (
    "## Статья 5.\u00a0Права оператора\n\n**1.** Оператор обязан при сборе персональных данных, в том числе "
    "посредством информационно-телекоммуникационной сети «Интернет», обеспечить запись, систематизацию и "
    "извле\u00adчение персональных данных граждан Российской Федерации с использованием баз данных, "
    "находящихся на территории РФ, за исключением случаев, указанных в Федеральном законе от 27.07.2006 "
    "№\u00a0152\u2011ФЗ — учёт ведётся в [реестре](http://example.ru/a).\n| Поле | Значение |\n|---|---|\n"
    "| срок | 20<sup>1</sup> дней |\n\n"
)


def _sized(unit: str, size: int) -> str:
    return (unit * (size // len(unit) + 1))[:size]


def _cpu_seconds(fn: Callable[[str], object], text: str, repeats: int) -> float:
    """The fastest of ``repeats`` runs, in CPU seconds of this process: other processes' load does not count."""
    best = float("inf")
    for _ in range(repeats):
        start = time.process_time()
        fn(text)
        best = min(best, time.process_time() - start)
    return best


def _growth(fn: Callable[[str], object], unit: str, size: int = 40_000, factor: int = 8) -> float:
    """How much longer ``fn`` takes on ``factor`` times the input, measured in one run.

    Linear work grows about ``factor``-fold (n log n a little more), quadratic work ``factor**2``-fold.
    A slow or busy machine slows both sizes alike, so the ratio does not depend on its speed.
    """
    small, large = _sized(unit, size), _sized(unit, size * factor)
    fn(small)  # warm up lazily built tables and the allocator
    return _cpu_seconds(fn, large, repeats=3) / _cpu_seconds(fn, small, repeats=5)


# 8x the input: linear measures ~8, quadratic ~64. 20 leaves room for caches and allocation noise.
_LINEAR_AT_8X = 20.0


@pytest.mark.parametrize("fn", [normalize_text, normalize], ids=["normalize_text", "normalize"])
@pytest.mark.parametrize(
    "unit", [_PARAGRAPH, "a\n", "a  ", "[", "*_", "<b", "а-\nб", f"а{SHY}", "_a_ ", "|-", "а" * 50]
)
def test_time_grows_linearly_with_the_input(fn: Callable[[str], object], unit: str) -> None:
    """Real text and pathological runs (brackets, emphasis marks, hyphenation, soft hyphens) stay linear."""
    growth = _growth(fn, unit)
    assert growth < _LINEAR_AT_8X, f"8x the input took {growth:.1f}x the time: not linear"


def test_a_ten_megabyte_quote_is_normalized_whole() -> None:
    """No size limit inside normalization: a 10 MB text comes out as its paragraphs, normalized and joined."""
    count = 10_000_000 // len(_PARAGRAPH) + 1
    assert normalize_text(_PARAGRAPH * count) == " ".join([normalize_text(_PARAGRAPH)] * count)
