"""Validation (CONTRACT 1.2) through the command line: every problem exits 2, names its
field path on standard error, and never shows a traceback."""
from __future__ import annotations

import copy
import sys
import json

import pytest
import yaml
from click.testing import CliRunner

from pyrules import Engine, InvalidInput, Problem
from pyrules.cli import main

BASE = {"snapshot": 1, "turn": 3, "turn_player": "A", "phase": "main1",
        "players": {"A": {"monsters": [{"id": "ox", "card": "Battle Ox", "position": "attack"}]}, "B": {}}}
_OBJ: dict = {}     # shared click context object: one Engine for the whole module


def runner() -> CliRunner:
    try:
        return CliRunner(mix_stderr=False)     # click < 8.2
    except TypeError:
        return CliRunner()                     # click >= 8.2 keeps stderr apart


def run(args, stdin=None):
    res = runner().invoke(main, args, input=stdin, obj=_OBJ)
    return res.exit_code, res.stdout, res.stderr, res


def snap(**over) -> dict:
    s = copy.deepcopy(BASE)
    for k, v in over.items():
        s[k] = v
    return s


def with_side(player: str, **zones) -> dict:
    s = snap()
    s["players"][player] = {**s["players"].get(player, {}), **zones}
    return s


def write(tmp_path, data, name="snap.yaml") -> str:
    p = tmp_path / name
    p.write_text(data if isinstance(data, str) else yaml.safe_dump(data, sort_keys=False), encoding="utf-8")
    return str(p)


def assert_invalid(tmp_path, data, *paths, command=("legal",), extra=()):
    code, out, err, res = run([*command, write(tmp_path, data), *extra])
    assert code == 2, (code, out, err)
    assert "Traceback" not in out + err
    assert res.exception is None or isinstance(res.exception, SystemExit)
    for p in paths:
        assert p in err, f"{p!r} not named in:\n{err}"
    return err


def ox(i, **kw):
    return {"id": i, "card": "Battle Ox", "position": "attack", **kw}


# ---- format problems (Python) ---------------------------------------------------
@pytest.mark.parametrize("data, path", [
    (snap(colour="red"), "colour"),
    (with_side("A", monsters=[ox("ox", colour="red")]), "players.A.monsters[0].colour"),
    (with_side("B", sleeve="blue"), "players.B.sleeve"),
    (snap(this_turn=[{"event": "normal_summon", "card": "ox", "when": "now"}]), "this_turn[0].when"),
    (snap(attack={"attacker": "ox", "target": "direct", "targets_at_declaration": [], "x": 1}), "attack.x"),
], ids=["top", "monster", "player", "event", "attack"])
def test_unknown_keys(tmp_path, data, path):
    err = assert_invalid(tmp_path, data, path)
    assert "unknown key" in err


@pytest.mark.parametrize("zone, entry, path", [
    ("hand", "Blue Eyes White Dragon", "players.A.hand[0].card"),
    ("hand", {"id": "h", "card": "battle ox"}, "players.A.hand[0].card"),
    ("graveyard", "No Such Card", "players.A.graveyard[0].card"),
])
def test_unknown_card_names(tmp_path, zone, entry, path):
    err = assert_invalid(tmp_path, with_side("A", **{zone: [entry]}), path)
    assert "unknown card name" in err


def test_unknown_card_name_on_the_field(tmp_path):
    err = assert_invalid(tmp_path, with_side("B", monsters=[{"id": "x", "card": "Battle Oxx", "position": "attack"}]),
                         "players.B.monsters[0].card")
    assert "Battle Oxx" in err


def test_duplicate_ids(tmp_path):
    s = with_side("B", monsters=[ox("ox")])
    err = assert_invalid(tmp_path, s, "players.B.monsters[0].id")
    assert "duplicate id 'ox'" in err and "players.A.monsters[0]" in err


def test_duplicate_id_against_a_generated_id(tmp_path):
    s = with_side("A", hand=["Battle Ox"], monsters=[ox("A.hand.1")])
    assert_invalid(tmp_path, s, "duplicate id 'A.hand.1'")


def test_reserved_id_direct(tmp_path):
    assert_invalid(tmp_path, with_side("A", monsters=[ox("direct")]), "players.A.monsters[0].id", "reserved")


@pytest.mark.parametrize("data, path", [
    (snap(this_turn=[{"event": "normal_summon", "card": "ghost"}]), "this_turn[0].card"),
    (snap(this_turn=[{"event": "attack", "card": "ox", "target": "ghost"}]), "this_turn[0].target"),
    (snap(this_turn=[{"event": "normal_summon", "card": "ox", "tributes": ["ghost"]}]), "this_turn[0].tributes[0]"),
    (snap(chain=["ghost"]), "chain[0]"),
    (with_side("A", spells_traps=[{"id": "bow", "card": "Shooting Star Bow - Ceal", "face": "up",
                                   "equipped_to": "ghost"}]), "players.A.spells_traps[0].equipped_to"),
    (snap(phase="battle", this_turn=[{"event": "attack", "card": "ox", "target": "direct"}],
          attack={"attacker": "ghost", "target": "direct", "targets_at_declaration": []}), "attack.attacker"),
    (snap(phase="battle", this_turn=[{"event": "attack", "card": "ox", "target": "direct"}],
          attack={"attacker": "ox", "target": "ghost", "targets_at_declaration": []}), "attack.target"),
    (snap(phase="battle", this_turn=[{"event": "attack", "card": "ox", "target": "direct"}],
          attack={"attacker": "ox", "target": "direct", "targets_at_declaration": ["ghost"]}),
     "attack.targets_at_declaration[0]"),
], ids=["event-card", "event-target", "event-tribute", "chain", "equipped_to", "attacker", "attack-target",
        "targets-at-declaration"])
def test_ids_that_name_nothing(tmp_path, data, path):
    err = assert_invalid(tmp_path, data, path)
    assert "ghost" in err


def test_gone_events_may_name_cards_that_left(tmp_path):
    s = snap(this_turn=[{"event": "special_summon", "card": "sheep9", "gone": True},
                        {"event": "normal_summon", "card": "skull", "tributes": ["t1"], "gone": True}])
    code, out, err, _ = run(["legal", write(tmp_path, s)])
    assert code == 0, err


def test_more_than_five_monsters(tmp_path):
    s = with_side("B", monsters=[ox(f"b{i}") for i in range(6)])
    err = assert_invalid(tmp_path, s, "players.B.monsters")
    assert "5 monsters" in err


def test_five_monsters_are_fine(tmp_path):
    s = with_side("B", monsters=[ox(f"b{i}") for i in range(5)])
    assert run(["legal", write(tmp_path, s)])[0] == 0


def test_more_than_five_spells_traps(tmp_path):
    st = [{"id": f"s{i}", "card": "Mirror Force", "face": "down"} for i in range(6)]
    err = assert_invalid(tmp_path, with_side("A", spells_traps=st), "players.A.spells_traps")
    assert "5 spells" in err


def test_five_spells_traps_and_a_field_spell_are_fine(tmp_path):
    st = [{"id": f"s{i}", "card": "Mirror Force", "face": "down"} for i in range(5)]
    s = with_side("A", spells_traps=st, field_spell={"id": "umi", "card": "Umi", "face": "up"})
    code, out, err, _ = run(["legal", write(tmp_path, s)])
    assert code == 0, err


@pytest.mark.parametrize("face", ["up", "down"])
def test_a_field_spell_in_the_spell_trap_zone(tmp_path, face):
    # boundary pair with the test above: the same "Umi" in the Field Spell Zone is fine
    s = with_side("A", spells_traps=[{"id": "umi", "card": "Umi", "face": face}])
    err = assert_invalid(tmp_path, s, "players.A.spells_traps[0]")
    assert "goes in the Field Spell Zone" in err


def test_token_face_down(tmp_path):
    s = with_side("A", monsters=[{"id": "t", "card": "Sheep Token", "position": "defense", "face": "down"}])
    err = assert_invalid(tmp_path, s, "players.A.monsters[0]")
    assert "token" in err


@pytest.mark.parametrize("zone", ["hand", "graveyard", "banished"])
def test_token_off_the_field(tmp_path, zone):
    err = assert_invalid(tmp_path, with_side("A", **{zone: ["Sheep Token"]}), f"players.A.{zone}[0]")
    assert "token" in err


def test_extra_deck_monster_in_hand(tmp_path):
    err = assert_invalid(tmp_path, with_side("A", hand=["Junk Warrior", "Dark Paladin"]),
                         "players.A.hand[0]", "players.A.hand[1]")
    assert "Fusion or Synchro" in err


def test_face_down_attack_position(tmp_path):
    s = with_side("A", monsters=[ox("ox", face="down")])
    err = assert_invalid(tmp_path, s, "players.A.monsters[0]")
    assert "face-down in Attack Position" in err


@pytest.mark.parametrize("phase", ["main1", "main2", "draw", "end"])
def test_battle_step_outside_battle(tmp_path, phase):
    assert_invalid(tmp_path, snap(phase=phase, battle_step="damage"), "battle_step")


def test_battle_step_in_battle_is_fine(tmp_path):
    assert run(["legal", write(tmp_path, snap(phase="battle", battle_step="damage"))])[0] == 0


def test_attack_without_an_attack_event(tmp_path):
    s = snap(phase="battle", attack={"attacker": "ox", "target": "direct", "targets_at_declaration": []})
    err = assert_invalid(tmp_path, s, "attack")
    assert "no attack event" in err


@pytest.mark.parametrize("data, path", [
    (with_side("A", monsters=[{"id": 5, "card": "Battle Ox", "position": "attack"}]), "players.A.monsters[0].id"),
    (with_side("A", monsters=[{"id": True, "card": "Battle Ox", "position": "attack"}]), "players.A.monsters[0].id"),
    (with_side("A", hand=[{"id": 7, "card": "Battle Ox"}]), "players.A.hand[0]"),
    (snap(turn="three"), "turn"),
    (snap(turn=0), "turn"),
    (snap(phase="lunch"), "phase"),
    (with_side("A", life="lots"), "players.A.life"),
    (with_side("A", deck=-1), "players.A.deck"),
    (with_side("A", monsters=[{"id": "x", "card": "Battle Ox", "position": "sideways"}]),
     "players.A.monsters[0].position"),
    (with_side("A", monsters=[{"id": "x", "card": "Battle Ox"}]), "players.A.monsters[0].position"),
    (snap(chain="ox"), "chain"),
    (snap(this_turn=[{"event": "normal_summon", "card": "ox", "negated": "yes"}]), "this_turn[0].negated"),
    (snap(this_turn=[{"event": "teleport", "card": "ox"}]), "this_turn[0].event"),
    (snap(snapshot=2), "snapshot"),
    ({"players": {"A": {}, "B": {}}}, "snapshot"),
    (snap(players=[1, 2]), "players"),
], ids=["id-number", "id-boolean", "hand-id-number", "turn-string", "turn-zero", "phase", "life", "deck",
        "position", "position-missing", "chain-string", "negated-string", "event-name", "version",
        "version-missing", "players-list"])
def test_wrong_types(tmp_path, data, path):
    assert_invalid(tmp_path, data, path)


def test_not_two_players(tmp_path):
    assert_invalid(tmp_path, snap(players={"A": {}}), "players")
    assert_invalid(tmp_path, snap(players={"A": {}, "B": {}, "C": {}}), "players")


def test_turn_player_must_be_a_player(tmp_path):
    assert_invalid(tmp_path, snap(turn_player="Z"), "turn_player")


def test_unknown_reading(tmp_path):
    assert_invalid(tmp_path, snap(readings={"no_such": "x"}), "readings.no_such")
    assert_invalid(tmp_path, snap(readings={"first_turn_draw": "maybe"}), "readings.first_turn_draw")
    assert_invalid(tmp_path, snap(), "--reading", extra=("--reading", "first_turn_draw=maybe"))


def test_every_problem_is_listed_together(tmp_path):
    s = with_side("A", hand=["No Such Card"], monsters=[ox("ox"), ox("ox")])
    s["chain"] = ["ghost"]
    err = assert_invalid(tmp_path, s, "players.A.hand[0].card", "players.A.monsters[1].id", "chain[0]")
    assert len([x for x in err.splitlines() if x.strip()]) >= 3


def test_physical_limits_are_listed_together(tmp_path):
    s = with_side("A", hand=["Junk Warrior", "Sheep Token"],
                  monsters=[ox("ox", face="down"), {"id": "t", "card": "Sheep Token", "position": "defense",
                                                    "face": "down"}])
    s["phase"], s["battle_step"] = "main2", "end"
    assert_invalid(tmp_path, s, "players.A.hand[0]", "players.A.hand[1]", "players.A.monsters[0]",
                   "players.A.monsters[1]", "battle_step")


def test_format_problems_are_listed_together(tmp_path):
    s = with_side("A", monsters=[{"id": 5, "card": "Battle Ox", "position": "up"}], colour="red")
    s["turn"] = "x"
    assert_invalid(tmp_path, s, "players.A.monsters[0].id", "players.A.monsters[0].position",
                   "players.A.colour", "turn")


# ---- malformed input and where it comes from --------------------------------------
@pytest.mark.parametrize("text", ["snapshot: [1, 2", "players: {A: {}\n  B: {}", "\t- x: y: z", "{{{"])
def test_malformed_yaml(tmp_path, text):
    err = assert_invalid(tmp_path, text)
    assert "YAML" in err


@pytest.mark.parametrize("text", ["", "42", "- a\n- b", "just text"])
def test_not_a_mapping(tmp_path, text):
    assert_invalid(tmp_path, text, "snapshot")


def test_missing_file():
    code, out, err, _ = run(["legal", "/no/such/snapshot.yaml"])
    assert code == 2 and "/no/such/snapshot.yaml" in err and "Traceback" not in err


def test_binary_file(tmp_path):
    p = tmp_path / "bin.yaml"
    p.write_bytes(b"\xff\xfe\x00\x01garbage\x00")
    code, out, err, _ = run(["legal", str(p)])
    assert code == 2 and "Traceback" not in err


def test_snapshot_from_stdin():
    code, out, err, _ = run(["legal", "-", "--json"], stdin=json.dumps(BASE))
    assert code == 0, err
    assert {"action": "change_position", "card": "ox", "to": "defense"} in json.loads(out)["permitted"]


def test_invalid_snapshot_from_stdin():
    code, out, err, _ = run(["legal", "-"], stdin="snapshot: 1\nplayers: {A: {}, B: {}}\nturn: zero\n")
    assert code == 2 and "turn" in err and "Traceback" not in err


def test_malformed_yaml_from_stdin():
    code, out, err, _ = run(["check", "-", "draw"], stdin="snapshot: [")
    assert code == 2 and "YAML" in err


# ---- actions given to check ---------------------------------------------------------
@pytest.mark.parametrize("action, path", [
    ("change_position(ghost,defense)", "action.card"),
    ("normal_summon(ox,[ghost])", "action.tributes"),
    ('{"action":"flip_summon","card":"ghost"}', "action.card"),
    ("declare_attack(ox,ghost)", "action.target"),
    ('{"action":"special_summon","card":"ox","position":"attack","player":"Z"}', "action.player"),
], ids=["card", "tribute", "json-card", "target", "player"])
def test_action_with_unknown_id(tmp_path, action, path):
    err = assert_invalid(tmp_path, BASE, path, command=("check",), extra=(action,))
    assert "ghost" in err or "'Z'" in err


@pytest.mark.parametrize("action", [
    "change_position(ox,defense", "change_position(ox,,defense)", "change_position(ox defense)",
    "normal_summon(ox,[a,b)", "change_position(ox,sideways)", "effect_position(ox,attack,sideways)",
    "change_position(ox,defense,up,more)", "change_position", "(ox)", "", '"unclosed',
    '{"action":"flip_summon"', '{"action":"flip_summon","card":"ox","colour":"red"}',
    '{"action":"normal_summon","card":"ox","tributes":"ox"}', '{"action":"flip_summon","card":5}',
    "normal_summon(ox,[ox,ox])", "change_position(direct,defense)", "[1,2]",
])
def test_malformed_action(tmp_path, action):
    err = assert_invalid(tmp_path, BASE, "action", command=("check",), extra=(action,))
    assert "Traceback" not in err


@pytest.mark.parametrize("action", ["teleport(ox)", '{"action":"teleport","card":"ox"}', "fly"])
def test_unknown_action_name(tmp_path, action):
    err = assert_invalid(tmp_path, BASE, "action", command=("check",), extra=(action,))
    assert "unknown action" in err


def test_a_well_formed_action_the_rules_do_not_allow_is_forbidden(tmp_path):
    path = write(tmp_path, BASE)
    code, out, err, _ = run(["check", path, "change_position(ox,attack)", "--json"])
    assert code == 1, err
    verdict = json.loads(out)
    assert verdict["permitted"] is False
    assert verdict["reasons"] and verdict["reasons"][0]["rule"] == "already_in_that_position"


@pytest.mark.parametrize("action, rule", [
    ("normal_summon(ox)", "not_in_hand"),          # a card on the field, not in hand
    ("flip_summon(moon)", "not_your_monster"),     # a spell
    ("set(moon)", "not_a_monster"),
])
def test_actions_that_do_not_fit_the_snapshot_are_forbidden(tmp_path, action, rule):
    s = with_side("A", hand=[{"id": "moon", "card": "Book of Moon"}])
    code, out, err, _ = run(["check", write(tmp_path, s), action, "--json"])
    assert code == 1, err
    assert rule in [r["rule"] for r in json.loads(out)["reasons"]]


# ---- the Python exception -----------------------------------------------------------
def test_invalid_input_carries_the_problems():
    engine = Engine()
    s = with_side("A", hand=["No Such Card"], monsters=[ox("ox"), ox("ox")])
    with pytest.raises(InvalidInput) as info:
        engine.legal(s)
    problems = info.value.problems
    assert all(isinstance(p, Problem) for p in problems)
    paths = {p.path for p in problems}
    assert {"players.A.hand[0].card", "players.A.monsters[1].id"} <= paths
    assert str(info.value).count("\n") == len(problems) - 1


def test_invalid_input_from_rules_carries_the_problems():
    s = with_side("A", monsters=[ox("ox", face="down")])
    with pytest.raises(InvalidInput) as info:
        Engine().check(s, "draw")
    assert [p.path for p in info.value.problems] == ["players.A.monsters[0]"]


def test_invalid_input_is_a_value_error_for_actions():
    with pytest.raises(ValueError) as info:
        Engine().check(BASE, "teleport(ox)")
    assert isinstance(info.value, InvalidInput) and info.value.problems[0].path.startswith("action")


def test_inline_monster_needs_a_level(tmp_path):
    """Without a Level the Tribute count is unknown: check and legal disagreed before."""
    s = with_side("A", hand=[{"id": "x", "card": {"name": "Levelless", "kind": "monster", "atk": 1, "def": 1}}])
    err = assert_invalid(tmp_path, s, "players.A.hand[0].card.level")
    assert "required" in err
    spell = with_side("A", hand=[{"id": "y", "card": {"name": "Plain Spell", "kind": "spell", "spell_type": "normal"}}])
    assert run(["legal", write(tmp_path, spell)])[0] == 0


def test_type_problems_and_reference_problems_are_listed_together(tmp_path):
    s = with_side("A", hand=["No Such Card"], monsters=[ox("ox"), ox("ox")], colour="red")
    s["this_turn"] = [{"event": "normal_summon", "card": "ghost"}]
    assert_invalid(tmp_path, s, "players.A.colour", "players.A.hand[0].card", "players.A.monsters[1].id",
                   "this_turn[0].card")


def test_randomly_broken_snapshots_never_crash():
    """Any value in any place: InvalidInput or an answer, never another exception."""
    import random
    engine = Engine()
    rnd = random.Random(7)
    values = [None, 1, True, "x", [], {}, [1], {"a": 1}, -1, "direct", [None], {"id": 3}, "ox", "Sheep Token", 0]
    good = with_side("A", hand=["Battle Ox", {"id": "sk", "card": "Summoned Skull"}],
                     spells_traps=[{"id": "bow", "card": "Shooting Star Bow - Ceal", "face": "up", "equipped_to": "ox"}])
    good.update(phase="battle", battle_step="damage", chain=["bow"], readings={"first_turn_draw": True},
                this_turn=[{"event": "attack", "card": "ox", "target": "direct"},
                           {"event": "normal_summon", "card": "sk2", "tributes": ["q"], "gone": True}],
                attack={"attacker": "ox", "target": "direct", "targets_at_declaration": []})

    def mutate(o):
        if isinstance(o, dict) and o:
            k = rnd.choice(list(o))
            r = rnd.random()
            if r < 0.3:
                o[k] = rnd.choice(values)
            elif r < 0.4:
                del o[k]
            else:
                mutate(o[k])
        elif isinstance(o, list) and o:
            i = rnd.randrange(len(o))
            if rnd.random() < 0.4:
                o[i] = rnd.choice(values)
            else:
                mutate(o[i])

    for _ in range(400):
        s = copy.deepcopy(good)
        for _ in range(rnd.randint(1, 3)):
            mutate(s)
        try:
            engine.legal(s)
            engine.check(s, rnd.choice(["draw", "normal_summon(sk,[ox])", "change_position(ox,defense)"]))
        except InvalidInput as e:
            assert e.problems


def test_the_schema_compiles_safely_when_threads_validate_at_once():
    """The first validations of several threads at once: each gets a finished checker."""
    import threading
    from pyrules import schema, validator
    from boards import main_phase_board
    snap = main_phase_board()
    old = sys.getswitchinterval()
    sys.setswitchinterval(1e-6)
    try:
        for _ in range(5):
            validator._COMPILED.clear()
            errors: list[BaseException] = []
            results: list[list] = []

            def work():
                try:
                    results.append(list(schema.validate(snap, schema.SNAPSHOT_SCHEMA, schema.SNAPSHOT_SCHEMA)))
                except BaseException as e:      # noqa: BLE001 - the test reports any failure
                    errors.append(e)
            threads = [threading.Thread(target=work) for _ in range(8)]
            for t in threads:
                t.start()
            for t in threads:
                t.join()
            assert not errors and results == [[]] * 8
    finally:
        sys.setswitchinterval(old)


def test_each_part_of_the_schema_is_compiled_when_a_value_first_reaches_it():
    """The validator compiles a schema's parts lazily (a small snapshot uses few of them), and
    a part compiled late reports the same problems: an inline card's bad Level, found only
    once a snapshot has an inline card."""
    from pyrules import schema, validator
    root = copy.deepcopy(schema.SNAPSHOT_SCHEMA)           # (fresh ids: compiled from nothing)

    def compiled() -> int:
        return sum(1 for k in validator._COMPILED if k[1] == id(root))

    assert list(schema.validate({"snapshot": 1, "phase": "main1"}, root, root)) == []
    small = compiled()
    card = {"name": "X", "kind": "monster", "level": 13}
    snap = {"snapshot": 1, "players": {"A": {"hand": [{"id": "h", "card": card}]}}}
    assert list(schema.validate(snap, root, root)) == [("players.A.hand[0].card.level", "must be at most 12; got 13")]
    assert small < 5 < compiled()


# ---- the keys of the whole turn (CONTRACT 10, 11) ---------------------------------
@pytest.mark.parametrize("data, path, words", [
    (snap(moving_to="main2"), "moving_to", "does not follow the current one"),       # Main Phase 1 goes to battle or end
    (snap(phase="end", moving_to="draw"), "moving_to", "does not follow the current one"),   # the next turn is end_turn's
    (snap(moving_to="lunch"), "moving_to", "one of"),
    (snap(moving_to="end", chain=[{"card": "ox", "player": "A"}]), "moving_to", "cancels the move"),
    (snap(winner="C"), "winner", "not one of the players"),
    (snap(winner=1), "winner", ""),
    (with_side("B", deck=["Battle Ox", "No Such Card"]), "players.B.deck[1]", "unknown card name"),
    (with_side("B", deck=["Battle Ox", 3]), "players.B.deck", ""),
    (with_side("B", deck="Battle Ox"), "players.B.deck", ""),
], ids=["moving-skips", "moving-past-end", "moving-not-a-phase", "moving-with-chain", "winner-unknown",
        "winner-number", "deck-unknown-name", "deck-number-entry", "deck-string"])
def test_whole_turn_keys(tmp_path, data, path, words):
    err = assert_invalid(tmp_path, data, path)
    assert words in err


def test_whole_turn_keys_accepted(tmp_path):
    """The valid forms: a move that may follow, a winner, a Deck listed by name (its count is the list's length)."""
    for data in (snap(moving_to="end", priority="B"), snap(phase="battle", moving_to="main2", priority="B"),
                 snap(winner="B"), with_side("A", deck=["Battle Ox", "Mystical Elf"]), with_side("A", deck=[])):
        code, out, err, _ = run(["legal", write(tmp_path, data), "--json"])
        assert code == 0, err
    engine = Engine()
    game = engine.encode(with_side("A", deck=["Battle Ox", "Mystical Elf"]))[0]
    facts = {str(f) for f in game.facts}
    assert "deck_size(1,2)" in facts
    top, second = (engine.names.base[n] for n in ("Battle Ox", "Mystical Elf"))
    assert {f"deck_card(1,1,{top})", f"deck_card(1,2,{second})"} <= facts


@pytest.mark.parametrize("event", ["normal_summon", "set", "flip_summon", "special_summon"])
def test_a_monster_event_naming_a_spell_is_refused(tmp_path, event):
    """A Summon, a monster Set or a Flip Summon names a monster (a generated counterexample once had
    "Umi" Normal Summoned); a Trap Monster may be Special Summoned."""
    s = with_side("A", field_spell={"id": "umi", "card": "Umi", "face": "up"})
    s["this_turn"] = [{"event": event, "card": "umi"}]
    assert "names a monster" in assert_invalid(tmp_path, s, "this_turn[0]")
    s = with_side("A", monsters=[{"id": "apo", "card": "Embodiment of Apophis", "position": "attack"}])
    s["this_turn"] = [{"event": "special_summon", "card": "apo", "method": "effect"}]
    code, out, err, _ = run(["legal", write(tmp_path, s)])
    assert code == 0, err


def test_an_event_that_is_not_a_mapping_is_named_once():
    """An event given as a list is refused at its own path, with no problem under a key it cannot have
    (found by tests/test_fuzz_snapshots.py: the list was read as pairs, and `this_turn[1].card` reported)."""
    snap = {"snapshot": 1, "turn": 3, "turn_player": "A", "phase": "main1",
            "players": {"A": {"hand": [{"id": "x", "card": "Battle Ox"}]}, "B": {}},
            "this_turn": [{"event": "draw"}, [{"event": "set_spell_trap", "card": "x"}, {"event": "draw", "player": "A"}]]}
    with pytest.raises(InvalidInput) as e:
        Engine().legal(snap)
    assert [p.path for p in e.value.problems] == ["this_turn[1]"]
    assert "expected a mapping" in e.value.problems[0].message
