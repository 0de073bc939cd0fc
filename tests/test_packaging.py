"""The installed package carries its rules and facts, and the card facts match the real databases."""
from __future__ import annotations

import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

from conftest import SHARED, shared_absent

ROOT = Path(__file__).resolve().parent.parent
DATA = SHARED / "data"


def test_wheel_ships_rules_and_facts(tmp_path):
    built = subprocess.run([sys.executable, "-m", "pip", "wheel", "--no-deps", "-q", str(ROOT), "-w", str(tmp_path)],
                           capture_output=True, text=True)
    if built.returncode != 0:
        pytest.skip(f"cannot build a wheel here: {built.stderr[-300:]}")
    wheel = next(tmp_path.glob("pyrules-*.whl"))
    names = set(zipfile.ZipFile(wheel).namelist())
    for lp in (ROOT / "rules").rglob("*.lp"):
        assert f"pyrules/rules/{lp.relative_to(ROOT / 'rules').as_posix()}" in names
    assert "pyrules/facts/cards.yaml" in names
    assert "pyrules/facts/examples/main_phase.yaml" in names


def test_rules_found_from_any_directory(tmp_path):
    out = subprocess.run([sys.executable, "-c", "from pyrules import Engine; e = Engine(); print(len(e.files), len(e.cards))"],
                         cwd=tmp_path, capture_output=True, text=True)
    assert out.returncode == 0, out.stderr
    files, cards = map(int, out.stdout.split())
    assert files >= 8 and cards >= 100


@pytest.mark.skipif(not DATA.is_dir(), reason=shared_absent(DATA))
def test_card_facts_match_the_real_databases():
    out = subprocess.run([sys.executable, str(ROOT / "tools" / "check_cards.py"), "--data", str(DATA)],
                         capture_output=True, text=True)
    assert out.returncode == 0, out.stdout + out.stderr
    assert " 0 mismatches" in out.stdout
