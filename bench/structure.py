"""Structure quality on the real corpus: the document's own contents found as headings, and what is left over.

For every document of ``../shared/corpus`` it builds the shelf files in memory (no Git) and prints
the build's own quality record (``docshelf.build.quality``): contents entries found / expected and
where they come from (PDF outline, printed contents), false headings (a clause id heading two
separate places), surviving furniture lines, fixed-size fallback parts, tables and tables whose
rows do not line up, and the labels the document prints at block starts (any numbering scheme) that
became clauses. Deterministic: the figures do not depend on the machine.

    python bench/structure.py                 # every corpus document
    python bench/structure.py --only NIST     # documents whose file name contains NIST
    python bench/structure.py --missing       # also list the contents entries not found
"""

from __future__ import annotations

import argparse
import re
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

from docshelf.build.options import ShelfConfig  # noqa: E402
from docshelf.build.pipeline import DocOptions, build_document  # noqa: E402

CORPUS = REPO.parent / "shared" / "corpus"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    parser.add_argument("--only", default="", help="only files whose name contains this text")
    parser.add_argument("--missing", action="store_true", help="list the contents entries not found")
    args = parser.parse_args()
    if not CORPUS.is_dir():
        print("../shared/corpus is absent: nothing to measure", file=sys.stderr)
        return 1
    files = sorted(p for p in CORPUS.rglob("*") if p.is_file() and p.name != "SOURCES.md" and args.only in p.name)
    print(
        "| document | map | contents found / expected | share | false headings | furniture lines "
        "| fallback parts | tables (unaligned) | printed labels addressed |"
    )
    print("|---|---|---:|---:|---:|---:|---:|---:|---:|")
    found = expected = printed = addressed = 0
    by_family: dict[str, list[int]] = {}  # family → [contents found, expected, labels addressed, printed]
    for path in files:
        meta = build_document(path.read_bytes(), DocOptions(source=path.name), ShelfConfig()).meta
        q = dict(meta.quality or {})
        c = q["contents"]
        found += c["found"]
        expected += c["expected"]
        share = "–" if c["share"] is None else f"{c['share']:.2f}"
        a = q.get("addresses") or {"printed": 0, "addressed": 0, "share": None}
        printed += a["printed"]
        addressed += a["addressed"]
        labels = "–" if a["share"] is None else f"{a['addressed']} / {a['printed']} ({a['share']:.2f})"
        sums = by_family.setdefault(family(path.name), [0, 0, 0, 0])
        for k, v in enumerate((c["found"], c["expected"], a["addressed"], a["printed"])):
            sums[k] += v
        print(
            f"| {path.name[:48]} | {c['source']} | {c['found']} / {c['expected']} | {share} "
            f"| {len(q['false_headings'])} | {q['furniture_lines']} | {q['fallback_parts']} "
            f"| {q['tables']} ({q['unaligned_tables']}) | {labels} |"
        )
        if args.missing and c["missing"]:
            print(f"|   missing: {'; '.join(c['missing'])} |||||||")
    if expected:
        print(f"\nAll documents with a map: {found} of {expected} contents entries found ({found / expected:.3f}).")
    if printed:
        print(f"Labels printed at block starts that are clauses: {addressed} of {printed} ({addressed / printed:.3f}).")
    print("\n| family | documents | contents found / expected | printed labels addressed |\n|---|---:|---:|---:|")
    for name, (f, e, ad, pr) in sorted(by_family.items()):
        count = sum(family(p.name) == name for p in files)
        contents = f"{f} / {e} ({f / e:.3f})" if e else "–"
        labels = f"{ad} / {pr} ({ad / pr:.3f})" if pr else "–"
        print(f"| {name} | {count} | {contents} | {labels} |")
    return 0


# The corpus's documents by the family of their numbering, for the summary (the build itself knows no families).
_FAMILIES = (
    (r"ГОСТ", "ГОСТ standards"),
    (r"ФЗ|ФP149|102027595|102107048|102038209|Федеральный закон", "Russian laws and codes"),
    (r"ПП|Указ|ФСТЭК|index_order|index_document|Адм\.регламент", "Russian acts and orders"),
    (r"OWASP", "OWASP standards"),
    (r"rfc|draft-ietf", "RFCs"),
    (r"CFR|federal-register", "US federal regulations"),
    (r"EU AI Act|GDPR", "EU acts"),
    (r"NIST|SP800", "NIST publications"),
    (r"FedRAMP", "templates"),
    (r"Bv9ARM", "manuals"),
    (r"License Agreement", "contracts"),
)


def family(name: str) -> str:
    return next((f for pattern, f in _FAMILIES if re.search(pattern, name)), "other")


if __name__ == "__main__":
    sys.exit(main())
