"""The shipped synonym dictionary is data under test: checked against itself and against the corpus it serves,
its members matched by lemma, and a query's numbers told apart from the ids that keep it in word order."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from docshelf.shelf import gitrepo
from docshelf.text import encoder, lemmas, ranking, search, synonymcheck, synonyms
from docshelf.text.analyzer import index_text, query_tokens
from docshelf.text.indexcache import open_index
from docshelf.text.searchindex import Ranked
from docshelf.text.synonyms import Concept


def _concepts(dictionary: dict[str, list[str]], query: str) -> list[Concept]:
    own = json.dumps({"use_default_synonyms": False, **dictionary}, ensure_ascii=False)
    return synonyms.parse(own).concepts(query_tokens(query))


def _group_of(concepts: list[Concept], word: str) -> Concept:
    return next(c for c in concepts if word in c.label)


# --- the checks themselves can fail -------------------------------------------------------------


def test_numbered_instances_are_caught() -> None:
    levels = {"use_default_synonyms": False, "уровень": ["УЗ-1", "УЗ-2", "уровень защищенности"]}
    syn = synonyms.parse(json.dumps(levels))
    assert synonymcheck.numbered_instances(syn) == ["«УЗ-1» and «УЗ-2» (group «уровень») are two numbered instances"]
    alone = synonyms.parse(json.dumps({"use_default_synonyms": False, "OAuth": ["OAuth2"]}))
    assert synonymcheck.numbered_instances(alone) == []  # one version of a name is not two levels


def test_members_heading_two_sections_of_one_document_are_caught() -> None:
    syn = synonyms.parse(json.dumps({"use_default_synonyms": False, "awareness": ["security training"]}))
    titles = [("sp", "AT-2 Awareness", 1), ("sp", "AT-3 Security Training (1/2)", 2)]
    titles.append(("sp", "AT-3 Security Training (2/2)", 2))
    assert synonymcheck.headed_apart(syn, titles) == [
        "«awareness» and «security training» (group «awareness») head different sections of sp"
    ]
    # the parts of one split section are one section; another document's headings say nothing of this one
    assert synonymcheck.headed_apart(syn, [("sp", "Awareness (1/2)", 5), ("sp", "Security training", 5)]) == []
    assert synonymcheck.headed_apart(syn, [("a", "Awareness", 1), ("b", "Security training", 2)]) == []


# --- the shipped dictionary ---------------------------------------------------------------------


def test_the_shipped_dictionary_has_no_numbered_instances() -> None:
    assert synonymcheck.numbered_instances(synonyms.parse(None)) == []


def test_members_the_issue_named_wrong_are_gone() -> None:
    data = synonyms.default_dictionary()
    assert "renegotiation" not in data["post-handshake authentication"]
    assert not {"IAL2", "IAL3"} & set(data["identity assurance level"])


def test_the_shipped_dictionary_against_the_corpus(corpus_shelf: Path) -> None:
    """Every group is said somewhere on the corpus; no two members of a group head two of one document's sections."""
    index = open_index(corpus_shelf, gitrepo.resolve(corpus_shelf))
    rows = index.keys(range(1, index.total() + 1))
    syn = synonyms.parse(None)
    unsaid = [
        g[0].text for g in syn.groups if all(ranking.df(index, Concept(p.text, (p.seq,), False, 0, 0)) == 0 for p in g)
    ]
    assert unsaid == []
    titles = [(k.doc_key, k.title, k.run or rowid) for rowid, k in rows.items()]
    assert synonymcheck.headed_apart(syn, titles) == []


# --- members by lemma ---------------------------------------------------------------------------


def test_a_member_in_the_nominative_matches_the_inflected_word_snowball_stems_apart() -> None:
    assert lemmas.available()
    assert query_tokens("лимит")[0].key != query_tokens("лимита")[0].key  # why stems alone miss it
    concept = _group_of(_concepts({"лимит": ["предельное значение"]}, "превышение лимита штрафа"), "лимита")
    assert ("предельн", "значен") in concept.alts


def test_a_multi_word_member_matches_in_any_form_and_order() -> None:
    concept = _group_of(_concepts({"ИСПДн": ["информационная система персональных данных"]},
                                  "в информационных системах персональных данных"), "информационных")  # fmt: skip
    assert ("испдн",) in concept.alts
    concept = _group_of(_concepts({"срок хранения": ["хранить долго"]}, "долго ли хранят"), "долго")
    assert ("срок", "хранен") in concept.alts


def test_a_member_that_fired_is_searched_in_the_forms_the_text_uses() -> None:
    concept = _group_of(_concepts({"лимит": ["норматив"]}, "какой лимит"), "лимит")
    text_keys = set(index_text("превышение нормативов и лимита").split())
    assert any(set(alt) <= text_keys for alt in concept.alts if alt != ("лим",))


# --- ids and numbers ----------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("query", "named"),
    [
        ("что изменилось в 2022 году", []),
        ("IAL2 requirements", []),
        ("3 дня на ответ", []),
        ("ст. 19 152-ФЗ", ["19", "152-фз"]),
        ("УПД.1", ["упд.1"]),
        ("требования 3.1.1", ["3.1.1"]),
    ],
)
def test_only_clause_and_act_ids_keep_a_query_in_word_order(query: str, named: list[str]) -> None:
    said = synonyms.parse(None).concepts(query_tokens(query))
    assert [c.label for c in said if synonyms.names_an_id(c)] == named


def test_a_year_in_a_question_leaves_the_meaning_rerank_on(
    regulation_shelf: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    asked: list[str] = []

    def reranked(root: Path, text: str, ranked: Ranked, index: object) -> tuple[Ranked, str]:
        asked.append(text)
        return ranked, ""

    monkeypatch.setattr(encoder, "available", lambda: True)
    monkeypatch.setattr(encoder, "reranked", reranked)
    search.search(regulation_shelf, "какие данные обрабатывались в 2022 году")
    search.search(regulation_shelf, "ст. 3 обработка данных")
    assert asked == ["какие данные обрабатывались в 2022 году"]


def test_the_shipped_lemma_table_is_what_the_analyzer_reads_now() -> None:
    """Regenerate with `python -m docshelf.text.lemmas` after editing the dictionary or upgrading pymorphy3."""
    shipped = json.loads((Path(lemmas.__file__).parents[1] / "data" / lemmas.SHIPPED).read_text(encoding="utf-8"))
    assert shipped == lemmas.default_table()
    assert lemmas.lemma_keys("лимита") == {"~лимит"}  # a word outside the table is read by the analyzer


def test_the_analysed_dictionary_kept_in_the_index_is_the_one_parsed() -> None:
    """A one-shot search reads the analysed synonym groups from the index instead of analysing the dictionary
    again: what is kept reads back equal, a shelf's own file included."""
    shelf_text = json.dumps({"двухфакторная аутентификация": ["2FA", "два фактора"]}, ensure_ascii=False)
    for text in (None, shelf_text):
        parsed = synonyms.parse(text)
        assert synonyms.loads(synonyms.dumps(parsed)) == parsed
