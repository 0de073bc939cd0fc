"""Numbers and terms at the API's edge: numbers too big for the solver are invalid input (API and
command line), the term form of an action accepts only its grammar and round-trips its escapes,
and a filled-in default (the player of a Special Summon) is reported."""
from __future__ import annotations

import json

import pytest
from click.testing import CliRunner

from pyrules import Engine, InvalidInput, parse_action
from pyrules.cli import main

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
