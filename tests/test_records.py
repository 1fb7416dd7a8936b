"""The typed meta records: every meta the build writes reads back and writes out byte for byte."""

from __future__ import annotations

import json
from dataclasses import replace
from pathlib import Path

import pytest
from conftest import REPO

from docshelf.records import Clause, DocMeta, SectionMeta

SECTION = {
    "path": "docs/laws/152-fz/025-statia-19.md",
    "title": "Статья 19. Меры по обеспечению безопасности",
    "clause": "ст. 19",
    "part": "1/3",
    "groups": ["Глава 4. Обязанности оператора"],
    "pages": [12, 14],
    "bytes": 5120,
    "tokens": 1400,
    "clauses": [["ст. 19", 0, 5000], ["ст. 19 ч. 1", 60, 900]],
}
META = {
    "id": "152-ФЗ",
    "title": "О персональных данных",
    "category": "laws",
    "entry": "docs/laws/152-fz/subindex.md",
    "source": {"file": "sources/152-fz.pdf", "sha256": "ab" * 32, "bytes": 1234},
    "converter": {"name": "pymupdf", "version": "1.28"},
    "pages": 30,
    "language": "ru",
    "options": {"quality": "fast", "split": True},
    "edition": {"valid_from": "2024-09-01"},
    "sections": [SECTION],
    "expected_clauses": ["ст. 19"],
    "warnings": [],
}


def test_a_meta_reads_into_typed_fields() -> None:
    meta = DocMeta.from_json(META)
    section = meta.sections[0]
    assert (meta.id, meta.source.file, meta.english, meta.meta_path) == (
        "152-ФЗ",
        "sources/152-fz.pdf",
        False,
        "docs/laws/152-fz.meta.json",
    )
    assert section.clauses[1] == Clause("ст. 19 ч. 1", 60, 900)
    assert (section.groups, section.pages, section.clause_ids()) == (
        ("Глава 4. Обязанности оператора",),
        (12, 14),
        ["ст. 19", "ст. 19 ч. 1"],
    )
    assert meta.section(section.path) is section and meta.section("docs/nowhere.md") is None
    assert [(s.path, c.id) for s, c in meta.clauses()] == [(section.path, "ст. 19"), (section.path, "ст. 19 ч. 1")]


def test_the_json_round_trips_key_for_key_and_keeps_unknown_keys_last() -> None:
    assert DocMeta.from_json(META).to_json() == META
    assert SectionMeta.from_json(SECTION).to_json() == SECTION
    typed = DocMeta.from_json(META)
    assert replace(typed, section_data=typed.sections).to_json() == META  # records write what they read
    newer = {**META, "quality": {"contents_found": 0.97}, "sections": [{**SECTION, "anchor": "x"}]}
    again = DocMeta.from_json(newer).to_json()
    assert again == newer and list(again)[-1] == "quality" and list(again["sections"][0])[-1] == "anchor"
    assert DocMeta.loads(DocMeta.from_json(META).dumps()) == DocMeta.from_json(META)


def test_a_hand_broken_edition_is_kept_as_written_for_check_to_report() -> None:
    meta = DocMeta.from_json({**META, "edition": "2024-09-01"})
    assert meta.edition == "2024-09-01" and meta.to_json()["edition"] == "2024-09-01"


def test_a_section_without_optional_fields_reads_with_defaults() -> None:
    assert SectionMeta.from_json({"path": "docs/a.md"}) == SectionMeta("docs/a.md", "")


@pytest.mark.parametrize("meta_file", sorted((REPO / "docs").rglob("*.meta.json")), ids=lambda p: p.name)
def test_the_projects_own_metas_are_byte_identical_after_a_round_trip(meta_file: Path) -> None:
    text = meta_file.read_text(encoding="utf-8")
    meta = DocMeta.loads(text)
    assert meta.dumps() == text
    assert replace(meta, section_data=meta.sections).dumps() == text


def test_every_corpus_meta_is_byte_identical_after_a_round_trip(corpus_shelf: Path) -> None:
    files = sorted((corpus_shelf / "docs").rglob("*.meta.json"))
    assert len(files) >= 29
    for meta_file in files:
        text = meta_file.read_text(encoding="utf-8")
        assert DocMeta.loads(text).dumps() == text, meta_file.name
        raw = json.loads(text)
        meta = DocMeta.from_json(raw)
        assert [s.to_json() for s in meta.sections] == raw["sections"], meta_file.name
        assert meta.size == (sum(s.tokens for s in meta.sections), sum(s.bytes for s in meta.sections))
