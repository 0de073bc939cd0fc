#!/usr/bin/env python3
"""Check facts/cards.yaml against the reference card databases.

For every entry whose ``source`` names one of the .cdb files, look up the row with the
entry's passcode in that database (or, without a passcode, the row with the entry's name,
preferring rows without an alias) and compare the printed facts: name, passcode, kind,
Level, Attribute, Type, ATK/DEF, Spell/Trap subtype and the frame flags.

Two flags are one-sided on purpose:
  * special_summon_only - the YAML also sets it for monsters the FAQ calls
    Special-Summon-only, so it is a mismatch only when the database has the flag and
    the entry lacks it;
  * trap_monster - some databases leave the flag (and the monster stats) off Trap Cards
    that become monsters; when the database row has no monster data the entry's
    trap_monster flag and stats are reported as unverified notes, not mismatches.

Usage: python3 tools/check_cards.py [--data DIR] [--cards FILE]
Exit status 1 when any mismatch is found.
"""
from __future__ import annotations

import argparse
import sqlite3
import sys
from pathlib import Path

import yaml

REPO = Path(__file__).resolve().parent.parent
DBS = ("goat-format-en.cdb", "classic-en.cdb")

ATTRIBUTES = {0x1: "EARTH", 0x2: "WATER", 0x4: "FIRE", 0x8: "WIND", 0x10: "LIGHT",
              0x20: "DARK", 0x40: "DIVINE"}
RACES = {0x1: "Warrior", 0x2: "Spellcaster", 0x4: "Fairy", 0x8: "Fiend", 0x10: "Zombie",
         0x20: "Machine", 0x40: "Aqua", 0x80: "Pyro", 0x100: "Rock", 0x200: "Winged Beast",
         0x400: "Plant", 0x800: "Insect", 0x1000: "Thunder", 0x2000: "Dragon",
         0x4000: "Beast", 0x8000: "Beast-Warrior", 0x10000: "Dinosaur", 0x20000: "Fish",
         0x40000: "Sea Serpent", 0x80000: "Reptile", 0x100000: "Psychic"}
MONSTER, SPELL, TRAP = 0x1, 0x2, 0x4
FLAGS = {"normal": 0x10, "effect": 0x20, "fusion": 0x40, "ritual": 0x80,
         "trap_monster": 0x100, "spirit": 0x200, "union": 0x400, "gemini": 0x800,
         "tuner": 0x1000, "synchro": 0x2000, "token": 0x4000, "flip": 0x200000,
         "toon": 0x400000, "special_summon_only": 0x2000000}
MONSTER_ONLY_FLAGS = {"normal", "effect"}  # spells/traps carry no frame flags in the YAML


def spell_type(t: int) -> str:
    for bit, name in ((0x10000, "quickplay"), (0x20000, "continuous"), (0x40000, "equip"),
                      (0x80000, "field"), (0x80, "ritual")):
        if t & bit:
            return name
    return "normal"


def trap_type(t: int) -> str:
    if t & 0x20000:
        return "continuous"
    if t & 0x100000:
        return "counter"
    return "normal"


def fetch(conn: sqlite3.Connection, entry: dict):
    q = ("select d.id, d.alias, d.type, d.atk, d.def, d.level, d.race, d.attribute, t.name "
         "from datas d join texts t on d.id = t.id ")
    if "passcode" in entry:
        return conn.execute(q + "where d.id = ?", (entry["passcode"],)).fetchone()
    for cond in ("t.name = ?", "lower(t.name) = lower(?)"):
        row = conn.execute(q + f"where {cond} order by d.alias != 0, d.id",
                           (entry["name"],)).fetchone()
        if row:
            return row
    return None


def expected(row) -> dict:
    cid, _alias, t, atk, df, level, race, attr, name = row
    exp: dict = {"name": name, "passcode": cid}
    if t & MONSTER:
        exp.update(kind="monster", level=level & 0xFF, attribute=ATTRIBUTES.get(attr, attr),
                   type=RACES.get(race, race))
        if atk < 0 or df < 0:
            exp["atk_unknown"] = True
        else:
            exp.update(atk=atk, **{"def": df})
    elif t & SPELL:
        exp.update(kind="spell", spell_type=spell_type(t))
    elif t & TRAP:
        exp.update(kind="trap", trap_type=trap_type(t))
    for flag, bit in FLAGS.items():
        if exp.get("kind") != "monster" and flag in MONSTER_ONLY_FLAGS:
            continue
        exp[flag] = bool(t & bit)
    return exp


KEYS = ("name", "passcode", "kind", "spell_type", "trap_type", "level", "attribute", "type", "atk", "def",
        "atk_unknown")
SUBTYPE_OF = {"spell_type": "spell", "trap_type": "trap"}        # compared only for cards of that kind
MONSTER_KEYS = {"level", "attribute", "type", "atk", "def", "atk_unknown"}   # a non-monster has none


def check(entry: dict, conn: sqlite3.Connection) -> tuple[list[str], list[str]]:
    """(mismatches, notes) of one entry against its database row."""
    row = fetch(conn, entry)
    if row is None:
        return [f"not found in {entry['source']}"], []
    exp = expected(row)
    unverified_trap_monster = bool(exp.get("kind") == "trap" and entry.get("trap_monster")
                                   and not exp.get("trap_monster"))
    problems = key_problems(entry, exp, unverified_trap_monster) + flag_problems(entry, exp, unverified_trap_monster)
    notes = ["trap_monster flag and monster stats not in the database row (not checked)"] if unverified_trap_monster else []
    return problems, notes


def key_problems(entry: dict, exp: dict, unverified_trap_monster: bool) -> list[str]:
    """The printed facts (KEYS) where the entry and the row differ; atk_unknown compared as true/false."""
    kind = exp.get("kind")
    problems = []
    for key in KEYS:
        if key in SUBTYPE_OF and kind != SUBTYPE_OF[key]:
            continue
        if key in MONSTER_KEYS and kind != "monster":
            if key in entry and not unverified_trap_monster:
                problems.append(f"{key}: yaml {entry[key]!r}, db has none")
            continue
        have, want = entry.get(key), exp.get(key)
        if (bool(have) != bool(want)) if key == "atk_unknown" else (have != want):
            problems.append(f"{key}: yaml {have!r}, db {want!r}")
    return problems


def flag_problems(entry: dict, exp: dict, unverified_trap_monster: bool) -> list[str]:
    """The frame flags where the entry and the row differ, but for the two one-sided flags."""
    problems = []
    for flag in FLAGS:
        if flag not in exp:  # normal/effect on spells and traps
            if entry.get(flag):
                problems.append(f"{flag}: yaml true on a non-monster card")
            continue
        have, want = bool(entry.get(flag)), exp[flag]
        if have != want and not one_sided(flag, have, want, unverified_trap_monster):
            problems.append(f"{flag}: yaml {have}, db {want}")
    return problems


def one_sided(flag: str, have: bool, want: bool, unverified_trap_monster: bool) -> bool:
    """A difference that is no mismatch: special_summon_only added from the FAQ where the
    database lacks it; trap_monster on a Trap whose row has no monster data."""
    if flag == "special_summon_only":
        return have and not want
    return flag == "trap_monster" and unverified_trap_monster


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--data", type=Path, default=REPO.parent / "shared" / "data",
                    help="directory holding the .cdb files (default: ../shared/data from the repo root)")
    ap.add_argument("--cards", type=Path, default=REPO / "facts" / "cards.yaml",
                    help="card file to check (default: facts/cards.yaml)")
    args = ap.parse_args(argv)

    entries = yaml.safe_load(args.cards.read_text(encoding="utf-8")) or []
    conns = {}
    for db in DBS:
        path = args.data / db
        if not path.is_file():
            print(f"error: {path} not found", file=sys.stderr)
            return 2
        conns[db] = sqlite3.connect(f"file:{path}?mode=ro", uri=True)

    checked = mismatches = 0
    for entry in entries:
        src = entry.get("source")
        if src not in conns:
            continue
        checked += 1
        problems, notes = check(entry, conns[src])
        for p in problems:
            print(f"MISMATCH {entry.get('name')!r} ({src}): {p}")
        for n in notes:
            print(f"note     {entry.get('name')!r} ({src}): {n}")
        mismatches += bool(problems)
    print(f"{checked} cards checked, {mismatches} mismatches")
    return 1 if mismatches else 0


if __name__ == "__main__":
    sys.exit(main())
