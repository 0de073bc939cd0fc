"""A run on a clone without ../shared ends with one line saying what was missing and how many
tests it skipped (tests/conftest.py: shared_absent, shared_skips, pytest_terminal_summary)."""
from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path
from types import SimpleNamespace

from conftest import NEEDS_SHARED, shared_absent, shared_skips

TESTS = Path(__file__).resolve().parent
ROOT = TESTS.parent


def test_shared_skips_counts_the_skips_that_name_shared_only():
    gone = Path("/nowhere/shared/data/goat-format-en.cdb")
    reports = [SimpleNamespace(longrepr=("t.py", 3, f"Skipped: {shared_absent(gone)}")),
               SimpleNamespace(longrepr=["t.py", 9, f"Skipped: {shared_absent(gone)}"]),   # as xdist sends it
               SimpleNamespace(longrepr=("t.py", 5, f"Skipped: {shared_absent(gone.parent)}")),
               SimpleNamespace(longrepr=("t.py", 7, "Skipped: could not import 'dask'")),
               SimpleNamespace(longrepr=None)]
    assert shared_skips(reports) == {str(gone): 2, str(gone.parent): 1}
    assert shared_absent(gone).startswith(NEEDS_SHARED)


def test_a_run_without_shared_ends_with_one_line_saying_so(tmp_path):
    folder = tmp_path / "tests"
    folder.mkdir()
    shutil.copy(TESTS / "conftest.py", folder / "conftest.py")
    (folder / "test_needs_shared.py").write_text(
        "import pytest\n"
        "from conftest import GOAT, shared_absent\n\n"
        "@pytest.mark.skipif(not GOAT.is_file(), reason=shared_absent(GOAT))\n"
        "@pytest.mark.parametrize('n', range(3))\n"
        "def test_goat(n):\n    pass\n\n"
        "def test_other():\n    pytest.skip('not today')\n\n"
        "def test_plain():\n    pass\n", encoding="utf-8")
    env = {**os.environ, "PYRULES_SHARED": str(tmp_path / "no-shared"),
           "PYTHONPATH": os.pathsep.join([str(ROOT), os.environ.get("PYTHONPATH", "")])}
    out = subprocess.run([sys.executable, "-m", "pytest", "-q", "-n", "0", "-p", "no:cacheprovider", str(folder)],
                         cwd=tmp_path, env=env, capture_output=True, text=True, timeout=120)
    assert out.returncode == 0, out.stdout + out.stderr
    lines = [ln for ln in out.stdout.splitlines() if "../shared is missing" in ln]
    assert len(lines) == 1, out.stdout
    assert lines[0].startswith("3 tests skipped: ../shared is missing")
    assert str(tmp_path / "no-shared" / "data" / "goat-format-en.cdb") in lines[0] and "PYRULES_SHARED" in lines[0]

