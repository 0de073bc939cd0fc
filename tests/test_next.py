"""The next snapshot (CONTRACT 11): Engine.next and `pyrules next`.  What each action's successor
is, is data (tests/cases/next_*.yaml); these tests pin the seams: the command's outputs and exit
statuses, the Successor record, the decoder shared with the search, and that every action `legal`
lists in the ruling cases' snapshots has a valid successor (or is refused as not covered yet)."""
from __future__ import annotations

import json
from pathlib import Path

import pytest
import yaml
from click.testing import CliRunner

from pyrules import Engine, InvalidInput, Successor
from pyrules.cases import DEFAULTS, case_files, load_cases, merge
from pyrules.cli import main
from pyrules.readback import AnswerReader

ROOT = Path(__file__).resolve().parent.parent
EXAMPLE = ROOT / "facts" / "examples" / "main_phase.yaml"
BATTLE = {"snapshot": 1, "turn": 3, "turn_player": "A", "phase": "battle",
          "players": {"A": {"monsters": [{"id": "skull", "card": "Summoned Skull", "position": "attack"}]},
                      "B": {"life": 1000, "monsters": [{"id": "bug", "card": "Man-Eater Bug", "position": "defense",
                                                        "face": "down"}]}}}


@pytest.fixture(scope="module")
def engine() -> Engine:
    return Engine()


def run(args):
    try:
        runner = CliRunner(mix_stderr=False)
    except TypeError:
        runner = CliRunner()
    res = runner.invoke(main, [str(a) for a in args], obj={})
    assert "Traceback" not in res.stdout + res.stderr
    return res


def test_next_prints_the_successor_as_yaml_or_json():
    res = run(["next", EXAMPLE, "change_position(ox,defense)"])
    assert res.exit_code == 0
    after = yaml.safe_load(res.stdout)
    [ox] = [m for m in after["players"]["A"]["monsters"] if m["id"] == "ox"]
    assert ox["position"] == "defense"
    assert after["this_turn"][-1] == {"event": "position_change", "card": "ox", "how": "manual"}
    res = run(["next", EXAMPLE, "change_position(ox,defense)", "--json"])
    assert res.exit_code == 0 and json.loads(res.stdout) == after


def test_next_of_a_forbidden_action_exits_1_with_its_reasons():
    res = run(["next", EXAMPLE, "normal_summon(skull,[ox,bug])"])
    assert res.exit_code == 1 and "too_many_tributes" in res.stdout
    res = run(["next", EXAMPLE, "normal_summon(skull,[ox,bug])", "--json"])
    assert res.exit_code == 1 and json.loads(res.stdout)["permitted"] is False


def test_next_of_bad_input_exits_2_naming_the_field():
    res = run(["next", EXAMPLE, "normal_summon(nobody)"])
    assert res.exit_code == 2 and "action.card" in res.stderr


def test_a_draw_from_a_deck_given_as_a_count_needs_the_card_drawn(engine):
    """Which card comes is not in the snapshot: the action names it (card_drawn), else no successor is guessed."""
    snap = {"snapshot": 1, "turn": 3, "phase": "draw", "players": {"A": {"deck": 20}, "B": {}}}
    assert engine.check(snap, "draw").permitted
    with pytest.raises(InvalidInput) as e:
        engine.next(snap, "draw")
    assert e.value.problems[0].path == "action.card_drawn"
    after = engine.next(snap, {"action": "draw", "card_drawn": "Battle Ox"}).snapshot
    assert after["players"]["A"] == {"deck": 19, "hand": [{"id": "A.drawn.3", "card": "Battle Ox"}]}
    with pytest.raises(InvalidInput) as e:
        engine.next(snap, {"action": "draw", "card_drawn": "No Such Card"})
    assert e.value.problems[0].path == "action.card_drawn"


def test_a_question_that_is_no_game_action_has_no_successor(engine):
    """effect_position asks what an effect could do: not an action a player takes, so no successor."""
    snap = {"snapshot": 1, "turn": 3, "phase": "main1",
            "players": {"A": {"monsters": [{"id": "ox", "card": "Battle Ox", "position": "attack"}]}, "B": {}}}
    assert engine.check(snap, "effect_position(ox,defense,up)").permitted
    with pytest.raises(InvalidInput) as e:
        engine.next(snap, "effect_position(ox,defense,up)")
    assert e.value.problems[0].path == "action"


def test_the_successor_record_and_its_json(engine):
    r = engine.next(BATTLE, "declare_attack(skull,bug)")
    assert isinstance(r, Successor) and r.permitted and r.verdict.permitted
    assert r.to_json()["snapshot"] == r.snapshot
    r = engine.next(r.snapshot, "pass")
    r = engine.next(r.snapshot, "pass")
    assert r.snapshot["players"]["B"]["graveyard"][0]["id"] == "bug"
    # the monsters in battle whose card says its text is unmodelled are named, with a warning
    assert [u.id for u in r.unmodelled] == [u.id for u in engine.legal(BATTLE).unmodelled if u.id in ("skull", "bug")]
    forbidden = engine.next(BATTLE, "declare_attack(bug,skull)")
    assert forbidden.snapshot is None and forbidden.to_json()["reasons"]


def test_unresolved_effects_are_warned_of(engine):
    snap = {"snapshot": 1, "turn": 3, "phase": "main1",
            "players": {"A": {"hand": [{"id": "hole", "card": "Dark Hole"}]},
                        "B": {"monsters": [{"id": "ox", "card": "Battle Ox", "position": "attack"}]}}}
    r = engine.next(snap, "activate(hole)")             # (Dark Hole needs a monster on the field to destroy)
    r = engine.next(engine.next(r.snapshot, "pass").snapshot, "pass")
    assert r.unresolved == ("hole",) and "hole" in r.warnings()[0]


def test_the_decoder_reads_an_encoded_snapshot_back_to_the_same_verdicts(engine):
    """readback.AnswerReader on a snapshot's own input facts gives a snapshot that legal judges alike:
    the decoder of next and of the search is the encoder's inverse."""
    enc, facts, _ = engine.encode(EXAMPLE)
    card_of = {enc.card_no[e.id]: e.card["name"] for e in enc.game.entries}
    back = AnswerReader(facts, card_of, enc.card_id, enc.player_key).snapshot()
    assert engine.legal(back).permitted == engine.legal(EXAMPLE).permitted


def _case_snapshots():
    for f in case_files([ROOT / "tests" / "cases"]):
        if f.name.startswith(("next_", "battle_", "summons_", "activation_")):
            for case in load_cases(f):
                if not case.get("invalid"):
                    yield f.name, case["name"], merge(DEFAULTS, case.get("snapshot"))


def test_every_action_legal_lists_has_a_valid_successor(engine):
    """issue 37: every listed action has a successor, which Engine.next checks valid (validity.lp) as
    it makes it (a RuntimeError otherwise), or is refused as not covered yet (InvalidInput)."""
    done = 0
    for fname, name, snap in _case_snapshots():
        try:
            listed = engine.legal(snap).permitted
        except InvalidInput:
            continue
        for act in listed:
            try:
                r = engine.next(snap, act)
            except InvalidInput:
                continue
            assert r.permitted, (fname, name, act.term())
            done += 1
    assert done > 100


def test_a_successor_that_puts_a_card_in_two_zones_is_a_bug_of_the_rules_not_read_silently(tmp_path):
    """The decoder keeps one zone per card: rules/next/ that give a card two (a mutant that drops the
    `not proc_cost_banished` of a procedure's Tribute, say) must fail loudly, not pick one."""
    import shutil
    rules = tmp_path / "rules"
    shutil.copytree(ROOT / "rules", rules)
    with open(rules / "next" / "next_frame.lp", "a") as f:
        f.write("\n% Source: CONTRACT 11 (a deliberately broken rule for tests/test_next.py).\n"
                "% Every card that moves also stays where it was.\n"
                "next(zone(I,P,Z)) :- moved(I), zone(I,P,Z).\n")
    snap = {"snapshot": 1, "turn": 3, "turn_player": "A", "phase": "main1",
            "players": {"A": {"monsters": [{"id": "ox", "card": "Battle Ox", "position": "attack"}],
                              "hand": [{"id": "skull", "card": "Summoned Skull"}]}, "B": {}}}
    with pytest.raises(RuntimeError, match="puts ox, skull in two zones"):
        Engine(rules).next(snap, "normal_summon(skull,[ox])")
