"""A rules folder that does not load (a syntax error, an unsafe variable, no rule files) is invalid
input naming the file and line, through the API and the command line."""
from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from click.testing import CliRunner

from pyrules import Engine, InvalidInput
from pyrules.cli import main
from pyrules.paths import rules_dir


def _rules_copy(tmp_path: Path) -> Path:
    dst = tmp_path / "rules"
    shutil.copytree(rules_dir(), dst)
    return dst


def test_rules_with_a_syntax_error_are_reported_with_file_and_line(tmp_path):
    rules = _rules_copy(tmp_path)
    (rules / "turn.lp").write_text((rules / "turn.lp").read_text() + "\nfoo(X) :- .\n")
    with pytest.raises(InvalidInput) as e:
        Engine(rules=rules)
    assert "turn.lp" in str(e.value)
    snap = tmp_path / "s.yaml"
    snap.write_text("snapshot: 1\nplayers: {A: {}, B: {}}\n")
    res = CliRunner().invoke(main, ["legal", str(snap), "--rules", str(rules)])
    assert res.exit_code == 2 and "turn.lp" in res.output and "Traceback" not in res.output


def test_rules_with_an_unsafe_variable_are_reported(tmp_path):
    rules = _rules_copy(tmp_path)
    (rules / "turn.lp").write_text((rules / "turn.lp").read_text() + "\nunsafe_here(X) :- not main_phase.\n")
    with pytest.raises(InvalidInput) as e:
        Engine(rules=rules)
    assert "unsafe" in str(e.value) and "turn.lp" in str(e.value)


def test_an_empty_rules_folder_is_invalid_input(tmp_path):
    (tmp_path / "empty" / "catalogue").mkdir(parents=True)
    with pytest.raises(InvalidInput) as e:
        Engine(rules=tmp_path / "empty")
    assert "no rule files" in str(e.value)
