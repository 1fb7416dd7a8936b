"""What a model reads is right: ids as people write them, edition status on every surface, lean text.

Unit tests of the name reading run everywhere; the corpus tests use the shelf converted once per run
(tests/conftest.py) and skip without ../shared/corpus; the status tests also run on a generated act.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from mcp import Client

from docshelf.build.pipeline import DocOptions
from docshelf.errors import SectionNotFoundError
from docshelf.law import docnames
from docshelf.server.app import build_instructions, create_server
from docshelf.server.guide import answer_steps
from docshelf.server.pin import Pin
from docshelf.shelf import reader
from docshelf.shelf import store as shelf
from docshelf.text import cited, verify
from docshelf.text.search import search

SHELF_IDS = {
    "NIST SP 800-53 Rev. 3": "Recommended Security Controls",
    "NIST SP 800-53A": "",
    "ГОСТ 7.32-2017": "",
    "OWASP ASVS 4.0.3": "",
    "OWASP ASVS 5.0.0": "",
    "Приказ ФСТЭК № 17": "",
    "NIST SP 800-218": "Secure Software Development Framework (SSDF) Version 1.1",
    "NIST.AI.100-1": "Artificial Intelligence Risk Management Framework (AI RMF 1.0)",
    "ISO/IEC 27001:2022": "",
}


def _named(text: str) -> list[tuple[str, ...]]:
    docs = [(i, docnames.names(i, t)) for i, t in SHELF_IDS.items()]
    return [n.doc_ids for n in docnames.named_in(text, docs)]


@pytest.mark.parametrize(
    ("text", "named"),
    [
        ("SP 800-53 AC-7", [("NIST SP 800-53 Rev. 3",)]),  # no revision, no publisher
        ("NIST 800-53 AC-2", [("NIST SP 800-53 Rev. 3",)]),
        ("800-53 AC-2", [("NIST SP 800-53 Rev. 3",)]),  # a dashed number alone
        ("SP 800-53A", [("NIST SP 800-53A",)]),  # a letter makes another publication
        ("ГОСТ 7.32 п. 5.1", [("ГОСТ 7.32-2017",)]),  # no year
        ("ГОСТ 7.321", []),
        ("ФСТЭК № 17 п. 3", [("Приказ ФСТЭК № 17",)]),
        ("Приказ ФСТЭК № 172", []),  # a longer number is another order
        ("ASVS V2.1.1", [("OWASP ASVS 4.0.3", "OWASP ASVS 5.0.0")]),  # both versions: both named
        ("OWASP ASVS 5.0 session timeout", [("OWASP ASVS 5.0.0",)]),  # a version by its first two parts
        ("ASVS 4.0 V2.1.1", [("OWASP ASVS 4.0.3",)]),
        ("ГОСТ 7.3 п. 5", []),  # two parts are the whole version: nothing shorter
        ("SSDF PO.1", [("NIST SP 800-218",)]),  # the acronym its title gives it
        ("AI RMF 1.0 GOVERN 1.1", [("NIST.AI.100-1",)]),
        ("ISO 27001 6.1.2", [("ISO/IEC 27001:2022",)]),  # a standard of two bodies by either one
        ("ISO/IEC 27001 A.5.1", [("ISO/IEC 27001:2022",)]),
        ("ISO 27002 5.1", []),
    ],
)
def test_a_document_is_named_by_its_short_forms_and_by_nothing_longer(text: str, named: list[tuple[str, ...]]) -> None:
    assert _named(text) == named


def test_a_number_is_on_the_shelf_only_as_a_whole_number() -> None:
    assert docnames.number_named("7.32", docnames.names("ГОСТ 7.32-2017"))
    assert docnames.number_named("152", docnames.names("152-ФЗ (ред. 08.08.2024)"))
    assert not docnames.number_named("17", docnames.names("Приказ ФСТЭК № 172"))
    assert not docnames.number_named("7.3", docnames.names("ГОСТ 7.32-2017"))


# --- on the corpus shelf ------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("query", "doc_id"),
    [
        ("SP 800-53 unsuccessful login attempts", "NIST SP 800-53 Rev. 3"),
        ("ГОСТ 7.32 титульный лист", "ГОСТ 7.32-2017"),
        ("закон 152 согласие субъекта", "152-ФЗ"),
        ("800-171 3.6.2 incident", "NIST SP 800-171 Rev. 1"),
    ],
)
def test_a_short_form_in_a_query_reaches_its_document_without_the_absent_banner(
    corpus_shelf: Path, query: str, doc_id: str
) -> None:
    result = search(corpus_shelf, query, limit=3)
    assert "on the shelf" not in result.note, result.note
    assert result.hits[0].doc_id.startswith(doc_id), [h.doc_id for h in result.hits]


@pytest.mark.parametrize(
    "query",
    ["по 152-ФЗ что такое обезличивание", "что в 152-ФЗ сказано про обезличивание", "152-ФЗ обезличивание"],
)
def test_the_words_after_a_named_document_stay_in_the_query(corpus_shelf: Path, query: str) -> None:
    """A document's name replaces its own words only, wherever stopwords stand before it."""
    result = search(corpus_shelf, query, limit=5)
    # with the word dropped, every article of 152-ФЗ matched alike and ст. 3 (its definition) was not in the top 5
    assert any(h.clause == "ст. 3" and "обезличив" in h.snippet for h in result.hits), [
        (h.doc_id, h.clause) for h in result.hits
    ]
    assert all(h.doc_id.startswith("152-ФЗ") for h in result.hits)


@pytest.mark.parametrize(
    ("query", "named"),
    [
        ("гражданский служащий обязанности по 152-ФЗ", "152-ФЗ"),  # 58-ФЗ says «гражданский служащий» most
        ("OWASP ASVS 5.0 session termination", "OWASP ASVS 5.0.0"),  # not 4.0.3's V3.3 Session Termination
    ],
)
def test_the_document_a_question_names_ranks_first(corpus_shelf: Path, query: str, named: str) -> None:
    hits = search(corpus_shelf, query, limit=5).hits
    assert [h.doc_id for h in hits if not h.doc_id.startswith(named)] == []


def test_a_document_the_shelf_lacks_keeps_its_banner_and_a_shared_short_form_names_every_candidate(
    corpus_shelf: Path,
) -> None:
    absent = search(corpus_shelf, "приказ ФСТЭК № 117 требования", limit=3)
    assert "No document приказ ФСТЭК № 117 on the shelf" in absent.note and absent.low_confidence
    shared = search(corpus_shelf, "ASVS password length", limit=3)
    assert "«ASVS» names 3 documents: " in shared.note
    for doc_id in ("OWASP ASVS 4.0.3", "OWASP ASVS 5.0.0", "OWASP ASVS 4.0.3 (ru)"):
        assert doc_id in shared.note


def test_verify_quote_and_fetch_read_a_short_form_as_the_document(corpus_shelf: Path) -> None:
    gost = verify.verify_quote(
        corpus_shelf,
        "Титульный лист является первой страницей отчета о НИР и служит источником информации",
        "ГОСТ 7.32 п. 5.1.1",
    )
    assert (gost.verdict, gost.doc_id, gost.clause) == ("ok", "ГОСТ 7.32-2017", "п. 5.1.1")
    control = cited.fetch_ref(corpus_shelf, "SP 800-53 AC-7")
    assert (control.doc_id, control.clause) == ("NIST SP 800-53 Rev. 3", "AC-7")
    assert "consecutive invalid login attempts" in control.text


REPEALED = "ВК РФ 1995"  # its own text opens «Утратил силу - Федеральный закон от 03.06.2006 г. N 73-ФЗ»
SAYS = "по собственному тексту утратил силу (дата не записана)"
ARTICLE_11 = "Поверхностные водоемы - поверхностные водные объекты, воды которых находятся в состоянии замедленного"


def test_a_code_whose_text_says_it_is_repealed_says_so_on_every_surface(corpus_shelf: Path) -> None:
    meta = next(m for m in shelf.metas(corpus_shelf) if m.id == REPEALED)
    root_index = reader.shown_index(reader.read_index(corpus_shelf))
    (entry,) = [line for line in root_index.splitlines() if f"]({meta.entry})" in line]
    assert entry.endswith(f"· **{SAYS}**")
    (other,) = [line for line in root_index.splitlines() if "): ВК РФ · " in line]
    assert "**" not in other  # the code in force carries no status line
    sub = reader.shown_index(reader.read_index(corpus_shelf, meta.entry)).splitlines()
    assert sub[2].startswith(f"> {REPEALED} · ") and sub[2].endswith(f"· **{SAYS}**")
    hits = search(corpus_shelf, "поверхностные водоемы замедленного водообмена", status="repealed").hits
    assert hits and {h.doc_id for h in hits} == {REPEALED}
    assert (hits[0].status, hits[0].status_label) == ("repealed", SAYS)
    fetched = cited.fetch_ref(corpus_shelf, f"{REPEALED} ст. 11")
    assert fetched.status["code"] == "repealed" and fetched.warning and SAYS in fetched.warning
    check = verify.verify_quote(corpus_shelf, ARTICLE_11, f"{REPEALED} ст. 11")
    assert check.verdict == "ok" and check.status["code"] == "repealed"
    assert check.notes[0].startswith(f"Внимание: {REPEALED}") and SAYS in check.notes[0]


def test_a_generated_act_that_says_it_lost_force_is_repealed_until_its_date_is_recorded(new_shelf: Path) -> None:
    src = new_shelf.parent / "act.md"
    src.write_text(
        "# О порядке учёта\n\nУтратил силу - Федеральный закон от 01.02.2020 г. N 1-ФЗ\n\n"
        "## Статья 1. Предмет\n\nНастоящий закон устанавливает порядок учёта документов в архивах организаций.\n",
        encoding="utf-8",
    )
    (doc,) = shelf.add(new_shelf, [src], DocOptions("", "laws", "Закон об учёте"), progress=lambda _m: None)
    assert doc.meta.edition["stated_repealed"].startswith("Утратил силу")
    found = search(new_shelf, "порядок учёта документов", status="repealed")
    assert [h.doc_id for h in found.hits] == ["Закон об учёте"] and found.hits[0].status_label == SAYS
    assert search(new_shelf, "порядок учёта документов", status="in_force").hits == []


@pytest.fixture
def anyio_backend() -> str:
    return "asyncio"


@pytest.mark.anyio
async def test_read_index_over_mcp_shows_the_status_in_the_entry_not_as_a_separate_line(corpus_shelf: Path) -> None:
    async with Client(create_server(corpus_shelf, pin=Pin.at(corpus_shelf), audit=None)) as client:
        result = await client.call_tool("read_index", {})
    text = result.content[0].text
    assert f"{REPEALED} · " in text and f"· **{SAYS}**" in text
    assert f"\n[{REPEALED}:" not in text  # once, beside its entry
    assert any(s["id"] == REPEALED and s["status"] == "repealed" for s in result.structured_content["statuses"])


def test_instructions_carry_english_and_russian_citations_and_what_a_document_level_ok_means() -> None:
    text = build_instructions(["read_index", "fetch", "search", "verify_quote"])
    for example in ("152-ФЗ ст. 19 ч. 2", "NIST SP 800-63A §5.3.2", "NIST SP 800-171r1 3.6.2", "<path>#AC-7"):
        assert example in text
    assert "level document" in text and "fetch_ref" in text and "call_id" not in text
    steps = answer_steps("Сколько хранить?", None)
    assert "NIST SP 800-171r1 3.6.2" in steps and "call_id" not in steps


# --- paths that outlive editions ------------------------------------------------------------------------


def _act(articles: list[tuple[str, str, str]]) -> str:
    # Long enough to be split into a file per article: the numbers in the file names move.
    filler = "Порядок применения настоящей статьи определяется уполномоченным органом. " * 30
    body = "".join(f"## Статья {n}. {title}\n\n{text}\n\n{filler}\n\n" for n, title, text in articles)
    return f"# О хранении документов\n\n{body}"


ARTICLES = [
    ("1", "Предмет", "Настоящий закон регулирует хранение документов организаций в архивах."),
    ("2", "Сроки", "Документы по личному составу хранятся в течение пятидесяти лет со дня их создания."),
    ("3", "Уничтожение", "Документы уничтожаются по акту комиссии после истечения сроков их хранения."),
]
INSERTED = ("1.1", "Понятия", "Архив есть структурное подразделение, хранящее документы организации.")
QUOTE_3 = "Документы уничтожаются по акту комиссии после истечения сроков их хранения"


def test_a_path_of_an_earlier_edition_reads_the_section_holding_the_same_clause_now(new_shelf: Path) -> None:
    src = new_shelf.parent / "law.md"
    src.write_text(_act(ARTICLES), encoding="utf-8")
    quiet = DocOptions("", "laws", "1-ФЗ")
    shelf.add(new_shelf, [src], quiet, progress=lambda _m: None)
    old = next(s.path for m in shelf.metas(new_shelf) for s in m.sections if s.clause == "ст. 3")
    src.write_text(_act([ARTICLES[0], INSERTED, *ARTICLES[1:]]), encoding="utf-8")
    shelf.add(new_shelf, [src], quiet, update=True, progress=lambda _m: None)
    new = next(s.path for m in shelf.metas(new_shelf) for s in m.sections if s.clause == "ст. 3")
    assert new != old  # the inserted article renumbered the files
    fetched = reader.fetch(new_shelf, old)
    assert (fetched.path, fetched.moved_from, fetched.clauses) == (new, old, ["ст. 3"])
    assert QUOTE_3 in fetched.text and new in fetched.note and "1-ФЗ ст. 3" in fetched.note
    check = verify.verify_quote(new_shelf, QUOTE_3, old)
    assert (check.verdict, check.path) == ("ok", new) and any(new in n for n in check.notes)
    # A path that never existed is not redirected; the nearest paths offered are the same document's.
    with pytest.raises(SectionNotFoundError) as err:
        reader.fetch(new_shelf, old.rsplit("/", 1)[0] + "/099-statia-99-nichego.md")
    near = str(err.value).split("Nearest: ", 1)[1]
    assert all(p.startswith(old.rsplit("/", 1)[0] + "/") for p in near.rstrip(".").split(", "))


# --- warm from the first call -------------------------------------------------------------------------


def test_after_prepare_the_first_calls_read_nothing_the_preparation_did_not(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Measured as steps, not seconds: once the commit is prepared, its caches miss no more and no index is built."""
    from docshelf.demo.walk import build_demo_shelf
    from docshelf.shelf import gitrepo
    from docshelf.text import indexcache, lawtext, lemmas, warmup

    root = build_demo_shelf(tmp_path / "demo")
    commit = gitrepo.resolve(root)
    warmup.prepare(root, commit)
    builds: list[str] = []
    real = indexcache.make_index
    monkeypatch.setattr(indexcache, "make_index", lambda *a: builds.append(a[1]) or real(*a))
    caches = (verify._shelf_text, reader.metas_at, lawtext.sections_at, lemmas._analyzer)  # the morphology too
    before = [c.cache_info().misses for c in caches]
    doc = next(m.id for m in reader.metas_at(root, commit) if len(m.sections) > 1)
    assert search(root, "хранение сведений о нарушителях", at=commit).hits
    check = verify.verify_quote(root, "слова которых нет ни в одном документе этой полки", doc, at=commit)
    assert check.verdict == "not_found"  # read every section of the document: the scan prepared
    assert [c.cache_info().misses for c in caches] == before and builds == []


# --- hits say what they show ------------------------------------------------------------------------


def test_other_parts_are_the_sections_one_clause_runs_through_not_another_section_with_its_label() -> None:
    from docshelf.text import folding
    from docshelf.text.searchindex import KeyRow

    def row(path: str, run: int, continued: bool) -> KeyRow:
        words = "таблиц сопоставлен требован"
        return KeyRow("", "", "", words, continued, path, "Appendix D", "Appendix D", "X", "x", "{}", False, run)

    keys = {1: row("047-appendix-d.md", 1, False), 2: row("048-appendix-d.md", 1, True),
            9: row("090-appendix-d.md", 9, False)}  # fmt: skip
    groups = folding.fold([2, 9, 1], keys)
    assert [g.rowids for g in groups] == [[2, 1], [9]]


# --- lean indexes ---------------------------------------------------------------------------------------


def test_a_control_of_sp_800_53_is_three_index_reads_away(corpus_shelf: Path) -> None:
    """index.md → the publication's subindex → a page of controls → the control: no page of pages between."""
    from docshelf.shelf import gitrepo

    meta = next(m for m in shelf.metas(corpus_shelf) if m.id == "NIST SP 800-53 Rev. 3")
    folder = meta.entry.rsplit("/", 1)[0]
    pages = [
        p for p in gitrepo.list_files(corpus_shelf, gitrepo.resolve(corpus_shelf), folder) if p.endswith("subindex.md")
    ]
    assert max(p.count("/") for p in pages) == meta.entry.count("/") + 1
    top = reader.read_index(corpus_shelf, meta.entry).text
    ac = next(line for line in top.splitlines() if "AC-1–AT-5" in line)  # the access-control family's page
    page = reader.read_index(corpus_shelf, ac.split("](/", 1)[1].split(")", 1)[0]).text
    assert "AC-7" in page
    assert sum(line.count(meta.title) for line in top.splitlines()) == 1  # the long title heads the page once


def test_prepare_loads_the_morphology_an_english_shelf_s_first_query_would_not(tmp_path: Path) -> None:
    """The index keeps the synonyms analysed, so reading them loads no morphology: ``prepare`` loads it, else the
    first Russian question after ready pays for it (seven times a warm search, measured by ``bench/firstcall.py``)."""
    from docshelf.shelf import gitrepo
    from docshelf.text import lemmas, warmup

    source = tmp_path / "guide.md"
    source.write_text("# Guide\n\n## 1 Scope\n\nThe operator keeps the event log for one year.\n", encoding="utf-8")
    root = shelf.init(tmp_path / "shelf")
    shelf.add(root, [source], DocOptions(source="", category="t", id="Guide 1"), progress=lambda _m: None)
    lemmas._analyzer.cache_clear()
    warmup.prepare(root, gitrepo.resolve(root))
    assert lemmas._analyzer.cache_info().currsize == 1
