"""The search analyzer and synonym matching: engine-free, fast."""

from __future__ import annotations

import pytest

from docshelf.errors import SearchError
from docshelf.text.analyzer import index_text, keys, query_tokens, snippet, token_spans, tokens
from docshelf.text.normalize import normalize_text, words
from docshelf.text.synonyms import parse

NBSP = "\u00a0"
SHY = "\u00ad"


def alts(text: str) -> list[tuple[str, ...]]:
    return [t.alts for t in query_tokens(text)]


@pytest.mark.parametrize(
    ("text", "indexed", "query"),
    [
        ("152-ФЗ", "152_фз 152 фз", [("152_фз",)]),
        (f"№{NBSP}152\u2011ФЗ", "152_фз 152 фз", [("152_фз",)]),  # NBSP, non-breaking hyphen
        ("УПД.1", "упд_1 упд", [("упд_1",)]),
        ("УПД.10", "упд_10 упд", [("упд_10",)]),
        ("3.2.1", "3_2_1", [("3_2_1",)]),
        ("10.2-1", "10_2_1", [("10_2_1",)]),
        ("ст. 18.1", "ст ст_18_1 18_1", [("ст_18_1",)]),  # «ст.» makes it an article key
        ("статьей 10.2-1", "стат ст_10_2_1 10_2_1", [("ст_10_2_1",)]),
        ("ст.12", "ст_12 ст", [("ст_12",)]),
        ("п. 3.2.1", "п п_3_2_1 3_2_1", [("п_3_2_1", "3_2_1")]),  # an item may be written without «п.»
        ("sha256", "sha256", [("sha256",)]),
    ],
)
def test_identifiers_are_exact_keys(text: str, indexed: str, query: list[tuple[str, ...]]) -> None:
    assert index_text(text) == indexed
    assert alts(text) == query


def test_identifier_kinds() -> None:
    kinds = {t.word: t.kind for t in tokens("152-ФЗ УПД.1 3.2.1 19 оператор ст. 5")}
    assert kinds == {"152-фз": "ident", "упд.1": "ident", "3.2.1": "number", "19": "number", "оператор": "word"} | {
        "ст": "word",
        "5": "ref",
    }


def test_short_tokens_are_never_stemmed() -> None:
    # Snowball would turn «ии» into «и», and «ИИ» would then match every «и» on the shelf.
    assert index_text("ИИ") == "ии"
    assert index_text("кии и ии") == "кии и ии"
    assert index_text("ИИ-системам") == "ии систем"  # a compound without digits splits into its parts


def test_short_capitals_keep_their_raw_form() -> None:
    assert index_text("О ПЕРСОНАЛЬНЫХ ДАННЫХ") == "о персональн дан данных"
    assert index_text("ИСПДн") == "испдн"
    assert index_text("данных") == "дан"  # lower case: the stem only


def test_yo_soft_hyphen_and_nbsp_fold_like_quote_verification() -> None:
    assert index_text("учёт") == index_text("учет") == "учет"
    assert index_text(f"инфор{SHY}мации") == index_text("информации")
    assert index_text(f"персональных{NBSP}данных") == index_text("персональных данных")


def test_inflections_share_a_key() -> None:
    forms = ["оператор", "оператора", "оператору", "операторы", "операторами"]
    assert len({index_text(f) for f in forms}) == 1
    assert index_text("extensions") == index_text("extension") == "extens"  # English words: Snowball English


def test_morphology_joined_by_the_default_synonyms() -> None:
    # Snowball gives «обязан» for «обязанности» but «обяза» for «обязан»: the dictionary joins them.
    concepts = parse(None).concepts(query_tokens("обязанности оператора"))
    text = set(index_text("оператор обязан").split())
    assert all(any(set(alt) <= text for alt in c.alts) for c in concepts)


def test_stopwords_leave_queries_only() -> None:
    assert keys("можно ли передавать данные за рубеж") == ["передава", "дан", "рубеж"]
    assert index_text("за рубеж") == "за рубеж"  # the index keeps them: phrases need them
    assert keys("и") == ["и"]  # nothing else left: keep what there is


def test_tokenizer_agrees_with_normalize_words() -> None:
    text = f"Статья 10.2-1. «Особенности» № 152‑ФЗ, УПД.1 и ИИ-системы: e-mail www.example.ru — учёт{SHY}а"
    norm = normalize_text(text)
    spans = dict.fromkeys((a, b) for a, b, _t in token_spans(norm))  # a compound's parts share its span
    assert [norm[a:b] for a, b in spans] == [w for w in words(text) if w != "№"]


@pytest.mark.parametrize("junk", ['"', "AND", "NOT ИИ", "*", "a:b", "😀", "(", "-", "." * 50, "\x00"])
def test_junk_never_raises(junk: str) -> None:
    index_text(junk)
    query_tokens(junk)


def test_snippet_is_verbatim_and_cut_at_spaces() -> None:
    body = "# Статья 12\n\n" + "Вводные слова. " * 20 + "Трансграничная передача ПДн идёт. " + "Хвост. " * 40
    wanted = [frozenset(index_text("трансграничная передача").split())]
    cut = snippet(body, wanted, width=120)
    assert "Трансграничная передача" in cut
    assert cut in body and len(cut) <= 120 + 80
    assert body[body.index(cut) - 1].isspace() and not cut.startswith("#")


def test_snippet_without_a_match_starts_the_body() -> None:
    assert snippet("# Заголовок\nПервое предложение текста.", [frozenset({"нет"})]) == "Первое предложение текста."


def test_synonym_phrase_matches_any_case_and_order() -> None:
    syn = parse(None)
    for query in ["Передача трансграничная", "ТРАНСГРАНИЧНОЙ ПЕРЕДАЧИ", "за рубеж"]:
        (concept,) = syn.concepts(query_tokens(query))
        assert ("трансграничн", "передач") in concept.alts, query


def test_shelf_synonyms_extend_or_replace_the_default() -> None:
    own = parse('{"котики": ["трансграничная передача"]}')
    (concept,) = own.concepts(query_tokens("котики"))
    assert ("трансграничн", "передач") in concept.alts
    assert own.concepts(query_tokens("за рубеж"))[0].alts != (("рубеж",),)  # the default is still there
    alone = parse('{"use_default_synonyms": false, "котики": ["кошки"]}')
    assert alone.concepts(query_tokens("за рубеж"))[0].alts == (("рубеж",),)


@pytest.mark.parametrize("text", ["[1, 2]", '{"a": 3}', '{"use_default_synonyms": "no"}', "{not json", '{"a": [1]}'])
def test_bad_synonyms_file_is_a_clear_error(text: str) -> None:
    with pytest.raises(SearchError, match=r"synonyms\.json"):
        parse(text)


@pytest.mark.parametrize(("key", "ref"), [("ст_18", True), ("п_3_2_1", True), ("ч_2", True), ("152_фз", False),
                                          ("3_2_1", False), ("упд_1", False), ("ст", False)])  # fmt: skip
def test_a_clause_reference_key_is_told_from_other_keys(key: str, ref: bool) -> None:
    from docshelf.text.analyzer import is_ref_key

    assert is_ref_key(key) is ref
