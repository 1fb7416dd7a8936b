"""PDF → blocks through pymupdf4llm's layout engine (an ONNX model run by onnxruntime), the ``layout`` extra.

Selectable with ``"pdf_engine": "layout"`` in ``.docshelf.json``; it needs ``pip install
'docshelf[layout]'``. The default install leaves it out on purpose: onnxruntime is an ML runtime
that writes outside the shelf, and the default engine does not need it. About 40x slower than DocShelf's
own extractor and with font-rank heading levels, so it is not the default; its Markdown still goes
through the same cleaning and structure stages, which repair what it gets wrong (glued law
numbers, ``<sup>``, furniture, wrapped headings).
"""

from __future__ import annotations

import contextlib
import io
import re
import sys

from docshelf.convert.pdf import _open, pymupdf_version
from docshelf.errors import MissingDependencyError
from docshelf.model import Block, Converted

_HEADING = re.compile(r"^(#{1,6})\s+(.*)$")
_BOLD_ONLY = re.compile(r"^\*\*(.+)\*\*$")


def _page_blocks(markdown: str, page: int) -> list[Block]:
    blocks: list[Block] = []
    for chunk in re.split(r"\n\s*\n", markdown):
        text = chunk.strip()
        if not text:
            continue
        if text.startswith("|"):
            blocks.append(Block(text=text, page=page, kind="table"))
            continue
        if m := _HEADING.match(text):
            body = m.group(2).strip()
            bold = _BOLD_ONLY.match(body)
            blocks.append(Block(text=bold.group(1) if bold else body, page=page, kind="heading", level=len(m.group(1))))
            continue
        bold = _BOLD_ONLY.match(text)
        flat = " ".join(text.split("\n"))
        blocks.append(Block(text=bold.group(1) if bold else flat, page=page, bold=bold is not None))
    return blocks


def convert_pdf_layout(data: bytes, *, name: str) -> Converted:
    """Convert with the layout engine, one page chunk at a time, keeping headers/footers for cleaning.

    Raises:
        MissingDependencyError: the ``layout`` extra is not installed.
    """
    try:
        import pymupdf4llm
    except ImportError as exc:
        raise MissingDependencyError(
            f'{name}: "pdf_engine": "layout" needs the layout engine. Install it with '
            "`pip install 'docshelf[layout]'`, or remove pdf_engine from .docshelf.json to use the default engine.",
            source=name,
        ) from exc

    doc = _open(data, name)
    junk = io.StringIO()
    with contextlib.redirect_stdout(junk):  # the library print()s; stdout may be an MCP wire
        pymupdf4llm.use_layout(True)  # module-global state: set it on every call
        chunks = pymupdf4llm.to_markdown(
            doc,
            page_chunks=True,
            header=True,
            footer=True,
            use_ocr=False,
            write_images=False,
            embed_images=False,
        )
    if junk.getvalue():
        print(junk.getvalue(), file=sys.stderr, end="")
    blocks: list[Block] = []
    for n, chunk in enumerate(chunks, start=1):
        blocks.extend(_page_blocks(str(chunk["text"]), n))
    return Converted(
        blocks=tuple(blocks),
        converter="pymupdf4llm-layout",
        converter_version=f"pymupdf {pymupdf_version()}",
        pages=doc.page_count,
    )
