"""Words the layout broke are one word on the shelf, and honest quotes of them verify (``convert.wordbreaks``).

The PDF is drawn line by line with PyMuPDF so every line end, gap, page break and drop cap is known.
"""

from __future__ import annotations

from pathlib import Path

import pymupdf
import pytest
from pdfgen import find_dejavu_fonts

from docshelf.build.pipeline import DocOptions
from docshelf.convert import convert
from docshelf.convert.wordbreaks import Vocabulary, keeps_hyphen, without_unmapped
from docshelf.shelf import store as shelf
from docshelf.text.verify import verify_quote

_LEFT, _SIZE, _LEAD = 72.0, 11.0, 14.0


class _Pages:
    def __init__(self) -> None:
        self.doc = pymupdf.open()
        self.font = str(find_dejavu_fonts()[0])
        self.page: pymupdf.Page | None = None
        self.y = 0.0

    def new_page(self) -> None:
        self.page = self.doc.new_page()
        self.page.insert_font(fontname="dv", fontfile=self.font)
        self.y = 80.0

    def lines(self, *texts: str, x: float = _LEFT, gap: float = 0.0) -> None:
        assert self.page is not None
        self.y += gap
        for text in texts:
            self.page.insert_text((x, self.y), text, fontname="dv", fontsize=_SIZE)
            self.y += _LEAD

    def drop_cap(self, letter: str, *, top: float) -> None:
        assert self.page is not None
        self.page.insert_text((_LEFT, top + 36.0), letter, fontname="dv", fontsize=48.0)


@pytest.fixture(scope="module")
def broken_pdf(tmp_path_factory: pytest.TempPathFactory, fonts: None) -> Path:
    pages = _Pages()
    pages.new_page()
    pages.lines("1. STERILIZA-", "TION OF DEVICES AND FIN-", "WAIT STATES")
    pages.lines("The sterilization of devices is done daily by the", "staff and is recom-", gap=10)
    pages.lines("mended by the maker of each device.", gap=30)  # a paragraph's gap inside the word
    pages.lines("A cost-effective plan keeps the devices in service and is reviewed", "every year by the cost-")
    pages.new_page()  # a page break inside a real compound, written with its hyphen on page 1
    pages.lines("effective review board of the maker.")
    top = pages.y + 20
    pages.lines("he selection of controls follows the risk of each", "device in service.", x=_LEFT + 40, gap=20)
    pages.drop_cap("T", top=top - _SIZE)  # drawn after its text, as publishers' PDFs often do
    pages.lines("A retention period of seven\ufffdyears applies to the records.", gap=20)
    path = tmp_path_factory.mktemp("wordbreaks") / "broken-words.pdf"
    pages.doc.save(path)
    return path


@pytest.fixture(scope="module")
def broken_shelf(tmp_path_factory: pytest.TempPathFactory, broken_pdf: Path) -> Path:
    root = shelf.init(tmp_path_factory.mktemp("wordbreaks-shelf") / "shelf", name="Word breaks")
    shelf.add(root, [broken_pdf], DocOptions(source="", category="t", id="Device Rules"), progress=lambda _m: None)
    return root


def test_broken_words_are_one_word_in_the_converted_text(broken_pdf: Path) -> None:
    from docshelf.build.clean import clean

    converted = convert(broken_pdf.read_bytes(), name=broken_pdf.name)
    texts = [b.text for b in clean(converted.blocks)]
    whole = "\n".join(texts)
    assert "STERILIZATION OF DEVICES" in whole  # the document writes «sterilization» joined
    assert "FIN-WAIT STATES" in whole  # and never «finwait»: a compound in capitals keeps its hyphen
    assert "is recommended by the maker" in whole  # the paragraph gap inside the word is gone
    assert "by the cost-effective review board" in whole  # the page break inside a compound keeps it
    assert "The selection of controls" in whole and "\nT\n" not in f"\n{whole}\n"  # the drop cap, glued
    assert "seven years applies" in whole and "\ufffd" not in whole
    (unmapped,) = [w for w in converted.warnings if "no character" in w]
    assert "page(s) 2" in unmapped


@pytest.mark.parametrize(
    "quote",
    [
        "STERILIZATION OF DEVICES AND FIN-WAIT STATES",
        "staff and is recommended by the maker of each device",
        "reviewed every year by the cost-effective review board",
        "The selection of controls follows the risk of each device in service.",
        "A retention period of seven years applies to the records.",
    ],
)
def test_honest_quotes_of_broken_words_verify(broken_shelf: Path, quote: str) -> None:
    check = verify_quote(broken_shelf, quote, "Device Rules")
    assert check.verdict == "ok", check


@pytest.mark.parametrize(
    "quote",
    [
        "STERILIZA-TION OF DEVICES AND FIN-WAIT STATES",
        "done daily by the staff and is recom mended by the maker of each device",
        "T he selection of controls follows the risk of each device in service.",
        "A retention period of sevenyears applies to the records.",
    ],
)
def test_the_broken_forms_are_not_the_text(broken_shelf: Path, quote: str) -> None:
    assert verify_quote(broken_shelf, quote, "Device Rules").verdict == "not_found"


def test_a_hyphen_is_kept_on_the_documents_own_evidence() -> None:
    vocab = Vocabulary.of(["the sterilization of devices", "TLS-PSK and cost-effective"])
    assert not keeps_hyphen("STERILIZA-", "TION OF", vocab)  # joined elsewhere
    assert keeps_hyphen("TLS-", "PSK mode", vocab)  # written with the hyphen inside a line
    assert keeps_hyphen("FIN-", "WAIT", vocab)  # capitals never seen joined: kept, as before
    assert keeps_hyphen("№ 152-", "ФЗ", vocab) and keeps_hyphen("Inter-", "Domain", vocab)
    assert keeps_hyphen("cost-", "effective", vocab)
    assert not keeps_hyphen("recom-", "mended", vocab)


def test_an_unmapped_glyph_is_a_space_between_words() -> None:
    assert without_unmapped("seven\ufffdyears") == "seven years"
    assert without_unmapped("\ufffd Item one") == "Item one"
    assert without_unmapped("a \ufffd\ufffd b") == "a b"
    assert without_unmapped("plain") == "plain"
