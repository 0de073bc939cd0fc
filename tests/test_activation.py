"""The activation slice at the API's edge (CONTRACT 8, 9): the action codec of set_spell_trap,
activate and pass (term and JSON, the effect number, the player with priority filled in), the
snapshot keys as facts, and the Spell/Trap Cards an answer lists as unmodelled."""
from __future__ import annotations

import pytest

from pyrules import Action, InvalidInput, parse_action

BOARD = {"snapshot": 1, "players": {
    "A": {"hand": [{"id": "pot", "card": "Card Destruction"}, {"id": "ox", "card": "Battle Ox"}],
          "spells_traps": [{"id": "mf", "card": "Waboku", "face": "down"}]},     # no condition read: unmodelled
    "B": {"spells_traps": [{"id": "book", "card": "Threatening Roar", "face": "down"}]}}}   # no condition read: unmodelled


@pytest.fixture(scope="module")
def engine():
    from conftest import engine as shared
    return shared()


@pytest.mark.parametrize("text, want", [
    ("activate(mf)", Action("activate", card="mf", effect=1)),
    ("activate(mf,2)", Action("activate", card="mf", effect=2)),
    ("activate(mf,1,B)", Action("activate", card="mf", effect=1, player="B")),
    ('{"action":"activate","card":"mf","effect":2}', Action("activate", card="mf", effect=2)),
    ('{"action":"activate","card":"mf"}', Action("activate", card="mf", effect=1)),
    ("set_spell_trap(mf)", Action("set_spell_trap", card="mf")),
    ('{"action":"pass"}', Action("pass")),
    ("pass", Action("pass")),
])
def test_the_new_actions_parse(text, want):
    got = parse_action(text)
    assert got == want
    assert parse_action(got.term()) == got and parse_action(got.to_json()) == got


@pytest.mark.parametrize("value", ['{"action":"activate","card":"mf","effect":0}', "activate(mf,x)",
                                   '{"action":"activate","card":"mf","effect":true}', "activate(mf,1,A,2)",
                                   '{"action":"activate","card":"mf","effect":"2"}', '{"action":"pass","card":"mf"}'])
def test_bad_activations_are_invalid_input(value):
    with pytest.raises(InvalidInput) as e:
        parse_action(value)
    assert all(p.path.startswith("action") for p in e.value.problems)


def test_the_player_with_priority_is_filled_in(engine):
    v = engine.check(BOARD, "activate(mf)")
    assert v.permitted and v.action.player == "A" and v.action.effect == 1
    v = engine.check({**BOARD, "priority": "B"}, "activate(book)")
    assert v.permitted and v.action.player == "B"
    assert v.to_json()["action"] == {"action": "activate", "card": "book", "effect": 1, "player": "B"}


def test_legal_lists_the_player_with_priority_and_names_the_activated_cards_unmodelled(engine):
    legal = engine.legal(BOARD)
    assert {a.term() for a in legal.permitted} >= {"activate(mf,1)", "activate(pot,1)", "set_spell_trap(pot)"}
    assert [u.id for u in legal.unmodelled] == ["pot", "mf"]
    assert "not modelled" in legal.unmodelled[0].why
    theirs = engine.legal({**BOARD, "priority": "B"})
    assert [a.term() for a in theirs.permitted] == ["activate(book,1)", "pass"]      # the player is implicit
    assert theirs.to_json()["permitted"][0] == {"action": "activate", "card": "book", "effect": 1}
    assert [u.id for u in theirs.unmodelled] == ["book"]
    assert engine.check(BOARD, "activate(ox)").unmodelled == ()      # a monster: forbidden, with its reason


def test_without_spells_or_traps_nothing_is_unmodelled(engine):
    snap = {"snapshot": 1, "players": {"A": {"hand": ["Battle Ox"]}, "B": {}}}
    legal = engine.legal(snap)
    assert legal.unmodelled == () and not any(a.action in ("activate", "pass") for a in legal.permitted)


def test_the_snapshot_keys_become_facts(engine):
    snap = {**BOARD, "priority": "B", "window": "event", "passed": True,
            "this_turn": [{"event": "normal_summon", "card": "ox2", "summoning": True}],
            "chain": ["mf2", {"card": "book", "player": "B", "effect": 2}]}
    snap["players"] = {"A": {"monsters": [{"id": "ox2", "card": "Battle Ox", "position": "attack"}],
                             "spells_traps": [{"id": "mf2", "card": "Mirror Force", "face": "up"}]},
                       "B": {"spells_traps": [{"id": "book", "card": "Book of Moon", "face": "up"}]}}
    enc, facts, _ = engine.encode(snap)
    text = {str(f) for f in facts}
    ox, mf, book = (enc.card_no[i] for i in ("ox2", "mf2", "book"))
    assert {f"chain_link(1,{mf},1,1)", f"chain_link(2,{book},2,2)", f"on_chain({mf})", f"on_chain({book})",
            "priority(2)", "window(event)", "passed", "event_summoning(1)", f"event_card(1,{ox})"} <= text
    _, plain, _ = engine.encode({"snapshot": 1, "players": {"A": {}, "B": {}}})
    assert not {str(f).split("(")[0] for f in plain} & {"priority", "window", "passed", "chain_link"}


def test_check_help_names_every_action():
    from click.testing import CliRunner
    from pyrules.actions import SIGNATURES
    from pyrules.cli import main
    out = " ".join(CliRunner().invoke(main, ["check", "--help"]).output.split())
    assert [name for name in SIGNATURES if name not in out] == []
