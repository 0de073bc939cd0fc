"""Answer atoms that are a snapshot's input facts, read back into a snapshot (a dict in the
contract's format): the one decoder of generated snapshots (`diff`, `verify`: the search's
answers, rules/search/generator.lp) and of successors (`next`: the `next(F)` atoms of
rules/next/*.lp, whose F are the facts pyrules/encode.py writes).

It decides nothing about the game: it maps card, player and constant symbols back to ids,
names and words, and puts each fact where the snapshot keeps it.
"""
from __future__ import annotations

import re
from typing import Any

from clingo import Symbol, SymbolType

from .terms import ZONE_KEYS

PLAYER_KEYS = {1: "A", 2: "B"}           # the search's players (a successor keeps its snapshot's)
DEFAULT_LIFE, DEFAULT_DECK = 8000, 30     # the snapshot's defaults (CONTRACT 1): left out when met
_SLUG = re.compile(r"[^a-z0-9]+")

# event key, what its atom's value is (event_KEY(K, Value))
EVENT_KEYS = (("card", "card"), ("player", "player"), ("how", "const"), ("target", "target"),
              ("method", "const"), ("to", "player"), ("phase", "const"), ("by", "const"),
              ("amount", "number"), ("effect", "number"))
EVENT_FLAGS = ("negated", "replay", "summoning", "gone")


def slug(name: str) -> str:
    return _SLUG.sub("_", name.lower()).strip("_") or "card"


class AnswerReader:
    """The input facts of one snapshot (clingo symbols), read back into the parts of a snapshot.

    card_of: card number -> the card as an entry writes it (a database name, or an inline card);
    card_id: card number -> id (None: readable ids made from the names, in zone order);
    player_key: player number -> the snapshot's player key; name_of: a card name's number -> the name."""

    def __init__(self, symbols: list[Symbol], card_of: dict[int, Any], card_id: dict[int, str] | None = None,
                 player_key: dict[int, str] | None = None, name_of: Any = str) -> None:
        self.by: dict[str, list[tuple]] = {}
        for s in symbols:
            self.by.setdefault(s.name, []).append(tuple(s.arguments))
        self.card_of = card_of
        self.name_of = name_of                 # a card name number (deck_card/3) -> the name
        self.player_key = dict(PLAYER_KEYS) if player_key is None else player_key
        self.where = {a[0].number: (a[1].number, a[2].name) for a in self.all("zone")}
        self.slot = {a[0].number: a[1].number for a in self.all("slot")}
        self.card_id = self._ids() if card_id is None else card_id

    @classmethod
    def generated(cls, symbols: list[Symbol], pool: tuple[str, ...]) -> "AnswerReader":
        """A search answer: its cards are gen_card(I, X) atoms, X numbering the pool from 1."""
        card_of = {s.arguments[0].number: pool[s.arguments[1].number - 1] for s in symbols if s.name == "gen_card"}
        return cls(symbols, card_of)

    def all(self, name: str) -> list[tuple]:
        return self.by.get(name, [])

    def one(self, name: str) -> tuple:
        return self.by.get(name, [()])[0]

    def values(self, name: str) -> dict[int, Any]:
        """card number -> value of a name(I, Value) atom."""
        return {a[0].number: a[1] for a in self.all(name)}

    def player(self, value: Symbol) -> str:
        return self.player_key[value.number]

    def _name(self, i: int) -> str:
        card = self.card_of[i]
        return card["name"] if isinstance(card, dict) else card

    def _ids(self) -> dict[int, str]:
        """Readable card ids from the card names, unique, in zone order."""
        zones = list(ZONE_KEYS)
        card_id: dict[int, str] = {}
        used: set[str] = set()
        for i in sorted(self.card_of, key=lambda i: (self.where[i][0], zones.index(self.where[i][1]), self.slot[i])):
            base = slug(self._name(i))
            ident, n = base, 2
            while ident in used:
                ident, n = f"{base}_{n}", n + 1
            used.add(ident)
            card_id[i] = ident
        return card_id

    # ---- the parts of a snapshot ------------------------------------------------------
    def snapshot(self) -> dict[str, Any]:
        """The snapshot's turn, phase, step, who acts, players, this_turn and attack (not its
        applied effects, which each caller words: search.Searcher.snapshot_of, successor.py)."""
        snap: dict[str, Any] = {"snapshot": 1, "turn": self.one("turn")[0].number,
                                "turn_player": self.player(self.one("turn_player")[0]) if "turn_player" in self.by
                                else "A", "phase": self.one("phase")[0].name}
        if "battle_step" in self.by:
            snap["battle_step"] = self.one("battle_step")[0].name
        snap.update(self.window())
        snap["players"] = self.players()
        events = [self.event(k, kind) for k, kind in sorted((a[0].number, a[1].name) for a in self.all("event"))]
        if events:
            snap["this_turn"] = events
        if "attack_attacker" in self.by:
            snap["attack"] = self.attack()
        if "moving_to" in self.by:
            snap["moving_to"] = self.one("moving_to")[0].name
        if "winner" in self.by:
            snap["winner"] = self.player(self.one("winner")[0])
        return snap

    def players(self) -> dict[str, dict]:
        players: dict[str, dict] = {k: {} for k in self.player_key.values()}
        for a in self.all("life"):
            if a[1].number != DEFAULT_LIFE:
                players[self.player(a[0])]["life"] = a[1].number
        for a in self.all("deck_size"):
            if a[1].number != DEFAULT_DECK:
                players[self.player(a[0])]["deck"] = a[1].number
        listed: dict[str, list[tuple[int, int]]] = {}
        for a in self.all("deck_card"):                     # a listed Deck: its card names, the top first
            listed.setdefault(self.player(a[0]), []).append((a[1].number, a[2].number))
        for p, cards in listed.items():
            players[p]["deck"] = [self.name_of(n) for _, n in sorted(cards)]
        for i in sorted(self.card_of, key=lambda i: (self.slot.get(i, 0), i)):
            if i not in self.where:
                continue
            p, zone = self.where[i]
            side = players[self.player_key[p]]
            if zone == "field_zone":
                side["field_spell"] = self.entry(i, p)                  # one entry, not a list
            else:
                side.setdefault(ZONE_KEYS[zone], []).append(self.entry(i, p))
        return players

    def entry(self, i: int, p: int) -> dict[str, Any]:
        """Card i's entry in its zone (p: the player whose zone it is)."""
        entry: dict[str, Any] = {"id": self.card_id[i], "card": self.card_of[i]}
        for key in ("position", "face"):
            got = self.values(key).get(i)
            if got is not None:
                entry[key] = got.name
        for key in ("atk", "def", "level"):
            got = self.values(f"{key}_now").get(i)
            if got is not None:
                entry[key] = got.number
        equipped = self.values("equipped_to").get(i)
        if equipped is not None:
            entry["equipped_to"] = self.card_id[equipped.number]
        for key in ("equipped_turn", "set_turn"):
            got = self.values(key).get(i)
            if got is not None:
                entry[key] = got.number
        entry.update(self._counters(i))
        owner = self.values("owner").get(i)
        if owner is not None and owner.number != p:
            entry["owner"] = self.player(owner)
        if any(a[0].number == i for a in self.all("properly_summoned")):
            entry["properly_summoned"] = True
        return entry

    def _counters(self, i: int) -> dict[str, Any]:
        """The counters key of card i's entry: {"counters": {kind: count}}, or nothing when it holds none."""
        held = {a[1].name: a[2].number for a in self.all("counters") if a[0].number == i}
        return {"counters": held} if held else {}

    def _value(self, what: str, value: Symbol) -> Any:
        if what == "card":
            return self.card_id[value.number]
        if what == "player":
            return self.player(value)
        if what == "target":
            return "direct" if value.type == SymbolType.Function else self.card_id[value.number]
        if what == "number":
            return value.number
        return value.name

    def event(self, k: int, kind: str) -> dict[str, Any]:
        ev: dict[str, Any] = {"event": kind}
        for key, what in EVENT_KEYS:
            if key == "effect" and kind != "activate":
                continue
            ev.update({key: self._value(what, a[1]) for a in self.all(f"event_{key}") if a[0].number == k})
        tributes = sorted(self.card_id[a[1].number] for a in self.all("event_tribute") if a[0].number == k)
        if tributes:
            ev["tributes"] = tributes
        ev.update({flag: True for flag in EVENT_FLAGS if any(a[0].number == k for a in self.all(f"event_{flag}"))})
        return ev

    def window(self) -> dict[str, Any]:
        """The snapshot's keys of CONTRACT 8: the chain's links (a bare id where the card's controller
        activated its first effect), priority, window and passed, where they depart from the defaults."""
        out: dict[str, Any] = {}
        where = {a[0].number: a[1].number for a in self.all("zone")}
        links: list[Any] = []
        for _, card, player, effect in sorted((a[0].number, a[1].number, a[2].number, a[3].number)
                                              for a in self.all("chain_link")):
            ident = self.card_id[card]
            links.append(ident if where.get(card) == player and effect == 1 else
                         {"card": ident, "player": self.player_key[player], **({"effect": effect} if effect != 1 else {})})
        if links:
            out["chain"] = links
        if self.all("priority"):
            out["priority"] = self.player(self.one("priority")[0])
        if self.all("window"):
            out["window"] = "event"
        if "passed" in self.by:
            out["passed"] = True
        return out

    def attack(self) -> dict[str, Any]:
        return {"attacker": self.card_id[self.one("attack_attacker")[0].number],
                "target": self._value("target", self.one("attack_target")[0]),
                "targets_at_declaration": sorted(self.card_id[a[0].number] for a in self.all("target_at_declaration"))}

    def applied(self, choices: dict[Symbol, tuple[dict, str]]) -> list[dict]:
        """The snapshot's applied effects (choices: effect term -> (entry, about)), on their cards or player."""
        to_player = {a[0].number: self.player(a[1]) for a in self.all("applied_player")}
        out = []
        for k, term in sorted((a[0].number, a[1]) for a in self.all("applied")):
            cards = sorted(self.card_id[a[1].number] for a in self.all("applied_card") if a[0].number == k)
            out.append({**choices[term][0], **({"cards": cards} if cards else {}),
                        **({"player": to_player[k]} if k in to_player else {})})
        return out
