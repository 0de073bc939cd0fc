"""Wrapper behaviour pinned after review: big numbers, the term grammar, filled-in defaults,
rules folders that do not load."""
from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest
from click.testing import CliRunner

from pyrules import Engine, InvalidInput, parse_action
from pyrules.cli import main
from pyrules.paths import rules_dir

SNAP = {"snapshot": 1, "players": {"A": {}, "B": {}}}


@pytest.fixture(scope="module")
def engine():
    return Engine()


@pytest.mark.parametrize("over, path", [
    ({"turn": 3_000_000_000}, "turn"),
    ({"players": {"A": {"deck": 3_000_000_000}, "B": {}}}, "players.A.deck"),
    ({"players": {"A": {"life": 2**40}, "B": {}}}, "players.A.life"),
    ({"players": {"A": {"monsters": [{"id": "x", "position": "attack", "card": {
        "name": "Big", "kind": "monster", "level": 4, "atk": 2**33}}]}, "B": {}}}, "players.A.monsters[0].card.atk"),
])
def test_numbers_too_big_for_the_solver_are_invalid_input(engine, over, path):
    with pytest.raises(InvalidInput) as e:
        engine.legal({**SNAP, **over})
    assert any(p.path == path and "at most" in p.message for p in e.value.problems)


def test_big_numbers_exit_2_on_the_cli(tmp_path):
    f = tmp_path / "s.json"
    f.write_text(json.dumps({**SNAP, "players": {"A": {"deck": 3_000_000_000}, "B": {}}}))
    res = CliRunner().invoke(main, ["check", str(f), "draw"])
    assert res.exit_code == 2 and "players.A.deck" in res.output and "Traceback" not in res.output


@pytest.mark.parametrize("term", ['flip_summon("bu\\g")', "normal_summon(skull,[ox faith])",
                                  "normal_summon(skull,[ox,])", "normal_summon(skull,[,ox])"])
def test_the_term_form_accepts_only_its_grammar(term):
    with pytest.raises(InvalidInput):
        parse_action(term)


def test_the_term_form_escapes_round_trip():
    a = parse_action('flip_summon("a\\"b\\\\c")')
    assert a.card == 'a"b\\c' and parse_action(a.term()) == a


def test_special_summon_reports_its_default_player(engine):
    snap = {**SNAP, "players": {"A": {"graveyard": [{"id": "ox", "card": "Battle Ox"}]}, "B": {}}}
    v = engine.check(snap, "special_summon(ox,attack)")
    assert v.permitted and v.to_json()["action"] == {"action": "special_summon", "card": "ox",
                                                     "position": "attack", "player": "A"}


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
