"""Card pools from the files players already have: YGOPro cards.cdb, YGOPRODeck JSON, pyrules YAML.

`import_cards(path)` reads a pool and returns its cards in the project's card schema
(pyrules/schema.py CARD_SCHEMA, the shape of facts/cards.yaml); `load_card_pool(path)`
wraps them in a CardDB for Engine(cards=PATH) and `--cards PATH`.

What comes from the data: kind, Level, ATK/DEF (a "?" becomes atk_unknown), attribute,
Type, the frame flags (Tuner, token and Special-Summon-only included) and the spell or
trap icon.  The card's effects come from its text, read by the sentence patterns of
facts/patterns/ (pyrules/patterns.py); what no pattern reads (who cannot be attacked
while Umi is face-up, whether a Special-Summon-only monster can be revived after a
proper Summon, ...) comes from the curated overlay facts/overlay/, keyed by card name,
which wins over the patterns for its cards.  A card whose text permits or forbids
Summons, Tributes, attacks or battle positions in a sentence that neither reads carries
`unmodelled` (why), and the import's audit (`ImportResult.audit`) says for every such
card what was derived, curated or left unmodelled.

Only the file format is interpreted here; nothing about the game's rules is decided.
"""
from __future__ import annotations

import sqlite3
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Iterable

import yaml

from .cards import CardDB, load_overlay, load_yaml, pool_problems
from .effects import Vocabulary, vocabulary
from .errors import InvalidInput, Problem
from .limits import parse_json, read_file
from .patterns import Activation, Derived, Pattern, derive, read_activation
from .schema import ATTRIBUTES, CARD_SCHEMA
from .words import SETCODE_ARCHETYPES

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

def cdb_archetypes(setcode: int) -> list[str]:
    """The archetype names of a cdb setcode value (SETCODE_ARCHETYPES), in the order of its codes."""
    codes = [(setcode >> (16 * i)) & 0xFFFF for i in range(4)]
    return list(dict.fromkeys(SETCODE_ARCHETYPES[c & 0xFFF] for c in codes if c & 0xFFF in SETCODE_ARCHETYPES))


SQLITE_MAGIC = b"SQLite format 3\x00"


@dataclass
class ImportResult:
    """The cards of one pool in the card schema, and what was left out."""
    cards: list[dict]
    source: str
    skipped_aliases: int = 0          # alternate artworks (they map to their card)
    skipped_unsupported: list[str] = field(default_factory=list)   # frames the schema has no flag for
    overlaid: list[str] = field(default_factory=list)              # names the overlay added to
    audit: dict[str, dict] = field(default_factory=dict)            # name -> audit record (audit_record)
    activation: dict[str, dict] = field(default_factory=dict)       # Spell/Trap name -> activation_record
    texts: dict[str, str] = field(default_factory=dict, repr=False)  # name -> card text (not kept in cards)
    unread_activated: dict[str, list[str]] = field(default_factory=dict)   # monster name -> activated-effect
    #   sentences no `numbered` pattern read (pyrules.patterns.ACTIVATED; the audit's monster_effects)

    def one_per_name(self) -> list[dict]:
        """The cards, one per name: same-name Tokens (each card that makes one has its own
        passcode) are one card, the first passcode's facts, in the bundled pool as from --cards."""
        seen: dict[str, dict] = {}
        for card in self.cards:
            seen.setdefault(card["name"], card)
        return list(seen.values())

    def db(self, voc: Vocabulary | None = None) -> CardDB:
        db = CardDB()
        db.add(self.one_per_name(), self.source, voc)
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
    if kind == "monster" or (kind == "trap" and (atk or df or level & 0xFF)):     # a Trap Monster's row has its stats
        card.update(_cdb_stats(atk, df, level, race, attribute))
    card.update({flag: True for flag, bit in TYPE_FLAGS.items()
                 if bits & bit and (kind == "monster" or flag == "trap_monster")})
    if kind == "spell":
        card["spell_type"] = _first_icon(bits, SPELL_ICON_BITS)
    elif kind == "trap":
        card["trap_type"] = _first_icon(bits, TRAP_ICON_BITS)
    card["source"] = source
    return card


SPELL_ICON_BITS = (("quickplay", QUICKPLAY), ("continuous", CONTINUOUS), ("equip", EQUIP), ("field", FIELD),
                   ("ritual", RITUAL))
TRAP_ICON_BITS = (("continuous", CONTINUOUS), ("counter", COUNTER))


def _first_icon(bits: int, icons: tuple[tuple[str, int], ...]) -> str:
    """The first icon (spell_type or trap_type) whose bit is set; none: normal."""
    return next((icon for icon, bit in icons if bits & bit), "normal")


def _cdb_stats(atk: int, df: int, level: int, race: int, attribute: int) -> dict[str, Any]:
    """A monster's Level, Attribute and Type (when known), and its ATK/DEF (negative: "?")."""
    stats: dict[str, Any] = {"level": level & 0xFF if level >= 0 else level}    # negative: refused as it is
    if attribute in ATTRIBUTE_BITS:
        stats["attribute"] = ATTRIBUTE_BITS[attribute]
    if race in RACE_BITS:
        stats["type"] = RACE_BITS[race]
    if atk < 0 or df < 0:
        stats["atk_unknown"] = True
    else:
        stats["atk"], stats["def"] = atk, df
    return stats


def _cdb_rows(path: Path) -> list[tuple]:
    """The datas rows of a cards.cdb with their texts' name and desc, by id."""
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
            "SELECT d.id, d.alias, d.type, d.atk, d.def, d.level, d.race, d.attribute, d.setcode, "
            "(SELECT t.name FROM texts t WHERE t.id = d.id ORDER BY t.rowid LIMIT 1), "
            "(SELECT t.desc FROM texts t WHERE t.id = d.id ORDER BY t.rowid LIMIT 1) "
            "FROM datas d ORDER BY d.id").fetchall()
    except sqlite3.Error as e:
        raise _bad(path, f"not a readable card database: {e}") from None
    finally:
        con.close()
    return rows


def read_cdb(path: Path) -> ImportResult:
    """A YGOPro cards.cdb: one card per datas row without an alias, named from texts."""
    rows = _cdb_rows(path)
    result = ImportResult([], path.name)
    seen: set[int] = set()
    named: dict[str, dict] = {}          # name -> its first card: only Tokens share a name
    problems: list[Problem] = []
    for code, alias, bits, atk, df, level, race, attribute, setcode, name, desc in rows:
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
            continue
        first = named.setdefault(card["name"], card)
        if first is not card and not (first.get("token") and card.get("token")):
            problems.append(Problem(f"{path.name}: {card['name']}", f"two cards have this name (passcodes "
                                    f"{first['passcode']} and {code}); only the Tokens several cards make may "
                                    "share one"))
            continue
        card = _with_archetypes(card, setcode)
        result.cards.append(card)
        _add_text(result, card, desc)
    if problems:
        raise InvalidInput(problems)
    return result


def _with_archetypes(card: dict, setcode: Any) -> dict:
    """The card with the archetypes its cdb setcode names (SETCODE_ARCHETYPES), before its `source`."""
    archetypes = cdb_archetypes(setcode) if isinstance(setcode, int) else []
    if not archetypes:
        return card
    return {**{k: v for k, v in card.items() if k != "source"}, "archetypes": archetypes, "source": card["source"]}


def _add_text(result: ImportResult, card: dict, text: Any) -> None:
    """Keep a card's text for the patterns; same-name cards (the Tokens several cards make,
    each its own passcode) are one card whose text is all of theirs."""
    text = str(text or "").strip()
    known = result.texts.get(card["name"])
    if known is None:
        result.texts[card["name"]] = text
    elif text and text not in known:
        result.texts[card["name"]] = f"{known}\n{text}"


# ---- YGOPRODeck card-info JSON -------------------------------------------------
SPELL_RACES = {"Normal": "normal", "Quick-Play": "quickplay", "Continuous": "continuous", "Equip": "equip",
               "Field": "field", "Ritual": "ritual"}
TRAP_RACES = {"Normal": "normal", "Continuous": "continuous", "Counter": "counter"}
TYPE_WORDS = {"Normal": "normal", "Effect": "effect", "Fusion": "fusion", "Ritual": "ritual", "Synchro": "synchro",
              "Tuner": "tuner", "Token": "token", "Flip": "flip", "Toon": "toon", "Spirit": "spirit",
              "Union": "union", "Gemini": "gemini"}
UNSUPPORTED_WORDS = ("XYZ", "Xyz", "Link", "Pendulum", "Skill")
RACE_NAMES = {r for r in CARD_SCHEMA["properties"]["type"]["enum"]}


def ygoprodeck_card(item: dict, source: str) -> dict | str:
    """One card-info entry in the card schema, or a string saying why it was left out."""
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
        card.update(kind="spell", spell_type=SPELL_RACES.get(str(item.get("race")), "normal"))
    elif "Trap" in words and "Monster" not in words:
        card.update(kind="trap", trap_type=TRAP_RACES.get(str(item.get("race")), "normal"))
    else:
        card.update(_ygoprodeck_monster(item, words))
    if isinstance(item.get("archetype"), str) and item["archetype"]:
        card["archetypes"] = [item["archetype"]]       # YGOPRODeck names one archetype per card
    card["source"] = source
    return card


def _ygoprodeck_monster(item: dict, words: list[str]) -> dict[str, Any]:
    """A monster entry's keys: kind, Level, Attribute, Type, ATK/DEF and the frame flags."""
    card: dict[str, Any] = {"kind": "monster"}
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
    card.update({flag: True for word, flag in TYPE_WORDS.items() if word in words})
    frame = item.get("frameType")
    if frame in ("normal", "effect", "token"):     # a Tuner's frame says whether it is an Effect Monster
        card[frame] = True
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
        _add_text(result, card, item.get("desc"))
    if problems:
        raise InvalidInput(problems)
    return result


def _verdict_why(derived: Derived) -> str:
    said = " and ".join(derived.unread_topics)
    n = len(derived.unread)
    return f"its text on {said} is not modelled ({n} sentence{'s' if n != 1 else ''} no pattern reads)"


def audit_record(card: dict, derived: Derived, curated: dict | None) -> dict | None:
    """What the audit says of one card: what its text speaks of (Summons, Tributes, attacks,
    battle positions), the effects derived from it and curated for it, and whether all of it
    is modelled (`unmodelled`: why not).  None for a card whose text speaks of none of them."""
    curated = curated or {}
    if not (derived.topics or derived.read or curated):
        return None
    record: dict[str, Any] = {"speaks_of": derived.topics,
                              "derived": [dict(e) for e in derived.effects],
                              "read_by": sorted({pid for pid, _ in derived.read})}
    if derived.leaves:
        record["leaves"] = [dict(e) for e in derived.leaves]
    if "effects" in curated:
        record["curated"] = curated["effects"]
    if "unmodelled" in card:
        record["unmodelled"] = card["unmodelled"]
    if "no_bearing" in curated:
        record["no_bearing"] = curated["no_bearing"]
    return record


def activation_record(activation: Activation, curated: dict) -> dict:
    """What the audit says of one Spell or Trap Card's activation: what its activation sentences ask
    (`asks`: none, its frame's rules alone judge it), the entries read, and `unmodelled` (the sentences
    with a condition no pattern reads: the overlay's entries for a card do not make its text read)."""
    record: dict[str, Any] = {"asks": activation.says, "derived": [dict(e) for e in activation.effects],
                              "read_by": sorted({pid for pid, _ in activation.read})}
    if "effects" in curated:
        record["curated"] = curated["effects"]
    if activation.unread:
        record["unmodelled"] = _activation_why(activation)
    return record


def _activation_why(activation: Activation) -> str:
    n = len(activation.unread)
    return (f"its activation asks {' and '.join(activation.unread_says)} in {n} sentence{'s' if n != 1 else ''} "
            "no pattern reads")


def _apply_activation(result: ImportResult, card: dict, props: dict, patterns: tuple[Pattern, ...] | None,
                      voc: Vocabulary | None) -> list[dict]:
    """A Spell or Trap Card's activation entries (none for another card), its `activation_unmodelled` and
    its activation record."""
    if card["kind"] not in ("spell", "trap"):
        return []
    icon = card.get("spell_type") or card.get("trap_type") or "normal"
    activation = read_activation(result.texts.get(card["name"], ""), card["kind"], icon, patterns, voc)
    if activation.problems:
        raise InvalidInput([Problem(f"{result.source}: {card['name']}", p) for p in activation.problems])
    record = activation_record(activation, props)
    if "unmodelled" in record:
        card["activation_unmodelled"] = record["unmodelled"]
    result.activation[card["name"]] = record
    return activation.effects


def _frame_flags(card: dict, frames: list[str]) -> None:
    """The frame flags the text (or the overlay) states, set on the card."""
    if "special_summon_only" in frames and card["kind"] == "monster" and not (
            card.get("fusion") or card.get("ritual") or card.get("synchro")):
        card["special_summon_only"] = True   # the frame already says it (facts/cards.yaml convention)
    if "trap_monster" in frames and card["kind"] == "trap":
        card["trap_monster"] = True          # the text says it becomes a monster (its stats: the row's)


def stays_face_up(card: dict) -> bool:
    """A Continuous, Equip or Field Spell, or a Continuous Trap: a card that stays face-up on the field once activated,
    whose text may give it activated effects of its own (rules/activation_faceup.lp)."""
    return card.get("spell_type") in ("continuous", "equip", "field") or card.get("trap_type") == "continuous"


def apply_texts(result: ImportResult, overlay: dict[str, dict], patterns: Iterable[Pattern] | None = None,
                voc: Vocabulary | None = None) -> ImportResult:
    """Each card's effects: those the patterns (default: facts/patterns/) derive from its text,
    unless the overlay curates the card (its effects win); the overlay's frame flag;
    `unmodelled` where a relevant sentence is read by neither; and the audit record."""
    patterns = None if patterns is None else tuple(patterns)
    for card in result.cards:
        derived = derive(result.texts.get(card["name"], ""), patterns, voc, card.get("kind"))
        if derived.problems:
            raise InvalidInput([Problem(f"{result.source}: {card['name']}", p) for p in derived.problems])
        if derived.unread_activated and card.get("kind") == "monster":
            result.unread_activated[card["name"]] = list(derived.unread_activated)
        if derived.unread_activated and stays_face_up(card):      # g36st: a face-up effect no pattern reads
            n = len(derived.unread_activated)
            card["faceup_unread"] = (f"{n} sentence{'s' if n > 1 else ''} worded like an activated effect of the "
                                     f"face-up card that no pattern reads")
        props = overlay.get(card["name"]) or {}
        _frame_flags(card, list(derived.frames) + (["special_summon_only"] if props.get("special_summon_only") else []))
        read = derived.effects + [e for e in _apply_activation(result, card, props, patterns, voc)
                                  if e not in derived.effects]
        effects = props["effects"] if "effects" in props else read
        if effects:
            card["effects"] = [dict(e) for e in effects]
        if "unmodelled" in props:
            card["unmodelled"] = props["unmodelled"]
        elif derived.unread and "effects" not in props and "no_bearing" not in props:
            card["unmodelled"] = _verdict_why(derived)
        # the overlay's `note` (the text or ruling an entry rests on) stays in the overlay: the
        # imported cards carry facts, not card texts
        if props:
            result.overlaid.append(card["name"])
        record = audit_record(card, derived, props)
        if record is not None:
            result.audit[card["name"]] = record
    _pool_spelling(result, voc)
    return result


def _pool_spelling(result: ImportResult, voc: Vocabulary | None) -> None:
    """A card name an entry's `name`-typed argument takes from a text, spelt as the pool spells that card where
    they differ only in capitals: "Valkyrion the Magna Warrior"'s text names "Alpha The Magnet Warrior", the
    pool's card is "Alpha the Magnet Warrior" (an entry naming no card of the pool would match nothing)."""
    kinds = (voc or vocabulary()).kinds
    names = {c["name"] for c in result.cards}
    folded: dict[str, list[str]] = {}
    for n in names:
        folded.setdefault(n.casefold(), []).append(n)
    for card in result.cards:
        for entry in card.get("effects") or ():
            kind = kinds.get(entry.get("effect"))
            for arg in kind.args if kind else ():
                value = entry.get(arg.name)
                same = folded.get(value.casefold(), []) if arg.type == "name" and isinstance(value, str) else []
                if value not in names and len(same) == 1:
                    entry[arg.name] = same[0]


# ---- entry points ------------------------------------------------------------------
def import_cards(path: str | Path, overlay: dict[str, dict] | None = None,
                 patterns: Iterable[Pattern] | None = None, voc: Vocabulary | None = None) -> ImportResult:
    """Read a card pool file (format sniffed from its content) into the card schema, with the
    effects the text patterns (default: facts/patterns/) and the overlay (default: facts/overlay/) give,
    of the kinds of `voc` (the effect vocabulary of a rules folder; default the shipped one)."""
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
            bad = pool_problems(cards, path.name, voc=voc)
            if bad:
                raise InvalidInput(bad)
            return ImportResult(list(cards), path.name)     # pyrules cards already carry their properties
    if not result.cards:
        raise _bad(path, "the file holds no card")
    return apply_texts(result, load_overlay(voc=voc) if overlay is None else overlay, patterns, voc)


def load_card_pool(path: str | Path, voc: Vocabulary | None = None) -> CardDB:
    """A CardDB from a cards.cdb, a YGOPRODeck JSON file or a pyrules YAML card list (its effects
    of the kinds of `voc`)."""
    return import_cards(path, voc=voc).db(voc)


def dump_cards(cards: list[dict]) -> str:
    """The YAML of facts/cards.yaml: one mapping per card, sorted by name."""
    order = list(CARD_SCHEMA["properties"])
    rows = [{k: c[k] for k in sorted(c, key=order.index)} for c in sorted(cards, key=lambda c: (c["name"],
                                                                                             c.get("passcode", 0)))]
    header = "# Cards imported by `pyrules cards import` (pyrules card schema: `pyrules schema --card`).\n\n"
    dumper = getattr(yaml, "CSafeDumper", yaml.SafeDumper)
    return header + "\n".join(yaml.dump([r], Dumper=dumper, sort_keys=False, allow_unicode=True, width=120)
                               for r in rows)
