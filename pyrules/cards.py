"""The card database: card definitions by name, each checked against the card schema.

The default database is the bundled Goat pool (facts/goat/cards.jsonl, built by
tools/build_pool.py from goat-format-en.cdb) with the rulings' cards (facts/cards.yaml)
over it: where both hold a card, facts/cards.yaml's curated entry wins (a test keeps the
two in step).  The curated overlay (facts/overlay/, load_overlay) gives, by name, the
effects of the cards no text pattern reads; a rulings' card it curates takes its effects
from there (rulings_cards): each card's effects are defined once.  The pool is read
without parsing its cards: a card's JSON is parsed the first time a snapshot names it
(CardMap), and the pool's cards are checked against the card schema by a test, not at
every start-up.
"""
from __future__ import annotations

import json
from collections.abc import MutableMapping
from pathlib import Path
from typing import Any, Callable, Iterable, Iterator

from .effects import Vocabulary, entry_problems
from .errors import InvalidInput, Problem
from .limits import parse_yaml, read_file
from .paths import facts_dir
from .schema import CARD_SCHEMA, RETIRED_CARD_KEYS, SNAPSHOT_SCHEMA, retired_key_message, validate


def load_yaml(text: str, origin: str = "YAML", base: str = "") -> Any:
    """YAML text -> a value (a key given twice is InvalidInput, with its field path below base)."""
    return parse_yaml(text, origin, None, base)


def card_problems(card: Any, path: str, partial: bool = False, voc: Vocabulary | None = None) -> list[Problem]:
    """Problems of one card definition, inline in a snapshot or in a card pool: the card
    schema (a retired card key named with the effect to write instead), its effect entries (of the kinds of
    `voc`, default the shipped ones), and what the schema's JSON Schema subset cannot say (card_rule_problems;
    not for a partial card, such as the overlay's properties)."""
    problems = [Problem(p, retired_key_message(p, m, path))
                for p, m in validate(card, CARD_SCHEMA, SNAPSHOT_SCHEMA, path)]
    if isinstance(card, dict) and isinstance(card.get("effects"), list):
        for i, entry in enumerate(card["effects"]):
            problems += [Problem(p, m) for p, m in entry_problems(entry, f"{path}.effects[{i}]", voc=voc)
                         if Problem(p, m) not in problems]
    if not problems and not partial:
        problems = card_rule_problems(card, path)
    return problems


MAX_POOL_PROBLEMS = 1_000     # a pool's check stops there (a YAML alias of a bad card repeats its problems)


def pool_problems(cards: Iterable[Any], origin: str, good: Callable[[dict], None] | None = None,
                  voc: Vocabulary | None = None) -> list[Problem]:
    """The problems of a pool's cards (origin[i]...), each card passing good() when it has none;
    after MAX_POOL_PROBLEMS problems the remaining cards are not checked."""
    problems: list[Problem] = []
    for i, card in enumerate(cards):
        found = card_problems(card, f"{origin}[{i}]", voc=voc)
        if not found:
            if good is not None:
                good(card)
            continue
        problems += found
        if len(problems) >= MAX_POOL_PROBLEMS:
            problems.append(Problem(origin, f"{len(problems):,} problems: the cards after [{i}] were not checked"))
            break
    return problems


def card_rule_problems(card: dict, path: str) -> list[Problem]:
    """A monster card needs a Level: the Tribute count and the Summon rules read it."""
    if card.get("kind") == "monster" and "level" not in card:
        return [Problem(f"{path}.level", "is required for a monster card")]
    return []


# ---- the curated overlay and the rulings' cards -------------------------------------
OVERLAY_KEYS = ["effects", "note", "unmodelled", "no_bearing", "special_summon_only"]
"""The keys of an overlay entry: effects, note, unmodelled, no_bearing (why a text the audit flags has no
bearing on the actions the rules judge: the audit counts it apart, never as modelled), and a frame flag."""


def _overlay_files(path: Path) -> list[Path]:
    return sorted(path.glob("*.yaml")) if path.is_dir() else [path]


def load_overlay(path: str | Path | None = None, voc: Vocabulary | None = None) -> dict[str, dict]:
    """facts/overlay/*.yaml (or one overlay file): card name -> {effects, note, unmodelled, no_bearing,
    special_summon_only}; the effects are of the kinds of `voc` (default the shipped declaration)."""
    path = Path(path) if path is not None else facts_dir() / "overlay"
    out: dict[str, dict] = {}
    problems: list[Problem] = []
    for file in _overlay_files(path):
        data = load_yaml(read_file(file, None, str(file)), str(file), file.name) or {}
        if not isinstance(data, dict):
            raise InvalidInput(Problem(str(file), "the overlay is a mapping: card name -> {effects, note, unmodelled}"))
        for name, props in data.items():
            where = f"{file.name}: {name}"
            if not isinstance(props, dict):
                problems.append(Problem(where, "expected a mapping (effects, note, unmodelled)"))
                continue
            bad = _overlay_entry_problems(str(name), props, where, voc)
            if str(name) in out:
                bad.append(Problem(where, "the card is curated in two overlay entries"))
            if bad:
                problems += bad
                continue
            out[str(name)] = dict(props)
    if problems:
        raise InvalidInput(problems)
    return out


def _overlay_entry_problems(name: str, props: dict, where: str, voc: Vocabulary | None = None) -> list[Problem]:
    """What is wrong with one overlay entry: keys, the card properties it gives, and `no_bearing` (a sentence,
    on an entry with no effects and nothing unmodelled)."""
    bad = [Problem(f"{where}.{k}", "not an overlay key (" + ", ".join(OVERLAY_KEYS) + ")")
           for k in props if k not in OVERLAY_KEYS and k not in RETIRED_CARD_KEYS]   # those: card_problems
    card_keys = {k: v for k, v in props.items() if k != "no_bearing"}
    bad += card_problems({"name": name, "kind": "monster", **card_keys}, where, partial=True, voc=voc)
    if "no_bearing" in props and (not isinstance(props["no_bearing"], str) or not props["no_bearing"]):
        bad.append(Problem(f"{where}.no_bearing", "expected a sentence saying why"))
    if "no_bearing" in props and ("effects" in props or "unmodelled" in props):
        bad.append(Problem(f"{where}.no_bearing", "a card with no bearing has no effects and nothing unmodelled"))
    return bad


RULINGS_FILE = "cards.yaml"


def rulings_cards(overlay: dict[str, dict] | None = None) -> list[dict]:
    """The rulings' cards (facts/cards.yaml), checked, in its order; a card the overlay (default:
    facts/overlay/) curates takes the overlay's `effects` (placed before its `unmodelled`, `source`
    and `note`).  One definition per card: an entry that gives effects of its own besides the
    overlay's is InvalidInput naming it."""
    overlay = load_overlay() if overlay is None else overlay
    db = CardDB.from_file(facts_dir() / RULINGS_FILE)
    out, problems = [], []
    for name in db:
        card, curated = db[name], overlay.get(name) or {}
        if "effects" in curated:
            if "effects" in card:
                problems.append(Problem(f"{RULINGS_FILE}: {name}.effects", "its effects are curated in the overlay "
                                        "(facts/overlay/) too: give them in one place"))
            card = _with_effects(card, curated["effects"])
        out.append(card)
    if problems:
        raise InvalidInput(problems)
    return out


def _with_effects(card: dict, effects: list[dict]) -> dict:
    """The card with these effects, placed where facts/cards.yaml writes `effects`."""
    out: dict[str, Any] = {}
    for key, value in card.items():
        if key in ("unmodelled", "source", "note") and "effects" not in out:
            out["effects"] = [dict(e) for e in effects]
        out[key] = value
    out.setdefault("effects", [dict(e) for e in effects])
    return out


POOL_FILE = "goat/cards.jsonl"


class CardMap(MutableMapping):
    """name -> card definition; the cards of a shipped pool stay JSON text until asked for."""

    def __init__(self) -> None:
        self._cards: dict[str, dict] = {}
        self._raw: dict[str, str] = {}

    def add_raw(self, names: list[str], lines: list[str]) -> None:
        """Cards as JSON text (not yet checked or parsed), under their names; they do not
        replace cards already here."""
        for name, line in zip(names, lines):
            if name not in self._cards:
                self._raw[name] = line

    def __getitem__(self, name: str) -> dict:
        card = self._cards.get(name)
        if card is None:
            card = self._cards[name] = json.loads(self._raw.pop(name))
        return card

    def get(self, name: str, default: Any = None) -> Any:
        card = self._cards.get(name)
        if card is not None:
            return card
        return self[name] if name in self._raw else default

    def __setitem__(self, name: str, card: dict) -> None:
        self._raw.pop(name, None)
        self._cards[name] = card

    def __delitem__(self, name: str) -> None:
        if self._raw.pop(name, None) is None:
            del self._cards[name]

    def __contains__(self, name: object) -> bool:
        return name in self._cards or name in self._raw

    def __iter__(self) -> Iterator[str]:
        return iter([*self._cards, *self._raw])

    def __len__(self) -> int:
        return len(self._cards) + len(self._raw)


def read_pool(path: Path) -> tuple[list[str], list[str]]:
    """A shipped pool file: its first line is {"names": [...], ...}, then one card's JSON per
    line, in the order of the names."""
    try:
        lines = path.read_text(encoding="utf-8").split("\n")
        names = json.loads(lines[0])["names"]
    except (OSError, ValueError, KeyError, TypeError, IndexError, UnicodeDecodeError) as e:
        raise InvalidInput(Problem(str(path), f"cannot read the card pool: {e}")) from None
    cards = lines[1:1 + len(names)]
    if len(cards) != len(names):
        raise InvalidInput(Problem(str(path), f"the card pool names {len(names)} cards but holds {len(cards)}"))
    return names, cards


class CardDB:
    """Card definitions by exact name.  Later sources override earlier ones by name."""

    def __init__(self, cards: Iterable[dict] = ()):
        self.by_name: CardMap = CardMap()
        self.add(cards, "cards")

    def add(self, cards: Iterable[dict], origin: str, voc: Vocabulary | None = None) -> None:
        """Add checked cards, their effects of the kinds of `voc` (InvalidInput listing the problems of the others)."""
        problems = pool_problems(cards, origin, lambda card: self.by_name.__setitem__(card["name"], card), voc)
        if problems:
            raise InvalidInput(problems)

    def __contains__(self, name: str) -> bool:
        return name in self.by_name

    def __getitem__(self, name: str) -> dict:
        return self.by_name[name]

    def __len__(self) -> int:
        return len(self.by_name)

    def nearest(self, name: str, n: int = 3) -> list[str]:
        """The card names closest to name (for "did you mean ...?"), case aside."""
        import difflib
        cached = getattr(self, "_lower", None)
        if cached is None or cached[0] != len(self.by_name):      # names are only ever added
            lower: dict[str, str] = {}
            for known in self.by_name:
                lower.setdefault(known.lower(), known)
            cached = self._lower = (len(self.by_name), lower, list(lower))
        return [cached[1][m] for m in difflib.get_close_matches(name.lower(), cached[2], n=n, cutoff=0.6)]

    def __iter__(self) -> Iterator[str]:
        return iter(self.by_name)

    def get(self, name: str, default: Any = None) -> Any:
        return self.by_name.get(name, default)

    def update(self, other: "CardDB") -> None:
        """Take every card of `other`, over those of the same name here."""
        for name in other:
            self.by_name[name] = other[name]

    @classmethod
    def bundled(cls, pool: bool = True) -> "CardDB":
        """The bundled cards: facts/goat/cards.jsonl holds the Goat pool with the rulings' cards
        of facts/cards.yaml over it (tools/build_pool.py writes both in; tests/test_pool.py
        checks it holds rulings_cards() exactly, and the card schema).  Its cards are parsed
        when first named.  pool=False: the rulings' cards alone (rulings_cards), read and checked."""
        path = facts_dir() / POOL_FILE
        if not pool or not path.is_file():
            return cls(rulings_cards())
        db = cls()
        db.by_name.add_raw(*read_pool(path))
        return db

    @classmethod
    def from_file(cls, path: str | Path) -> "CardDB":
        path = Path(path)
        data = load_yaml(read_file(path, None, str(path)), str(path), path.name)
        if isinstance(data, dict) and "cards" in data:
            data = data["cards"]
        if not isinstance(data, list):
            raise InvalidInput(Problem(str(path), "a card file holds a list of cards"))
        db = cls()
        db.add(data, path.name)
        return db
