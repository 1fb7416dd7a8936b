"""Conversion speed: DocShelf's PDF build vs raw PyMuPDF text and pymupdf4llm layout, in one run.

Prints pages/second (CPU time of this process) for each engine on each PDF and the ratios
DocShelf/raw and DocShelf/layout. Absolute numbers on a shared machine are noise; ratios are not.

    python bench/convert.py                      # the corpus PDFs (../shared/corpus) + a generated 100-page law
    python bench/convert.py --layout-max-pages 30 --skip-corpus
"""

from __future__ import annotations

import argparse
import contextlib
import importlib.util
import io
import re
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

import pymupdf

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO / "tests"))
sys.path.insert(0, str(REPO))

from docshelf.build.options import ShelfConfig  # noqa: E402
from docshelf.build.pipeline import DocOptions, build_document  # noqa: E402


def cpu(fn: Callable[[], object]) -> float:
    start = time.process_time()
    fn()
    return time.process_time() - start


def raw_text(path: Path) -> None:
    with pymupdf.open(path) as doc:
        for page in doc:
            page.get_text()


def docshelf_build(path: Path) -> None:
    build_document(path.read_bytes(), DocOptions(source=path.name), ShelfConfig())


def layout(path: Path, max_pages: int) -> int:
    import pymupdf4llm

    with pymupdf.open(path) as doc, contextlib.redirect_stdout(io.StringIO()):
        pages = list(range(min(doc.page_count, max_pages)))
        pymupdf4llm.use_layout(True)
        pymupdf4llm.to_markdown(doc, pages=pages, page_chunks=True, use_ocr=False)
    return len(pages)


_ARTICLE = re.compile(r"^\s*Статья\s+(\d+(?:\.\d+)*(?:-\d+)?)(?:\.|\s*$)", re.M)
LAWS = ("ФЗ152.pdf", "ФЗ187.pdf", "ФP149.pdf", "58-ФЗ.pdf", "79-ФЗ.pdf")


def article_recall(path: Path, engine: str) -> tuple[int, int, float]:
    """(articles in the source, articles found as headings, CPU seconds) for one engine."""
    from docshelf.build.clean import clean
    from docshelf.build.structure import find_headings
    from docshelf.convert import convert

    with pymupdf.open(path) as doc:
        raw = "\n".join(page.get_text() for page in doc).replace("\u00a0", " ")
    want = {n.replace(".", "") for n in _ARTICLE.findall(raw)}  # plain text flattens «20¹» to «201»
    start = time.process_time()
    with contextlib.redirect_stdout(io.StringIO()):
        blocks = clean(convert(path.read_bytes(), name=path.name, pdf_engine=engine).blocks)
    spent = time.process_time() - start
    got = {h.number.replace(".", "") for h in find_headings(blocks) if h.kind == "statya"}
    return len(want), len(want & got), spent


def quality(corpus: Path) -> None:
    print(
        f"\n{'law':14} {'articles':>8} {'docshelf found':>15} {'layout found':>13} {'docshelf s':>11} {'layout s':>9}"
    )
    for name in LAWS:
        path = next(corpus.rglob(name))
        n, own, t_own = article_recall(path, "docshelf")
        _n, lay, t_lay = article_recall(path, "layout")
        print(f"{name:14} {n:8d} {own:15d} {lay:13d} {t_own:11.1f} {t_lay:9.1f}")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--layout-max-pages", type=int, default=20, help="pages per PDF given to the slow layout engine")
    ap.add_argument("--skip-corpus", action="store_true")
    ap.add_argument("--quality", action="store_true", help="also compare article-heading recall with the layout engine")
    args = ap.parse_args()
    pdfs: list[Path] = []
    corpus = REPO.parent / "shared" / "corpus"
    if corpus.is_dir() and not args.skip_corpus:
        pdfs += sorted(corpus.rglob("*.pdf"))
    import pdfgen

    if importlib.util.find_spec("pymupdf4llm") is None:
        sys.exit("bench/convert.py compares with the layout engine: pip install '.[dev,layout]' first.")
    pdfgen.register_fonts()

    tmp = Path(tempfile.mkdtemp(prefix="docshelf-bench-"))
    pdfs.append(pdfgen.make_long_regulation_pdf(tmp / "generated-100-pages.pdf", pages=100))
    print(
        f"{'document':44} {'pages':>5} {'raw p/s':>9} {'docshelf p/s':>13} {'layout p/s':>11} "
        f"{'ds/raw':>7} {'ds/layout':>9}"
    )
    totals = {"pages": 0, "raw": 0.0, "ds": 0.0, "lay_pages": 0, "lay": 0.0, "ds_lay": 0.0}
    for path in pdfs:
        with pymupdf.open(path) as doc:
            n = doc.page_count
        t_raw = cpu(lambda p=path: raw_text(p))
        t_ds = cpu(lambda p=path: docshelf_build(p))
        lay_pages = 0
        start = time.process_time()
        lay_pages = layout(path, args.layout_max_pages)
        t_lay = time.process_time() - start
        ds_pps, raw_pps, lay_pps = n / t_ds, n / t_raw, lay_pages / t_lay
        totals["pages"] += n
        totals["raw"] += t_raw
        totals["ds"] += t_ds
        totals["lay_pages"] += lay_pages
        totals["lay"] += t_lay
        totals["ds_lay"] += t_ds * lay_pages / n
        print(
            f"{path.name[:44]:44} {n:5d} {raw_pps:9.0f} {ds_pps:13.1f} {lay_pps:11.2f} "
            f"{ds_pps / raw_pps:7.3f} {ds_pps / lay_pps:9.1f}"
        )
    ds_all = totals["pages"] / totals["ds"]
    print(
        f"\nALL: {totals['pages']} pages; docshelf {ds_all:.1f} p/s (CPU), raw get_text "
        f"{totals['pages'] / totals['raw']:.0f} p/s, ratio docshelf/raw {totals['raw'] / totals['ds']:.3f}; "
        f"layout {totals['lay_pages'] / totals['lay']:.2f} p/s on {totals['lay_pages']} pages, "
        f"docshelf is {totals['lay'] / totals['ds_lay']:.1f}x faster than layout"
    )

    if args.quality and corpus.is_dir():
        quality(corpus)


if __name__ == "__main__":
    main()
