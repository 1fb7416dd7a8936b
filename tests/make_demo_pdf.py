"""Regenerate the built-in demo law ``docshelf/demo/zakon-o-testovyh-dannyh.pdf``.

Usage: ``python tests/make_demo_pdf.py`` (write) or ``python tests/make_demo_pdf.py --check``
(exit 1 if the shipped file differs from what the generator produces now). The output is
byte-for-byte reproducible, so the committed binary only changes when the generator does.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

# Runnable from any working directory: pdfgen lives next to this script, not in a package.
sys.path.insert(0, str(Path(__file__).resolve().parent))

from pdfgen import make_regulation_pdf

DEMO_PDF = Path(__file__).resolve().parents[1] / "docshelf" / "demo" / "zakon-o-testovyh-dannyh.pdf"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--check", action="store_true", help="verify instead of writing")
    args = parser.parse_args(argv)
    if args.check:
        import tempfile

        with tempfile.TemporaryDirectory() as tmp:
            fresh = make_regulation_pdf(Path(tmp) / DEMO_PDF.name).read_bytes()
        if not DEMO_PDF.is_file() or DEMO_PDF.read_bytes() != fresh:
            print(f"{DEMO_PDF} is stale: run python tests/make_demo_pdf.py", file=sys.stderr)
            return 1
        print(f"{DEMO_PDF} is up to date")
        return 0
    DEMO_PDF.parent.mkdir(parents=True, exist_ok=True)
    make_regulation_pdf(DEMO_PDF)
    print(f"wrote {DEMO_PDF} ({DEMO_PDF.stat().st_size} bytes)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
