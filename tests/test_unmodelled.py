"""Unmodelled cards in answers: --json lists their ids, the table warns, Python results carry them."""
from __future__ import annotations

import json

import yaml

from click.testing import CliRunner

from pyrules import Engine, Unmodelled
from pyrules.cli import main

SNAP = """
snapshot: 1
players:
  A:
    hand: [{id: gorilla, card: Berserk Gorilla}]
    monsters: [{id: ox, card: Battle Ox, position: attack}]
  B: {}
"""


def test_python_results_carry_the_unmodelled_cards():
    engine = Engine()
    legal = engine.legal(SNAP)
    verdict = engine.check(SNAP, "normal_summon(gorilla,[])")
    for result in (legal, verdict):
        assert [u.id for u in result.unmodelled] == ["gorilla"]
        u = result.unmodelled[0]
        assert isinstance(u, Unmodelled) and u.name == "Berserk Gorilla" and "must attack" in u.why
    assert legal.to_json()["unmodelled"] == ["gorilla"] and verdict.to_json()["unmodelled"] == ["gorilla"]
    plain = engine.legal(SNAP.replace("Berserk Gorilla", "Summoned Skull"))
    assert plain.unmodelled == () and "unmodelled" not in plain.to_json()


def test_cli_json_lists_the_ids_and_the_table_warns(tmp_path):
    snap = tmp_path / "snap.yaml"
    snap.write_text(SNAP)
    runner = CliRunner()
    out = runner.invoke(main, ["legal", str(snap), "--json"])
    assert out.exit_code == 0 and json.loads(out.output)["unmodelled"] == ["gorilla"]
    out = runner.invoke(main, ["check", str(snap), "normal_summon(gorilla,[])", "--json"])
    assert out.exit_code == 0 and json.loads(out.output)["unmodelled"] == ["gorilla"]
    for args in (["legal", str(snap)], ["check", str(snap), "normal_summon(gorilla,[])"]):
        out = runner.invoke(main, args)
        assert "WARNING: 1 card of this snapshot has rule-relevant text that is not modelled" in out.output
        assert 'gorilla ("Berserk Gorilla"): it must attack if able' in out.output


def test_batch_records_carry_them_too():
    engine = Engine()
    [result] = engine.legal_many([yaml.safe_load(SNAP)])
    assert [u.id for u in result.unmodelled] == ["gorilla"]
