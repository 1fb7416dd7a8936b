"""Search results as the plain text the CLI and the MCP tool print: lean, one line per fact a model uses.

Each hit: its title, citation id and the clause holding the snippet, the path with the reading window
to pass to ``fetch`` (``start``, ``max_chars``), the snippet on one line, then one copy per other
document (edition or format) and the file names of the article's other parts.
"""

from __future__ import annotations

from docshelf.results import SearchResult


def _copy_label(a: dict[str, str]) -> str:
    label = " ".join(p for p in (a["doc_id"], a["clause"]) if p)
    return f"{label} ({a['status']}) {a['path']}" if a["status"] else f"{label} {a['path']}"


def describe(result: SearchResult) -> str:
    """Search results as plain text (the CLI and the MCP tool print this)."""
    lines = [f"{len(result.hits)} hit(s), match: {result.mode}{' (low confidence)' if result.low_confidence else ''}"]
    if result.note:
        lines.append(result.note)
    for n, h in enumerate(result.hits, start=1):
        where = " · ".join(p for p in (h.doc_id, h.snippet_clause or h.clause, h.status_label) if p)
        window = f" start={h.start} max_chars={h.max_chars}" if h.max_chars else ""
        lines += [f"{n}. {h.title} [{where}] {h.path}{window}", "   " + " ".join(h.snippet.split())]
        # One copy per other document (its best-matching part): its other parts are a fetch away.
        copies: dict[str, dict[str, str]] = {}
        for a in h.also_in:
            if a["kind"] == "copy":
                copies.setdefault(a["doc_id"], a)
        parts = [a for a in h.also_in if a["kind"] == "part"]
        if copies:
            lines.append("   also in: " + "; ".join(_copy_label(a) for a in copies.values()))
        if parts:  # in the hit's folder: the file names say enough
            folder = h.path.rpartition("/")[0] + "/"
            lines.append("   other parts: " + "; ".join(a["path"].removeprefix(folder) for a in parts))
    return "\n".join(lines) + "\n"
