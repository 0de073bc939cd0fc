"""One effect kind declared in one place reaches everything derived from the declaration.

A throwaway kind, test_no_flip, is declared in a temporary copy of rules/ (effects.yaml) with
one rule reading it; it must reach the card schema, validation and the encoder's facts (a
verdict), a text pattern and the overlay (the importer), the counterexample generator's space
and `pyrules effects`; and lint must fail once the rule reading it is gone.
"""
from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest
import yaml
from click.testing import CliRunner

from pyrules import Engine, InvalidInput
from pyrules.cli import main
from pyrules.effects import entry_schema, generated_entries, kinds_in, load_vocabulary, vocabulary
from pyrules.importers import import_cards, load_overlay
from pyrules.patterns import load_patterns
from pyrules.paths import rules_dir
from pyrules.search import Scope, Searcher

KIND = "test_no_flip"
RULE = f"""
% Source: CONTRACT 6 (a throwaway kind declared by tests/test_effect_kind_reaches.py).
% A monster under {KIND} is not Flip Summoned.
forbidden(flip_summon(I), cannot_change_position, S) :- candidate(flip_summon(I)),
                                                       effect_on({KIND},I,F), effect_source(F,S).
"""
LOCKER = {"name": "Test Locker", "kind": "monster", "level": 2, "atk": 450, "def": 600, "effect": True,
          "effects": [{"effect": KIND, "to": {"side": "own", "other": True}}]}
SNAP = {"snapshot": 1, "players": {"A": {"monsters": [
    {"id": "locker", "position": "attack", "card": LOCKER},
    {"id": "ox", "card": "Battle Ox", "position": "defense", "face": "down"}]},
    "B": {"monsters": [{"id": "bug", "card": "Man-Eater Bug", "position": "defense", "face": "down"}]}}}


@pytest.fixture()
def rules(tmp_path):
    folder = tmp_path / "rules"
    shutil.copytree(rules_dir(), folder)
    decl = yaml.safe_load((folder / "effects.yaml").read_text())
    decl["kinds"][KIND] = {"meaning": "(test) the monster cannot be Flip Summoned",
                           "source": "tests/test_effect_kind_reaches.py", "about": "card"}
    (folder / "effects.yaml").write_text(yaml.safe_dump(decl, sort_keys=False))
    (folder / "throwaway.lp").write_text(RULE)
    return folder


def test_the_kind_reaches_schema_engine_importer_generator_and_listing(rules, tmp_path):
    voc = load_vocabulary(rules)
    assert KIND in voc.kinds and KIND not in load_vocabulary().kinds
    schema = entry_schema(voc=voc)
    assert any(b["if"]["properties"]["effect"]["const"] == KIND for b in schema["allOf"])

    # validation and the encoder: the shipped rules refuse the kind, the copy judges it
    with pytest.raises(InvalidInput, match=f"unknown effect '{KIND}'"):
        Engine().check(SNAP, "flip_summon(ox)")
    engine = Engine(rules=rules)
    assert engine.vocabulary.kinds[KIND].meaning.startswith("(test)") and engine.vocabulary == voc
    with pytest.raises(InvalidInput, match=f"unknown effect '{KIND}'"):   # each Engine keeps its own vocabulary
        Engine().check(SNAP, "flip_summon(ox)")
    verdict = engine.check(SNAP, "flip_summon(ox)")           # continuous, from the face-up Test Locker
    assert not verdict.permitted and [r.rule for r in verdict.reasons] == ["cannot_change_position"]
    plain = {**SNAP, "players": {"A": {"monsters": SNAP["players"]["A"]["monsters"][1:]}, "B": {}}}
    assert engine.check(plain, "flip_summon(ox)").permitted
    applied = {**plain, "effects": [{"effect": KIND, "cards": ["ox"]}]}
    assert not engine.check(applied, "flip_summon(ox)").permitted

    # a text pattern and the overlay produce it
    patterns = tmp_path / "patterns"
    patterns.mkdir()
    (patterns / "test.yaml").write_text(yaml.safe_dump([{
        "id": "no_flip", "regex": r"^this card cannot be flip summoned\.?$", "effects": [{"effect": KIND}],
        "matches": ["Made Up"], "near_misses": ["This card cannot be Normal Summoned."]}]))
    overlay = tmp_path / "overlay.yaml"
    overlay.write_text(yaml.safe_dump({"Curated": {"effects": [{"effect": KIND}], "note": "made up"}}))
    pool = tmp_path / "cardinfo.json"
    monster = {"type": "Effect Monster", "frameType": "effect", "level": 4, "atk": 1, "def": 1, "race": "Machine",
               "attribute": "DARK"}
    pool.write_text(json.dumps({"data": [{"id": 1, "name": "Made Up", "desc": "This card cannot be Flip Summoned.",
                                          **monster},
                                         {"id": 2, "name": "Curated", "desc": "Some text.", **monster}]}))
    cards = {c["name"]: c for c in import_cards(pool, load_overlay(overlay, voc), load_patterns(patterns, voc), voc).cards}
    assert cards["Made Up"]["effects"] == [{"effect": KIND}] and cards["Curated"]["effects"] == [{"effect": KIND}]

    # the generator's space: an applied entry of the kind, found and reproduced by a search
    assert {"effect": KIND} in generated_entries(voc) and {"effect": KIND} not in generated_entries()
    prop = tmp_path / "prop.lp"
    prop.write_text(f"""
% Source: CONTRACT 6 (a throwaway kind).
% A test property broken by any snapshot where the throwaway kind, applied, forbids a Flip Summon.
property(no_flip_seen, "No applied {KIND} ever forbids a Flip Summon.").
violation(no_flip_seen, flip_summon(I)) :- forbidden(flip_summon(I),cannot_change_position), applied(K,{KIND}),
                                           applied_card(K,I).
""")
    searcher = Searcher(engine)
    [res] = searcher.verify(["no_flip_seen"], [prop], Scope(hand=0, graveyard=0, events=0, effects=1))
    cx = res.result.found[0]
    assert cx.reproduced and cx.snapshot["effects"][0]["effect"] == KIND

    # pyrules effects
    out = CliRunner().invoke(main, ["effects", "--rules", str(rules), "--json"])
    assert out.exit_code == 0 and KIND in [k["effect"] for k in json.loads(out.output)["kinds"]]
    table = CliRunner().invoke(main, ["effects", "--rules", str(rules)])
    assert f"{KIND}\n  (test) the monster cannot be Flip Summoned" in table.output


def test_lint_fails_when_no_rule_reads_the_kind(rules):
    ok = CliRunner().invoke(main, ["lint", "--rules", str(rules)])
    assert ok.exit_code == 0, ok.output
    (rules / "throwaway.lp").unlink()
    bad = CliRunner().invoke(main, ["lint", "--rules", str(rules)])
    assert bad.exit_code == 1 and KIND in bad.output


def test_the_search_generates_no_effect_by_default():
    assert Scope().effects == 0
    shipped = Path(rules_dir())
    assert KIND not in load_vocabulary(shipped).kinds


def test_pyrules_effects_lists_every_kind_filter_and_condition():
    voc = load_vocabulary()
    out = CliRunner().invoke(main, ["effects", "--json"])
    data = json.loads(out.output)
    assert out.exit_code == 0 and [k["effect"] for k in data["kinds"]] == list(voc.kinds)
    assert [f["name"] for f in data["filters"]] == list(voc.filters)
    assert [c["name"] for c in data["conditions"]] == list(voc.conditions)
    assert data["kinds"][0] == voc.kinds[data["kinds"][0]["effect"]].to_json()
    table = CliRunner().invoke(main, ["effects"]).output
    assert all(f"\n{k}" in "\n" + table for k in voc.kinds) and "filters (to:)" in table
    assert "synchro_tuner(name: name)" in table and "source: faq-basic-gameplay: Synchro Monsters" in table


EXAMPLE = str(Path(__file__).resolve().parent.parent / "facts" / "examples" / "main_phase.yaml")


@pytest.mark.parametrize("text, field", [
    ("kinds: 5\nfilters: {}\nconditions: {}\n", "kinds: expected a mapping, got an integer"),
    ("kinds: {foo: {}}\nfilters: {}\nconditions: {}\n", "kinds.foo.meaning: is required"),
    ("kinds: {foo: {meaning: m, source: s, args: {n: {type: number}}}}\nfilters: {}\nconditions: {}\n",
     "kinds.foo.args.n.type: must be one of"),
    ("kinds: {foo: [unclosed\n", "not valid YAML or JSON (line 2"),
])
def test_a_broken_declaration_is_invalid_input_naming_the_file_and_the_field(tmp_path, text, field):
    folder = tmp_path / "rules"
    shutil.copytree(rules_dir(), folder)
    (folder / "effects.yaml").write_text(text)
    for args in (["effects"], ["legal", EXAMPLE], ["check", EXAMPLE, "draw"]):
        r = CliRunner().invoke(main, [*args, "--rules", str(folder)])
        assert r.exit_code == 2 and f"effects.yaml: {field}" in r.output and "Traceback" not in r.output, r.output
    with pytest.raises(InvalidInput) as info:
        Engine(rules=folder)
    assert str(folder / "effects.yaml") in info.value.problems[0].path
    assert vocabulary() == load_vocabulary() == Engine().vocabulary     # the shipped engine reads the shipped one


def test_a_rules_folder_without_a_declaration_is_read_with_the_shipped_one(tmp_path):
    folder = tmp_path / "rules"
    shutil.copytree(rules_dir(), folder)
    (folder / "effects.yaml").unlink()
    r = CliRunner().invoke(main, ["effects", "--rules", str(folder), "--json"])
    assert r.exit_code == 0 and "note: no effects.yaml in" in r.output
    assert [k["effect"] for k in json.loads(r.stdout)["kinds"]] == list(load_vocabulary().kinds)
    with pytest.raises(InvalidInput) as info:           # asked for by name: no such file
        load_vocabulary(folder)
    assert info.value.problems[0].path == str(folder / "effects.yaml")


ACTIVATION_RULES = ("activation_conditions.lp", "activation_targets.lp", "monster_effects.lp")


def test_a_kind_read_only_by_the_activation_rules_declares_its_group():
    """The card audit tells activation kinds from Summon and attack kinds by their `group:` alone
    (pyrules.effects.kinds_in): a kind only the activation rules read, declared without one, would make
    its cards count in the wrong part of the audit ("Chain Disappearance"'s answers_summon_stat_max did)."""
    texts = {p.name: p.read_text() for p in rules_dir().glob("*.lp")}
    missing = []
    for kind in vocabulary().kinds.values():
        readers = {name for name, text in texts.items() if f"{kind.name}," in text or f"{kind.name})" in text}
        if readers and readers <= set(ACTIVATION_RULES) and not kind.group:
            missing.append(kind.name)
    assert missing == []
    assert kinds_in("activation_condition") <= kinds_in() and "answers_summon_stat_max" in kinds_in("target_filter")
