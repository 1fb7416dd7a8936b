"""Value objects that flow between the pure stages convert → clean → split → index."""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import Literal

BlockKind = Literal["para", "heading", "table"]

# The characters one fetch returns at most, in the CLI and (capped again) over MCP: well under the ~25k-token
# result caps some MCP clients enforce.
DEFAULT_MAX_CHARS = 20000


@dataclass(frozen=True)
class Block:
    """One unit of converted text, in reading order.

    ``text`` is Markdown for one paragraph, one heading line (without ``#``) or one whole table.
    The typographic hints (``level``, ``bold``, ``size``) come from the source and are only hints:
    the structure stage decides what really is a heading.
    """

    text: str
    page: int = 0  # 1-based source page; 0 when the format has no pages
    kind: BlockKind = "para"
    level: int = 0  # heading level suggested by the source (h1..h6, outline depth); 0 = none
    bold: bool = False  # the whole block is set in bold
    size: float = 1.0  # font size relative to the body text (1.0 = body)
    editorial: bool = False  # a note added by a publisher, not the act's own text

    def with_text(self, text: str) -> Block:
        return replace(self, text=text)


@dataclass(frozen=True)
class Converted:
    """What a converter returns: the document as blocks plus what it knows about the file."""

    blocks: tuple[Block, ...]
    converter: str
    converter_version: str
    pages: int = 0
    title: str | None = None
    outline: tuple[tuple[int, str, int], ...] = ()  # (level, title, page) from a PDF outline
    warnings: tuple[str, ...] = field(default=())
