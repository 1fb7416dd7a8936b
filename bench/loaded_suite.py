"""The test suite on a busy machine: pytest once alone, then beside CPU hogs, with both wall times and their ratio.

    python bench/loaded_suite.py                          # the whole suite; hogs: one per core
    python bench/loaded_suite.py --hogs 4 -- tests/test_server_ops.py
    python bench/loaded_suite.py --loaded-only            # skip the unloaded baseline run

No test has a wall-clock limit (every wait is a readiness signal under one generous ceiling,
tests/server_support.HANG_S), so the suite must pass in both runs; this script measures what the load
costs in time and says whether anything failed. The hogs are busy loops in child processes, stopped
however the run ends.
"""

from __future__ import annotations

import argparse
import multiprocessing
import os
import re
import subprocess
import sys
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
_SUMMARY = re.compile(r"=+ (.*?) in [\d.]+s")


def _spin() -> None:
    while True:
        pass


def run_suite(pytest_args: list[str]) -> tuple[float, int, str]:
    """(wall seconds, exit code, pytest's summary line) of one pytest run in the checkout."""
    start = time.monotonic()
    proc = subprocess.run(
        [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", *pytest_args],
        cwd=REPO,
        capture_output=True,
        text=True,
        encoding="utf-8",
    )
    wall = time.monotonic() - start
    found, lines = _SUMMARY.findall(proc.stdout), proc.stdout.strip().splitlines()
    return wall, proc.returncode, found[-1] if found else (lines[-1] if lines else "")


def loaded(pytest_args: list[str], hogs: int) -> tuple[float, int, str]:
    context = multiprocessing.get_context("spawn")
    workers = [context.Process(target=_spin, daemon=True) for _ in range(hogs)]
    for w in workers:
        w.start()
    try:
        return run_suite(pytest_args)
    finally:
        for w in workers:
            w.terminate()
            w.join()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hogs", type=int, default=os.cpu_count() or 1, help="busy processes beside the suite")
    parser.add_argument("--loaded-only", action="store_true", help="skip the unloaded baseline")
    parser.add_argument("pytest_args", nargs="*", help="passed to pytest (after --)")
    args = parser.parse_args()
    rows = []
    if not args.loaded_only:
        rows.append(("alone", *run_suite(args.pytest_args)))
    rows.append((f"beside {args.hogs} CPU hog(s)", *loaded(args.pytest_args, args.hogs)))
    for name, wall, code, summary in rows:
        print(f"{name:<24} {wall:8.1f} s  exit {code}  {summary}")
    if len(rows) == 2:
        print(f"loaded / alone: {rows[1][1] / rows[0][1]:.2f}×")
    sys.exit(max(code for _n, _w, code, _s in rows))


if __name__ == "__main__":
    main()
