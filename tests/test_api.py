"""The Python API: Engine.legal / Engine.check, their inputs and typed results."""
from __future__ import annotations

import copy
import json
from pathlib import Path

import pytest
import yaml

from boards import main_phase_board
from pyrules import Action, Engine, InvalidInput, Legal, Reason, Verdict, parse_action

SNAP = main_phase_board({"event": "position_change", "card": "ox", "how": "effect"})


@pytest.fixture(scope="module")
def engine():
    return Engine()


def terms(legal: Legal) -> list[str]:
    return [a.term() for a in legal.permitted]


# ---- snapshot sources ------------------------------------------------------------
def test_dict_yaml_json_and_path_give_the_same_answers(engine, tmp_path):
    y = tmp_path / "s.yaml"
    y.write_text(yaml.safe_dump(SNAP), encoding="utf-8")
    j = tmp_path / "s.json"
    j.write_text(json.dumps(SNAP), encoding="utf-8")
    sources = [SNAP, yaml.safe_dump(SNAP), json.dumps(SNAP), y, j]
    answers = [engine.legal(s).to_json() for s in sources]
    assert all(a == answers[0] for a in answers)
    verdicts = [engine.check(s, "normal_summon(skull,[ox])").to_json() for s in sources]
    assert all(v == verdicts[0] for v in verdicts) and verdicts[0]["permitted"] is True


class _PathObject:
    """An os.PathLike that is not a pathlib.Path (as os.DirEntry or a library's own path type)."""

    def __init__(self, path: Path) -> None:
        self.path = path

    def __fspath__(self) -> str:
        return str(self.path)


def test_any_path_object_is_a_snapshot_a_card_pool_or_a_rules_folder(engine, tmp_path):
    snap = tmp_path / "s.yaml"
    snap.write_text(yaml.safe_dump(SNAP), encoding="utf-8")
    assert engine.legal(_PathObject(snap)).to_json() == engine.legal(snap).to_json()
    assert engine.check(_PathObject(snap), "normal_summon(skull,[ox])").permitted
    pool = tmp_path / "pool.yaml"
    pool.write_text("- {name: Path Ox, kind: monster, level: 4, attribute: EARTH, type: Beast-Warrior, "
                    "atk: 1700, def: 1000, normal: true}\n", encoding="utf-8")
    rules = Path(__file__).resolve().parent.parent / "rules"
    other = Engine(rules=_PathObject(rules), cards=_PathObject(pool))
    assert "Path Ox" in other.cards and other.config["cards"] == str(pool)
    assert other.rules_dir == rules


@pytest.mark.parametrize("text", ["snap.yaml", "facts/examples/main_phase.yaml", "  s.json\n", "no_such_file"])
def test_a_file_name_given_as_str_is_refused_with_a_hint(engine, text):
    with pytest.raises(InvalidInput) as e:
        engine.check(text, "draw")
    [problem] = e.value.problems
    assert problem.path == "snapshot"
    assert "pathlib.Path" in problem.message and repr(text.strip()) in problem.message


def test_the_python_api_page_quotes_the_hint_as_it_is(engine):
    page = (Path(__file__).resolve().parent.parent / "docs" / "python-api.md").read_text(encoding="utf-8")
    with pytest.raises(InvalidInput) as e:
        engine.check("snap.yaml", "draw")
    hint = e.value.problems[0].message.split("; ", 1)[1]
    assert hint in " ".join(page.split())


def test_text_over_several_lines_that_is_no_mapping_gets_no_file_hint(engine):
    with pytest.raises(InvalidInput) as e:
        engine.check("- a\n- b\n", "draw")
    assert "pathlib.Path" not in e.value.problems[0].message


def test_the_dict_is_not_changed(engine):
    before = json.dumps(SNAP, sort_keys=True)
    engine.legal(SNAP)
    engine.check(SNAP, "flip_summon(bug)")
    assert json.dumps(SNAP, sort_keys=True) == before


def test_legal_is_typed_and_sorted(engine):
    res = engine.legal(SNAP)
    assert isinstance(res, Legal) and res.replay is False
    assert all(isinstance(a, Action) for a in res.permitted)
    assert list(res.permitted) == sorted(res.permitted, key=Action.sort_key)
    assert len(set(res.permitted)) == len(res.permitted)
    assert terms(res) == terms(engine.legal(SNAP))       # a stable order
    assert "normal_summon(skull,[ox])" in terms(res) and "set(skull,[bug])" in terms(res)
    assert "change_position(ox,defense)" in terms(res)
    # defaults are filled in: every Normal Summon has its tributes list
    assert all(a.tributes is not None for a in res.permitted if a.action in ("normal_summon", "set"))


def test_legal_include_forbidden(engine):
    res = engine.legal(SNAP, include_forbidden=True)
    assert res.forbidden and all(isinstance(v, Verdict) and not v.permitted and v.reasons for v in res.forbidden)
    forbidden_terms = {v.action.term() for v in res.forbidden}
    assert not forbidden_terms & set(terms(res))
    assert "draw" in forbidden_terms and "enter_battle_phase" in terms(res)
    assert engine.legal(SNAP).forbidden == ()


# ---- actions in every form ---------------------------------------------------------
@pytest.mark.parametrize("forms", [
    ["normal_summon(skull,[ox])", '{"action":"normal_summon","card":"skull","tributes":["ox"]}',
     {"action": "normal_summon", "card": "skull", "tributes": ["ox"]},
     Action(action="normal_summon", card="skull", tributes=("ox",))],
    ["normal_summon(skull)", "normal_summon(skull,[])", {"action": "normal_summon", "card": "skull"},
     Action(action="normal_summon", card="skull", tributes=())],
    ["change_position(ox,defense)", " change_position( ox , defense ) ",
     {"action": "change_position", "card": "ox", "to": "defense"},
     Action(action="change_position", card="ox", to="defense")],
    ["effect_position(elf,defense,down)", {"action": "effect_position", "card": "elf", "to": "defense", "face": "down"}],
    ["draw", {"action": "draw"}, Action(action="draw")],
])
def test_action_forms_give_the_same_verdict(engine, forms):
    verdicts = [engine.check(SNAP, f) for f in forms]
    assert len({v.action for v in verdicts}) == 1
    assert len({(v.permitted, tuple(r.rule for r in v.reasons)) for v in verdicts}) == 1


def test_tribute_order_does_not_matter(engine):
    s = json.loads(json.dumps(SNAP))
    s["players"]["A"]["hand"] = [{"id": "dm", "card": "Dark Magician"}]
    a = engine.check(s, "normal_summon(dm,[ox,bug])")
    b = engine.check(s, {"action": "normal_summon", "card": "dm", "tributes": ["bug", "ox"]})
    assert a.permitted and b.permitted and a.action == b.action
    assert a.to_json()["action"]["tributes"] == ["bug", "ox"]


def test_parse_action_canonical_json():
    a = parse_action("set(skull,[ox,bug])")
    assert a.to_json() == {"action": "set", "card": "skull", "tributes": ["bug", "ox"]}
    assert parse_action(a.to_json()) == a and parse_action(a.term()) == a
    assert parse_action("enter_battle_phase").to_json() == {"action": "enter_battle_phase"}


@pytest.mark.parametrize("action, path, message", [
    (Action("nonsense"), "action.action", "unknown action 'nonsense'"),
    (Action(5), "action.action", "expected an action name (a string)"),
    (Action("normal_summon", card="skull", tributes="ox"), "action.tributes", "expected a list of ids"),
    (Action("normal_summon", card="skull", tributes=("ox", "ox")), "action.tributes", "names the same id twice"),
    (Action("change_position", card="ox", to="sideways"), "action.to", "must be attack or defense"),
    (Action("draw", card="ox"), "action.card", "unknown key for draw"),
    (Action("flip_summon"), "action.card", "is required"),
])
def test_an_action_made_by_hand_is_checked_as_a_parsed_one(engine, action, path, message):
    from pyrules.explain import explain
    for ask in (engine.check, lambda s, a: explain(engine, s, a)):
        with pytest.raises(InvalidInput) as info:
            ask(SNAP, action)
        assert info.value.problems[0].path == path and message in info.value.problems[0].message


def test_an_action_made_by_hand_gets_the_defaults_of_a_parsed_one(engine):
    made = engine.check(SNAP, Action("normal_summon", card="skull", tributes=["ox"]))
    assert made.action == parse_action("normal_summon(skull,[ox])")
    assert engine.check(SNAP, Action("normal_summon", card="ox")).action.tributes == ()


# ---- readings -----------------------------------------------------------------------
FIRST_DRAW = {"snapshot": 1, "turn": 1, "phase": "draw", "players": {"A": {}, "B": {}}}
EFFECT_CHANGED = {"snapshot": 1, "players": {"A": {"monsters": [{"id": "ox", "card": "Battle Ox", "position": "defense"}]},
                                             "B": {}},
                  "this_turn": [{"event": "position_change", "card": "ox", "how": "effect"}]}


def test_readings_default(engine):
    assert not engine.check(FIRST_DRAW, "draw").permitted
    assert engine.check(EFFECT_CHANGED, "change_position(ox,attack)").permitted


def test_readings_from_the_snapshot(engine):
    assert engine.check({**FIRST_DRAW, "readings": {"first_turn_draw": True}}, "draw").permitted
    assert engine.check({**FIRST_DRAW, "readings": {"first_turn_draw": "true"}}, "draw").permitted
    v = engine.check({**EFFECT_CHANGED, "readings": {"position_change_limit": "any_change"}},
                     "change_position(ox,attack)")
    assert not v.permitted and [r.rule for r in v.reasons] == ["already_changed_this_turn"]


def test_readings_from_the_argument(engine):
    assert engine.check(FIRST_DRAW, "draw", {"first_turn_draw": "true"}).permitted
    assert "draw" in terms(engine.legal(FIRST_DRAW, {"first_turn_draw": "true"}))
    assert not engine.check(EFFECT_CHANGED, "change_position(ox,attack)",
                            {"position_change_limit": "any_change"}).permitted


def test_the_argument_wins_over_the_snapshot(engine):
    s = {**FIRST_DRAW, "readings": {"first_turn_draw": True}}
    assert not engine.check(s, "draw", {"first_turn_draw": "false"}).permitted
    assert "draw" not in terms(engine.legal(s, {"first_turn_draw": "false"}))
    s = {**FIRST_DRAW, "readings": {"first_turn_draw": False}}
    assert engine.check(s, "draw", {"first_turn_draw": "true"}).permitted


def test_the_argument_takes_true_and_false_as_the_snapshot_does(engine):
    assert "draw" in terms(engine.legal(FIRST_DRAW, readings={"first_turn_draw": True}))
    assert engine.check(FIRST_DRAW, "draw", {"first_turn_draw": True}).permitted
    s = {**FIRST_DRAW, "readings": {"first_turn_draw": True}}
    assert not engine.check(s, "draw", {"first_turn_draw": False}).permitted


def test_unknown_readings_are_invalid(engine):
    with pytest.raises(InvalidInput) as info:          # named as the argument, not as an option
        engine.check(FIRST_DRAW, "draw", {"first_turn_draw": "sometimes"})
    assert info.value.problems[0].path == "readings['first_turn_draw']"
    assert "--reading" not in str(info.value)
    with pytest.raises(InvalidInput):
        engine.legal(FIRST_DRAW, {"no_such_reading": "x"})


def test_readings_are_listed_with_defaults(engine):
    r = engine.catalogue.readings
    assert r["first_turn_draw"].default == "false" and set(r["first_turn_draw"].values) == {"false", "true"}
    assert r["position_change_limit"].default == "manual_only"
    assert set(r["position_change_limit"].values) == {"manual_only", "any_change"}


# ---- one Engine, many queries ---------------------------------------------------------
def test_one_engine_answers_many_queries(engine, monkeypatch):
    first = engine.legal(SNAP).to_json()
    # the rules were read when the Engine was made: no rule file is opened again
    real = Path.read_text

    def guarded(self, *a, **kw):
        assert self.suffix != ".lp", f"rules re-read: {self}"
        return real(self, *a, **kw)

    monkeypatch.setattr(Path, "read_text", guarded)
    for n in range(30):
        assert engine.legal(SNAP).to_json() == first
        assert engine.check(FIRST_DRAW, "draw").permitted is False
        assert engine.check(FIRST_DRAW, "draw", {"first_turn_draw": "true"}).permitted is True
        s = json.loads(json.dumps(SNAP))
        s["players"]["A"]["monsters"][0]["id"] = f"ox{n}"
        s["this_turn"][0]["card"] = f"ox{n}"
        assert engine.check(s, f"change_position(ox{n},defense)").permitted


def test_an_invalid_query_does_not_spoil_the_engine(engine):
    with pytest.raises(InvalidInput):
        engine.check(SNAP, "flip_summon(ghost)")
    with pytest.raises(InvalidInput):
        engine.legal({"snapshot": 1, "players": {"A": {"hand": ["Sheep Token"]}, "B": {}}})
    assert engine.check(SNAP, "flip_summon(bug)").permitted


# ---- results in the contract's shape -------------------------------------------------
def test_verdict_to_json_permitted(engine):
    out = engine.check(SNAP, "flip_summon(bug)").to_json()
    assert out == {"action": {"action": "flip_summon", "card": "bug"}, "permitted": True, "reasons": []}
    json.dumps(out)


def test_verdict_to_json_forbidden(engine):
    v = engine.check(SNAP, "normal_summon(skull)")
    assert isinstance(v, Verdict) and not v.permitted
    assert all(isinstance(r, Reason) for r in v.reasons)
    out = v.to_json()
    assert set(out) >= {"action", "permitted", "reasons"}
    assert out["action"] == {"action": "normal_summon", "card": "skull", "tributes": []}
    assert out["permitted"] is False and out["reasons"]
    for r in out["reasons"]:
        assert {"rule", "text", "source"} <= set(r)
        assert r["rule"].replace("_", "").isalnum() and r["rule"] == r["rule"].lower()
        assert r["text"] and r["source"]
        assert "{need}" not in r["text"] and "{card}" not in r["text"]
    need = [r for r in v.reasons if r.rule == "needs_tributes"][0]
    assert "1 Tribute" in need.text
    assert need.source.startswith("rulebook-turn-and-summons")
    json.dumps(out)


def test_reason_evidence_names_the_card(engine):
    v = engine.check(SNAP, "normal_summon(skull,[elf])")
    r = [r for r in v.reasons if r.rule == "tribute_not_your_monster"][0]
    assert "Mystical Elf" in r.text and "elf" in r.text


def test_reason_evidence_names_the_event(engine):
    s = json.loads(json.dumps(SNAP))
    s["this_turn"] = [{"event": "attack", "card": "ox", "target": "elf", "negated": True}]
    s["phase"] = "main2"
    v = engine.check(s, "change_position(ox,defense)")
    r = [r for r in v.reasons if r.rule == "declared_attack_this_turn"][0]
    assert r.evidence and "event 1" in r.evidence[0] and "negated" in r.evidence[0]
    (g,) = r.grounds                     # the same evidence as data
    assert (g.kind, g.event, g.what, g.card, g.flags) == ("event", 1, "attack", "ox", ("negated",))
    assert r.to_json()["grounds"] == [{"kind": "event", "event": 1, "what": "attack", "card": "ox",
                                       "flags": ["negated"]}]


def test_reason_grounds_are_the_evidence_as_data(engine):
    """Each evidence string is the text of its structured value: cards, and numbers."""
    reasons = engine.check(SNAP, "normal_summon(skull,[elf])").reasons + engine.check(SNAP, "normal_summon(skull)").reasons
    grounds = [g for r in reasons for g in r.grounds]
    assert {g.kind for g in grounds} >= {"card", "need"}
    for r in reasons:
        assert r.evidence == tuple(g.text() for g in r.grounds)
    card = next(g for g in grounds if g.kind == "card" and g.card == "elf")
    assert (card.name, card.player) == ("Mystical Elf", "B")
    assert next(g for g in grounds if g.kind == "need").number == 1          # Summoned Skull: one Tribute


def test_legal_to_json_shape(engine):
    out = engine.legal(SNAP).to_json()
    assert set(out) == {"permitted", "replay"} and out["replay"] is False
    assert all(isinstance(a, dict) and "action" in a for a in out["permitted"])
    assert {"action": "set", "card": "skull", "tributes": ["ox"]} in out["permitted"]
    full = engine.legal(SNAP, include_forbidden=True).to_json(include_forbidden=True)
    assert set(full) == {"permitted", "replay", "forbidden"}
    assert all(f["permitted"] is False and f["reasons"] for f in full["forbidden"])


def test_a_dict_snapshot_is_not_modified():
    import copy
    from pyrules import Engine
    snap = {"snapshot": 1, "players": {"A": {"hand": ["Battle Ox"], "monsters": [{"id": "ox", "card": "Battle Ox", "position": "attack"}]}, "B": {}},
            "this_turn": [{"event": "normal_summon", "card": "ox"}]}
    before = copy.deepcopy(snap)
    engine = Engine()
    engine.legal(snap, include_forbidden=True)
    engine.check(snap, "change_position(ox,defense)")
    assert snap == before


def test_legal_reports_reasons_only_when_asked():
    from pyrules import Engine
    snap = {"snapshot": 1, "players": {"A": {"monsters": [{"id": "ox", "card": "Battle Ox", "position": "attack"}]}, "B": {}},
            "this_turn": [{"event": "normal_summon", "card": "ox"}]}
    engine = Engine()
    assert engine.legal(snap).forbidden == ()
    verdicts = {v.action.term(): v for v in engine.legal(snap, include_forbidden=True).forbidden}
    assert [r.rule for r in verdicts["change_position(ox,defense)"].reasons] == ["summoned_this_turn"]


def test_engines_in_several_threads_give_the_single_thread_answers():
    """clingo's program building is not thread-safe; the engine serialises it (CLINGO_LOCK)."""
    from concurrent.futures import ThreadPoolExecutor
    from pyrules import Engine
    engines = [Engine() for _ in range(3)]
    hand = ["Summoned Skull", "Dark Necrofear", "Blue-Eyes White Dragon", "Man-Eater Bug", "Dark Magician"]
    side = ["Battle Ox", "Celtic Guardian", "Mystical Elf"]

    def snap(i):
        def mons(p):
            return [{"id": f"{p}{k}_{i}", "card": side[k], "position": ["attack", "defense"][k % 2]} for k in range(3)]
        return {"snapshot": 1, "phase": ["main1", "battle", "main2"][i % 3], "players": {
            "A": {"hand": [{"id": f"h{k}_{i}", "card": c} for k, c in enumerate(hand)], "monsters": mons("a")},
            "B": {"monsters": mons("b")}},
            "this_turn": [{"event": "draw"}, {"event": "position_change", "card": f"a0_{i}", "how": "effect"}]}

    snaps = [snap(i) for i in range(300)]
    expected = [engines[0].legal(s).to_json() for s in snaps]

    def work(k):
        return [engines[k % 3].legal(s).to_json() for s in snaps[k * 50:(k + 1) * 50]]

    with ThreadPoolExecutor(3) as pool:
        got = [x for chunk in pool.map(work, range(6)) for x in chunk]
    assert got == expected


def test_decoded_actions_equal_constructed_ones():
    """Action.made (the decoder's fast path) gives the very Action the constructor gives,
    and sort_key orders missing fields and id lists as before (None and () first)."""
    import dataclasses
    from pyrules.actions import Action
    cases = [("change_position", {"card": "ox", "to": "defense"}),
             ("normal_summon", {"card": "skull", "tributes": ("a", "b")}),
             ("synchro_summon", {"card": "jw", "materials": ("js", "x"), "position": "attack"}),
             ("declare_attack", {"card": "ox", "target": "direct"}), ("draw", {})]
    for name, fields in cases:
        made, built = Action.made(name, fields), Action(action=name, **fields)
        assert made == built and hash(made) == hash(built) and repr(made) == repr(built)
        assert set(made.__dict__) == {f.name for f in dataclasses.fields(Action)}
        assert made.sort_key() == built.sort_key()
    assert Action("set", card="a", tributes=()).sort_key() < Action("set", card="a", tributes=("b",)).sort_key()
    assert Action("change_position", card="z", to="attack").sort_key() < Action("draw").sort_key()


def test_str_and_int_subclasses_in_a_snapshot_are_read_like_plain_values(engine):
    """The schema accepts str and int subclasses (enums, YAML libraries' scalars); the
    encoding reads them as their plain values."""
    import enum

    class Phase(str, enum.Enum):
        MAIN1 = "main1"

    class Turn(int):
        pass

    snap = copy.deepcopy(SNAP)
    snap["phase"], snap["turn"] = Phase.MAIN1, Turn(snap.get("turn", 3))
    assert engine.legal(snap).to_json() == engine.legal(SNAP).to_json()


def test_a_database_card_naming_a_card_outside_the_database_is_not_cached_with_a_snapshots_number():
    """A card pool card protected while "Foo" is face-up (Foo is not in the pool): after a
    snapshot with an inline Foo, a snapshot with an inline Bar still lets it be attacked."""
    from pyrules.cards import CardDB
    db = CardDB.bundled()
    db.add([{"name": "Guarded", "kind": "monster", "level": 4,
             "effects": [{"effect": "cannot_be_attack_target", "while": {"face_up_card": "Foo"}}]}], "pool")
    e = Engine(cards=db)

    def board(field_name):
        # the inline card comes first (A's side), so its name is numbered before Guarded's facts
        return {"snapshot": 1, "turn": 3, "phase": "battle",
                "players": {"A": {"monsters": [{"id": "ox", "card": "Battle Ox", "position": "attack"}],
                                  "field_spell": {"id": "f", "face": "up",
                                                  "card": {"name": field_name, "kind": "spell",
                                                           "spell_type": "field"}}},
                            "B": {"monsters": [{"id": "g", "card": "Guarded", "position": "attack"}]}}}
    attack = "declare_attack(ox,g)"
    assert e.check(board("Bar"), attack).permitted
    assert not e.check(board("Foo"), attack).permitted
    assert e.check(board("Bar"), attack).permitted
    many = e.legal_many([board("Foo"), board("Bar"), board("Foo")])
    assert [any(a.term() == attack for a in r.permitted) for r in many] == [False, True, False]


def test_the_predicates_the_rules_read_include_shown_and_classically_negated_ones():
    """Card facts are given only for predicates the rules mention: a `#show atk/2.` or a
    `-race(...)` literal counts as a mention."""
    import clingo.ast as ast
    from pyrules.astwalk import predicates_read
    stmts: list = []
    ast.parse_string("#show atk/2. p(X) :- -race(X,dragon), level(X,L), L > 4.", stmts.append)
    assert {("atk", 2), ("race", 2), ("level", 2), ("p", 1)} <= predicates_read(stmts)


@pytest.mark.parametrize("kind", ["nonsense", 5])
def test_an_unknown_action_kind_made_by_hand_cannot_be_written_either(kind):
    for write in (Action.term, Action.to_json, Action.ids):
        with pytest.raises(InvalidInput) as info:
            write(Action(kind))
        assert info.value.problems[0].path == "action.action"


def test_a_reason_names_every_card_its_evidence_names(engine):
    # issue 13: a forbidden Summon's reasons name what is missing: "Gate Guardian" without its three
    # named monsters needs all three, not the first alone
    snap = {"snapshot": 1, "turn": 3, "turn_player": "A", "phase": "main1",
            "players": {"A": {"hand": [{"id": "gg", "card": "Gate Guardian"}],
                              "monsters": [{"id": "sanga", "card": "Sanga of the Thunder", "position": "attack"}]},
                        "B": {}}}
    none = engine.check(snap, "procedure_summon(gg,[],attack)")
    text = next(r.text for r in none.reasons if r.rule == "procedure_needs_card")
    assert '"Sanga of the Thunder", "Kazejin" and "Suijin"' in text
    one = engine.check(snap, "procedure_summon(gg,[sanga],attack)")
    text = next(r.text for r in one.reasons if r.rule == "procedure_needs_card")
    assert '"Kazejin" and "Suijin"' in text and "Sanga" not in text


def test_a_reason_lists_every_card_that_adds_to_it_in_its_parentheses(engine):
    # two "Command Knight" stop the direct attack together: both are named, not the first alone
    snap = {"snapshot": 1, "turn": 3, "turn_player": "A", "phase": "battle", "battle_step": "battle",
            "players": {"A": {"monsters": [{"id": "ox", "card": "Battle Ox", "position": "attack"}]},
                        "B": {"monsters": [{"id": "ck1", "card": "Command Knight", "position": "attack"},
                                           {"id": "ck2", "card": "Command Knight", "position": "attack"}]}}}
    v = engine.check(snap, "declare_attack(ox,direct)")
    text = next(r.text for r in v.reasons if r.rule == "direct_attack_not_allowed")
    assert '("Command Knight" (B, id ck1) and "Command Knight" (B, id ck2))' in text


def test_a_reason_said_of_its_card_is_said_of_each_card_it_names(engine):
    # Dark Magician (7) with Battle Ox (4) and Mokey Mokey (1) for Level 8: either of the two small ones is
    # superfluous; the reason names both, not the first alone
    board = yaml.safe_load((Path(__file__).resolve().parent.parent / "benchmarks" / "summons_board.yaml").read_text())
    v = engine.check(board, "ritual_summon(bls,[dm,ox,mokey],attack,blr)")
    text = next(r.text for r in v.reasons if r.rule == "ritual_superfluous")
    assert text.startswith("Each of ") and "id mokey" in text and "id ox" in text and " is a superfluous Tribute" in text
    one = engine.check(board, "ritual_summon(bls,[ox,witch,tw],attack,blr)")    # 4 + 4 + 2: Time Wizard alone
    text = next(r.text for r in one.reasons if r.rule == "ritual_superfluous")
    assert text.startswith('"Time Wizard" (A, id tw) is a superfluous Tribute')
