"""The card database: card definitions by name, each checked against the card schema."""
from __future__ import annotations

from pathlib import Path
from typing import Any, Iterable

from .effects import entry_problems
from .errors import InvalidInput, Problem
from .limits import parse_yaml, read_file
from .paths import facts_dir
from .schema import CARD_SCHEMA, SNAPSHOT_SCHEMA, validate


def load_yaml(text: str, origin: str = "YAML", base: str = "") -> Any:
    """YAML text -> a value (a key given twice is InvalidInput, with its field path below base)."""
    return parse_yaml(text, origin, None, base)


def card_problems(card: Any, path: str, partial: bool = False) -> list[Problem]:
    """Problems of one card definition, inline in a snapshot or in a card pool: the card
    schema, its effect entries, and what the schema's JSON Schema subset cannot say
    (card_rule_problems; not for a partial card, such as the overlay's properties)."""
    problems = [Problem(p, m) for p, m in validate(card, CARD_SCHEMA, SNAPSHOT_SCHEMA, path)]
    if isinstance(card, dict) and isinstance(card.get("effects"), list):
        for i, entry in enumerate(card["effects"]):
            problems += [Problem(p, m) for p, m in entry_problems(entry, f"{path}.effects[{i}]")
                         if Problem(p, m) not in problems]
    if not problems and not partial:
        problems = card_rule_problems(card, path)
    return problems


def card_rule_problems(card: dict, path: str) -> list[Problem]:
    """A monster card needs a Level: the Tribute count and the Summon rules read it."""
    if card.get("kind") == "monster" and "level" not in card:
        return [Problem(f"{path}.level", "is required for a monster card")]
    return []


class CardDB:
    """Card definitions by exact name.  Later sources override earlier ones by name."""

    def __init__(self, cards: Iterable[dict] = ()):
        self.by_name: dict[str, dict] = {}
        self.add(cards, "cards")

    def add(self, cards: Iterable[dict], origin: str) -> None:
        problems: list[Problem] = []
        for i, card in enumerate(cards):
            found = card_problems(card, f"{origin}[{i}]")
            if found:
                problems += found
                continue
            self.by_name[card["name"]] = card
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
        lower: dict[str, str] = {}
        for known in self.by_name:
            lower.setdefault(known.lower(), known)
        return [lower[m] for m in difflib.get_close_matches(name.lower(), list(lower), n=n, cutoff=0.6)]

    @classmethod
    def bundled(cls) -> "CardDB":
        return cls.from_file(facts_dir() / "cards.yaml")

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
