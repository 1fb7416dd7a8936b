"""verify_quote: prove that a quote is verbatim in the clause it cites, or say exactly what is wrong.

Verdicts: ``ok`` (found in the cited clause), ``too_short`` (fewer than 6 words: «в соответствии с»
is everywhere), ``unknown_ref`` (the reference resolves to nothing), ``wrong_clause`` (verbatim, but
elsewhere on the shelf: ``found_in`` says where), ``not_found`` (nowhere; ``closest`` gives the
nearest passage of the cited clause and a word-level diff). Both sides go through
``normalize`` (typography only); words must match whole. An ellipsis (``…``, ``...``, ``[…]``) means
"these fragments, in this order, within the clause". Editorial lines (Markdown quotes ``>``:
publishers' notes, amendment history, DocShelf's own breadcrumb) are not the act's text and never
match. Never ``ok`` for an altered quote: a changed word, number, negation or modality breaks the
verbatim match.
"""

from __future__ import annotations

import difflib
import re
from dataclasses import asdict, dataclass, field, replace
from functools import lru_cache
from pathlib import Path
from typing import Any

from docshelf.errors import CitationError, SectionNotFoundError
from docshelf.law.clauses import blank_editorial
from docshelf.shelf import gitrepo
from docshelf.shelf.reader import metas_at
from docshelf.text.citations import Target, resolve
from docshelf.text.normalize import normalize, normalize_text, words

MIN_WORDS = 6
MAX_QUOTE_CHARS = 200_000  # longer than any clause DocShelf writes; refused before any work
_ELLIPSIS = re.compile(r"\[\s*(?:…|\.\.\.)\s*\]|\(\s*(?:…|\.\.\.)\s*\)|…|\.{3,}")
_CONDITION = re.compile(r"^[,;]?\s*(?:если|за исключением|кроме|при условии|в случае|в том числе|unless|except|if)\b")
_NEGATION = re.compile(r"(?:^|\s)(?:не|ни|нет|not|no)\s*$")


@dataclass(frozen=True)
class QuoteCheck:
    """The verdict on one quote; ``match`` is the original text of the shelf, verbatim."""

    commit: str
    verdict: str  # ok | not_found | wrong_clause | too_short | unknown_ref
    ref: str
    quote: str
    message: str
    doc_id: str = ""
    path: str = ""
    clause: str = ""
    match: str | None = None
    partial: bool = False
    full_sentence: str | None = None
    found_in: list[dict[str, str]] = field(default_factory=list)
    closest: dict[str, Any] | None = None

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)


@dataclass(frozen=True)
class _Law:
    """A section's text with editorial lines blanked out, normalized, with the offset map."""

    text: str  # the stored section text
    norm: Any  # normalize.Normalized of the blanked text


@lru_cache(maxsize=512)
def _law(root: Path, commit: str, path: str) -> _Law:
    text = gitrepo.read(root, path, commit).decode("utf-8")
    blanked = blank_editorial(text)
    return _Law(text, normalize(blanked))


def _fragments(quote: str) -> list[str]:
    return [f for f in (normalize_text(part) for part in _ELLIPSIS.split(quote)) if f]


def _find(norm_text: str, fragments: list[str], lo: int, hi: int) -> list[tuple[int, int]] | None:
    """Normalized spans of the fragments, in order, whole words only, all inside [lo, hi)."""
    spans: list[tuple[int, int]] = []
    pos = lo
    for frag in fragments:
        m = re.compile(rf"(?<!\w){re.escape(frag)}(?!\w)").search(norm_text, pos, hi)
        if m is None:
            return None
        spans.append((m.start(), m.end()))
        pos = m.end()
    return spans


def _norm_range(law: _Law, start: int, end: int) -> tuple[int, int]:
    """The normalized index range that covers original characters [start, end)."""
    offsets = law.norm.offsets
    lo = next((i for i, o in enumerate(offsets) if o >= start), len(law.norm.text))
    hi = next((i for i in range(len(offsets) - 1, -1, -1) if offsets[i] <= end), 0)
    return lo, max(lo, hi)


def _innermost(root: Path, commit: str, path: str, a: int, b: int) -> tuple[str, str]:
    """(doc id, deepest clause id) whose span contains original [a, b) in ``path``."""
    for meta in metas_at(root, commit):
        for s in meta["sections"]:
            if s["path"] == path:
                inside = [(cid, ca, cb) for cid, ca, cb in s.get("clauses", []) if ca <= a and b <= cb]
                best = min(inside, key=lambda c: c[2] - c[1], default=(s["clause"], 0, 0))
                return meta["id"], best[0]
    return "", ""


def _original(law: _Law, spans: list[tuple[int, int]]) -> tuple[int, int, str]:
    pieces = [law.norm.span(a, b) for a, b in spans]
    return pieces[0][0], pieces[-1][1], " … ".join(law.text[a:b] for a, b in pieces)


def _partial(law: _Law, a: int, b: int) -> tuple[bool, str | None]:
    """Flag a quote that stops before a condition or starts after a negation of its sentence."""
    text = law.text
    start = max(text.rfind(". ", 0, a), text.rfind("\n", 0, a)) + 1
    ends = [i for i in (text.find(". ", b), text.find("\n", b), len(text)) if i >= 0]
    end = min(ends)
    before, after = normalize_text(text[start:a]), normalize_text(text[b:end])
    if _CONDITION.match(after) or _NEGATION.search(before):
        return True, text[start : end + 1].strip()
    return False, None


def _check_targets(root: Path, commit: str, targets: list[Target], fragments: list[str]) -> QuoteCheck | None:
    for t in targets:
        law = _law(root, commit, t.path)
        lo, hi = _norm_range(law, t.start, min(t.end, len(law.text)))
        spans = _find(law.norm.text, fragments, lo, hi)
        if spans is None:
            continue
        a, b, match = _original(law, spans)
        doc_id, clause = _innermost(root, commit, t.path, a, b)
        partial, sentence = _partial(law, a, b)
        return QuoteCheck(commit, "ok", "", "", "The quote is verbatim in the cited clause.", doc_id, t.path,
                          clause or t.clause, match, partial, sentence)  # fmt: skip
    return None


@lru_cache(maxsize=4)
def _shelf_text(root: Path, commit: str) -> tuple[tuple[str, str], ...]:
    """(path, normalized law text) of every section at one commit: the haystack for «where is it?»."""
    files = gitrepo.read_tree(root, commit, "docs", ".md")
    out = []
    for meta in metas_at(root, commit):
        for s in meta["sections"]:
            text = files[s["path"]].decode("utf-8")
            out.append((s["path"], normalize_text(blank_editorial(text))))
    return tuple(out)


def _elsewhere(root: Path, commit: str, fragments: list[str], skip: set[str]) -> list[dict[str, str]]:
    """Every other place on the shelf where the quote is verbatim (a cheap scan, offsets only for hits)."""
    found = []
    for path, norm_text in _shelf_text(root, commit):
        if fragments[0] not in norm_text or _find(norm_text, fragments, 0, len(norm_text)) is None:
            continue
        law = _law(root, commit, path)
        spans = _find(law.norm.text, fragments, 0, len(law.norm.text))
        if spans is None:
            continue
        a, b, match = _original(law, spans)
        doc_id, clause = _innermost(root, commit, path, a, b)
        if f"{path}\x00{clause}" not in skip:
            found.append({"doc_id": doc_id, "path": path, "clause": clause, "match": match})
        if len(found) >= 10:
            break
    return found


def _closest(root: Path, commit: str, targets: list[Target], quote: str) -> dict[str, Any] | None:
    """The passage of the cited clause nearest to the quote, with a word-level diff."""
    q_words = words(quote)
    best: tuple[float, Target, int, int] | None = None
    for t in targets[:20]:
        text = _law(root, commit, t.path).text
        spans = [m.span() for m in re.finditer(r"[^\s>#|]\S*", text[t.start : min(t.end, len(text))])]
        if spans and len(q_words) <= 4 * len(spans):
            toks = [" ".join(words(text[t.start + a : t.start + b])) for a, b in spans]
            ratio, i, j = _best_window(q_words, toks)
            if best is None or ratio > best[0]:
                best = (ratio, t, t.start + spans[i][0], t.start + spans[j - 1][1])
    if best is None:
        return None
    ratio, t, a, b = best
    passage = _law(root, commit, t.path).text[a:b]
    return {"path": t.path, "clause": t.clause, "text": passage, "similarity": round(ratio, 3),
            "diff": word_diff(quote, passage)}  # fmt: skip


def _best_window(q_words: list[str], toks: list[str]) -> tuple[float, int, int]:
    """(similarity, start, end) of the token window most like the quote: a coarse scan, then a fine one."""
    n = len(q_words)

    def score(i: int, j: int) -> float:
        return difflib.SequenceMatcher(None, q_words, " ".join(toks[i:j]).split(), autojunk=False).ratio()

    step = max(1, n // 4)
    coarse = max(range(0, max(1, len(toks) - n + 1), step), key=lambda i: score(i, i + n))
    candidates = [
        (i, j)
        for i in range(max(0, coarse - step - 2), min(len(toks), coarse + step + 3))
        for j in range(i + max(1, n - 3), min(len(toks), i + n + 3) + 1)
    ]
    i, j = max(candidates, key=lambda ij: score(*ij))
    return score(i, j), i, j


def word_diff(quote: str, source: str) -> list[dict[str, str]]:
    """What differs between the quote and the source, word by word («вправе» → «обязан», a dropped «не»)."""
    q, s = words(quote), words(source)
    out = []
    for op, i1, i2, j1, j2 in difflib.SequenceMatcher(None, s, q, autojunk=False).get_opcodes():
        if op != "equal":
            out.append({"op": op, "source": " ".join(s[i1:i2]), "quote": " ".join(q[j1:j2])})
    return out


def verify_quote(root: Path, quote: str, ref: str, *, at: str | None = None) -> QuoteCheck:
    """Check one quote against the clause ``ref`` names, at commit ``at`` (default HEAD)."""
    commit = gitrepo.resolve(root, at)

    def verdict(name: str, message: str, **more: Any) -> QuoteCheck:
        return QuoteCheck(commit=commit, verdict=name, ref=ref, quote=quote, message=message, **more)

    if len(quote) > MAX_QUOTE_CHARS:
        return verdict("not_found", f"The quote has {len(quote)} characters: longer than any clause on the shelf. "
                       "Quote the exact sentence you rely on.")  # fmt: skip
    fragments = _fragments(quote)
    n_words = sum(len(words(f)) for f in fragments)
    if n_words < MIN_WORDS:
        return verdict("too_short", f"{n_words} word(s) after normalization; quote at least {MIN_WORDS} words "
                       "so that the match proves something.")  # fmt: skip
    try:
        targets = resolve(root, ref, commit)
    except (CitationError, SectionNotFoundError) as exc:
        return verdict("unknown_ref", str(exc), found_in=_elsewhere(root, commit, fragments, set()))
    hit = _check_targets(root, commit, targets, fragments)
    if hit is not None:
        return replace(hit, ref=ref, quote=quote)
    found = _elsewhere(root, commit, fragments, {f"{t.path}\x00{t.clause}" for t in targets})
    if found:
        where = ", ".join(f"{f['doc_id']} {f['clause']}".strip() for f in found[:3])
        return verdict("wrong_clause", f"Verbatim, but not in the cited clause: it is in {where}.", found_in=found)
    closest = _closest(root, commit, targets, " ".join(fragments))
    return verdict("not_found", "Not on the shelf verbatim; see the closest passage of the cited clause and "
                   "the word differences.", closest=closest)  # fmt: skip


def describe(check: dict[str, Any]) -> str:
    """A verdict as plain text for a person or a model (the CLI and the MCP tool both print this)."""
    lines = [f"{check['verdict']}: {check['message']}"]
    if check.get("match"):
        lines.append(f"{check['doc_id']} {check['clause']} ({check['path']}): {check['match']}")
    if check.get("partial") and check.get("full_sentence"):
        lines.append(f"The quote is part of: {check['full_sentence']}")
    if closest := check.get("closest"):
        lines.append(f"Closest passage ({closest['clause'] or closest['path']}): {closest['text']}")
        lines.append(
            "Differs: " + "; ".join(f"quote «{d['quote']}» vs source «{d['source']}»" for d in closest["diff"])
        )
    return "\n".join(lines) + "\n"


@dataclass(frozen=True)
class BatchCheck:
    """All quotes of one answer, checked at one commit: the answer passes only if every quote is ``ok``."""

    commit: str
    passed: bool
    counts: dict[str, int]
    results: list[QuoteCheck]

    def to_dict(self) -> dict[str, Any]:
        return {"commit": self.commit, "passed": self.passed, "counts": self.counts,
                "results": [r.to_dict() for r in self.results]}  # fmt: skip


def verify_quotes(root: Path, items: list[dict[str, str]], *, at: str | None = None) -> BatchCheck:
    """The compile step after an answer: every ``{"quote", "ref"}`` checked against the same commit."""
    commit = gitrepo.resolve(root, at)
    results = [verify_quote(root, str(i.get("quote", "")), str(i.get("ref", "")), at=commit) for i in items]
    counts: dict[str, int] = {}
    for r in results:
        counts[r.verdict] = counts.get(r.verdict, 0) + 1
    return BatchCheck(commit, bool(results) and all(r.verdict == "ok" for r in results), counts, results)
