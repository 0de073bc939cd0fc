"""The card database: card definitions by name, each checked against the card schema."""
from __future__ import annotations

from pathlib import Path
from typing import Any, Iterable

import yaml

from .effects import entry_problems
from .errors import InvalidInput, Problem
from .paths import facts_dir
from .schema import CARD_SCHEMA, SNAPSHOT_SCHEMA, validate

_Loader = getattr(yaml, "CSafeLoader", yaml.SafeLoader)


def load_yaml(text: str) -> Any:
    return yaml.load(text, Loader=_Loader)


def card_problems(card: Any, path: str) -> list[Problem]:
    """Schema problems of one card definition (inline or from a database)."""
    problems = [Problem(p, m) for p, m in validate(card, CARD_SCHEMA, SNAPSHOT_SCHEMA, path)]
    if isinstance(card, dict) and isinstance(card.get("effects"), list):
        for i, entry in enumerate(card["effects"]):
            problems += [Problem(p, m) for p, m in entry_problems(entry, f"{path}.effects[{i}]")
                         if Problem(p, m) not in problems]
    return problems


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

    @classmethod
    def bundled(cls) -> "CardDB":
        return cls.from_file(facts_dir() / "cards.yaml")

    @classmethod
    def from_file(cls, path: str | Path) -> "CardDB":
        path = Path(path)
        try:
            data = load_yaml(path.read_text(encoding="utf-8"))
        except (OSError, yaml.YAMLError, UnicodeDecodeError) as e:
            raise InvalidInput(Problem(str(path), f"cannot read card file: {e}")) from None
        if isinstance(data, dict) and "cards" in data:
            data = data["cards"]
        if not isinstance(data, list):
            raise InvalidInput(Problem(str(path), "a card file holds a list of cards"))
        db = cls()
        db.add(data, path.name)
        return db
