"""The code stays lint-clean and type-clean: ruff (check + format) and mypy --strict, as CI runs them."""

from __future__ import annotations

import importlib.util
import subprocess
import sys

import pytest
from conftest import REPO


def _run(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", *args], cwd=REPO, capture_output=True, text=True, encoding="utf-8")


@pytest.mark.skipif(importlib.util.find_spec("ruff") is None, reason="ruff is a dev extra")
def test_ruff_check_and_format() -> None:
    check = _run("ruff", "check", "docshelf", "tests", "bench")
    assert check.returncode == 0, check.stdout
    fmt = _run("ruff", "format", "--check", "docshelf", "tests", "bench")
    assert fmt.returncode == 0, fmt.stdout


@pytest.mark.skipif(importlib.util.find_spec("mypy") is None, reason="mypy is a dev extra")
def test_mypy_strict() -> None:
    res = _run("mypy", "docshelf")
    assert res.returncode == 0, res.stdout
