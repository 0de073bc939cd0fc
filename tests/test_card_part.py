"""The card part of the rules (`#program card.`): rules that read only one card's own printed
data are grounded once per card (Engine.derive_card_facts) and their answers reach every query
with the card's facts (encode.NameTable), instead of being grounded by every query."""
from __future__ import annotations

from pathlib import Path

from pyrules import Engine
from pyrules.cards import load_yaml
from pyrules.solver import ground_and_solve

from benchmarks.workload import summons_board, synchro_board, typical

EXAMPLES = sorted((Path(__file__).parents[1] / "facts" / "examples").glob("*.yaml"))


def test_a_cards_template_carries_what_the_card_part_derives_from_it():
    eng = Engine()
    eng.legal(summons_board(1))
    kept = dict.fromkeys(p for p, _ in eng.names.templates["Dark Paladin"])
    assert {"fusion_need", "fusion_weight", "fusion_fits", "fusion_has_spec",
            "fusion_substitute_ok", "extra_deck_monster", "special_summon_only_monster"} <= set(kept)
    for inner in ("fusion_rank", "fusion_goal", "fusion_size"):         # read only inside the card part
        assert inner not in kept
    balter = dict((p, a) for p, a in eng.names.templates["Dark Balter the Terrible"])
    assert "fusion_has_spec" in balter and "fusion_substitute_ok" not in balter     # its text: no substitute
    fits = [a for p, a in eng.names.templates["Dark Paladin"] if p == "fusion_fits"]
    assert {a[0].number for a in fits} == {2}                           # sets of its 2 materials


def test_the_card_part_grounded_with_the_query_gives_the_same_answers():
    """The shown atoms of the kept facts (card part derived once per card) and of the query's
    own grounding of the card part (its rules given to the query with the plain card facts)."""
    eng = Engine()
    plain = Engine()
    plain.names.derive = None                       # the card facts without the card part's answers,
    plain.names.effect_kinds = None                 # with every entry (those only the card part reads too)
    both = list(eng.statements.parsed) + list(eng.card_part.parsed)
    snapshots = [summons_board(1), typical(1), synchro_board(1)] + [load_yaml(p.read_text()) for p in EXAMPLES]
    for snap in snapshots:
        _, facts, _ = eng.encode(snap)
        _, bare, _ = plain.encode(snap)
        assert len(bare) < len(facts)
        kept = sorted(map(str, ground_and_solve(eng.statements, facts)))
        grounded = sorted(map(str, ground_and_solve(both, bare, prune=False)))
        assert kept == grounded and any(a.startswith("permitted(") for a in kept)


def test_the_cards_of_a_snapshot_are_derived_in_one_grounding():
    eng = Engine()
    calls = []
    derive = eng.names.derive
    assert derive is not None

    def counted(facts):
        calls.append(len(facts))
        return derive(facts)
    eng.names.derive = counted
    eng.legal(summons_board(1))
    assert len(calls) == 1 and calls[0] > 100        # every database card of the board at once
    eng.legal(summons_board(2))
    assert len(calls) == 1                           # kept: no grounding for cards seen before


def test_without_a_card_part_the_rules_still_run(tmp_path):
    import shutil
    from pyrules.paths import rules_dir
    rules = tmp_path / "rules"
    shutil.copytree(rules_dir(), rules)
    for p in rules.rglob("*.lp"):
        p.write_text(p.read_text().replace("#program card.", "#program base."))
    eng = Engine(rules)
    assert eng.names.derive is None
    assert sorted(map(str, eng.legal(summons_board(1)).permitted)) == \
        sorted(map(str, Engine().legal(summons_board(1)).permitted))


def test_entries_of_kinds_only_the_card_part_reads_stay_out_of_the_query():
    """A Fusion Monster's material entries feed the card part (its answers are in the template)
    but no rule of the query names fusion_material: the query is not given them."""
    eng = Engine()
    assert eng.names.effect_kinds is not None and "fusion_material" not in eng.names.effect_kinds
    eng.legal(summons_board(1))
    kept = eng.names.templates["Dark Paladin"]
    effects = [a[1].name for p, a in kept if p == "card_effect"]
    assert effects == ["special_summon_restriction", "monster_effect", "monster_effect_cost"]   # (its Quick effect)
    assert [p for p, _ in kept].count("fusion_need") == 2
