"""Snapshot text or dict -> a validated, normalised game state (format checks only).

The format is checked here: keys, types, card names, ids and the references between
them.  The game's physical limits (zone sizes, where tokens may be, face-down Attack
Position, ...) are checked once, in ASP (rules/validity.lp), by the engine.
"""
from __future__ import annotations

import os
from typing import Any

from .cards import CardDB, card_rule_problems
from .effects import Vocabulary, entry_problems, vocabulary
from .errors import InvalidInput, Problem
from .limits import Limits, check_value, parse_yaml, read_file
from .schema import SNAPSHOT_SCHEMA, SUMMON_EVENTS, retired_key_message, validate

# zone key in the snapshot -> zone name in the rules
ZONES = {"hand": "hand", "extra_deck": "extra_deck", "monsters": "monster_zone",
         "spells_traps": "spell_trap_zone", "field_spell": "field_zone",
         "graveyard": "graveyard", "banished": "banished"}
BARE_NAME_ZONES = ("hand", "extra_deck", "graveyard", "banished")
RESERVED_IDS = {"direct"}
SUGGESTIONS = 10           # unknown card names that get "did you mean ...?"


class Entry:
    """One card in one zone of the snapshot.  (Plain classes, not dataclasses: Entry and Game
    are made for every snapshot, and a dataclass costs about half a millisecond to define
    when the module is imported, which every command does.)"""
    __slots__ = ("id", "card", "player", "zone", "slot", "path", "owner", "position", "face", "equipped_to",
                 "equipped_turn", "set_turn", "properly_summoned", "current", "counters")

    def __init__(self, id: str, card: dict, player: str, zone: str, slot: int, path: str, owner: str,
                 position: str | None = None, face: str | None = None, equipped_to: str | None = None,
                 equipped_turn: int | None = None, properly_summoned: bool = False,
                 current: tuple[tuple[str, int], ...] = (), set_turn: int | None = None,
                 counters: tuple[tuple[str, int], ...] = ()) -> None:
        self.id = id
        self.card = card
        self.player = player              # whose zone (the controller, for the field)
        self.zone = zone                  # zone name in the rules (monster_zone, hand, ...)
        self.slot = slot                  # place in its zone list, from 0
        self.path = path                  # field path in the snapshot
        self.owner = owner
        self.position = position
        self.face = face
        self.equipped_to = equipped_to
        self.equipped_turn = equipped_turn          # the duel turn it was equipped on (with equipped_to)
        self.set_turn = set_turn                    # the duel turn a face-down Spell or Trap was Set on
        self.properly_summoned = properly_summoned
        self.current = current            # (atk|def|level, value) given for a monster on the field
        self.counters = counters          # (kind, how many) of the counters on a card on the field

    def __repr__(self) -> str:
        return f"Entry({self.id!r}, {self.card.get('name')!r}, {self.player}, {self.zone})"


class Game:
    """A validated snapshot."""

    def __init__(self, raw: dict, turn: int, turn_player: str, phase: str, battle_step: str | None,
                 battle_step_given: bool, chain: list[str], readings: dict[str, str], players: list[str],
                 life: dict[str, int], deck: dict[str, int], entries: list[Entry], events: list[dict],
                 attack: dict | None, by_id: dict[str, Entry] | None = None, effects: list[dict] | None = None,
                 gone_ids: list[str] | None = None, problems: list[Problem] | None = None,
                 links: list[tuple[str, str, int]] | None = None, priority: str | None = None,
                 window: str = "open", passed: bool = False, moving_to: str | None = None,
                 winner: str | None = None, deck_cards: dict[str, list[dict]] | None = None) -> None:
        self.raw = raw
        self.turn = turn
        self.turn_player = turn_player
        self.phase = phase
        self.battle_step = battle_step
        self.battle_step_given = battle_step_given
        self.chain = chain
        self.readings = readings
        self.players = players
        self.life = life
        self.deck = deck
        self.entries = entries
        self.events = events
        self.attack = attack
        self.by_id = {} if by_id is None else by_id
        self.effects = [] if effects is None else effects          # applied effects (CONTRACT 6), checked
        self.gone_ids = [] if gone_ids is None else gone_ids
        self.problems = [] if problems is None else problems      # only with collect=True: see parse_snapshot
        # CONTRACT 8: the chain's links (card id, player, effect), link 1 first; who may act; the window
        self.links = [(c, entry.player if (entry := self.by_id.get(c)) else turn_player, 1) for c in chain] \
            if links is None else links
        self.priority = turn_player if priority is None else priority
        self.window = window
        self.passed = passed
        self.moving_to = moving_to                # CONTRACT 10: the phase the turn player declared a move to
        self.winner = winner                      # CONTRACT 11: the player who has won
        # CONTRACT 10: a Deck given as a list: player -> its cards (definitions), the top card first
        self.deck_cards = {} if deck_cards is None else deck_cards


def read_text(text: str, origin: str = "snapshot", limits: Limits | None = None) -> Any:
    """YAML or JSON text -> a value: size capped, keys given twice refused, the limits checked."""
    return parse_yaml(text, origin, limits or Limits.from_env())


def read_source(source: Any, limits: Limits | None = None) -> Any:
    """A snapshot from a dict, a path, '-' (standard input) or YAML/JSON text, within the limits."""
    limits = limits or Limits.from_env()
    if isinstance(source, dict):
        check_value(source, limits)    # read only: normalisation builds new objects and never mutates it
        return source
    if isinstance(source, os.PathLike):   # pathlib.Path or any other path object
        name = os.fspath(source)
        name = name if isinstance(name, str) else os.fsdecode(name)
        return read_text(read_file(name, limits, name), name, limits)
    if isinstance(source, str):
        return read_text(source, "snapshot", limits)
    raise InvalidInput(Problem("snapshot", f"expected a mapping, a path or text, got {type(source).__name__}"))


def _file_name_hint(source: Any) -> str:
    """A hint when a one-line str that is no mapping was given, such as "snap.yaml": a str is
    always read as YAML/JSON text, never as a file name (that would change what a str means)."""
    if not isinstance(source, str) or "\n" in source.strip() or not source.strip():
        return ""
    return (f"; the text {_clip(source.strip())!r} was read as YAML/JSON text: a str is always the snapshot's "
            "text, so pass a file as a pathlib.Path (Path('snap.yaml'))")


def _clip(text: str, width: int = 60) -> str:
    return text if len(text) <= width else text[:width - 3] + "..."


class OptionReadings(dict):
    """Readings chosen on the command line (`--reading NAME=VALUE`): their problems name the
    option (`--reading NAME`); those of a plain mapping (Python's `readings=` argument) name
    the argument (`readings['NAME']`)."""


def reading_word(value: Any) -> Any:
    """A reading's value as the catalogue words it: a YAML or Python boolean is true/false."""
    return "true" if value is True else "false" if value is False else value


def parse_snapshot(source: Any, cards: CardDB, known_readings: dict[str, list[str]],
                   reading_overrides: dict[str, str] | None = None, collect: bool = False,
                   limits: Limits | None = None, voc: Vocabulary | None = None) -> Game:
    """Validate the format of a snapshot and normalise it (its effect entries against `voc`, the
    rules folder's effect vocabulary: default the shipped one).  Raises InvalidInput.

    With collect=True, a snapshot whose types are right but whose references are not
    (unknown card names, duplicate or dangling ids, ...) is returned as a Game without
    the broken items and with `problems` set, so that the engine can add the physical
    limits' problems (rules/validity.lp) and report every problem at once."""
    if reading_overrides is not None and not isinstance(reading_overrides, dict):
        raise InvalidInput(Problem("readings", "expected a mapping of reading names to values, such as "
                                               f"{{'first_turn_draw': True}}; got {type(reading_overrides).__name__}"))
    raw = read_source(source, limits)
    if not isinstance(raw, dict):
        raise InvalidInput(Problem("snapshot", "a snapshot is a mapping with at least the key 'snapshot'"
                                               + _file_name_hint(source)))
    problems = [Problem(p, retired_key_message(p, m)) for p, m in validate(raw, SNAPSHOT_SCHEMA, SNAPSHOT_SCHEMA)]
    normaliser = _Normaliser(raw, cards, known_readings, reading_overrides or {}, voc or vocabulary())
    if problems:
        # list the reference problems (card names, ids) beside the type problems when the
        # rest of the snapshot is readable enough to look for them
        try:
            normaliser.game()
        except InvalidInput as e:
            problems += [p for p in e.problems if p not in problems]
        except (AttributeError, LookupError, TypeError, ValueError):
            pass
        raise InvalidInput(problems)
    return normaliser.game(collect)


class _Normaliser:
    def __init__(self, raw, cards, known_readings, overrides, voc: Vocabulary):
        self.raw, self.cards, self.known_readings, self.overrides = raw, cards, known_readings, overrides
        self.voc = voc
        self.problems: list[Problem] = []
        self.suggested = 0

    def bad(self, path: str, message: str) -> None:
        self.problems.append(Problem(path, message))

    def card(self, ref: Any, path: str) -> dict:
        if isinstance(ref, dict):
            self.problems += card_rule_problems(ref, path)
            if isinstance(ref.get("effects"), list):
                before = len(self.problems)
                for i, entry in enumerate(ref["effects"]):
                    for p, m in entry_problems(entry, f"{path}.effects[{i}]", voc=self.voc):
                        self.bad(p, m)
                if len(self.problems) > before:       # reported; the rest of the card is still checked
                    return {k: v for k, v in ref.items() if k != "effects"}
            return ref
        if ref not in self.cards:
            # nearest names for the first few unknown names only: each costs a pass over the pool
            self.suggested += 1
            near = self.cards.nearest(ref) if isinstance(ref, str) and self.suggested <= SUGGESTIONS else []
            self.bad(path, f"unknown card name {ref!r}" + (f" (did you mean {' or '.join(map(repr, near))}?)"
                                                          if near else ""))
            return {"name": ref, "kind": "monster"}
        return self.cards[ref]

    def game(self, collect: bool = False) -> Game:
        """The Game the snapshot describes, step by step; with collect, a Game that keeps the
        problems found when they still leave a game to encode (else InvalidInput)."""
        raw = self.raw
        players_raw = raw.get("players") or {}
        players, turn_player = self._players(players_raw)
        fatal = bool(self.problems)       # without two players and a turn player there is no game to encode
        phase = raw.get("phase", "main1")
        step = raw.get("battle_step", "battle" if phase == "battle" else None)
        self.by_id: dict[str, Entry] = {}
        entries = self._unique(self._entries(players, players_raw))
        for e in entries:
            if e.equipped_to is not None and not self.ref(e.equipped_to, f"{e.path}.equipped_to"):
                e.equipped_to = None
            self._equipped_turn(e)
        links = self._links(players)
        chain = [c for c, _, _ in links]
        priority = raw.get("priority", turn_player)
        if players and priority not in players:
            self.bad("priority", f"{priority!r} is not one of the players ({', '.join(players)})")
            priority = turn_player
        winner = raw.get("winner")
        if players and winner is not None and winner not in players:
            self.bad("winner", f"{winner!r} is not one of the players ({', '.join(players)})")
            winner = None
        deck, deck_cards = self._decks(players, players_raw)
        events, gone_ids = self._events(players)
        effects = [eff for n, eff in enumerate(_list(raw.get("effects"))) if self._effect(eff, f"effects[{n}]", players)]
        attack = self._attack(raw.get("attack"))
        readings = self._readings()
        if self.problems and (fatal or not collect):
            raise InvalidInput(self.problems)
        return Game(problems=list(self.problems), raw=raw, turn=raw.get("turn", 3), turn_player=turn_player, phase=phase,
                    battle_step=step, battle_step_given="battle_step" in raw, chain=chain, readings=readings,
                    players=players,
                    life={p: (players_raw[p] or {}).get("life", 8000) for p in players},
                    deck=deck, deck_cards=deck_cards, moving_to=raw.get("moving_to"), winner=winner,
                    entries=entries, events=events, attack=attack, by_id=self.by_id, gone_ids=gone_ids,
                    effects=effects, links=links, priority=priority, window=raw.get("window", "open"),
                    passed=raw.get("passed", False) is True)

    def _decks(self, players: list[str], players_raw: dict) -> tuple[dict[str, int], dict[str, list[dict]]]:
        """Each player's Deck: how many cards, and, when the snapshot lists them (CONTRACT 10), the cards
        by name, the top card first (an unknown name is a problem at its field path)."""
        count: dict[str, int] = {}
        cards: dict[str, list[dict]] = {}
        for p in players:
            deck = (players_raw[p] or {}).get("deck", 30)
            if isinstance(deck, list):
                cards[p] = [self.card(name, f"players.{p}.deck[{n}]") for n, name in enumerate(deck)]
                count[p] = len(deck)
            else:
                count[p] = deck
        return count, cards

    def _links(self, players: list[str]) -> list[tuple[str, str, int]]:
        """The chain's links (card id, player, effect) that name a card of the snapshot: a bare id
        (v1) is the card's controller's effect 1."""
        links = []
        for n, link in enumerate(_list(self.raw.get("chain"))):
            path = f"chain[{n}]"
            if isinstance(link, str):
                if self.ref(link, path):
                    links.append((link, self.by_id[link].player, 1))
                continue
            if not isinstance(link, dict) or not self.ref(link["card"], f"{path}.card"):
                continue
            player = link.get("player", self.by_id[link["card"]].player)
            if player not in players:
                self.bad(f"{path}.player", f"{player!r} is not one of the players ({', '.join(players)})")
                continue
            links.append((link["card"], player, link.get("effect", 1)))
        return links

    def _equipped_turn(self, e: Entry) -> None:
        """An equipped_turn belongs to an equipped card (that it is not after the snapshot's
        turn is a physical limit: rules/validity.lp)."""
        if e.equipped_turn is not None and e.equipped_to is None:
            self.bad(f"{e.path}.equipped_turn", "equipped_turn needs equipped_to (the monster the card is equipped to)")
            e.equipped_turn = None

    def _players(self, players_raw: dict) -> tuple[list[str], str]:
        """The two player keys and the turn player."""
        players = list(players_raw)
        if len(players) != 2:
            self.bad("players", f"exactly two players are needed, got {len(players)}")
        turn_player = self.raw.get("turn_player", "A" if "A" in players or not players else players[0])
        if players and turn_player not in players:
            self.bad("turn_player", f"{turn_player!r} is not one of the players ({', '.join(players)})")
        return players, turn_player

    def _entries(self, players: list[str], players_raw: dict) -> list[Entry]:
        """Every card in every zone of both players, in order."""
        entries: list[Entry] = []
        for p in players:
            side = players_raw[p] or {}
            for key, zone in ZONES.items():
                items = side.get(key)
                if key == "field_spell" and items is not None:
                    items = [items]
                if isinstance(items, list):       # else the schema check has said what it should be
                    entries += [self._entry(p, key, zone, n, item, players) for n, item in enumerate(items)]
        return entries

    def _entry(self, p: str, key: str, zone: str, n: int, item: Any, players: list[str]) -> Entry:
        path = f"players.{p}.{key}" + ("" if key == "field_spell" else f"[{n}]")
        card_path = f"{path}.card"
        if isinstance(item, str):
            item = {"id": f"{p}.{key}.{n + 1}", "card": item}
            if key not in BARE_NAME_ZONES:      # (the schema refuses it: a name where an entry goes)
                card_path = path
        owner = item.get("owner", p)
        if owner not in players:
            self.bad(f"{path}.owner", f"{owner!r} is not one of the players")
            owner = p
        return Entry(
            id=item["id"], card=self.card(item["card"], card_path), player=p, zone=zone,
            slot=n, path=path, owner=owner, position=item.get("position"),
            face=item.get("face", "up") if key in ("monsters", "spells_traps", "field_spell") else None,
            equipped_to=item.get("equipped_to"), equipped_turn=item.get("equipped_turn"), properly_summoned=item.get("properly_summoned", False),
            current=tuple((k, item[k]) for k in ("atk", "def", "level") if k in item), set_turn=item.get("set_turn"),
            counters=tuple(sorted((k, n) for k, n in (item.get("counters") or {}).items() if n)))

    def _unique(self, entries: list[Entry]) -> list[Entry]:
        """The entries with a usable id (not reserved, not taken), indexed in self.by_id."""
        kept: list[Entry] = []
        for e in entries:
            if e.id in RESERVED_IDS:
                self.bad(f"{e.path}.id", f"the id {e.id!r} is reserved")
            elif e.id in self.by_id:
                self.bad(f"{e.path}.id", f"duplicate id {e.id!r} (also at {self.by_id[e.id].path})")
            else:
                self.by_id[e.id] = e
                kept.append(e)
        return kept

    def ref(self, value: str, path: str, allow_direct: bool = False, gone: bool = False) -> bool:
        """Whether an id names a card of the snapshot (or direct, or a card gone); else a problem."""
        if allow_direct and value == "direct":
            return True
        if value not in self.by_id and not gone:
            self.bad(path, f"no card with id {value!r} in the snapshot")
            return False
        return True

    def _events(self, players: list[str]) -> tuple[list[dict], list[str]]:
        """This turn's events that can be read (a broken one is left out), and the ids of the
        cards gone that they name."""
        events: list[dict] = []
        gone_ids: list[str] = []
        for n, ev in enumerate(_list(self.raw.get("this_turn"))):
            path = f"this_turn[{n}]"
            if not isinstance(ev, dict):     # the schema has named it already (expected a mapping)
                continue
            before = len(self.problems)
            ev = dict(ev)
            ids = self._event_problems(ev, path, players)
            if len(self.problems) > before:      # a broken event is left out (collect=True)
                continue
            for _, value in ids if ev.get("gone", False) else ():
                if value not in self.by_id and value != "direct" and value not in gone_ids:
                    gone_ids.append(value)
            ev["path"] = path
            events.append(ev)
        return events, gone_ids

    _EVENT_NEEDS = {"position_change": ("how", "is required for a position_change (manual or effect)"),
                    "attack": ("target", "is required for an attack (an id or direct)"),
                    "control_change": ("to", "is required for a control_change")}

    def _event_problems(self, ev: dict, path: str, players: list[str]) -> list[tuple[str, str]]:
        """The problems of one event (reported), and the (key, id) pairs it names."""
        kind = ev["event"]
        if kind not in ("draw", "enter_phase") and "card" not in ev:
            self.bad(f"{path}.card", "is required")
        need = self._EVENT_NEEDS.get(kind)
        if need and need[0] not in ev:
            self.bad(f"{path}.{need[0]}", need[1])
        for key in ("player", "to"):
            if key in ev and ev[key] not in players:
                self.bad(f"{path}.{key}", f"{ev[key]!r} is not one of the players")
        if ev.get("summoning") and kind not in SUMMON_EVENTS:
            self.bad(f"{path}.summoning", f"only a Summon event ({', '.join(SUMMON_EVENTS)}) is being performed")
        if kind == "enter_phase" and "phase" not in ev:
            self.bad(f"{path}.phase", "is required for an enter_phase (the phase entered)")
        for key in ("effect", "phase"):
            if key in ev and kind != ("activate" if key == "effect" else "enter_phase"):
                self.bad(f"{path}.{key}", f"belongs to an {'activate' if key == 'effect' else 'enter_phase'} event")
        ids = [(key, ev[key]) for key in ("card", "target") if key in ev]
        ids += [(f"tributes[{i}]", t) for i, t in enumerate(_list(ev.get("tributes")))]
        for key, value in ids:
            self.ref(value, f"{path}.{key}", allow_direct=(key == "target"), gone=ev.get("gone", False))
        return ids

    def _effect(self, eff: Any, path: str, players: list[str]) -> bool:
        """Whether an applied effect can be read (its problems reported)."""
        before = len(self.problems)
        for p, m in entry_problems(eff, path, applied=True, voc=self.voc):
            self.bad(p, m)
        if len(self.problems) > before:
            return False
        if self.voc.kinds[eff["effect"]].about == "card":
            if "player" in eff or not eff.get("cards"):
                self.bad(f"{path}.cards", f"{eff['effect']} applies to cards: list their ids in cards")
            for i, ident in enumerate(_list(eff.get("cards"))):
                if self.ref(ident, f"{path}.cards[{i}]") and self.by_id[ident].zone != "monster_zone":
                    self.bad(f"{path}.cards[{i}]", f"{ident!r} is not a monster on the field")
        elif "cards" in eff or "player" not in eff:
            self.bad(f"{path}.player", f"{eff['effect']} applies to a player: name the player")
        elif eff["player"] not in players:
            self.bad(f"{path}.player", f"{eff['player']!r} is not one of the players")
        return len(self.problems) == before

    def _attack(self, attack: Any) -> Any:
        """The attack in progress, or None when it names a card that is not there."""
        if attack is None:
            return None
        ok = [self.ref(attack["attacker"], "attack.attacker"),
              self.ref(attack["target"], "attack.target", allow_direct=True)]
        ok += [self.ref(t, f"attack.targets_at_declaration[{i}]")
               for i, t in enumerate(_list(attack["targets_at_declaration"]))]
        return attack if all(ok) else None

    def _readings(self) -> dict[str, str]:
        """The readings chosen in the snapshot, then by --reading or the `readings` argument
        (which win); true and false as in the snapshot."""
        readings = {}
        option = isinstance(self.overrides, OptionReadings)
        for chosen, values in ((False, self.raw.get("readings") or {}), (True, self.overrides)):
            for name, given in values.items():
                value = reading_word(given)
                path = (f"readings.{name}" if not chosen else f"--reading {name}" if option
                        else f"readings[{name!r}]")
                if name not in self.known_readings:
                    self.bad(path, f"unknown reading (known: {', '.join(sorted(self.known_readings))})")
                elif value not in self.known_readings[name]:
                    self.bad(path, f"unknown value {value!r} (one of: {', '.join(self.known_readings[name])})")
                else:
                    readings[name] = value
        return readings



def _list(value: Any) -> list:
    """A list from the snapshot, or nothing when it is not one (the schema check reports that:
    a string is not read letter by letter)."""
    return value if isinstance(value, list) else []
