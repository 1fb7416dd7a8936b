"""Shared fixtures: generated PDFs, fresh shelves, and the real corpus (converted once per run)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pdfgen
import pytest

from docshelf.build.pipeline import DocOptions
from docshelf.shelf import store as shelf

REPO = Path(__file__).resolve().parents[1]
CORPUS = REPO.parent / "shared" / "corpus"


def corpus_file(rel: str) -> Path:
    """A file of the real corpus, or a clean skip when the corpus is not beside the checkout."""
    path = CORPUS / rel
    if not path.is_file():
        pytest.skip(f"corpus file {rel} not available (../shared/corpus is absent)")
    return path


@pytest.fixture(scope="session")
def fonts() -> None:
    try:
        pdfgen.find_dejavu_fonts()
    except pdfgen.FontNotFound as exc:
        pytest.skip(str(exc))


@pytest.fixture(scope="session")
def gen_dir(tmp_path_factory: pytest.TempPathFactory, fonts: None) -> Path:
    return tmp_path_factory.mktemp("generated")


@pytest.fixture(scope="session")
def regulation_pdf(gen_dir: Path) -> Path:
    return pdfgen.make_regulation_pdf(gen_dir / "regulation.pdf")


@pytest.fixture(scope="session")
def manual_pdf(gen_dir: Path) -> Path:
    return pdfgen.make_english_manual_pdf(gen_dir / "manual.pdf")


@pytest.fixture
def new_shelf(tmp_path: Path) -> Path:
    return shelf.init(tmp_path / "shelf", name="Test shelf")


@pytest.fixture(scope="session")
def regulation_shelf(tmp_path_factory: pytest.TempPathFactory, regulation_pdf: Path) -> Iterator[Path]:
    """A shelf holding the generated regulation (built once; tests must not modify it)."""
    root = shelf.init(tmp_path_factory.mktemp("regshelf") / "shelf", name="Regulation shelf")
    shelf.add(root, [regulation_pdf], DocOptions(source="", category="laws", id="999-ФЗ"), progress=lambda _m: None)
    yield root


# Files whose derived id would collide with another edition or format of the same act.
IDS = {
    "rfc4271.txt": "RFC 4271 (txt)",
    "Федеральный закон от 27.07.2006 № 152-ФЗ-О персональных данных.docx": "152-ФЗ (ред. 08.08.2024)",
    "102038209.html": "ВК РФ 1995",  # the repealed code: the one in force (102107048.html) is «ВК РФ»
}


@pytest.fixture(scope="session")
def corpus_shelf(tmp_path_factory: pytest.TempPathFactory) -> Path:
    if not CORPUS.is_dir():
        pytest.skip("../shared/corpus is absent")
    root = shelf.init(tmp_path_factory.mktemp("corpus") / "shelf", name="Corpus")
    for path in sorted(p for p in CORPUS.rglob("*") if p.is_file() and p.name != "SOURCES.md"):
        opts = DocOptions(source="", category=path.parent.parent.name, id=IDS.get(path.name, ""))
        shelf.add(root, [path], opts, progress=lambda _m: None)
    return root
