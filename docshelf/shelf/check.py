"""``docshelf check``: lint a shelf so a broken one never reaches the server (the shelf's CI gate)."""

from __future__ import annotations

import json
import posixpath
import re
from collections import Counter
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

from docshelf.build import toc
from docshelf.build.completeness import missing_clauses, numbering_problems
from docshelf.build.options import QualityFloors
from docshelf.build.pipeline import sha256
from docshelf.build.quality import below_floors
from docshelf.convert.pdf import garbled_share
from docshelf.law.editions import check_relations
from docshelf.records import DocMeta, SectionMeta
from docshelf.shelf import files, gitrepo
from docshelf.shelf.config import load

_LINK = re.compile(r"\]\(([^)\s]+)\)")
# A repealed or excluded article is a heading alone: «Статья 37. Утратила силу - …».
_NO_TEXT_NEEDED = re.compile(r"утратил|исключен|не действует|removed|obsolete|reserved", re.IGNORECASE)


@dataclass(frozen=True)
class Problem:
    path: str
    kind: str
    message: str

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)


def check(root: Path, *, strict: bool = False) -> list[Problem]:
    """Every problem found on the shelf's working tree (empty list = healthy).

    ``strict`` also fails documents whose build quality is below the shelf's floors
    (``quality`` in ``.docshelf.json``: share of contents entries found, furniture lines left).
    """
    config = load(root)
    metas, problems = _read_metas(root)
    problems += _check_index(root, config.name, config.description, metas)
    linked: set[str] = set(toc.render_indexes(config.name, config.description, metas))
    for meta in metas:
        problems += _check_doc(root, meta, config.split.max_section_chars, linked)
    problems += _check_orphans(root, linked)
    problems += [Problem(*found) for found in check_relations(metas)]
    problems += [Problem(".git", "interrupted-write", message) for message in gitrepo.leftovers(root)]
    if strict:
        problems += _check_quality(metas, config.quality)
    return problems


def quality_notes(root: Path) -> list[tuple[str, str]]:
    """(document id, warning) for every document whose build reported a quality warning."""
    metas, _problems = _read_metas(root)
    return [(m.id, w) for m in metas for w in (m.quality or {}).get("warnings", [])]


def _read_metas(root: Path) -> tuple[list[DocMeta], list[Problem]]:
    """The documents' metas; a meta that is a symlink, not JSON or not a meta is a problem, never a crash."""
    metas: list[DocMeta] = []
    problems: list[Problem] = []
    docs = root / "docs"
    for path in sorted(docs.rglob("*.meta.json")) if docs.is_dir() else []:
        rel = path.relative_to(root).as_posix()
        if path.is_symlink():
            problems.append(
                Problem(
                    rel,
                    "symlink",
                    "a meta must be a regular file, not a symlink; delete it and run `docshelf rebuild`.",
                )
            )
            continue
        try:
            raw = json.loads(path.read_text(encoding="utf-8"))
        except (OSError, UnicodeDecodeError, json.JSONDecodeError):
            continue  # reported as bad-meta by _check_orphans
        try:
            meta = DocMeta.from_json(raw)
            meta.sections  # noqa: B018  (read now, so a malformed section is reported here, not met later)
        except (KeyError, TypeError, ValueError, AttributeError) as exc:
            problems.append(Problem(rel, "bad-meta", f"not a document meta ({exc!r}); restore it from Git."))
            continue
        metas.append(meta)
    return metas, problems


def _check_quality(metas: list[DocMeta], floors: QualityFloors) -> list[Problem]:
    return [
        Problem(
            meta.entry,
            "quality",
            f"{meta.id}: {reason}. Look at the document's headings (or lower the floor under "
            "`quality` in .docshelf.json if the document really is like this).",
        )
        for meta in metas
        if meta.quality
        for reason in below_floors(dict(meta.quality), floors)
    ]


def _check_index(root: Path, name: str, description: str, metas: list[DocMeta]) -> list[Problem]:
    index = root / "index.md"
    if not index.is_file():
        return [Problem("index.md", "missing", "the root index is missing; run `docshelf rebuild`.")]
    return _check_pages(root, toc.render_indexes(name, description, metas), "the documents' metas")


def _check_pages(root: Path, pages: dict[str, str], source: str) -> list[Problem]:
    """Generated pages must exist, equal what DocShelf would write now, and link to real files."""
    out = []
    for rel, expected in pages.items():
        path = root / rel
        if not path.is_file() and not path.is_symlink():
            out.append(Problem(rel, "missing", "this index page is missing; run `docshelf rebuild`."))
            continue
        text, problems = _text(root, rel, "this index page")
        out += problems
        if text is None:
            continue
        if text != expected:
            out.append(Problem(rel, "stale", f"differs from {source} (hand edit?); run `docshelf rebuild`."))
        out += _check_links(root, rel, text)
    return out


def _check_links(root: Path, rel: str, text: str) -> list[Problem]:
    out = []
    for target in _LINK.findall(text):
        if "://" in target:
            continue
        # «/docs/…» is shelf-absolute (how subindex pages link), anything else is relative to the page.
        resolved = posixpath.normpath(posixpath.join(posixpath.dirname(rel), target)).lstrip("/")
        if not (root / resolved).is_file():
            out.append(Problem(rel, "broken-link", f"link to {target} points to no file; run `docshelf rebuild`."))
    return out


def _check_doc(root: Path, meta: DocMeta, max_chars: int, linked: set[str]) -> list[Problem]:
    out: list[Problem] = []
    entry = meta.entry
    src = root / meta.source.file
    if odd := files.oddity(root, meta.source.file):
        out.append(_not_regular(meta.source.file, f"the source of {meta.id}", odd))
    elif not src.is_file():
        out.append(
            Problem(
                meta.source.file,
                "missing-source",
                f"source of {meta.id} is missing; restore it from Git.",
            )
        )
    elif sha256(src.read_bytes()) != meta.source.sha256:
        out.append(
            Problem(
                meta.source.file,
                "source-changed",
                "the source differs from the one converted; run `docshelf rebuild`.",
            )
        )
    if entry.endswith("subindex.md"):
        pages = toc.render_subindexes(meta)
        out += _check_pages(root, pages, "the document's meta")
        linked.update(pages)
    slugs = Counter(s.path for s in meta.sections)
    out += [Problem(p, "duplicate-slug", "two sections share this file name.") for p, n in slugs.items() if n > 1]
    for s in meta.sections:
        linked.add(s.path)
        out += _check_section(root, s, max_chars)
    out += _check_numbering(meta)
    return out


def _not_regular(rel: str, what: str, why: str) -> Problem:
    return Problem(
        rel,
        "not-regular",
        f"{what} is {why}: a shelf holds only regular files, and the build does not read it. Replace it with the "
        "file itself (git rm the link), then run `docshelf rebuild`.",
    )


def _text(root: Path, rel: str, what: str) -> tuple[str | None, list[Problem]]:
    """The file's text, or the problem that keeps it from being read (a link, not a regular file, not UTF-8)."""
    if odd := files.oddity(root, rel):
        return None, [_not_regular(rel, what, odd)]
    try:
        return (root / rel).read_text(encoding="utf-8"), []
    except UnicodeDecodeError:
        return None, [Problem(rel, "not-text", f"{what} is not UTF-8 text; run `docshelf rebuild` to write it again.")]
    except OSError as exc:
        return None, [Problem(rel, "unreadable", f"{what} cannot be read ({exc.strerror}); check its permissions.")]


def _check_section(root: Path, s: SectionMeta, max_chars: int) -> list[Problem]:
    path = root / s.path
    if not path.is_file() and not path.is_symlink():
        return [Problem(s.path, "missing", "section file is missing; run `docshelf rebuild`.")]
    text, problems = _text(root, s.path, "the section file")
    if text is None:
        return problems
    lines = text.splitlines()
    body = "\n".join(lines[1:] if lines and lines[0].startswith("#") else lines).strip()
    out = []
    if not body and not _NO_TEXT_NEEDED.search(text.split("\n", 1)[0]):
        out.append(Problem(s.path, "empty", "section has a heading but no text."))
    prose = sum(len(ln) + 1 for ln in text.splitlines() if not ln.startswith("|"))
    # A table is one unit of meaning and stays whole; only prose over the limit, or a huge total, is a problem.
    if prose > 2 * max_chars or len(text) > 4 * max_chars:
        out.append(
            Problem(
                s.path,
                "oversized",
                f"{len(text)} characters (limit {2 * max_chars} of prose); "
                "check the headings or lower split.max_section_chars.",
            )
        )
    if garbled_share(text) > 0.2:
        out.append(Problem(s.path, "garbled", "text looks like a broken font encoding; re-export or OCR the source."))
    return out


def _check_numbering(meta: DocMeta) -> list[Problem]:
    out = [Problem(meta.entry, "numbering", f"{meta.id}: {p}.") for p in numbering_problems(meta)]
    out += [
        Problem(
            meta.entry,
            "missing-clause",
            f"{meta.id}: {c} is in the document's own contents but not on the shelf.",
        )
        for c in missing_clauses(meta)
    ]
    return out


def _check_orphans(root: Path, linked: set[str]) -> list[Problem]:
    docs = root / "docs"
    if not docs.is_dir():
        return []
    out = []
    for path in sorted(docs.rglob("*.md")):
        rel = path.relative_to(root).as_posix()
        if rel not in linked:
            out.append(Problem(rel, "orphan", "no index links to this file; remove it or run `docshelf rebuild`."))
    for path in sorted(docs.rglob("*.meta.json")):
        if path.is_symlink():
            continue  # reported by _read_metas
        try:
            json.loads(path.read_text(encoding="utf-8"))
        except (UnicodeDecodeError, json.JSONDecodeError):
            out.append(Problem(path.relative_to(root).as_posix(), "bad-meta", "not valid JSON; restore it from Git."))
    return out
