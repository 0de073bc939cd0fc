"""Counterexample search and property checks (pyrules/search.py, `pyrules diff`, `pyrules verify`).

Every counterexample a test generates is checked for the round trip: its snapshot passes
validation, and Engine.check under each reading value gives the verdict the search printed.
"""
from __future__ import annotations

import io
import json
import shutil

import pytest
from click.testing import CliRunner

from pyrules import Engine
from pyrules.cases import case_checks, load_cases, run_check
from pyrules.cli import main
from pyrules.errors import InvalidInput
from pyrules.search import Progress, Scope, Searcher, parse_card_names, parse_program, worldify


@pytest.fixture(scope="module")
def engine():
    return Engine()


@pytest.fixture(scope="module")
def searcher(engine):
    return Searcher(engine)


@pytest.fixture(scope="module")
def shipped(searcher):
    """Searcher.verify's result of each property on the shipped rules, found once per module
    (test_shipped_properties_hold finds them all; each broken-rule test needs its own)."""
    found = {}

    def result(name):
        if name not in found:
            (found[name],) = searcher.verify([name])
        return found[name]
    result.found = found
    return result


def assert_round_trip(engine, cx):
    """The snapshot is valid and every printed verdict is what Engine.check answers."""
    assert cx.reproduced, cx.worlds
    engine.legal(cx.snapshot)                       # raises InvalidInput if validation rejects it
    for label, w in cx.worlds.items():
        v = engine.check(cx.snapshot, cx.action, w["readings"] or None)
        permitted, reasons = w["model"]
        assert v.permitted == permitted, (label, cx.snapshot)
        assert sorted(r.rule for r in v.reasons) == sorted(reasons), (label, cx.snapshot)
        if not v.permitted:
            assert v.reasons


# ---- diff ------------------------------------------------------------------------
def test_position_change_limit_minimal_counterexample(engine, searcher):
    res = searcher.diff("position_change_limit", scope=Scope.parse("monsters=2,events=3"))
    assert len(res.found) == 1
    cx = res.found[0]
    assert cx.optimal and cx.cards == 1 and cx.events == 1
    assert cx.snapshot["this_turn"][0]["event"] == "position_change"
    assert cx.snapshot["this_turn"][0]["how"] == "effect"
    assert cx.worlds["manual_only"]["model"] == (True, ())
    assert cx.worlds["any_change"]["model"] == (False, ("already_changed_this_turn",))
    assert_round_trip(engine, cx)


@pytest.mark.parametrize("reading", sorted(Engine().catalogue.readings))
def test_every_reading_has_a_counterexample(engine, searcher, reading):
    res = searcher.diff(reading, count=2)
    assert res.found, res.summary()
    for cx in res.found:
        assert_round_trip(engine, cx)


def test_count_gives_counterexamples_that_part_the_readings_differently(engine, searcher):
    """Each further counterexample has a core (action kind, verdicts, reasons, what they cite) that
    does not hold an earlier one's: position_change_limit parts in two ways only (the change by hand
    and the Flip Summon after an effect's change), and the search says it looked everywhere."""
    res = searcher.diff("position_change_limit", count=4)
    assert len(res.found) == 2 and res.exhausted
    assert {cx.action.action for cx in res.found} == {"change_position", "flip_summon"}
    cores = [set(cx.core) for cx in res.found]
    assert all(cores) and not any(cores[i] <= cores[j] for j in range(2) for i in range(j + 1, 2))
    for cx in res.found:
        assert "reason(2,already_changed_this_turn)" in cx.core
        assert "cites(2,already_changed_this_turn,event(position_change,effect))" in cx.core
    sizes = [(cx.cards, cx.events) for cx in res.found]
    assert sizes == sorted(sizes)                   # smallest first
    for cx in res.found:
        assert_round_trip(engine, cx)


@pytest.mark.parametrize("reading", ["first_turn_draw", "level_limit_change"])
def test_a_further_counterexample_is_not_the_first_with_padding(searcher, reading):
    """The issue's report: --count 2 gave the first counterexample again with an unrelated event
    added (first_turn_draw: an enter_phase before the draw).  Each counterexample found is
    unpadded (no event), and none repeats another's core: first_turn_draw parts the readings on
    the draw, on leaving the Draw Phase before it and on a Deck already empty (the duel over);
    level_limit_change in one way only."""
    res = searcher.diff(reading, count=3)
    assert len(res.found) == 3 or res.exhausted, [cx.snapshot for cx in res.found]
    assert all(cx.events == 0 for cx in res.found)
    assert len({cx.action.action for cx in res.found}) == len(res.found)
    cores = [set(cx.core) for cx in res.found]
    assert not any(cores[i] <= cores[j] for i in range(len(cores)) for j in range(len(cores)) if i != j)


def test_diff_help_names_the_default_search_space(engine):
    """The --cards and --scope help come from the generator's own pool and scope (the issue: the help
    said five monsters where the search draws six and five Spells/Traps)."""
    from pyrules.search import DEFAULT_MONSTERS, DEFAULT_POOL, DEFAULT_SPELLS_TRAPS
    kinds = [engine.cards[n]["kind"] for n in DEFAULT_POOL]
    monsters = kinds.count("monster")
    assert [engine.cards[n]["kind"] for n in DEFAULT_MONSTERS] == ["monster"] * len(DEFAULT_MONSTERS)
    assert "monster" not in [engine.cards[n]["kind"] for n in DEFAULT_SPELLS_TRAPS]
    assert Searcher(engine).pool == DEFAULT_POOL
    for command in ("diff", "verify"):
        result = CliRunner().invoke(main, [command, "--help"])
        text = " ".join(result.output.split())
        assert f"{monsters} monsters" in text and f"{len(kinds) - monsters} Spells/Traps" in text, text
        assert all(n in text for n in DEFAULT_POOL)
        assert str(Scope()).replace(",", ", ") in text


def test_values_in_either_order(engine, searcher):
    res = searcher.diff("position_change_limit", ("any_change", "manual_only"))
    assert list(res.found[0].worlds) == ["any_change", "manual_only"]
    assert_round_trip(engine, res.found[0])


def test_scope_without_disagreement(searcher):
    res = searcher.diff("position_change_limit", scope=Scope.parse("monsters=0,events=3"))
    assert res.found == [] and res.exhausted and not res.timed_out
    assert "exhausted" in res.summary()


def test_timeout_ends_cleanly(searcher):
    res = searcher.diff("position_change_limit", timeout=1e-9)
    assert res.timed_out and not res.exhausted
    assert "not exhausted" in res.summary()


def test_unknown_reading_and_values(searcher):
    with pytest.raises(InvalidInput):
        searcher.diff("no_such_reading")
    with pytest.raises(InvalidInput):
        searcher.diff("position_change_limit", ("manual_only", "sometimes"))


def test_written_cases_run_in_the_suite(engine, tmp_path):
    out = tmp_path / "cases"
    result = CliRunner().invoke(main, ["diff", "position_change_limit", "--count", "2", "--out", str(out)])
    assert result.exit_code == 0, result.output
    files = sorted(out.glob("*.yaml"))
    assert len(files) == 2
    for f in files:
        for case in load_cases(f):
            assert case["source"] and case["name"]
            checks = case_checks(case)
            assert len(checks) == 2
            assert {c[1]["spec"]["permitted"] for c in checks} == {True, False}
            for _, spec in checks:
                ok, msg = run_check(engine, case, spec)
                assert ok, msg


def test_diff_cli_text_and_json():
    r = CliRunner().invoke(main, ["diff", "position_change_limit"])
    assert r.exit_code == 0, r.output
    assert "Counterexample 1" in r.output and "Reproduced by pyrules check: yes" in r.output
    assert "already_changed_this_turn" in r.output
    r = CliRunner().invoke(main, ["diff", "first_turn_draw", "--json", "--scope", "monsters=1,events=1"])
    data = json.loads(r.output)
    assert data["values"] == ["false", "true"]
    # turn 1's Draw Phase: the draw itself, or the move to the Standby Phase that an owed draw holds back
    assert data["found"][0]["action"] in ({"action": "draw"}, {"action": "enter_phase", "phase": "standby"})
    assert data["found"][0]["reproduced"] is True
    assert data["scope"]["monsters"] == 1
    r = CliRunner().invoke(main, ["diff", "position_change_limit", "--scope", "monsters=0"])
    assert "No disagreement" in r.output and "exhausted" in r.output
    r = CliRunner().invoke(main, ["diff", "position_change_limit", "--scope", "tables=3"])
    assert r.exit_code == 2


def test_diff_out_that_cannot_be_made_is_invalid_input(tmp_path):
    blocker = tmp_path / "a_file"
    blocker.write_text("")
    r = CliRunner().invoke(main, ["diff", "first_turn_draw", "--out", str(blocker / "found"), "--timeout", "3"])
    assert r.exit_code == 2 and "invalid input: --out: cannot make the folder" in r.output, r.output
    assert r.exception is None or isinstance(r.exception, SystemExit)      # no traceback


def test_cards_option(engine):
    s = Searcher(engine, parse_card_names("Man-Eater Bug", engine.cards))
    cx = s.diff("position_change_limit").found[0]
    assert {e["card"] for e in cx.snapshot["players"]["A"]["monsters"]} == {"Man-Eater Bug"}
    assert_round_trip(engine, cx)
    assert parse_card_names("Battle Ox,Gaia Knight, the Force of Earth", engine.cards) == \
        ("Battle Ox", "Gaia Knight, the Force of Earth")
    with pytest.raises(InvalidInput):
        parse_card_names("Battle Ox,Nonexistent Card", engine.cards)


def test_summon_priority_counterexample(engine, searcher):
    """The reading summon_priority (CONTRACT 8): a spell speed 1 card right after the turn player's own
    Summon, forbidden under withdrawn (the default) and permitted under goat."""
    res = searcher.diff("summon_priority")
    cx = res.found[0]
    assert cx.action is not None and cx.action.action == "activate"
    assert cx.snapshot.get("window") == "event"
    assert cx.snapshot["this_turn"][-1]["event"] in ("normal_summon", "flip_summon", "special_summon")
    assert cx.worlds["withdrawn"]["model"] == (False, ("speed_1_needs_open_state",))
    assert cx.worlds["goat"]["model"][0] is True
    assert_round_trip(engine, cx)


def test_missing_timing_counterexample(engine, searcher):
    """The reading missing_timing: an optional Flip effect ("FLIP: You can", not worded "When") whose flip was
    not the last event misses the timing under all_optional only."""
    cx = searcher.diff("missing_timing").found[0]
    assert cx.action is not None and cx.action.action == "activate"
    assert cx.snapshot.get("window") == "event"
    assert any(e["event"] in ("flip_summon", "flipped") for e in cx.snapshot["this_turn"][:-1])
    assert cx.worlds["by_wording"]["model"] == (True, ())
    assert cx.worlds["all_optional"]["model"] == (False, ("missed_the_timing",))
    assert_round_trip(engine, cx)


def test_unknown_deck_counterexample(engine, searcher):
    """The reading unknown_deck: a search of the Deck for a card of some kind ("Terraforming": a Field Spell)
    with the Deck given as a count, permitted under may_hold (the default) and refused under must_show."""
    cx = searcher.diff("unknown_deck").found[0]
    assert cx.action is not None and cx.action.action == "activate"
    assert isinstance(cx.snapshot["players"]["A"].get("deck", 30), int)
    assert cx.worlds["may_hold"]["model"] == (True, ())
    assert cx.worlds["must_show"]["model"] == (False, ("deck_contents_unknown",))
    assert_round_trip(engine, cx)


# ---- verify ------------------------------------------------------------------------
def test_shipped_properties_hold(searcher, shipped):
    props = searcher.properties()
    assert len(props) >= 8
    results = searcher.verify()
    shipped.found.update((r.prop.name, r) for r in results)
    assert {r.prop.name for r in results} == set(props)
    for r in results:
        assert r.holds is True, (r.prop.name, [c.snapshot for c in r.result.found])
        assert r.result.seconds < 30
        assert "holds within scope" in r.summary()


PLANTED = """
property(planted_never_change, "A monster can never change its position manually (wrong).").
violation(planted_never_change, change_position(I,To)) :- permitted(change_position(I,To)).
property(planted_summon_always, "A Normal Summon is never forbidden (wrong).").
property_scope(planted_summon_always, events, 1).
violation(planted_summon_always, normal_summon(I,S)) :- forbidden(normal_summon(I,S),_).
"""


def test_planted_wrong_property_gives_reproducible_counterexample(engine, searcher, tmp_path):
    f = tmp_path / "planted.lp"
    f.write_text(PLANTED)
    results = searcher.verify(["planted_never_change", "planted_summon_always"], [f])
    for r in results:
        assert r.holds is False
        cx = r.result.found[0]
        assert cx.optimal
        assert_round_trip(engine, cx)
    assert results[1].result.scope.events == 1
    assert results[0].result.found[0].worlds["counterexample"]["model"][0] is True
    assert results[1].result.found[0].worlds["counterexample"]["model"][0] is False


MUTATIONS = [
    ("positions.lp", "forbidden(change_position(I,To), declared_attack_this_turn", "attacker_keeps_position"),
    ("positions.lp", "forbidden(flip_summon(I), summoned_this_turn", "summoned_keeps_position"),
    ("positions.lp", "forbidden(change_position(I,To), not_main_phase", "manual_change_in_open_main_phase"),
    ("summons.lp", "play_forbidden(I,S, too_many_tributes", "tribute_count_exact"),
    ("summons.lp", "play_forbidden(I,S, cannot_be_tributed", "untributable_never_tributed"),
    ("revival.lp", "forbidden(A,R,E) :- special_summon_barred(I,R,E), generic_special_summon(A,I,_)", "special_summon_locks_respected"),
    ("summons.lp", "play_forbidden(I,S, normal_summon_used", "one_normal_summon_per_turn"),
    ("battle.lp", "forbidden(declare_attack(I,T), target_not_opponent_monster", "attack_target_opponent_or_direct"),
    ("turn.lp", "forbidden(draw, already_drew", "draw_rules"),
    ("synchro.lp", "forbidden(A, synchro_level_mismatch", "synchro_materials_exact"),
    ("synchro.lp", "forbidden(A, synchro_too_many_tuners", "synchro_materials_exact"),
    ("revival.lp", "forbidden(A, not_properly_summoned", "revival_needs_proper_summon"),
    ("revival.lp", "forbidden(A, summon_own_method_only", "revival_needs_proper_summon"),
    ("procedure.lp", "forbidden(A, procedure_needs_tributes", "procedure_tributes_by_kind"),
    ("procedure.lp", "forbidden(A, procedure_needs_graveyard", "procedure_open_costs"),
    ("procedure.lp", "forbidden(A, procedure_needs_opponent_tributes", "procedure_opponent_tributes"),
    ("summon_locks.lp", "special_summon_barred(I,special_summon_after_normal_summon", "procedure_opponent_tributes"),
    ("summons.lp", "forbidden(A,R,E) :- banishes_from_graveyard(A)", "graveyard_banish_locked_procedures"),
    ("revival.lp", "forbidden(A, graveyard_moves_negated", "graveyard_moves_negated_respected"),
    ("summons.lp", "forbidden(A, cannot_normal_summon_or_set, card(I))", "no_normal_summon_after_lava_golem"),
    ("summons.lp", "summoner_locked_by(I) :- event(K,special_summon), event_card(K,I), by(K,P)",
     "no_normal_summon_after_lava_golem"),
    ("summons.lp", "side_full(P) :- unusable_zones(P,U)", "summons_need_a_usable_zone"),
    ("revival.lp", "free_after(A,5-N-U)", "summons_need_a_usable_zone"),
    ("revival.lp", "forbidden(A, revival_needs_tribute, S)", "revival_tribute_available"),
    ("summons.lp", "forbidden(normal_summon(I,S), normal_summons_used_up", "normal_summons_left_respected"),
    ("summons.lp", "forbidden(normal_summon_defense(I,S),R,E) :-", "defense_normal_summon_as_normal_summon"),
    ("battle.lp", "forbidden(declare_attack(I,T), another_monster_attacks_alone", "sole_attacker_attacks_alone"),
    ("activation.lp", "forbidden(activate(C,X,P), speed_1_needs_open_state", "speed_1_only_on_empty_chain"),
    ("activation.lp", "forbidden(activate(C,X,P), set_this_turn", "no_trap_the_turn_it_was_set"),
    ("activation.lp", "forbidden(activate(C,X,P), speed_below_last_link", "only_counter_traps_answer_counter_traps"),
    ("activation_conditions.lp", "forbidden(activate(C,1,P), answers_no_event", "answering_cards_need_a_link"),
]


@pytest.mark.parametrize("file,rule,prop", MUTATIONS, ids=[f"{m[2]}-{m[1].split(', ')[-1]}" for m in MUTATIONS])
def test_broken_rule_is_caught_by_a_shipped_property(tmp_path, monkeypatch, shipped, file, rule, prop):
    """Comment out one rule in a copy of the rules: the property finds a reproducible
    counterexample; on the shipped rules it holds."""
    rules = tmp_path / "rules"
    shutil.copytree(Engine().rules_dir, rules)
    path = rules / file
    lines = path.read_text().splitlines()
    i = next(n for n, line in enumerate(lines) if line.startswith(rule))
    j = i
    while not lines[j].rstrip().endswith("."):
        j += 1
    for k in range(i, j + 1):
        lines[k] = "% removed: " + lines[k]
    path.write_text("\n".join(lines) + "\n")
    with monkeypatch.context() as m:
        m.setenv("PYRULES_CACHE_DIR", "off")      # (a copy used once: its entries would only push out the shipped rules')
        mutated = Engine(rules=rules)
        r = Searcher(mutated).verify([prop])[0]
        assert r.holds is False
        assert_round_trip(mutated, r.result.found[0])
    assert shipped(prop).holds is True


def test_verify_cli(tmp_path):
    r = CliRunner().invoke(main, ["verify", "verdict_exclusive", "tribute_count_exact"])
    assert r.exit_code == 0, r.output
    assert r.output.count("holds within scope") == 2
    f = tmp_path / "planted.lp"
    f.write_text(PLANTED)
    r = CliRunner().invoke(main, ["verify", "--rules-file", str(f), "planted_never_change", "--json"])
    assert r.exit_code == 1
    data = json.loads(r.output)["properties"][0]
    assert data["holds"] is False and data["counterexample"]["reproduced"] is True
    r = CliRunner().invoke(main, ["verify", "--list"])
    assert "attacker_keeps_position" in r.output
    r = CliRunner().invoke(main, ["verify", "no_such_property"])
    assert r.exit_code == 2


# ---- the machinery -------------------------------------------------------------------
def test_worldify_indexes_only_what_depends_on_readings(engine):
    stms, indexed = worldify(parse_program(engine.program, drop_show=True), {("selected_reading", 2)})
    assert ("reading", 2) in indexed and ("position_changed", 2) in indexed
    assert ("zone", 3) not in indexed and ("controls", 2) not in indexed
    text = "\n".join(map(str, stms))
    assert "reading(W__," in text


def test_search_files_are_not_part_of_queries(engine):
    assert not any("search" in p.relative_to(engine.rules_dir).parts for p in engine.files)


def test_scope_parse():
    assert str(Scope.parse("monsters=3,events=1")).startswith("monsters=3,hand=1,graveyard=1,events=1")
    for bad in ("monsters=x", "nope=1", "monsters=6"):
        with pytest.raises(InvalidInput):
            Scope.parse(bad)


def test_progress_only_on_a_terminal():
    class Tty(io.StringIO):
        def isatty(self):
            return True
    quiet, tty = io.StringIO(), Tty()
    Progress(quiet)("searching")
    p = Progress(tty)
    p("searching, 1.2s")
    p.clear()
    assert quiet.getvalue() == "" and "searching, 1.2s" in tty.getvalue()


def test_the_generator_asks_every_action_of_the_contract(engine):
    """rules/search/generator.lp's query/1 list stays in step with the action signatures
    (pyrules.actions.TERM_SIGNATURES): one query rule per action, with its term's number of arguments."""
    from pyrules.actions import TERM_SIGNATURES
    from pyrules.astwalk import head_body, term_atoms
    from pyrules.solver import parse_text
    text = (engine.rules_dir / "search" / "generator.lp").read_text(encoding="utf-8")
    asked = set()
    for stmt in parse_text(text):
        if stmt.ast_type.name == "Rule":
            for sig, fn in head_body(stmt)[0]:
                if sig == ("query", 1):
                    asked |= {s for s, _ in term_atoms(fn.arguments[0])}
    assert asked == {(name, len(sig)) for name, sig in TERM_SIGNATURES.items()}


@pytest.mark.parametrize("reason, zone", [("attack_lock_level", "spells_traps"),        # "Gravity Bind"
                                          ("equip_forbids_attack", "spells_traps"),     # "Ekibyo Drakmord"
                                          ("target_cannot_be_attacked", "field_spell")])  # "Umi"
def test_the_search_places_spells_traps_and_a_field_spell(engine, searcher, tmp_path, reason, zone):
    """The default scope and pool cover Spells, Traps and a Field Spell: a property that a
    card there breaks gets a counterexample with that card, and the result says what the
    scope covered."""
    f = tmp_path / "wrong.lp"
    f.write_text(f'property(never_{reason}, "No action is forbidden for {reason} (deliberately wrong).").\n'
                 f"violation(never_{reason}, A) :- forbidden(A,{reason}).\n", encoding="utf-8")
    (r,) = searcher.verify([f"never_{reason}"], [f])
    assert r.holds is False
    cx = r.result.found[0]
    assert_round_trip(engine, cx)
    assert any(zone in side for side in cx.snapshot["players"].values()), cx.snapshot
    assert "1 Spell/Trap and 1 Field Spell a side" in r.summary() and "spells/traps: Umi" in r.summary()
    assert r.to_json()["covered"] == r.result.covered()


def test_board_lines_name_the_applied_effects():
    from pyrules.search import board_lines
    snap = {"snapshot": 1, "players": {"A": {}, "B": {}},
            "effects": [{"effect": "unusable_monster_zones", "player": "A", "count": 3},
                        {"effect": "cannot_attack", "cards": ["ox"], "source": "The Unhappy Girl"}]}
    lines = board_lines(snap)
    assert "Applied effect: unusable_monster_zones (count 3) on A" in lines
    assert "Applied effect: cannot_attack on ox (from The Unhappy Girl)" in lines
