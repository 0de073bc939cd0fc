"""`legal` lists every Synchro Summon: its material sets are compared with an independent
enumeration (itertools over the crafted field), and the materials_go_to note is reported.

The expected sets are computed here from the card data with plain Python, written from
faq-basic-gameplay: Synchro Monsters (exactly 1 face-up Tuner, 1 or more face-up
non-Tuners of the turn player, Levels summing exactly, the Synchro Monster's own Tuner
and Attribute requirements, both face-up positions).
"""
from __future__ import annotations

import copy
import itertools
import json

import pytest
from click.testing import CliRunner

from pyrules import Engine
from pyrules.cli import main

_ENGINE: Engine | None = None


def engine() -> Engine:
    global _ENGINE
    if _ENGINE is None:
        _ENGINE = Engine()
    return _ENGINE


def inline(name: str, level: int, attribute: str, *, tuner: bool = False, synchro: bool = False) -> dict:
    card = {"name": name, "kind": "monster", "level": level, "atk": 1000, "def": 1000,
            "attribute": attribute, "type": "Warrior", "effect": True}
    if tuner:
        card["tuner"] = True
    if synchro:
        card["synchro"] = True
    return card


# Five monsters: two Tuners (one of them Junk Synchron), three non-Tuners, LIGHT and not.
FIELD = [
    {"id": "js", "card": "Junk Synchron", "position": "attack"},
    {"id": "t1", "card": inline("Test Tuner L1", 1, "LIGHT", tuner=True), "position": "defense"},
    {"id": "a2", "card": inline("Test Light L2", 2, "LIGHT"), "position": "attack"},
    {"id": "cap", "card": "Marauding Captain", "position": "attack"},
    {"id": "c4", "card": inline("Test Light L5", 5, "LIGHT"), "position": "defense"},
]
# Fifteen Synchro Monsters: four from the database (two with requirements), eleven generic.
EXTRA = ([{"id": "jw", "card": "Junk Warrior"}, {"id": "park", "card": "Avenging Knight Parshath"},
          {"id": "gaia", "card": "Gaia Knight, the Force of Earth"}, {"id": "cf", "card": "Colossal Fighter"}]
         + [{"id": f"s{n}", "card": inline(f"Test Synchro L{n}", n, "EARTH", synchro=True)} for n in range(2, 13)])


def snapshot(field: list[dict], extra: list[dict] = EXTRA, **over) -> dict:
    snap = {"snapshot": 1, "turn": 3, "turn_player": "A", "phase": "main1",
            "players": {"A": {"monsters": copy.deepcopy(field), "extra_deck": copy.deepcopy(extra)},
                        "B": {"monsters": [{"id": "theirs", "card": "Atlantean Pikeman", "position": "attack"}]}}}
    snap.update(over)
    return snap


def card_of(entry: dict) -> dict:
    card = entry["card"]
    return engine().cards[card] if isinstance(card, str) else card


def expected_synchros(field: list[dict], extra: list[dict]) -> set[tuple]:
    """Every (synchro id, sorted material ids, position) by brute force over the field."""
    usable = [m for m in field if m.get("face", "up") == "up"]
    out = set()
    for syn in extra:
        s = card_of(syn)
        needs = {e["effect"]: e for e in s.get("effects", ())}   # its Tuner and Attribute requirements
        tuner_name = needs.get("synchro_tuner", {}).get("name")
        attribute = needs.get("synchro_non_tuner_attribute", {}).get("attribute")
        for r in range(2, len(usable) + 1):
            for combo in itertools.combinations(usable, r):
                cards = [card_of(m) for m in combo]
                tuners = [c for c in cards if c.get("tuner")]
                if len(tuners) != 1 or sum(c["level"] for c in cards) != s["level"]:
                    continue
                if tuner_name is not None and tuners[0]["name"] != tuner_name:
                    continue
                if attribute is not None and any(c["attribute"] != attribute for c in cards if not c.get("tuner")):
                    continue
                for pos in ("attack", "defense"):
                    out.add((syn["id"], tuple(sorted(m["id"] for m in combo)), pos))
    return out


def listed_synchros(snap: dict) -> set[tuple]:
    res = engine().legal(snap)
    return {(a.card, tuple(a.materials), a.position) for a in res.permitted if a.action == "synchro_summon"}


@pytest.mark.parametrize("face_down", [None, "a2", "js"])
def test_legal_lists_exactly_the_material_sets_found_by_brute_force(face_down):
    field = copy.deepcopy(FIELD)
    for m in field:
        if m["id"] == face_down:
            m.update(face="down", position="defense")
    want = expected_synchros(field, EXTRA)
    got = listed_synchros(snapshot(field))
    assert got == want
    assert len(want) >= 16          # the crafted field really exercises the enumeration
    # every listed set also passes check, and check agrees on one that legal leaves out
    for syn, mats, pos in sorted(want)[:5]:
        assert engine().check(snapshot(field), {"action": "synchro_summon", "card": syn,
                                                "materials": list(mats), "position": pos}).permitted


def test_requirements_cut_the_listing():
    got = listed_synchros(snapshot(FIELD))
    # Junk Warrior only with Junk Synchron as the Tuner; Parshath only with LIGHT non-Tuners
    assert {m for s, m, _ in got if s == "jw"} == {("a2", "js")}
    assert all("cap" not in m for s, m, _ in got if s == "park")   # Marauding Captain is EARTH
    assert ("park", ("a2", "c4", "t1"), "attack") in got and ("park", ("c4", "js"), "attack") in got
    # js + cap + a2 has Parshath's Level 8, but Marauding Captain is not LIGHT
    assert sum(card_of(m)["level"] for m in FIELD if m["id"] in ("js", "cap", "a2")) == 8


def test_nothing_is_listed_outside_a_main_phase():
    assert listed_synchros(snapshot(FIELD, phase="battle")) == set()


# ---- where the materials go --------------------------------------------------------
JW_FIELD = [{"id": "js", "card": "Junk Synchron", "position": "attack"},
            {"id": "pike", "card": "Atlantean Pikeman", "position": "attack"}]
JW = {"action": "synchro_summon", "card": "jw", "materials": ["js", "pike"], "position": "attack"}


@pytest.mark.parametrize("card, face, side, where", [
    (None, None, None, "graveyard"),
    ("Macro Cosmos", "up", "A", "banished"),
    ("Macro Cosmos", "up", "B", "banished"),
    ("Dimensional Fissure", "up", "B", "banished"),
    ("Macro Cosmos", "down", "A", "graveyard"),
])
def test_materials_go_to(card, face, side, where):
    snap = snapshot(JW_FIELD, [{"id": "jw", "card": "Junk Warrior"}])
    if card:
        snap["players"][side]["spells_traps"] = [{"id": "c", "card": card, "face": face}]
    verdict = engine().check(snap, JW)
    assert verdict.permitted
    assert dict(verdict.notes) == {"materials_go_to": where}
    assert verdict.to_json()["notes"] == {"materials_go_to": where}


def test_cli_prints_where_materials_go_and_rejects_tokens_off_the_field(tmp_path):
    snap = snapshot(JW_FIELD, [{"id": "jw", "card": "Junk Warrior"}])
    snap["players"]["B"]["spells_traps"] = [{"id": "f", "card": "Dimensional Fissure", "face": "up"}]
    path = tmp_path / "s.json"
    path.write_text(json.dumps(snap))
    run = CliRunner().invoke(main, ["check", str(path), "synchro_summon(jw,[js,pike],defense)"])
    assert run.exit_code == 0, run.output
    assert "materials go to: banished" in run.output

    snap["players"]["A"]["graveyard"] = [{"id": "sheep", "card": "Sheep Token"}]
    path.write_text(json.dumps(snap))
    run = CliRunner().invoke(main, ["legal", str(path)])
    assert run.exit_code == 2
    assert "players.A.graveyard[0]" in run.output


def test_forbidden_synchro_candidates_keep_their_materials_in_legal_all():
    snap = snapshot([{"id": "t3", "card": inline("Test Tuner L3", 3, "EARTH", tuner=True), "position": "attack"},
                     {"id": "pike", "card": "Atlantean Pikeman", "position": "attack"}],
                    [{"id": "jw", "card": "Junk Warrior"}])
    res = engine().legal(snap, include_forbidden=True)
    assert not [a for a in res.permitted if a.action == "synchro_summon"]
    forbidden = {(v.action.card, v.action.materials, v.action.position): [r.rule for r in v.reasons]
                 for v in res.forbidden if v.action.action == "synchro_summon"}
    assert forbidden == {("jw", ("pike", "t3"), "attack"): ["synchro_wrong_tuner"],
                         ("jw", ("pike", "t3"), "defense"): ["synchro_wrong_tuner"]}
