"""The import contract in pyproject.toml ([tool.importlinter]) holds: layers point down, Git has one door."""

from __future__ import annotations

import importlib.util
import os
import subprocess
import sys

import pytest
from conftest import REPO

# `python -c` puts the working directory first on sys.path, so the checkout is analysed even when
# the package was installed without -e (as CI does). No cache: nothing is written into the checkout.
_LINT = "import sys; from importlinter.cli import lint_imports; sys.exit(lint_imports('pyproject.toml', no_cache=True))"


@pytest.mark.skipif(importlib.util.find_spec("importlinter") is None, reason="import-linter is a dev extra")
def test_import_contracts_are_kept() -> None:
    env = {**os.environ, "NO_COLOR": "1", "COLUMNS": "200"}
    res = subprocess.run(
        [sys.executable, "-c", _LINT], cwd=REPO, env=env, capture_output=True, text=True, encoding="utf-8"
    )
    report = res.stdout[res.stdout.find("Contracts") :] + res.stderr
    assert res.returncode == 0, f"lint-imports: broken import contracts (see [tool.importlinter])\n{report}"
