"""verify_quote: prove that a quote is verbatim in the clause it cites, or say exactly what is wrong.

Verdicts: ``ok`` (found in the cited clause), ``too_short`` (fewer than 6 words: «в соответствии с»
is everywhere), ``unknown_ref`` (the reference resolves to nothing), ``wrong_clause`` (verbatim, but
elsewhere on the shelf: ``found_in`` says where), ``not_found`` (nowhere; ``closest`` gives the
nearest passage of the cited clause and a word-level diff). Both sides go through
``normalize`` (typography only); words must match whole. An ellipsis (``…``, ``...``, ``[…]``) means
"these fragments, in this order, within the clause". Editorial lines (Markdown quotes ``>``:
publishers' notes, amendment history, DocShelf's own breadcrumb) are not the act's text and never
match. Never ``ok`` for an altered quote: a changed word, number, negation or modality breaks the
verbatim match; a quote that cuts a number («15» of «15.1») is not verbatim; one that leaves out a
negation right next to it («допускается …» out of «Не допускается …») is ``not_found`` with that
negation in the diff (matching itself is :mod:`docshelf.text.quotematch`). A quote is read as typed
first, then with its ellipses as gaps, each also as one line (a line break is wrapping).
"""

from __future__ import annotations

import bisect
import difflib
import heapq
import re
from collections.abc import Iterator
from datetime import date
from functools import lru_cache
from pathlib import Path
from typing import Any, NamedTuple

from docshelf.errors import CitationError, DocShelfError, PathOutsideShelfError, SectionNotFoundError
from docshelf.law.editions import fetch_warning, has_edition, meta_status
from docshelf.results import BatchCheck, QuoteCheck
from docshelf.shelf import gitrepo
from docshelf.shelf.reader import metas_at
from docshelf.text import normstore
from docshelf.text.citations import Resolution, Target, resolve_ref
from docshelf.text.lawtext import (
    LawText,
    in_others_footnote,
    innermost,
    law_text,
    mark_texts,
    marks_agree,
    marks_pattern,
    original,
    sections_at,
    without_marks,
)
from docshelf.text.normalize import normalize_text, words
from docshelf.text.quotematch import Spot, closest_window, locate, norm_range, word_diff

MIN_WORDS = 6
MAX_QUOTE_CHARS = 200_000  # longer than any clause DocShelf writes; refused before any work
MAX_REF_CHARS = 1_000  # no citation or section path is longer
# «…», «...» (not a dot leader of a table of contents), «[…]», «(...)»: fragments in order
_ELLIPSIS = re.compile(r"\[\s*(?:…|\.\.\.)\s*\]|\(\s*(?:…|\.\.\.)\s*\)|…|(?<!\.)\.\.\.(?!\.)")
_LINE_BREAKS = re.compile(r"[\n\r\v\f\x85\u2028\u2029]+")
_BLANK_LINES = re.compile(r"\n[ \n]*\n")  # what an editorial line left blank leaves between two paragraphs
_CONDITION = re.compile(r"^[,;]?\s*(?:если|за исключением|кроме|при условии|в случае|в том числе|unless|except|if)\b")
CLOSEST_WORDS = 300  # a longer quote is compared by its first words: enough to show the difference
CLOSEST_SECTIONS = 2  # of a multi-section reference, the sections sharing most words with the quote


def _fragments(quote: str) -> list[str]:
    return [f for f in (normalize_text(part) for part in _ELLIPSIS.split(quote)) if f]


def _readings(quote: str) -> list[list[str]]:
    """The ways to read a quote, literal first: as typed, then its ellipses as gaps; each also as one line.

    «Terms ....5» copied from a contents line is verbatim as it stands. A line break the model put in
    before «— определение» is wrapping, not a Markdown bullet (normalization drops line-start dashes).
    """
    out: list[list[str]] = []
    for text in dict.fromkeys([quote, _LINE_BREAKS.sub(" ", quote)]):
        whole = normalize_text(text)
        for fragments in ([whole] if whole else [], _fragments(text)):
            if fragments and fragments not in out:
                out.append(fragments)
    return out


def _partial(law: LawText, a: int, b: int) -> tuple[bool, str | None]:
    """Flag a quote that stops before a condition of its sentence («…, если иное не предусмотрено»)."""
    text = law.text
    start = max(text.rfind(". ", 0, a), text.rfind("\n", 0, a)) + 1
    ends = [i for i in (text.find(". ", b), text.find("\n", b), len(text)) if i >= 0]
    end = min(ends)
    after = normalize_text(text[b:end])
    if _CONDITION.match(after):
        return True, text[start : end + 1].strip()
    return False, None


def _readable_all(root: Path, commit: str, targets: list[Target]) -> list[Target]:
    """The targets whose file can be read (a meta may name a missing file or a symbolic link)."""
    out = []
    for t in targets:
        try:
            law_text(root, commit, t.path)
        except (SectionNotFoundError, PathOutsideShelfError):
            continue  # `docshelf check` reports the broken meta
        out.append(t)
    return out


def _readable(root: Path, commit: str, targets: list[Target], fragments: list[str]) -> list[Target]:
    """The readable targets; of many (a whole document), only those whose text holds the first fragment."""
    if len(targets) > 1:
        haystack = _shelf_text(root, commit).by_path  # read once per commit; holds only readable sections
        return [t for t in targets if fragments[0] in haystack.get(t.path, "")]
    return _readable_all(root, commit, targets)


def _in_targets(root: Path, commit: str, targets: list[Target], fragments: list[str]) -> tuple[Target, Spot] | None:
    """The first target holding the quote without dropping a negation; else the first that drops one."""
    dropped: tuple[Target, Spot] | None = None
    for t in targets:
        found = next(_spots(root, commit, t, fragments), None)  # its first place in the target
        if found is None:
            continue
        law, spot, spans = found
        if in_others_footnote(root, commit, t, law, spans):
            continue  # a footnote printed inside the cited clause's span belongs to the clause of its mark
        if not spot.negation:
            return t, spot
        if dropped is None:
            dropped = (t, spot)
    return dropped


def _where_marked(
    root: Path, commit: str, targets: list[Target], fragments: list[str], removed: list[str]
) -> tuple[Target, Spot] | None:
    """A quote read past its marks is proven only where those very marks stand: of the places holding its words
    (another clause, or the same words printed twice in one), the first that prints them."""
    for t in targets:
        for law, spot, spans in _spots(root, commit, t, fragments):
            fits = not spot.negation and not in_others_footnote(root, commit, t, law, spans)
            if fits and marks_agree(root, commit, (t, spot), removed):
                return t, spot
    return None


_Place = tuple[LawText, Spot, list[tuple[int, int]]]


def _spots(root: Path, commit: str, t: Target, fragments: list[str]) -> Iterator[_Place]:
    """Each place inside the target's span that holds the quote's fragments, in reading order, with its spans."""
    law = law_text(root, commit, t.path)
    lo, hi = norm_range(law.norm, t.start, min(t.end, len(law.text)))
    while (spans := (spot := locate(law.norm, law.blanked, fragments, lo, hi)).spans) is not None:
        yield law, spot, spans
        lo = spans[0][0] + 1


def _ok(root: Path, commit: str, t: Target, spans: list[tuple[int, int]]) -> QuoteCheck:
    law = law_text(root, commit, t.path)
    a, b, match = original(law, spans)
    doc_id, clause = innermost(root, commit, t.path, a, b)
    partial, sentence = _partial(law, a, b)
    return QuoteCheck(commit=commit, verdict="ok", ref="", quote="", message="The quote is verbatim in the cited "
                      "clause.", doc_id=doc_id, path=t.path, clause=clause or t.clause, match=match, partial=partial,
                      full_sentence=sentence)  # fmt: skip


def _with_negation(root: Path, commit: str, t: Target, spot: Spot, quote: str) -> dict[str, Any]:
    """The passage of the cited clause the quote comes from, with the negation it leaves out."""
    law = law_text(root, commit, t.path)
    assert spot.spans is not None
    lo, hi = min(spot.spans[0][0], spot.neg_start), max(spot.spans[-1][1], spot.neg_end)
    words_here = words(law.norm.text[lo:hi])
    ratio = difflib.SequenceMatcher(None, words_here, words(quote), autojunk=False).ratio()
    return _passage(root, commit, t, lo, hi, quote, ratio)


class _Shelf(NamedTuple):
    """The normalized law text of every readable section at one commit, end to end: one string to scan."""

    text: str  # sections joined by "\n" (never in normalized text, so no match spans two sections)
    starts: list[int]  # where each section begins in ``text``
    paths: list[str]
    by_path: dict[str, str]


@lru_cache(maxsize=4)
def _shelf_text(root: Path, commit: str) -> _Shelf:
    """The haystack for «where is it?» and for choosing sections of a document to look at closely."""
    blobs = gitrepo.blob_shas(root, commit, "docs", ".md")  # symbolic links are left out
    # (a meta naming a missing file is left out: `docshelf check` reports it)
    sections = {path: s for path, (_doc, s) in sections_at(root, commit).items() if path in blobs}
    keys = {path: normstore.key(blobs[path], s) for path, s in sections.items()}  # the texts' keys in the store
    stored = normstore.recall(root, keys.values())
    made = {}
    for path, k in keys.items():
        if k not in stored:
            made[k] = normstore.scan_text(gitrepo.read_blob(root, blobs[path]).decode("utf-8"), sections[path])
    if made:
        normstore.remember(root, made, keys.values())
    by_path = {path: stored[k] if k in stored else made[k] for path, k in keys.items()}
    starts, pos = [], 0
    for norm_text in by_path.values():
        starts.append(pos)
        pos += len(norm_text) + 1
    return _Shelf("\n".join(by_path.values()), starts, list(by_path), by_path)


def prepare(root: Path, commit: str) -> None:
    """Read the shelf's normalized texts of ``commit`` now (a server preparing it), not at the first quote."""
    _shelf_text(root, commit)


def _elsewhere(root: Path, commit: str, fragments: list[str], skip: set[str]) -> list[dict[str, str]]:
    """Every other place on the shelf where the quote is verbatim (one scan of the shelf, offsets only for hits)."""
    shelf = _shelf_text(root, commit)
    found: list[dict[str, str]] = []
    at = shelf.text.find(fragments[0])
    while at >= 0 and len(found) < 10:
        k = bisect.bisect_right(shelf.starts, at) - 1
        path = shelf.paths[k]
        at = shelf.text.find(fragments[0], shelf.starts[k] + len(shelf.by_path[path]))  # next section on
        norm_text = shelf.by_path[path]
        if locate(norm_text, None, fragments, 0, len(norm_text)).spans is None:
            continue
        law = law_text(root, commit, path)
        spot = locate(law.norm, law.blanked, fragments, 0, len(law.norm.text))
        if spot.spans is None or spot.negation:
            continue
        a, b, match = original(law, spot.spans)
        doc_id, clause = innermost(root, commit, path, a, b)
        if f"{path}\x00{clause}" not in skip:
            found.append({"doc_id": doc_id, "path": path, "clause": clause, "match": match})
    return found


def _closest(root: Path, commit: str, targets: list[Target], quote: str) -> dict[str, Any] | None:
    """The passage of the cited clause nearest to the quote, with a word-level diff (None: no words there)."""
    q_words = words(quote)[:CLOSEST_WORDS]
    if len(targets) > 1:  # a document or a chapter: only the sections sharing most words with the quote
        haystack = _shelf_text(root, commit).by_path
        wanted = set(q_words)
        targets = heapq.nlargest(CLOSEST_SECTIONS, (t for t in targets if t.path in haystack),
                                 key=lambda t: sum(w in haystack[t.path] for w in wanted))  # fmt: skip
    best: tuple[float, Target, int, int] | None = None
    for t in _readable_all(root, commit, targets):
        law = law_text(root, commit, t.path)
        lo, hi = norm_range(law.norm, t.start, min(t.end, len(law.text)))
        window = closest_window(law.norm, lo, hi, q_words)
        if window is not None and (best is None or window[0] > best[0]):
            best = (window[0], t, window[1], window[2])
    if best is None:
        return None
    ratio, t, lo, hi = best
    return _passage(root, commit, t, lo, hi, quote, ratio)


def _passage(root: Path, commit: str, t: Target, lo: int, hi: int, quote: str, ratio: float) -> dict[str, Any]:
    """The ``closest`` record: the act's text of normalized [lo, hi) (no editorial line), its clause, the diff."""
    law = law_text(root, commit, t.path)
    a, b = law.norm.span(lo, hi)
    passage = _BLANK_LINES.sub("\n\n", law.blanked[a:b])
    clause = innermost(root, commit, t.path, a, b)[1] or t.clause
    return {"path": t.path, "clause": clause, "text": passage, "similarity": round(ratio, 3),
            "diff": word_diff(quote, passage)}  # fmt: skip


def _address(root: Path, commit: str, hit: QuoteCheck) -> str:
    """The citation that names exactly the clause holding an ok's match: the document id and the clause
    where that reads back to it, else the section path and the clause (a label the document prints twice)."""
    if not hit.clause:
        return ""
    ref = f"{hit.doc_id} {hit.clause}"
    try:
        back = resolve_ref(root, ref, commit)
    except DocShelfError:
        return f"{hit.path}#{hit.clause}"
    if back.level == "clause" and {(t.path, t.clause) for t in back.targets} >= {(hit.path, hit.clause)}:
        return ref
    return f"{hit.path}#{hit.clause}"


def _ok_message(resolution: Resolution, clause: str, path: str) -> str:
    """What an ``ok`` proves, in words: the level, and the clause to cite when it was not the clause itself
    (by its section path where the document uses that label in more than one place)."""
    cite = f" Cite the innermost clause: «{resolution.doc_id} {clause}»." if clause else ""
    if clause and resolution.level == "document" and resolution.clause:
        cite = f" Cite it by its section, which proves the clause: «{path}#{clause}»."
    if resolution.level == "clause":
        return "The quote is verbatim in the cited clause."
    if resolution.level == "section":
        return f"The quote is verbatim in the cited section; proven at section level, not for a clause.{cite}"
    why = resolution.notes[-1] if resolution.clause else "the reference names no clause"
    return f"The quote is verbatim in {resolution.doc_id}; proven at document level only ({why}).{cite}"


def _wrong_clause_message(resolution: Resolution, found: list[dict[str, str]]) -> str:
    where = ", ".join(f"{f['doc_id']} {f['clause']}".strip() for f in found[:3])
    if found and all(f["doc_id"] in resolution.candidates for f in found):
        f = found[0]
        return (
            f"Verbatim in {f['doc_id']}, {f['clause']} (another edition or format of the cited act), "
            f"not in the cited {resolution.doc_id} {resolution.clause}".rstrip()
            + "."
        )
    return f"Verbatim, but not in the cited clause: it is in {where}."


def _standing(root: Path, commit: str, doc_id: str, as_of: date | None) -> tuple[dict[str, Any], str | None]:
    """The edition status of the document a quote was proven in, and the warning when it is not in force
    (naming what replaced it, where the shelf knows): a verbatim quote of a repealed act is no law."""
    metas = metas_at(root, commit)
    meta = next((m for m in metas if m.id == doc_id), None)
    if meta is None or not has_edition(meta):
        return {}, None
    return meta_status(meta, as_of).to_dict(), fetch_warning(meta, as_of, metas)


def verify_quote(root: Path, quote: str, ref: str, *, at: str | None = None, as_of: date | None = None) -> QuoteCheck:
    """Check one quote against the clause ``ref`` names, at commit ``at`` (default HEAD).

    ``as_of`` (default today) picks the edition in force when a citation matches several editions.
    """
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
    if len(ref) > MAX_REF_CHARS:
        return verdict("unknown_ref", f"The reference has {len(ref)} characters; give a section path or a "
                       "citation such as «152-ФЗ ст. 12 ч. 3».")  # fmt: skip
    try:
        resolution = resolve_ref(root, ref, commit, as_of=as_of)
    except (CitationError, SectionNotFoundError, PathOutsideShelfError) as exc:
        return verdict("unknown_ref", str(exc), found_in=_elsewhere(root, commit, fragments, set()))
    cited = resolution.targets
    read_as: dict[str, Any] = {"candidates": resolution.candidates, "notes": resolution.notes}
    if len(cited) == 1 and not _readable_all(root, commit, cited):
        return verdict("unknown_ref", f"The shelf lists {cited[0].path} but cannot read it (missing, or a symbolic "
                       "link) at this commit; run `docshelf check` on the shelf.", **read_as)  # fmt: skip
    here: tuple[Target, Spot] | None = None
    readings = _readings(quote)
    # Last, where the cited text carries footnote marks: the quote as copied with them («authentication 22
    # for»), read past them as the text is (a space where each stood). Such a reading proves the quote only
    # where those very marks stand.
    marks = mark_texts(root, commit, cited)
    pattern = marks_pattern(marks) if marks else None
    removed = [m.group().strip() for m in pattern.finditer(quote)] if pattern else []
    unmarked_readings = (
        [r for r in _readings(without_marks(pattern, quote)) if r not in readings] if pattern and removed else []
    )
    for reading in readings + unmarked_readings:
        targets = _readable(root, commit, cited, reading)
        if reading in unmarked_readings:
            spot = _where_marked(root, commit, targets, reading, removed)
        else:
            spot = _in_targets(root, commit, targets, reading)
        if spot is not None and (here is None or not spot[1].negation):
            here, fragments = spot, reading
        if here is not None and not here[1].negation:
            break
    if here is not None and here[1].spans is not None and not here[1].negation:
        hit = _ok(root, commit, here[0], here[1].spans)
        message = _ok_message(resolution, hit.clause, here[0].path)
        status, warning = _standing(root, commit, hit.doc_id, as_of)
        return hit.model_copy(
            update={
                "ref": ref,
                "quote": quote,
                "message": message,
                "level": resolution.level,
                "fetch_ref": _address(root, commit, hit),
                "candidates": resolution.candidates,
                "notes": [warning, *resolution.notes] if warning else resolution.notes,
                "status": status,
            }
        )
    skip = {f"{t.path}\x00{t.clause}" for t in cited}
    found = next((f for r in _readings(quote) if (f := _elsewhere(root, commit, r, skip))), [])
    if found:
        return verdict("wrong_clause", _wrong_clause_message(resolution, found), found_in=found, **read_as)
    if here is not None:
        return verdict("not_found", f"The cited clause says «{here[1].negation}» right next to the quoted words: the "
                       "quote leaves out a negation. Quote it with the negation.",
                       closest=_with_negation(root, commit, *here, " ".join(fragments)), **read_as)  # fmt: skip
    closest = _closest(root, commit, cited, " ".join(fragments))
    return verdict("not_found", "Not on the shelf verbatim; see the closest passage of the cited clause and "
                   "the word differences.", closest=closest, **read_as)  # fmt: skip


def describe(check: dict[str, Any]) -> str:
    """A verdict as plain text for a person or a model (the CLI and the MCP tool both print this)."""
    lines = [f"{check['verdict']}: {check['message']}"]
    lines += [f"Note: {note}" for note in check.get("notes") or []]
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


def verify_quotes(
    root: Path, items: list[dict[str, str]], *, at: str | None = None, as_of: date | None = None
) -> BatchCheck:
    """The compile step after an answer: every ``{"quote", "ref"}`` checked against the same commit."""
    commit = gitrepo.resolve(root, at)
    results = [
        verify_quote(root, str(i.get("quote", "")), str(i.get("ref", "")), at=commit, as_of=as_of) for i in items
    ]
    counts: dict[str, int] = {}
    for r in results:
        counts[r.verdict] = counts.get(r.verdict, 0) + 1
    passed = bool(results) and all(r.verdict == "ok" for r in results)
    return BatchCheck(commit=commit, passed=passed, counts=counts, results=results)
