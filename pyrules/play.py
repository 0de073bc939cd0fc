"""A whole duel played by pyrules alone (`pyrules play`): at each step `legal` lists what the
player who may act is permitted, a seeded random choice picks one, and `next` gives the snapshot
after it.  Nothing here decides what is legal or what an action does: the rules do, through
`Engine.legal` and `Engine.next`.  Python only deals the opening hands (the setup before the
first turn) and keeps the log.  It is the demonstration of the whole turn and a test of it: every
successor is a valid snapshot (Engine.next validates it) and every listed action has one."""
from __future__ import annotations

import random
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import yaml

from .actions import Action
from .errors import InvalidInput, Problem

# Source: rulebook (setting up a duel): each player shuffles the Deck and draws 5 cards; the first
# player is A.  Setup, not a decision of the game's rules: the snapshot after it is turn 1's.
OPENING_HAND = 5
_COUNTED = re.compile(r"^(?P<n>[1-9][0-9]?)\s*x?\s+(?P<name>.+)$")


class Deck:
    """A deck as read from a file: the Main Deck's card names and the Extra Deck's."""

    def __init__(self, main: list[str], extra: list[str], origin: str) -> None:
        self.main, self.extra, self.origin = main, extra, origin


def read_deck(path: str | Path, known: Any) -> Deck:
    """A deck file: YAML (a list of names, or a mapping with `main` and `extra` lists) or text (one
    name a line, `3 Battle Ox` or `3x Battle Ox` for copies, `#` comments, a line `extra:` before
    the Extra Deck).  `known` answers `name in known` (the engine's card database).  An unknown
    name or an unreadable file is invalid input naming the file and the line or entry."""
    p = Path(path)
    try:
        text = p.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as e:
        raise InvalidInput(Problem(str(path), f"cannot read the deck file ({e.__class__.__name__})")) from None
    entries = _yaml_entries(text, str(path)) if p.suffix.lower() in (".yaml", ".yml", ".json") \
        else _text_entries(text, str(path))
    problems = [Problem(where, f"no card named {name!r}" + _nearest(known, name))
                for where, name in dict.fromkeys((w, n) for w, n, _ in entries) if name not in known]
    if problems:
        raise InvalidInput(problems)
    main = [name for _, name, extra in entries if not extra]
    if not main:
        raise InvalidInput(Problem(str(path), "the deck has no Main Deck cards"))
    return Deck(main, [name for _, name, extra in entries if extra], str(path))


def _nearest(known: Any, name: str) -> str:
    near = known.nearest(name) if hasattr(known, "nearest") else []
    return f" (did you mean {', '.join(repr(n) for n in near)}?)" if near else ""


def _text_entries(text: str, origin: str) -> list[tuple[str, str, bool]]:
    out: list[tuple[str, str, bool]] = []
    extra = False
    for no, raw in enumerate(text.splitlines(), 1):
        line = raw.split("#", 1)[0].strip()
        if not line:
            continue
        if line.lower().rstrip(":") in ("extra", "extra deck"):
            extra = True
            continue
        m = _COUNTED.match(line)
        n, name = (int(m["n"]), m["name"].strip()) if m else (1, line)
        out += [(f"{origin}:{no}", name, extra)] * n
    return out


def _yaml_entries(text: str, origin: str) -> list[tuple[str, str, bool]]:
    try:
        data = yaml.safe_load(text)
    except yaml.YAMLError as e:
        raise InvalidInput(Problem(origin, f"not YAML: {str(e).splitlines()[0]}")) from None
    parts = {"main": data, "extra": []} if isinstance(data, list) else data
    if not isinstance(parts, dict) or set(parts) - {"main", "extra"} or not isinstance(parts.get("main"), list):
        raise InvalidInput(Problem(origin, "a deck is a list of card names, or a mapping with `main` and `extra` lists"))
    out: list[tuple[str, str, bool]] = []
    for key in ("main", "extra"):
        items = parts.get(key) or []
        if not isinstance(items, list):
            raise InvalidInput(Problem(f"{origin}: {key}", "must be a list of card names"))
        for i, name in enumerate(items):
            if not isinstance(name, str):
                raise InvalidInput(Problem(f"{origin}: {key}[{i}]", "must be a card name (a string)"))
            out.append((f"{origin}: {key}[{i}]", name, key == "extra"))
    return out


def opening(deck_a: Deck, deck_b: Deck, rng: random.Random) -> dict:
    """The snapshot at the start of turn 1: each Deck shuffled, its top 5 cards in the hand, the
    rest listed top first, A's Draw Phase."""
    players = {}
    for side, deck in (("A", deck_a), ("B", deck_b)):
        cards = list(deck.main)
        rng.shuffle(cards)
        hand = [{"id": f"{side}.hand.{k}", "card": name} for k, name in enumerate(cards[:OPENING_HAND], 1)]
        players[side] = {"hand": hand, "deck": cards[OPENING_HAND:],
                         **({"extra_deck": list(deck.extra)} if deck.extra else {})}
    return {"snapshot": 1, "turn": 1, "turn_player": "A", "phase": "draw", "players": players}


class Step:
    """One step of a duel: the snapshot, and the action taken in it (None at the end)."""

    def __init__(self, number: int, snapshot: dict, action: Action | None, choices: int) -> None:
        self.number, self.snapshot, self.action, self.choices = number, snapshot, action, choices


def duel(engine: Any, deck_a: Deck, deck_b: Deck, seed: int, max_actions: int = 2000,
         readings: dict[str, str] | None = None) -> Iterator[Step]:
    """The steps of a duel played by seeded random choices from `legal`, each followed by `next`.
    It ends when nothing is permitted (a winner, or a dead end the log shows) or after
    `max_actions` actions."""
    rng = random.Random(seed)
    snap = opening(deck_a, deck_b, rng)
    for number in range(1, max_actions + 1):
        permitted = list(engine.legal(snap, readings).permitted)
        if not permitted:
            yield Step(number, snap, None, 0)
            return
        action = rng.choice(permitted)
        yield Step(number, snap, action, len(permitted))
        after = engine.next(snap, action, readings)
        if after.snapshot is None:      # legal listed it, so next permits it: a defect to report
            raise RuntimeError(f"next forbids {action.term()}, which legal listed: {after.verdict}")
        snap = after.snapshot
    yield Step(max_actions + 1, snap, None, -1)


def log_line(step: Step) -> str:
    """One line of the readable log: turn, player, phase, Life Points, the action and its card."""
    s = step.snapshot
    players = s.get("players") or {}
    life = [(players.get(p) or {}).get("life", 8000) for p in ("A", "B")]
    head = (f"{step.number:>5}  turn {s.get('turn', 1):>2} {s.get('turn_player', 'A')} "
            f"{s.get('phase', 'main1'):<7} LP {life[0]}/{life[1]}")
    if step.action is None:
        winner = s.get("winner")
        end = (f"{winner} wins" if winner else "nothing is permitted" if step.choices == 0
               else "stopped: the action limit was reached")
        return f"{head}  -- {end}"
    acting = s.get("priority") or s.get("turn_player", "A")
    card = _card_name(s, step.action.card) if step.action.card else ""
    return f"{head}  {acting}: {step.action.term()}{f'  ({card})' if card else ''}  [1 of {step.choices}]"


def _card_name(snapshot: dict, ident: str) -> str:
    for side in (snapshot.get("players") or {}).values():
        for items in side.values():
            for item in items if isinstance(items, list) else []:
                if isinstance(item, dict) and item.get("id") == ident:
                    return str(item.get("card", ""))
    return ""
