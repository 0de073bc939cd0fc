"""The bundled Goat pool (facts/goat/): exactly what tools/build_pool.py builds, valid cards,
in step with facts/cards.yaml, read lazily, and known to a query without --cards."""
from __future__ import annotations

import json
import os
from pathlib import Path

import pytest
import yaml
from click.testing import CliRunner

from pyrules import Engine
from pyrules.cards import POOL_FILE, CardDB, card_problems, read_pool
from pyrules.cli import main
from pyrules.effects import card_entries
from pyrules.pool import AUDIT_FILE, bundled_audit, pool_files

ROOT = Path(__file__).resolve().parent.parent
SHARED = Path(os.environ.get("PYRULES_SHARED") or ROOT.parent / "shared")
GOAT = SHARED / "data" / "goat-format-en.cdb"
POOL = ROOT / "facts" / POOL_FILE
PRINTED = ["kind", "level", "atk", "def", "atk_unknown", "attribute", "type", "spell_type", "trap_type", "normal",
           "effect", "fusion", "ritual", "synchro", "tuner", "token", "flip", "toon", "spirit", "special_summon_only",
           "trap_monster", "union", "gemini", "unmodelled"]


def pool_cards() -> dict[str, dict]:
    names, lines = read_pool(POOL)
    return {n: json.loads(line) for n, line in zip(names, lines)}


@pytest.mark.skipif(not GOAT.is_file(), reason="../shared/data/goat-format-en.cdb is absent")
def test_the_shipped_pool_is_what_the_build_tool_makes():
    built = pool_files(GOAT)
    assert set(built) == {POOL_FILE, AUDIT_FILE}
    for rel, text in built.items():
        assert (ROOT / "facts" / rel).read_text(encoding="utf-8") == text, \
            f"facts/{rel} is stale: run python tools/build_pool.py"


def test_every_pool_card_fits_the_card_schema():
    cards = pool_cards()
    assert len(cards) == 1784        # 1,788 cards without alternate artworks; same-name Tokens are one card
    problems = [p for name, c in cards.items() for p in card_problems(c, name)]
    assert problems == []
    assert all(c["name"] == n for n, c in cards.items())
    text = POOL.read_text()
    assert '"desc"' not in text and "Life Points" not in text and "your opponent" not in text    # facts, not texts


def test_the_rulings_cards_agree_with_the_pool():
    """facts/cards.yaml wins where both hold a card; both must say the same (but the passcode of
    a Token several cards make: the pool keeps the first)."""
    pool = pool_cards()
    both = 0
    for card in yaml.safe_load((ROOT / "facts" / "cards.yaml").read_text()):
        got = pool.get(card["name"])
        if got is None:
            continue
        both += 1
        assert {k: got.get(k) for k in PRINTED} == {k: card.get(k) for k in PRINTED}, card["name"]
        assert sorted(map(json.dumps, card_entries(got))) == sorted(map(json.dumps, card_entries(card))), card["name"]
        if not card.get("token"):
            assert got.get("passcode") == card.get("passcode"), card["name"]
    assert both > 100


def test_pool_cards_are_parsed_only_when_named():
    db = CardDB.bundled()
    assert len(db) > 1800 and "Guardian Ceal" in db
    assert len(db.by_name._cards) < 200            # only facts/cards.yaml's cards are parsed
    ceal = db["Guardian Ceal"]
    assert ceal is db.get("Guardian Ceal") and ceal["passcode"] and ceal["kind"] == "monster"
    assert db["Battle Ox"]["source"] == "goat-format-en.cdb"   # cards.yaml's entry (it wins)
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
    assert audit["modelled"] == sum(1 for r in records.values() if "unmodelled" not in r)
    pool = pool_cards()
    for name, r in records.items():
        assert pool[name].get("unmodelled") == r.get("unmodelled"), name
