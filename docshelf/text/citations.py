"""Resolve a reference to clause spans: a section path (``docs/…/012-x.md#ч. 3``) or a citation as
lawyers write it (``152-ФЗ ст. 12 ч. 3``, ``п. 1 ч. 2 ст. 12 152-ФЗ``, ``ПП 1119 Требования п. 13``,
``Приказ ФСТЭК № 239 Требования п. 29 подп. «а»``, ``Приказ ФСТЭК № 17 прил. 2 УПД.1``,
``RFC 4271 §4.2``).

Components may come in any order; they are put in DocShelf's canonical order and matched against
the clause table stored in each document's meta at the pinned commit.
"""

from __future__ import annotations

import difflib
import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from docshelf.errors import CitationError, SectionNotFoundError
from docshelf.shelf.reader import metas_at, safe_path

_COMPONENTS = (
    ("прил.", re.compile(r"\b(?:прил\.?|приложени[еяию])\s*(?:N|№)?\s*(\d+(?:\.\d+)?)?", re.I)),
    ("ст.", re.compile(r"\b(?:ст\.?|стать[яиеюей]+)\s*(\d+(?:\.\d+)*(?:-\d+)?)", re.I)),
    ("ч.", re.compile(r"\b(?:ч\.?|част[ьияию]+)\s*(\d+(?:\.\d+)*)", re.I)),
    ("подп.", re.compile(r"\b(?:подп\.?|подпункт[а-я]*|пп\.?)\s*[«\"„“]?([а-яё]|\d+(?:\.\d+)*)[»\"”]?", re.I)),
    ("п.", re.compile(r"\b(?<!п)(?:п\.?|пункт[а-я]*)\s*(\d+(?:\.\d+)*)", re.I)),
    ("§", re.compile(r"(?:§\s*|\bsection\s+|\bappendix\s+)((?:[A-Z]\.)?\d+(?:\.\d+)*|[A-Z]\b)", re.I)),
    ("code", re.compile(r"\b([A-ZА-ЯЁ]{2,5})\.(\d+)\b")),
)
_KEY = re.compile(r"[\W_]+")


@dataclass(frozen=True)
class Target:
    """One span of the shelf that a reference points to."""

    doc_id: str
    path: str
    clause: str  # "" = the whole section
    start: int
    end: int


def _key(text: str) -> str:
    return _KEY.sub("", text.casefold().replace("№", "").replace("n ", ""))


def _doc_keys(meta: dict[str, Any]) -> list[str]:
    keys = [_key(meta["id"])]
    if m := re.match(r"^(\d+)-(ФЗ|ФКЗ)", meta["id"]):
        keys.append(_key(m.group(2) + m.group(1)))  # «ФЗ-152» as people also write it
    return keys


def find_document(metas: tuple[dict[str, Any], ...], ref: str) -> dict[str, Any] | None:
    """The document a citation names: the longest document id contained in it."""
    ref_key = _key(ref)
    best: tuple[int, dict[str, Any]] | None = None
    for meta in metas:
        for key in _doc_keys(meta):
            if key and key in ref_key and (best is None or len(key) > best[0]):
                best = (len(key), meta)
    return best[1] if best else None


def _without_id(ref: str, doc_id: str) -> str:
    """The citation with the document's id cut out, so «ПП 1119» is not read as «пп. 1119»."""
    tokens = [re.escape(t) for t in re.findall(r"\w+", doc_id)]
    if not tokens:
        return ref
    pattern = re.compile(r"[\s№N-]*".join(tokens), re.IGNORECASE)
    reordered = re.compile(r"[\s№N-]*".join(reversed(tokens)), re.IGNORECASE)  # «ФЗ-152»
    return reordered.sub(" ", pattern.sub(" ", ref, count=1), count=1)


def canonical_clause(ref: str, parts: set[str]) -> str:
    """The clause part of a citation in DocShelf's order: «п. 1 ч. 2 ст. 12» → «ст. 12 ч. 2 п. 1»."""
    found: dict[str, str] = {}
    rest = ref
    for name, pattern in _COMPONENTS:
        m = pattern.search(rest)
        if not m:
            continue
        if name == "code":
            found[name] = f"{m.group(1)}.{m.group(2)}"
        elif name == "подп.":
            value = m.group(1)
            found[name] = f"подп. «{value}»" if value.isalpha() else f"пп. {value}"
        elif name == "прил.":
            found[name] = f"прил. {m.group(1)}".strip() if m.group(1) else "прил."
        elif name == "§":
            found[name] = f"§{m.group(1)}"
        else:
            found[name] = f"{name} {m.group(1)}"
        rest = rest[: m.start()] + " " + rest[m.end() :]  # «пп. 1» must not be read again as «п. 1»
    part = next((p for p in sorted(parts, key=len, reverse=True) if p and p.casefold() in ref.casefold()), "")
    order = ("прил.", "code", "ст.", "ч.", "п.", "подп.", "§")
    return " ".join([part] * bool(part) + [found[k] for k in order if k in found])


def _targets(meta: dict[str, Any], clause: str) -> list[Target]:
    out = []
    for s in meta["sections"]:
        for cid, start, end in s.get("clauses", []):
            if cid == clause:
                out.append(Target(meta["id"], s["path"], cid, start, end))
    return out


def _suffix_targets(meta: dict[str, Any], clause: str) -> list[Target]:
    """«п. 13» when the document numbers it «Требования п. 13»: accept a unique longer id ending the same."""
    hits = [
        Target(meta["id"], s["path"], cid, a, b)
        for s in meta["sections"]
        for cid, a, b in s.get("clauses", [])
        if cid.endswith(" " + clause)
    ]
    return hits if len({t.clause for t in hits}) == 1 else []


def all_clause_ids(meta: dict[str, Any]) -> list[str]:
    return list(dict.fromkeys(cid for s in meta["sections"] for cid, _a, _b in s.get("clauses", [])))


def resolve(root: Path, ref: str, commit: str) -> list[Target]:
    """Every span ``ref`` points to at ``commit``; CitationError (with the closest refs) when none."""
    ref = ref.strip()
    if not ref:
        raise CitationError("Empty reference: give a section path or a citation such as «152-ФЗ ст. 12 ч. 3».")
    metas = metas_at(root, commit)
    if ref.startswith("docs/"):
        return _resolve_path(metas, ref, commit)
    meta = find_document(metas, ref)
    if meta is None:
        known = ", ".join(sorted(m["id"] for m in metas)[:30])
        raise CitationError(f"No document on the shelf matches {ref!r}. Documents: {known}.")
    clause = canonical_clause(_without_id(ref, meta["id"]), {s.get("part", "") for s in meta["sections"]})
    if not clause:  # the document as a whole
        return [Target(meta["id"], s["path"], "", 0, 1 << 62) for s in meta["sections"]]
    targets = _targets(meta, clause) or _suffix_targets(meta, clause)
    if not targets:
        close = difflib.get_close_matches(clause, all_clause_ids(meta), n=5, cutoff=0.5)
        hint = f" Closest: {', '.join(close)}." if close else ""
        raise CitationError(f"{meta['id']} has no clause «{clause}» (read from {ref!r}).{hint}")
    return targets


def _resolve_path(metas: tuple[dict[str, Any], ...], ref: str, commit: str) -> list[Target]:
    path, _, clause = ref.partition("#")
    path = safe_path(path)
    for meta in metas:
        for s in meta["sections"]:
            if s["path"] != path:
                continue
            if not clause.strip():
                return [Target(meta["id"], path, s["clause"], 0, 1 << 62)]
            wanted = canonical_clause(clause, {s.get("part", "")}) or clause.strip()
            ids = {cid: (a, b) for cid, a, b in s.get("clauses", [])}
            for cid in (wanted, f"{s['clause']} {wanted}".strip(), f"{s.get('part', '')} {wanted}".strip()):
                if cid in ids:
                    return [Target(meta["id"], path, cid, *ids[cid])]
            close = difflib.get_close_matches(wanted, list(ids), n=5, cutoff=0.4)
            raise CitationError(f"{path} has no clause «{wanted}». Clauses there: {', '.join(close or list(ids)[:8])}.")
    raise SectionNotFoundError(f"No section {path!r} at commit {commit[:12]}; read the index for paths.", path=path)
