"""Hostile ids, player keys and card names are only data: they never become program
text, and a snapshot that uses them gets the same verdicts as one with plain ids."""
from __future__ import annotations

import json

import pytest
from click.testing import CliRunner
from clingo import SymbolType

from pyrules import Action, Engine, parse_action
from pyrules.cli import main
from pyrules.encode import encode

HOSTILE = [
    'a"b',
    "x). #program base. :- true.",
    "#program final.",
    "% comment",
    "line\nbreak",
    'back\\"slash',
    "\\",
    "ox). forbidden(X,Y,none) :- candidate(X",
    "#show.",
    "'single'",
    " spaced id ",
    "ünïcødé ✓",
    "{curly}",
    "[1,2]",
    "a,b",
    "()",
    "draw",
    "q",
    "m(1,2)",
]
PLAIN = ["ox", "elf", "skull", "bug", "moon", "tok"]


@pytest.fixture(scope="module")
def engine():
    return Engine()


def scenario(ids: dict[str, str], pa: str = "A", pb: str = "B") -> dict:
    """A Main Phase 1 with something of every kind: a face-up monster, a face-down one,
    a Tribute in the hand, a token, a spell on the chain-free field, history."""
    i = ids
    return {
        "snapshot": 1, "turn": 3, "turn_player": pa, "phase": "main1",
        "players": {
            pa: {"hand": [{"id": i["skull"], "card": "Summoned Skull"}],
                 "monsters": [{"id": i["ox"], "card": "Battle Ox", "position": "attack"},
                              {"id": i["bug"], "card": "Man-Eater Bug", "position": "defense", "face": "down"},
                              {"id": i["tok"], "card": "Sheep Token", "position": "defense"}],
                 "spells_traps": [{"id": i["moon"], "card": "Book of Moon", "face": "down"}]},
            pb: {"monsters": [{"id": i["elf"], "card": "Mystical Elf", "position": "attack"}]},
        },
        "this_turn": [{"event": "special_summon", "card": i["tok"], "player": pa},
                      {"event": "position_change", "card": i["elf"], "how": "effect", "player": pb}],
    }


def hostile_ids(n: int = 0) -> dict[str, str]:
    return {p: HOSTILE[(n + k) % len(HOSTILE)] + ("" if k == 0 else f"#{k}") for k, p in enumerate(PLAIN)}


def renamed(obj, back: dict[str, str]):
    if isinstance(obj, str):
        return back.get(obj, obj)
    if isinstance(obj, list):
        return [renamed(x, back) for x in obj]
    if isinstance(obj, dict):
        return {k: renamed(v, back) for k, v in obj.items()}
    return obj


def normalised(legal_json: dict, back: dict[str, str]) -> dict:
    out = renamed(legal_json, back)
    for a in out["permitted"]:
        for key in ("tributes", "materials"):
            if key in a:
                a[key] = sorted(a[key])
    out["permitted"].sort(key=lambda a: json.dumps(a, sort_keys=True))
    return out


PLAIN_IDS = {p: p for p in PLAIN}


@pytest.mark.parametrize("n", range(0, len(HOSTILE), 3))
def test_hostile_ids_give_the_same_legal_actions(engine, n):
    ids = hostile_ids(n)
    back = {v: k for k, v in ids.items()}
    plain = engine.legal(scenario(PLAIN_IDS), include_forbidden=True)
    hostile = engine.legal(scenario(ids), include_forbidden=True)
    assert normalised(hostile.to_json(), back) == normalised(plain.to_json(), {})

    def verdicts(legal, back):
        def act(v):
            return {k: sorted(x) if isinstance(x, list) else x for k, x in renamed(v.action.to_json(), back).items()}
        return sorted(json.dumps([act(v), sorted(r.rule for r in v.reasons)],
                                 sort_keys=True) for v in legal.forbidden)
    assert verdicts(hostile, back) == verdicts(plain, {})


CHECKS = ["change_position(ox,defense)", "flip_summon(bug)", "normal_summon(skull,[ox])",
          "normal_summon(skull,[elf])", "set(skull,[])", "effect_position(tok,defense,down)",
          "effect_position(elf,defense,down)", "change_position(elf,attack)", "change_position(tok,attack)",
          "draw", "enter_battle_phase"]


@pytest.mark.parametrize("n", range(0, len(HOSTILE), 2))
def test_hostile_ids_give_the_same_verdicts(engine, n):
    ids = hostile_ids(n)
    for term in CHECKS:
        plain_action = parse_action(term)
        hostile_action = Action(**{**plain_action.__dict__,
                                   **{k: ids[v] for k, v in plain_action.__dict__.items() if v in ids},
                                   **({"tributes": tuple(ids[t] for t in plain_action.tributes)}
                                      if plain_action.tributes else {})})
        p = engine.check(scenario(PLAIN_IDS), plain_action)
        h = engine.check(scenario(ids), hostile_action)
        assert (h.permitted, [r.rule for r in h.reasons]) == (p.permitted, [r.rule for r in p.reasons]), term


def test_hostile_player_keys(engine):
    pa, pb = 'A"). #program x.', "% B\n"
    plain = engine.legal(scenario(PLAIN_IDS))
    hostile = engine.legal(scenario(PLAIN_IDS, pa, pb))
    assert hostile.to_json() == plain.to_json()
    v = engine.check(scenario(PLAIN_IDS, pa, pb),
                     {"action": "special_summon", "card": "skull", "position": "attack", "player": pb})
    assert isinstance(v.permitted, bool)


@pytest.mark.parametrize("name", HOSTILE[:8])
def test_inline_card_with_a_hostile_name(engine, name):
    card = {"name": name, "kind": "monster", "level": 6, "atk": 2000, "def": 0, "attribute": "DARK",
            "type": "Fiend", "normal": True}
    s = {"snapshot": 1, "players": {"A": {"hand": [{"id": "x", "card": card}],
                                          "monsters": [{"id": "ox", "card": "Battle Ox", "position": "attack"}]},
                                    "B": {}}}
    assert engine.check(s, "normal_summon(x,[ox])").permitted
    v = engine.check(s, "normal_summon(x)")
    assert not v.permitted and [r.rule for r in v.reasons] == ["needs_tributes"]
    assert "normal_summon(x,[ox])" in [a.term() for a in engine.legal(s).permitted]


def test_hostile_inline_card_names_in_references(engine):
    """Names inside card effects (a `while: {face_up_card: ...}` condition) are interned too."""
    bad = 'Umi"). #program base.'
    card = {"name": "Fish%", "kind": "monster", "level": 4, "atk": 1, "def": 1,
            "effects": [{"effect": "cannot_be_attack_target", "while": {"face_up_card": bad}}]}
    s = {"snapshot": 1, "players": {"A": {"monsters": [{"id": "f", "card": card, "position": "attack"}]},
                                    "B": {}}}
    assert engine.check(s, "change_position(f,defense)").permitted


def test_no_user_text_reaches_the_solver(engine):
    ids = hostile_ids(1)
    game = engine.game(scenario(ids))
    enc = encode(game, engine.names, engine.reading_defaults)
    user_text = set(ids.values()) | {"A", "B"}

    def walk(sym):
        assert sym.type != SymbolType.String, sym
        if sym.type == SymbolType.Function:
            assert sym.name not in user_text
            for a in sym.arguments:
                walk(a)

    for fact in enc.facts:
        walk(fact)


@pytest.mark.parametrize("ident", HOSTILE)
def test_term_form_round_trips(ident):
    a = Action(action="change_position", card=ident, to="defense")
    assert parse_action(a.term()) == a
    b = parse_action({"action": "normal_summon", "card": ident, "tributes": [ident + "2", "plain"]})
    assert parse_action(b.term()) == b
    assert parse_action(json.dumps(b.to_json())) == b


def test_plain_ids_stay_unquoted():
    assert parse_action({"action": "flip_summon", "card": "A.hand-1_x"}).term() == "flip_summon(A.hand-1_x)"
    assert parse_action({"action": "flip_summon", "card": "my ox"}).term() == 'flip_summon("my ox")'
    assert parse_action('change_position("my \\"ox\\"",defense)').card == 'my "ox"'
    assert parse_action('change_position("a\\\\b",defense)').card == "a\\b"


def test_hostile_ids_through_the_cli(tmp_path):
    import yaml
    ids = hostile_ids(0)
    path = tmp_path / "s.yaml"
    path.write_text(yaml.safe_dump(scenario(ids)), encoding="utf-8")
    try:
        runner = CliRunner(mix_stderr=False)
    except TypeError:
        runner = CliRunner()
    term = Action(action="normal_summon", card=ids["skull"], tributes=(ids["ox"],)).term()
    res = runner.invoke(main, ["check", str(path), term, "--json"])
    assert res.exit_code == 0, res.output
    assert json.loads(res.stdout)["action"] == {"action": "normal_summon", "card": ids["skull"],
                                                "tributes": [ids["ox"]]}
    res = runner.invoke(main, ["legal", str(path), "--json"])
    assert res.exit_code == 0
    permitted = json.loads(res.stdout)["permitted"]
    assert {"action": "change_position", "card": ids["ox"], "to": "defense"} in permitted
    res = runner.invoke(main, ["legal", str(path)])        # the table prints hostile ids as terms
    assert res.exit_code == 0 and "Traceback" not in res.output
