"""The bundled Goat pool (facts/goat/): exactly what tools/build_pool.py builds, valid cards,
in step with facts/cards.yaml, read lazily, and known to a query without --cards."""
from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from conftest import GOAT, shared_absent     # ../shared/data/goat-format-en.cdb, or under PYRULES_SHARED
from pyrules import Engine
from pyrules.cards import POOL_FILE, CardDB, card_problems, read_pool, rulings_cards
from pyrules.cli import main
from pyrules.effects import card_entries, monster_effects_modelled
from pyrules.importers import import_cards
from pyrules.pool import AUDIT_FILE, bundled_audit, effects_of, pool_files

ROOT = Path(__file__).resolve().parent.parent
POOL = ROOT / "facts" / POOL_FILE
PRINTED = ["kind", "level", "atk", "def", "atk_unknown", "attribute", "type", "spell_type", "trap_type", "normal",
           "effect", "fusion", "ritual", "synchro", "tuner", "token", "flip", "toon", "spirit", "special_summon_only",
           "trap_monster", "union", "gemini", "archetypes", "unmodelled"]


def pool_cards() -> dict[str, dict]:
    names, lines = read_pool(POOL)
    return {n: json.loads(line) for n, line in zip(names, lines)}


@pytest.mark.skipif(not GOAT.is_file(), reason=shared_absent(GOAT))
def test_the_shipped_pool_is_what_the_build_tool_makes():
    built = pool_files(GOAT)
    assert set(built) == {POOL_FILE, AUDIT_FILE}
    for rel, text in built.items():
        assert (ROOT / "facts" / rel).read_text(encoding="utf-8") == text, \
            f"facts/{rel} is stale: run python tools/build_pool.py"


def curated() -> dict[str, dict]:
    """The rulings' cards: facts/cards.yaml, with the overlay's effects for the cards it curates."""
    return {c["name"]: c for c in rulings_cards()}


def test_every_pool_card_fits_the_card_schema():
    cards, rulings = pool_cards(), curated()
    # 1,788 Goat cards without alternate artworks; same-name Tokens are one card (1,784); and the
    # rulings' cards no database holds
    assert len(cards) == 1784 + len(set(rulings) - {n for n, c in cards.items() if c.get("source") ==
                                                    "goat-format-en.cdb"})
    problems = [p for name, c in cards.items() for p in card_problems(c, name)]
    assert problems == []
    assert all(c["name"] == n for n, c in cards.items())
    imported = [json.dumps(c) for n, c in cards.items() if n not in rulings]
    assert imported and not any('"note"' in c or "your opponent" in c for c in imported)    # facts, not texts


def test_the_pool_holds_the_rulings_cards_exactly():
    """facts/cards.yaml (with the overlay's effects for the cards it curates) is the source of the
    rulings' cards: the pool holds each of them as rulings_cards() gives it (tools/build_pool.py
    puts them in), with no database needed to check it."""
    cards = pool_cards()
    for name, card in curated().items():
        assert cards.get(name) == card, f"{name}: facts/goat/cards.jsonl is stale: run python tools/build_pool.py"
    assert CardDB.from_file(ROOT / "facts" / "cards.yaml")        # duplicate keys, the card schema


@pytest.mark.skipif(not GOAT.is_file(), reason=shared_absent(GOAT))
def test_the_rulings_cards_agree_with_what_the_database_and_patterns_give():
    """Where the Goat database holds a rulings' card, its import (patterns and overlay applied)
    says what facts/cards.yaml says (but the passcode of a Token several cards make)."""
    imported = {}
    for c in import_cards(GOAT).cards:
        imported.setdefault(c["name"], c)
    both = 0
    for name, card in curated().items():
        got = imported.get(name)
        if got is None:
            continue
        both += 1
        assert {k: got.get(k) for k in PRINTED} == {k: card.get(k) for k in PRINTED}, name
        assert sorted(map(json.dumps, card_entries(got))) == sorted(map(json.dumps, card_entries(card))), name
        if not card.get("token"):
            assert got.get("passcode") == card.get("passcode"), name
    assert both > 100


def test_pool_cards_are_parsed_only_when_named():
    db = CardDB.bundled()
    assert len(db) > 1800 and "Guardian Ceal" in db
    assert len(db.by_name._cards) == 0             # nothing parsed until named
    ceal = db["Guardian Ceal"]
    assert ceal is db.get("Guardian Ceal") and ceal["passcode"] and ceal["kind"] == "monster"
    assert len(db.by_name._cards) == 1
    assert db["Battle Ox"] == curated()["Battle Ox"]     # the rulings' entry
    assert len(CardDB.bundled(pool=False)) < 200


def test_a_query_knows_the_pool_without_cards_option(tmp_path):
    snap = tmp_path / "snap.yaml"
    snap.write_text("snapshot: 1\nplayers:\n  A:\n    hand: [{id: ceal, card: Guardian Ceal}, "
                    "{id: gig, card: Gigantes}]\n    monsters: [{id: ox, card: Battle Ox, position: attack}]\n"
                    "  B: {}\n")
    r = CliRunner().invoke(main, ["check", str(snap), "normal_summon(gig,[ox])", "--json"])
    assert r.exit_code == 1 and "special_summon_only" in r.output      # Gigantes: "Cannot be Normal Summoned/Set."
    # Guardian Ceal: Normal Summoned only with "Shooting Star Bow - Ceal" on its side (its text, from the pool)
    verdict = Engine().check(snap, "normal_summon(ceal,[])")
    assert not verdict.permitted and [r.rule for r in verdict.reasons] == ["cannot_normal_summon"]
    assert Engine().check(snap, "set(ceal,[])").permitted


def test_the_bundled_audit_adds_up():
    audit = bundled_audit()
    records = audit["records"]
    assert audit["touching"] == len(records) and audit["cards"] == 1784
    assert audit["modelled"] == sum(1 for r in records.values() if "unmodelled" not in r and "no_bearing" not in r
                                    and monster_effects_modelled({"effects": effects_of(r)}))
    mon = audit["monster_effects"]       # a monster's activated effects: read whole, by type only, unread
    assert mon["with_activated_effects"] == mon["modelled"] + mon["by_type_only"] <= mon["effect_monsters"]
    assert {"Man-Eater Bug", "Tribe-Infecting Virus", "Magician of Faith"} <= set(mon["modelled_cards"])
    assert mon["unread"] == len(mon["unread_cards"]) > 0
    assert audit["no_bearing"] == sum(1 for r in records.values() if "no_bearing" in r) > 0
    assert not any("no_bearing" in r and ("unmodelled" in r or r.get("curated")) for r in records.values())
    assert audit["share_modelled_of_bearing"] == round(audit["modelled"] / (audit["touching"] - audit["no_bearing"]), 3)
    pool = pool_cards()
    for name, r in records.items():
        assert pool[name].get("unmodelled") == r.get("unmodelled"), name


def test_cards_audit_cli(tmp_path):
    runner = CliRunner()
    out = runner.invoke(main, ["cards", "audit", "--json"])
    assert out.exit_code == 0 and json.loads(out.output) == bundled_audit()
    table = runner.invoke(main, ["cards", "audit"])
    assert table.exit_code == 0
    audit = bundled_audit()
    assert (f"{audit['touching']} speak of Summons, Tributes, attacks or battle positions (or carry an effect); "
            f"{audit['modelled']} of them modelled") in table.output
    lines = {line.split("  ")[0]: line for line in table.output.splitlines()}
    assert "derived: can_attack_directly" in lines["Jinzo #7"]
    assert "derived: cannot_normal_summon" in lines["Guardian Ceal"]
    assert "NOT MODELLED: it must attack if able" in lines["Berserk Gorilla"]
    assert "derived: leaves normal_summons_left(count=2)" in lines["Narrow Pass"]
    assert "curated: cannot_normal_summon(while: controls_no_archetype=Archfiend)" in lines["Terrorking Archfiend"]
    assert "curated: cannot_be_attack_target(while: face_up_card=Umi)" in lines["The Legendary Fisherman"]
    assert "NO BEARING: it keeps Set Spells and Traps from being destroyed" in lines["Timidity"]
    assert (f"{audit['no_bearing']} of them have no bearing on the actions judged (not counted as modelled): "
            f"{audit['share_modelled_of_bearing']:.1%} of the other {audit['touching'] - audit['no_bearing']} modelled"
            ) in table.output
    pool = tmp_path / "cardinfo.json"
    pool.write_text(json.dumps({"data": [
        {"id": 1, "name": "Made Up", "type": "Effect Monster", "frameType": "effect", "level": 4, "atk": 1, "def": 1,
         "race": "Machine", "attribute": "DARK", "desc": "Level 4 or higher monsters cannot attack."},
        {"id": 2, "name": "Plain", "type": "Normal Monster", "frameType": "normal", "level": 4, "atk": 1, "def": 1,
         "race": "Machine", "attribute": "DARK", "desc": "A machine."}]}))
    got = json.loads(runner.invoke(main, ["cards", "audit", str(pool), "--json"]).output)
    assert got["cards"] == 2 and got["touching"] == 1 and got["modelled"] == 1 and got["share_modelled"] == 1.0
    assert got["per_kind"] == {"cannot_attack": 1}
    assert got["records"]["Made Up"]["derived"] == [{"effect": "cannot_attack", "to": {"side": "both", "level_min": 4}}]


def test_no_bearing_overlay_entries_are_checked(tmp_path):
    """An overlay entry with no_bearing says why, and has no effects nor anything unmodelled."""
    from pyrules.errors import InvalidInput
    from pyrules.importers import load_overlay
    bad = tmp_path / "bad.yaml"
    bad.write_text("Timidity: {no_bearing: '', note: x}\nCold Wave: {no_bearing: why, effects: []}\n")
    with pytest.raises(InvalidInput) as e:
        load_overlay(bad)
    messages = {(p.path, p.message) for p in e.value.problems}
    assert ("bad.yaml: Timidity.no_bearing", "expected a sentence saying why") in messages
    assert ("bad.yaml: Cold Wave.no_bearing", "a card with no bearing has no effects and nothing unmodelled") in messages
    good = tmp_path / "good.yaml"
    good.write_text("Timidity: {no_bearing: why, note: x}\n")
    assert load_overlay(good) == {"Timidity": {"no_bearing": "why", "note": "x"}}
