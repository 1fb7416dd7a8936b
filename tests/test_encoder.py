"""Search reranked by meaning (docshelf[encoder]): vectors computed once per text, a rerank that says when it cannot."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner
from test_search import _make_shelf

from docshelf.build.pipeline import DocOptions
from docshelf.cli import cli
from docshelf.errors import DocShelfError
from docshelf.shelf import gitrepo
from docshelf.shelf import store as shelf
from docshelf.text import encoder, search
from docshelf.text.sections import read_sections

needs_encoder = pytest.mark.skipif(not encoder.available(), reason="docshelf[encoder] is not installed")

LAW = """# О труде

## Статья 1. Расторжение договора по инициативе работника

1. Работник имеет право расторгнуть трудовой договор, предупредив об этом работодателя в письменной форме
не позднее чем за две недели.

## Статья 3. Отпуск

1. Ежегодный оплачиваемый отпуск предоставляется работнику продолжительностью двадцать восемь календарных дней.

## Статья 4. Испытание

1. Срок испытания не может превышать трех месяцев, а для руководителей организаций - шести месяцев.
"""
# Shares «работ…» and «приема/прием…» with every article, «испытание» with none: by words ст. 1 comes first.
QUESTION = "как долго меня могут проверять после приема на работу"


def test_chunks_keep_the_title_before_every_later_piece_and_drop_quote_lines() -> None:
    text = "# Статья 9. Сроки\n\n> 1-ФЗ · ст. 9\n\n" + " ".join(f"слово{i}" for i in range(250))
    pieces = encoder.chunks(text, words=100)
    assert len(pieces) == 3
    assert pieces[0].startswith("# Статья 9. Сроки слово0")
    assert all(p.startswith("Статья 9. Сроки\n") for p in pieces[1:])
    assert not any("1-ФЗ · ст. 9" in p for p in pieces)


def test_a_text_is_keyed_by_its_own_lines_not_by_its_breadcrumb() -> None:
    body = "# Статья 9. Сроки\n\nСрок - тридцать дней."
    first = body.replace("\n\nСрок", "\n\n> 152-ФЗ · ст. 9\n\nСрок")
    second = body.replace("\n\nСрок", "\n\n> 152-ФЗ (ред. 08.08.2024) · ст. 9\n\nСрок")
    assert encoder.text_key(first) == encoder.text_key(second)
    assert encoder.text_key(first) != encoder.text_key(first.replace("тридцать", "десять"))


@pytest.fixture
def labour(tmp_path: Path) -> Path:
    return _make_shelf(tmp_path / "shelf", [("labour.md", "laws", "ТК", LAW)])


def _order(root: Path, query: str) -> list[str]:
    return [h.clause for h in search.search(root, query).hits]


@needs_encoder
def test_embedding_once_per_text_and_only_the_new_texts_after_an_add(labour: Path) -> None:
    done, had = encoder.embed_commit(labour, gitrepo.resolve(labour), jobs=2)  # two worker processes; one writer
    assert had == 0 and done >= 3
    assert not gitrepo.is_dirty(labour)  # the store sits in the ignored cache folder
    assert encoder.embed_commit(labour, gitrepo.resolve(labour)) == (0, done)
    src = labour.parent / "src" / "more.md"
    src.write_text("# Об отдыхе\n\n## Статья 1. Праздники\n\n1. Нерабочими праздничными днями являются 1 января.\n",
                   encoding="utf-8")  # fmt: skip
    shelf.add(labour, [src], DocOptions(source="", category="laws", id="ФЗ-О"), progress=lambda _m: None)
    new, old = encoder.embed_commit(labour, gitrepo.resolve(labour), jobs=1)
    assert old == done and new >= 1
    store = encoder.VectorStore(encoder.store_path(labour))
    texts = {encoder.text_key(r.text) for r in read_sections(labour, gitrepo.resolve(labour))}
    assert store.has(texts) == texts
    store.close()


@needs_encoder
def test_the_rerank_puts_the_clause_that_answers_first(labour: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("DOCSHELF_ENCODER", "off")
    assert _order(labour, QUESTION)[0] == "ст. 1"  # by words alone
    monkeypatch.delenv("DOCSHELF_ENCODER")
    assert _order(labour, QUESTION)[0] == "ст. 1"  # not embedded yet: a shelf that never ran `embed` is unchanged
    encoder.embed_commit(labour, gitrepo.resolve(labour))
    result = search.search(labour, QUESTION)
    assert result.hits[0].clause == "ст. 4"
    assert "Not reordered by meaning" not in result.note


@needs_encoder
def test_a_query_naming_a_clause_is_not_reordered_by_meaning(labour: Path) -> None:
    encoder.embed_commit(labour, gitrepo.resolve(labour))
    # Reordered, these words would put ст. 4 first (the test above); the clause named stays first.
    assert _order(labour, "ст. 1 " + QUESTION)[0] == "ст. 1"


@needs_encoder
def test_sections_without_vectors_stop_the_rerank_and_the_note_says_what_to_run(labour: Path) -> None:
    encoder.embed_commit(labour, gitrepo.resolve(labour))
    src = labour.parent / "src" / "probation.md"
    src.write_text("# О службе\n\n## Статья 2. Испытание на службе\n\n1. Испытание на работе длится три месяца.\n",
                   encoding="utf-8")  # fmt: skip
    shelf.add(labour, [src], DocOptions(source="", category="laws", id="ФЗ-С"), progress=lambda _m: None)
    result = search.search(labour, QUESTION)
    assert "Not reordered by meaning: 1 of the top" in result.note
    assert "run `docshelf embed`" in result.note


@needs_encoder
def test_the_embed_command_reports_what_it_computed(labour: Path) -> None:
    runner = CliRunner()
    first = runner.invoke(cli, ["embed", "--shelf", str(labour)])
    assert first.exit_code == 0, first.output
    assert "already had vectors" in first.output and "embedded 0 " not in first.output
    again = runner.invoke(cli, ["embed", "--shelf", str(labour)])
    assert "embedded 0 section texts" in again.output
    src = labour.parent / "src" / "more.md"
    src.write_text("# Об отдыхе\n\n## Статья 1. Праздники\n\n1. Праздничный день - 1 января.\n", encoding="utf-8")
    added = runner.invoke(cli, ["add", str(src), "--shelf", str(labour), "--id", "ФЗ-О"])
    assert added.exit_code == 0, added.output
    assert "run `docshelf embed` for the new sections" in added.output  # stderr: the shelf reranks by meaning


def test_without_the_extra_embed_says_what_to_install(labour: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(encoder, "_installed", lambda: False)  # what the default install sees
    with pytest.raises(DocShelfError, match=r"pip install 'docshelf\[encoder\]'"):
        encoder.embed_commit(labour, gitrepo.resolve(labour))
    assert not encoder.available()
    assert search.search(labour, QUESTION).hits[0].clause == "ст. 1"  # search is unchanged


def test_turned_off_embed_says_how_to_turn_it_on(labour: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("DOCSHELF_ENCODER", "off")
    monkeypatch.setattr(encoder, "_installed", lambda: True)
    with pytest.raises(DocShelfError, match="unset it"):
        encoder.embed_commit(labour, gitrepo.resolve(labour))


@needs_encoder
def test_a_store_that_cannot_be_written_is_an_error_that_says_so(labour: Path) -> None:
    encoder.store_path(labour).parent.mkdir(exist_ok=True)
    encoder.store_path(labour).mkdir()  # a folder where the file should be
    with pytest.raises(DocShelfError, match="Cannot write the vector store"):
        encoder.embed_commit(labour, gitrepo.resolve(labour))


@needs_encoder
def test_prune_keeps_only_the_commits_texts(labour: Path) -> None:
    src = labour.parent / "src" / "more.md"
    src.write_text("# Об отдыхе\n\n## Статья 1. Праздники\n\n1. Праздничный день - 1 января.\n", encoding="utf-8")
    shelf.add(labour, [src], DocOptions(source="", category="laws", id="ФЗ-О"), progress=lambda _m: None)
    with_more = gitrepo.resolve(labour)
    encoder.embed_commit(labour, with_more)
    shelf.remove(labour, ["ФЗ-О"])
    head = gitrepo.resolve(labour)
    result = CliRunner().invoke(cli, ["embed", "--shelf", str(labour), "--prune"])
    assert result.exit_code == 0, result.output
    assert "embedded 0 section texts" in result.output
    gone = int(result.output.split("pruned ")[1].split()[0])
    assert gone >= 1
    kept = {encoder.text_key(r.text) for r in read_sections(labour, head)}
    old = {encoder.text_key(r.text) for r in read_sections(labour, with_more)} - kept
    store = encoder.VectorStore(encoder.store_path(labour))
    assert (store.has(kept), store.has(old)) == (kept, set())
    store.close()
    assert gone == len(old)


_OMP_THREADS = """
import ctypes
from docshelf.text import encoder
encoder.passages(["проверка"])  # loads the engine
print(ctypes.CDLL("libgomp.so.1").omp_get_max_threads())
"""


@needs_encoder
@pytest.mark.parametrize(("setting", "expected"), [(None, 1), ("2", 2)])
def test_the_bundled_model_runs_on_the_threads_it_is_given(setting: str | None, expected: int) -> None:
    """One thread a process unless DOCSHELF_ENCODER_THREADS says more: `embed --jobs N` then takes N cores,
    not N × every core (the engine's OpenMP default)."""
    env = {k: v for k, v in os.environ.items() if k not in ("OMP_NUM_THREADS", encoder.THREADS_ENV)}
    if setting is not None:
        env[encoder.THREADS_ENV] = setting
    out = subprocess.run([sys.executable, "-c", _OMP_THREADS], env=env, capture_output=True, text=True, check=True)
    assert out.stdout.split() == [str(expected)]


def test_a_thread_count_that_is_no_number_is_refused_with_what_to_set(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(encoder.THREADS_ENV, "all")
    with pytest.raises(DocShelfError, match="whole number"):
        encoder.threads()
    monkeypatch.setenv(encoder.THREADS_ENV, "3")
    assert encoder.threads() == 3
