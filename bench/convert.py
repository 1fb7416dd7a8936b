"""Conversion speed: DocShelf's PDF build vs raw PyMuPDF text, the extraction it cannot do without, and
pymupdf4llm's layout engine, in one run.

Prints, per PDF, CPU time as a multiple of raw `page.get_text()` (target ≤ 2×): DocShelf's whole build
(extract → clean → structure → split → render), and the floor of its extraction alone (`get_text("dict")` +
`get_cdrawings()` per page, what the converter reads before any of its own work). Then a whole `docshelf add`
process against a one-line extraction process (`python -c "… get_text() …"`, target ≤ 2×), both with their
imports. The layout engine is compared where `docshelf[layout]` is installed. Absolute numbers on a shared
machine are noise; ratios are not.

    python bench/convert.py                      # the corpus PDFs (../shared/corpus) + a generated 100-page law
    python bench/convert.py --skip-corpus --layout-max-pages 30
    python bench/convert.py --skip-corpus --pages 5 --no-layout   # a quick run (the suite's)
"""

from __future__ import annotations

import argparse
import contextlib
import importlib.util
import io
import re
import resource
import subprocess
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


def extraction_floor(path: Path) -> None:
    with pymupdf.open(path) as doc:
        for page in doc:
            page.get_text("dict", flags=0)
            page.get_cdrawings()


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


def add_process(pdf: Path) -> tuple[float, float]:
    """(CPU of a whole `docshelf add` process, CPU of a one-line extraction process), children's time."""
    shelf = Path(tempfile.mkdtemp(prefix="docshelf-bench-add-")) / "shelf"
    docshelf = [sys.executable, "-c", "from docshelf.cli import main; main()"]
    subprocess.run([*docshelf, "init", str(shelf)], check=True, capture_output=True)
    one_line = "import pymupdf, sys; [p.get_text() for p in pymupdf.open(sys.argv[1])]"

    def children(cmd: list[str]) -> float:
        before = resource.getrusage(resource.RUSAGE_CHILDREN)
        subprocess.run(cmd, check=True, capture_output=True, cwd=REPO)
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
        return (after.ru_utime + after.ru_stime) - (before.ru_utime + before.ru_stime)

    adds = [children([*docshelf, "add", str(pdf), "--shelf", str(shelf), "--id", f"bench-{n}"]) for n in range(3)]
    lines = [children([sys.executable, "-c", one_line, str(pdf)]) for _ in range(3)]
    return min(adds), min(lines)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--layout-max-pages", type=int, default=20, help="pages per PDF given to the slow layout engine")
    ap.add_argument("--skip-corpus", action="store_true")
    ap.add_argument("--pages", type=int, default=100, help="pages of the generated law")
    ap.add_argument("--no-layout", action="store_true", help="leave out the layout engine")
    ap.add_argument("--quality", action="store_true", help="also compare article-heading recall with the layout engine")
    args = ap.parse_args()
    pdfs: list[Path] = []
    corpus = REPO.parent / "shared" / "corpus"
    if corpus.is_dir() and not args.skip_corpus:
        pdfs += sorted(corpus.rglob("*.pdf"))
    import pdfgen

    with_layout = not args.no_layout and importlib.util.find_spec("pymupdf4llm") is not None
    if not with_layout and not args.no_layout:
        print("(the layout engine is not installed: pip install '.[dev,layout]' to compare with it)")
    pdfgen.register_fonts()

    tmp = Path(tempfile.mkdtemp(prefix="docshelf-bench-"))
    generated = pdfgen.make_long_regulation_pdf(tmp / f"generated-{args.pages}-pages.pdf", pages=args.pages)
    pdfs.append(generated)
    docshelf_build(generated)  # warm: the first build pays for lazy imports and compiled patterns
    print(
        f"{'document':44} {'pages':>5} {'raw p/s':>8} {'build p/s':>9} {'build/raw':>9} {'floor/raw':>9}"
        + (f" {'layout p/s':>10} {'build vs layout':>15}" if with_layout else "")
    )
    totals = {"pages": 0, "raw": 0.0, "ds": 0.0, "floor": 0.0, "lay_pages": 0, "lay": 0.0, "ds_lay": 0.0}
    worst = (0.0, "")
    for path in pdfs:
        with pymupdf.open(path) as doc:
            n = doc.page_count
        t_raw = cpu(lambda p=path: raw_text(p))
        t_floor = cpu(lambda p=path: extraction_floor(p))
        t_ds = cpu(lambda p=path: docshelf_build(p))
        totals["pages"] += n
        totals["raw"] += t_raw
        totals["ds"] += t_ds
        totals["floor"] += t_floor
        worst = max(worst, (t_ds / t_raw, path.name))
        row = f"{path.name[:44]:44} {n:5d} {n / t_raw:8.0f} {n / t_ds:9.1f} "
        row += f"{t_ds / t_raw:8.2f}x {t_floor / t_raw:8.2f}x"
        if with_layout:
            start = time.process_time()
            lay_pages = layout(path, args.layout_max_pages)
            t_lay = time.process_time() - start
            totals["lay_pages"] += lay_pages
            totals["lay"] += t_lay
            totals["ds_lay"] += t_ds * lay_pages / n
            row += f" {lay_pages / t_lay:10.2f} {(n / t_ds) / (lay_pages / t_lay):14.1f}x"
        print(row)
    print(
        f"\nALL: {totals['pages']} pages; build {totals['pages'] / totals['ds']:.1f} p/s (CPU) = "
        f"{totals['ds'] / totals['raw']:.2f}x raw get_text (target <= 2x; worst {worst[0]:.2f}x, {worst[1]}); "
        f"the extraction floor alone {totals['floor'] / totals['raw']:.2f}x raw"
    )
    if with_layout:
        print(
            f"layout {totals['lay_pages'] / totals['lay']:.2f} p/s on {totals['lay_pages']} pages, "
            f"docshelf is {totals['lay'] / totals['ds_lay']:.1f}x faster than layout"
        )
    add, line = add_process(generated)
    print(
        f"whole `docshelf add` of {generated.name}: {add:.2f} CPU-s; one-line extraction process {line:.2f} CPU-s; "
        f"ratio {add / line:.2f}x (target <= 2x)"
    )

    if args.quality and corpus.is_dir():
        quality(corpus)


if __name__ == "__main__":
    main()
