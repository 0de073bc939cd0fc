"""Card pools from the files players already have: YGOPro cards.cdb, YGOPRODeck JSON, pyrules YAML.

`import_cards(path)` reads a pool and returns its cards in the project's card schema
(pyrules/schema.py CARD_SCHEMA, the shape of facts/cards.yaml); `load_card_pool(path)`
wraps them in a CardDB for Engine(cards=PATH) and `--cards PATH`.

What comes from the data: kind, Level, ATK/DEF (a "?" becomes atk_unknown), attribute,
Type, the frame flags (Tuner, token and Special-Summon-only included) and the spell or
trap icon.  What no database holds (who cannot be attacked while Umi is face-up, whether
a Special-Summon-only monster can be revived after a proper Summon, ...) comes from the
curated overlay facts/overlay.yaml, keyed by card name.

Only the file format is interpreted here; nothing about the game's rules is decided.
"""
from __future__ import annotations

import json
import sqlite3
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import yaml

from .cards import CardDB, card_problems, load_yaml
from .errors import InvalidInput, Problem
from .limits import parse_json, read_file
from .paths import facts_dir
from .schema import ATTRIBUTES, CARD_SCHEMA

# ---- YGOPro cards.cdb (datas.type bit flags: ../shared/data/README.md) ----------
MONSTER, SPELL, TRAP = 0x1, 0x2, 0x4
TYPE_FLAGS = {  # frame flag of the card schema -> bit
    "normal": 0x10, "effect": 0x20, "fusion": 0x40, "ritual": 0x80, "trap_monster": 0x100,
    "spirit": 0x200, "union": 0x400, "gemini": 0x800, "tuner": 0x1000, "synchro": 0x2000,
    "token": 0x4000, "flip": 0x200000, "toon": 0x400000, "special_summon_only": 0x2000000,
}
UNSUPPORTED_FRAMES = {"xyz": 0x800000, "pendulum": 0x1000000, "link": 0x4000000}
QUICKPLAY, CONTINUOUS, EQUIP, FIELD, COUNTER, RITUAL = 0x10000, 0x20000, 0x40000, 0x80000, 0x100000, 0x80
ATTRIBUTE_BITS = {1 << i: a for i, a in enumerate(ATTRIBUTES)}
RACE_BITS = {1 << i: r for i, r in enumerate(
    ["Warrior", "Spellcaster", "Fairy", "Fiend", "Zombie", "Machine", "Aqua", "Pyro", "Rock",
     "Winged Beast", "Plant", "Insect", "Thunder", "Dragon", "Beast", "Beast-Warrior", "Dinosaur",
     "Fish", "Sea Serpent", "Reptile", "Psychic", "Divine-Beast"])}

OVERLAY_KEYS = [k for k in ("can_attack_directly", "cannot_be_attacked_while", "attacks_each_monster",
                            "equip_grants_direct_attack", "equip_forbids_attack", "attack_lock",
                            "synchro_tuner", "synchro_non_tuner_attribute", "special_summon_restriction",
                            "sends_to_graveyard_banished", "special_summon_only", "note")
                if k in CARD_SCHEMA["properties"]]
SQLITE_MAGIC = b"SQLite format 3\x00"


@dataclass
class ImportResult:
    """The cards of one pool in the card schema, and what was left out."""
    cards: list[dict]
    source: str
    skipped_aliases: int = 0          # alternate artworks (they map to their card)
    skipped_unsupported: list[str] = field(default_factory=list)   # frames the schema has no flag for
    overlaid: list[str] = field(default_factory=list)              # names the overlay added to

    def db(self) -> CardDB:
        db = CardDB()
        db.add(self.cards, self.source)
        return db


def _bad(path: Path | str, message: str) -> InvalidInput:
    return InvalidInput(Problem(str(path), message))


def _card_type(bits: int) -> str | None:
    if bits & MONSTER:
        return "monster"
    if bits & SPELL:
        return "spell"
    if bits & TRAP:
        return "trap"
    return None


def cdb_card(code: int, name: str, bits: int, atk: int, df: int, level: int, race: int, attribute: int,
             source: str) -> dict | str:
    """One datas/texts row in the card schema, or a string saying why it was left out."""
    kind = _card_type(bits)
    if kind is None:
        return "no monster, spell or trap flag"
    for frame, bit in UNSUPPORTED_FRAMES.items():
        if bits & bit:
            return f"{frame} frame"
    card: dict[str, Any] = {"name": name, "passcode": code, "kind": kind}
    monster_stats = kind == "monster" or (bits & TYPE_FLAGS["trap_monster"] and (atk or df or level & 0xFF))
    if monster_stats:
        card["level"] = level & 0xFF
        if attribute in ATTRIBUTE_BITS:
            card["attribute"] = ATTRIBUTE_BITS[attribute]
        if race in RACE_BITS:
            card["type"] = RACE_BITS[race]
        if atk < 0 or df < 0:
            card["atk_unknown"] = True
        else:
            card["atk"], card["def"] = atk, df
    for flag, bit in TYPE_FLAGS.items():
        if bits & bit and (kind == "monster" or flag == "trap_monster"):
            card[flag] = True
    if kind == "spell":
        card["spell_type"] = ("quickplay" if bits & QUICKPLAY else "continuous" if bits & CONTINUOUS else
                              "equip" if bits & EQUIP else "field" if bits & FIELD else
                              "ritual" if bits & RITUAL else "normal")
    elif kind == "trap":
        card["trap_type"] = "continuous" if bits & CONTINUOUS else "counter" if bits & COUNTER else "normal"
    card["source"] = source
    return card


def read_cdb(path: Path) -> ImportResult:
    """A YGOPro cards.cdb: one card per datas row without an alias, named from texts."""
    try:
        con = sqlite3.connect(f"file:{path}?mode=ro", uri=True)
    except sqlite3.Error as e:
        raise _bad(path, f"cannot open the card database: {e}") from None
    try:
        tables = {r[0] for r in con.execute("SELECT name FROM sqlite_master WHERE type='table'")}
        missing = [t for t in ("datas", "texts") if t not in tables]
        if missing:
            raise _bad(path, f"not a YGOPro card database: missing table(s) {', '.join(missing)}")
        rows = con.execute(
            "SELECT d.id, d.alias, d.type, d.atk, d.def, d.level, d.race, d.attribute, "
            "(SELECT t.name FROM texts t WHERE t.id = d.id ORDER BY t.rowid LIMIT 1) "
            "FROM datas d ORDER BY d.id").fetchall()
    except sqlite3.Error as e:
        raise _bad(path, f"not a readable card database: {e}") from None
    finally:
        con.close()
    result = ImportResult([], path.name)
    seen: set[int] = set()
    for code, alias, bits, atk, df, level, race, attribute, name in rows:
        if alias:
            result.skipped_aliases += 1
            continue
        if code in seen:
            continue
        seen.add(code)
        if not name:
            result.skipped_unsupported.append(f"{code}: no name in texts")
            continue
        try:
            card = cdb_card(int(code), str(name), int(bits or 0), int(atk or 0), int(df or 0), int(level or 0),
                            int(race or 0), int(attribute or 0), path.name)
        except (TypeError, ValueError):
            result.skipped_unsupported.append(f"{name}: unreadable numbers")
            continue
        if isinstance(card, str):
            result.skipped_unsupported.append(f"{name}: {card}")
        else:
            result.cards.append(card)
    return result


# ---- YGOPRODeck card-info JSON -------------------------------------------------
SPELL_RACES = {"Normal": "normal", "Quick-Play": "quickplay", "Continuous": "continuous", "Equip": "equip",
               "Field": "field", "Ritual": "ritual"}
TRAP_RACES = {"Normal": "normal", "Continuous": "continuous", "Counter": "counter"}
TYPE_WORDS = {"Normal": "normal", "Effect": "effect", "Fusion": "fusion", "Ritual": "ritual", "Synchro": "synchro",
              "Tuner": "tuner", "Token": "token", "Flip": "flip", "Toon": "toon", "Spirit": "spirit",
              "Union": "union", "Gemini": "gemini"}
UNSUPPORTED_WORDS = ("XYZ", "Xyz", "Link", "Pendulum", "Skill")
# the printed line that makes a main-deck monster Special-Summon-only
SPECIAL_ONLY_PHRASES = ("cannot be normal summoned/set", "cannot be normal summoned or set")
RACE_NAMES = {r for r in CARD_SCHEMA["properties"]["type"]["enum"]}


def ygoprodeck_card(item: dict, source: str) -> dict | str:
    name, type_text = item.get("name"), item.get("type")
    if not isinstance(name, str) or not name or not isinstance(type_text, str):
        return "needs a name and a type"
    words = type_text.replace("-", " ").split()
    if any(w in words for w in UNSUPPORTED_WORDS):
        return f"{type_text} is not in the card schema"
    card: dict[str, Any] = {"name": name}
    if isinstance(item.get("id"), int) and item["id"] >= 0:
        card["passcode"] = item["id"]
    if "Spell" in words:
        card["kind"] = "spell"
        card["spell_type"] = SPELL_RACES.get(item.get("race"), "normal")
    elif "Trap" in words and "Monster" not in words:
        card["kind"] = "trap"
        card["trap_type"] = TRAP_RACES.get(item.get("race"), "normal")
    else:
        card["kind"] = "monster"
        level = item.get("level")
        if isinstance(level, int):
            card["level"] = level
        if item.get("attribute") in ATTRIBUTES:
            card["attribute"] = item["attribute"]
        if item.get("race") in RACE_NAMES:
            card["type"] = item["race"]
        atk, df = item.get("atk"), item.get("def")
        if isinstance(atk, int) and isinstance(df, int) and atk >= 0 and df >= 0:
            card["atk"], card["def"] = atk, df
        elif "atk" in item or "def" in item:
            card["atk_unknown"] = True
        for word, flag in TYPE_WORDS.items():
            if word in words:
                card[flag] = True
        frame = item.get("frameType")
        if frame in ("normal", "effect", "token"):     # a Tuner's frame says whether it is an Effect Monster
            card[frame] = True
        desc = str(item.get("desc") or "").lower()
        if not (card.get("fusion") or card.get("ritual") or card.get("synchro")) and \
                any(p in desc for p in SPECIAL_ONLY_PHRASES):
            card["special_summon_only"] = True
    card["source"] = source
    return card


def read_ygoprodeck(data: Any, path: Path) -> ImportResult:
    if not isinstance(data, dict) or not isinstance(data.get("data"), list):
        raise _bad(path, 'not a YGOPRODeck card-info file: expected {"data": [card, ...]}')
    result = ImportResult([], path.name)
    seen: set[str] = set()
    problems = []
    for i, item in enumerate(data["data"]):
        if not isinstance(item, dict):
            problems.append(Problem(f"{path.name}: data[{i}]", "expected a card object"))
            continue
        card = ygoprodeck_card(item, path.name)
        if isinstance(card, str):
            if "needs" in card:
                problems.append(Problem(f"{path.name}: data[{i}]", card))
            else:
                result.skipped_unsupported.append(f"{item.get('name')}: {card}")
            continue
        if card["name"] in seen:      # one entry per card; other artworks share the name
            result.skipped_aliases += 1
            continue
        seen.add(card["name"])
        result.cards.append(card)
    if problems:
        raise InvalidInput(problems)
    return result


# ---- the curated overlay ----------------------------------------------------------
def load_overlay(path: str | Path | None = None) -> dict[str, dict]:
    """facts/overlay.yaml: card name -> curated properties (only the keys in OVERLAY_KEYS)."""
    path = Path(path) if path is not None else facts_dir() / "overlay.yaml"
    data = load_yaml(read_file(path, None, str(path)), str(path), path.name) or {}
    if not isinstance(data, dict):
        raise _bad(path, "the overlay is a mapping: card name -> properties")
    problems = []
    for name, props in data.items():
        if not isinstance(props, dict):
            problems.append(Problem(f"{path.name}: {name}", "expected a mapping of properties"))
            continue
        for key in props:
            if key not in OVERLAY_KEYS:
                problems.append(Problem(f"{path.name}: {name}.{key}", "not a curated property"))
        problems += card_problems({"name": str(name), "kind": "monster", **props}, f"{path.name}: {name}",
                                  partial=True)
    if problems:
        raise InvalidInput(problems)
    return data


def apply_overlay(result: ImportResult, overlay: dict[str, dict]) -> ImportResult:
    for card in result.cards:
        props = overlay.get(card["name"])
        if props:
            for key, value in props.items():
                if key == "special_summon_only" and (card["kind"] != "monster" or card.get("fusion")
                                                      or card.get("ritual") or card.get("synchro")):
                    continue     # the frame already says it (facts/cards.yaml convention)
                card[key] = value
            result.overlaid.append(card["name"])
    return result


# ---- entry points ------------------------------------------------------------------
def import_cards(path: str | Path, overlay: dict[str, dict] | None = None) -> ImportResult:
    """Read a card pool file (format sniffed from its content) into the card schema."""
    path = Path(path)
    try:
        head = path.open("rb").read(16)
    except OSError as e:
        raise _bad(path, f"cannot read: {e}") from None
    if head == SQLITE_MAGIC:
        result = read_cdb(path)
    elif path.suffix.lower() in (".cdb", ".db", ".sqlite"):
        raise _bad(path, "not a SQLite database (a YGOPro cards.cdb is SQLite with tables datas and texts)")
    else:
        text = read_file(path, None, str(path))
        data = parse_json(text, str(path), None, path.name) if path.suffix.lower() == ".json" else \
            load_yaml(text, str(path), path.name)
        if isinstance(data, dict) and "data" in data:
            result = read_ygoprodeck(data, path)
        else:
            cards = data.get("cards") if isinstance(data, dict) else data
            if not isinstance(cards, list):
                raise _bad(path, 'expected a YGOPRODeck file ({"data": [...]}) or a list of pyrules cards')
            bad = [p for i, c in enumerate(cards) for p in card_problems(c, f"{path.name}[{i}]")]
            if bad:
                raise InvalidInput(bad)
            return ImportResult(list(cards), path.name)     # pyrules cards already carry their properties
    if not result.cards:
        raise _bad(path, "the file holds no card")
    return apply_overlay(result, load_overlay() if overlay is None else overlay)


def load_card_pool(path: str | Path) -> CardDB:
    """A CardDB from a cards.cdb, a YGOPRODeck JSON file or a pyrules YAML card list."""
    return import_cards(path).db()


def dump_cards(cards: list[dict]) -> str:
    """The YAML of facts/cards.yaml: one mapping per card, sorted by name."""
    order = list(CARD_SCHEMA["properties"])
    rows = [{k: c[k] for k in sorted(c, key=order.index)} for c in sorted(cards, key=lambda c: (c["name"],
                                                                                             c.get("passcode", 0)))]
    header = "# Cards imported by `pyrules cards import` (pyrules card schema: `pyrules schema --card`).\n\n"
    dumper = getattr(yaml, "CSafeDumper", yaml.SafeDumper)
    return header + "\n".join(yaml.dump([r], Dumper=dumper, sort_keys=False, allow_unicode=True, width=120)
                               for r in rows)
