"""A validated game state -> clingo symbols (facts), with every user string interned.

Players, cards and card names become small integers; the only constants are the
fixed vocabulary of rules/input.lp.  The `Encoding` keeps the maps back, so
answer atoms can be turned into ids and names again.
"""
from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Callable

from clingo import Symbol

from .symbols import Function, Number, name_args, number
from .effects import Vocabulary, applied_term, card_entries, entry_terms, vocabulary
from .model import Entry, Game
from .schema import FRAME_FLAGS, SPECIAL_SUMMON_METHODS
from .words import SETCODE_ARCHETYPES

_CONST: dict[str, Symbol] = {}


def const(name: str) -> Symbol:
    """A constant of the rules' fixed vocabulary (never user text)."""
    sym = _CONST.get(name)
    if sym is None:
        sym = _CONST[name] = Function(name)
    return sym


_TO_SYMBOL: dict[type, Callable[[Any], Symbol]] = {int: number, str: const}   # other classes: _to_symbol


def _to_symbol(a) -> Symbol:
    """A value of another class (a str or int subclass the schema accepted, e.g. an enum)."""
    if isinstance(a, Symbol):
        return a
    if isinstance(a, int):
        return number(int(a))
    return const(str.__str__(a))             # the string's own text (str() of an enum is its name)


def lower_const(word: str) -> Symbol:
    """EARTH -> earth, Beast-Warrior -> beast_warrior (values of schema enums only)."""
    return const(word.lower().replace("-", "_").replace(" ", "_"))


class Encoding:
    """The facts of one snapshot and the maps between ids and integers (a plain class: see
    model.Entry)."""

    def __init__(self, game: Game, names: "NameScope", facts: list[Symbol] | None = None,
                 card_no: dict[str, int] | None = None, card_id: dict[int, str] | None = None,
                 player_no: dict[str, int] | None = None, player_key: dict[int, str] | None = None,
                 prefix: list[Symbol] | None = None) -> None:
        self.game = game
        self.names = names
        self.facts: list[Symbol] = [] if facts is None else facts
        self.card_no: dict[str, int] = {} if card_no is None else card_no       # id -> integer
        self.card_id: dict[int, str] = {} if card_id is None else card_id       # integer -> id
        self.player_no: dict[str, int] = {} if player_no is None else player_no
        self.player_key: dict[int, str] = {} if player_key is None else player_key
        self.prefix: list[Symbol] = [] if prefix is None else prefix            # first arguments of every fact (batch)

    def fact(self, name: str, *args) -> Symbol:
        """A fact of this snapshot: name(prefix..., args...); ints become numbers and strings
        constants of the vocabulary."""
        out = self.prefix.copy()
        for a in args:
            if a.__class__ is Symbol:
                out.append(a)
            else:
                to = _TO_SYMBOL.get(a.__class__)
                out.append(to(a) if to is not None else _to_symbol(a))
        return Function(name, out)

    def card(self, ident: str) -> Symbol:
        if ident == "direct":
            return const("direct")
        return number(self.card_no[ident])

    def player(self, key: str) -> Symbol:
        return number(self.player_no[key])


class NameTable:
    """Card names <-> integers.  Database names keep their number for the life of the
    Engine; names seen only in one snapshot (inline cards) get numbers above them."""

    def __init__(self, names, voc: Vocabulary | None = None):
        # the effect vocabulary the cards' entries are read with (the rules folder's: Engine.vocabulary)
        self.voc = voc or vocabulary()
        # the archetypes cards name (words.py) are numbered with the database's names
        self.base = {n: i for i, n in enumerate(sorted({*names, *SETCODE_ARCHETYPES.values()}), start=1)}
        self.base_names = {i: n for n, i in self.base.items()}
        # database cards (name -> definition, when `names` is the database's mapping), and the
        # facts of a database card at a given card number, kept across queries
        self.cards = names if isinstance(names, Mapping) else {}
        self.templates: dict[str, list[tuple[str, list[Symbol]]]] = {}
        self.card_facts: dict[tuple[str, Symbol], list[Symbol]] = {}
        self.placements: dict[tuple, list[Symbol]] = {}      # facts of a card's place (encode)
        self.shared: dict[str, list[Symbol]] = {}             # shared_facts() of each database name
        # the card predicates (name, arity) the rules read; card facts of others are not given
        self.reads: set[tuple[str, int]] | None = None
        self.shared_ok: dict[str, bool] = {}
        # the rules' card part (Engine.derive_card_facts): what it derives from a card's facts
        # goes into the card's template; its predicates are card predicates in a batch
        self.derive: Callable[[list[Symbol]], list[Symbol]] | None = None
        self.card_predicates: dict[str, int] = dict(CARD_PREDICATES)
        # the effect kinds the query's rules read (astwalk.effect_kinds_read; None: any kind):
        # a card's entries of other kinds reach only the card part
        self.effect_kinds: frozenset[str] | None = None

    def prepare(self, cards: list[dict]) -> None:
        """Make the templates of the database cards among these at once: the card part is
        grounded once for all of them (each under a number of its own) instead of once each."""
        if self.derive is None:
            return
        todo: dict[str, tuple[dict, list[Symbol]]] = {}
        for card in cards:
            name = card["name"]
            if name in self.templates or name in todo or self.cards.get(name) is not card:
                continue
            probe = NameScope(self)
            facts: list[Symbol] = []
            card_facts(facts, Number(len(todo) + 1), card, probe)
            if not probe.extra:              # (a card naming others outside the database: per query)
                todo[name] = (card, facts)
        if len(todo) < 2:
            return
        derived: dict[int, list[Symbol]] = {}
        for f in self.derive([f for _, facts in todo.values() for f in facts]):
            derived.setdefault(f.arguments[0].number, []).append(Function(f.name, [_PLACEHOLDER, *f.arguments[1:]]))
        for k, (name, (card, _)) in enumerate(todo.items(), start=1):
            self.templates[name] = self._template(card, NameScope(self), derived.get(k, []))

    def facts_of(self, card: dict, c: Symbol, scope: "NameScope", prefix: list[Symbol],
                 shared: set[str] | None = None) -> list[Symbol]:
        """card_facts() of a card as card number c, each fact with the arguments `prefix` first.
        The facts of a database card are made once as templates (name, arguments after the
        card) and reused: they only use the database's own name numbers.  With `shared` (a
        batch), a database card gets the single fact db_card(prefix..., c, N), its name is
        added to `shared` and its facts come once per grounding from shared_facts()."""
        name = card["name"]
        cacheable = self.cards.get(name) is card
        template = self.templates.get(name) if cacheable else None
        if template is None:
            if cacheable:
                # a template holds name numbers: only a card that names database cards alone
                # has the same facts in every snapshot (made in a scope of its own to find out)
                probe = NameScope(self)
                template = self._template(card, probe)
                if probe.extra:
                    cacheable = False
                else:
                    self.templates[name] = template
            if not cacheable:
                template = self._template(card, scope)
        assert template is not None
        if shared is not None and cacheable and self.shareable(name, template):
            shared.add(name)
            return [Function(DB_CARD, [*prefix, c, number(self.base[name])])]
        if prefix or not cacheable:
            return [Function(n, [*prefix, c, *rest]) for n, rest in template]
        key = (name, c)                       # without a prefix the facts themselves are reused
        got = self.card_facts.get(key)
        if got is None:
            if len(self.card_facts) > 100_000:
                self.card_facts.clear()
            got = self.card_facts[key] = [Function(n, [c, *rest]) for n, rest in template]
        return got

    def _template(self, card: dict, scope: "NameScope", derived: list[Symbol] | None = None
                  ) -> list[tuple[str, list[Symbol]]]:
        """card_facts() of a card and what the card part derives from them (`derived`, if
        prepare() has it), as (predicate, arguments after the card), for the predicates the
        rules read."""
        out: list[Symbol] = []
        card_facts(out, _PLACEHOLDER, card, scope)
        if self.derive is not None:
            out += self.derive(out) if derived is None else derived
        reads, kinds = self.reads, self.effect_kinds
        if kinds is not None:
            unread = {a[1] for n, a in map(name_args, out) if n == "card_effect" and a[2].name not in kinds}
            out = [f for f in out if f.name not in _ENTRY_FACTS or f.arguments[1] not in unread]
        return [(n, args[1:]) for n, args in map(name_args, out) if reads is None or (n, len(args)) in reads]

    def shareable(self, name: str, template: list[tuple[str, list[Symbol]]]) -> bool:
        """Whether a database card's facts can be shared: every one is a CARD_PREDICATES fact."""
        ok = self.shared_ok.get(name)
        if ok is None:
            ok = self.shared_ok[name] = all(self.card_predicates.get(n) == len(rest) + 1 for n, rest in template)
        return ok

    def shared_facts(self, names: set[str]) -> list[Symbol]:
        """The facts of these database cards keyed by name number: db_<predicate>(N, args...)."""
        out: list[Symbol] = []
        for name in sorted(names):
            got = self.shared.get(name)
            if got is None:
                n = Number(self.base[name])
                got = self.shared[name] = [Function(DB_PREFIX + p, [n, *rest]) for p, rest in self.templates[name]]
            out.extend(got)
        return out

    def scope(self) -> "NameScope":
        return NameScope(self)


class NameScope:
    def __init__(self, table: NameTable):
        self.table = table
        self.extra: dict[str, int] = {}

    def number(self, name: str) -> int:
        n = self.table.base.get(name)
        if n is None:
            n = self.extra.get(name)
            if n is None:
                n = self.extra[name] = len(self.table.base) + len(self.extra) + 1
        return n

    def name(self, number: int) -> str:
        if number in self.table.base_names:
            return self.table.base_names[number]
        for k, v in self.extra.items():
            if v == number:
                return k
        return f"#{number}"


_PLACEHOLDER = Number(0)
_ENTRY_FACTS = ("card_effect", "effect_to", "effect_while")     # the facts of one effect entry (card, entry, ...)

# What card_facts() can say about a card: predicate -> arity (the card is the first argument).
# A batch gives these facts once per grounding, keyed by the card's name number (shared_facts),
# and batch_link_rules() derives each card's own facts from them.
CARD_PREDICATES = {"name": 2, "kind": 2, "level": 2, "atk": 2, "def": 2, "attribute": 2, "race": 2,
                   "frame": 2, "archetype": 2, "spell_type": 2, "trap_type": 2, "card_effect": 5, "effect_to": 3,
                   "effect_while": 3}
DB_PREFIX = "pyrules_db_"               # never a predicate of the rules (lint: all are documented)
DB_CARD = DB_PREFIX + "card"            # db_card(W, C, N): card C of snapshot W is database card N
PLACE = "pyrules_place"                 # place(W, C, Player, Zone, Slot, Owner, Position, Face) in a batch


def batch_link_rules(reads: set[tuple[str, int]], cards: dict[str, int] | None = None) -> str:
    """The rules that give each database card of a batch its facts from the shared ones:
    P(W, C, Args) :- db_P(N, Args), db_card(W, C, N), for each card predicate P the rules
    read (`reads`; `cards`: the card predicates, CARD_PREDICATES and the card part's); and
    those that unpack each card's place fact into zone, slot, owner, position and face.
    Plumbing only: no game rule."""
    lines = []
    for p, arity in (CARD_PREDICATES if cards is None else cards).items():
        if (p, arity) not in reads:
            continue
        args = "".join(f",X{i}" for i in range(1, arity))
        lines.append(f"{p}(W,C{args}) :- {DB_PREFIX}{p}(N{args}), {DB_CARD}(W,C,N).")
    lines += [f"zone(W,C,P,Z) :- {PLACE}(W,C,P,Z,_,_,_,_).",
              f"slot(W,C,S) :- {PLACE}(W,C,_,_,S,_,_,_).",
              f"owner(W,C,O) :- {PLACE}(W,C,_,_,_,O,_,_).",
              f"position(W,C,X) :- {PLACE}(W,C,_,_,_,_,X,_), X != none.",
              f"face(W,C,X) :- {PLACE}(W,C,_,_,_,_,_,X), X != none."]
    return "\n".join(lines) + "\n"


def card_facts(out: list, c: Symbol, card: dict, names: NameScope) -> None:
    """The facts that say what card `c` is."""
    out.append(Function("name", [c, Number(names.number(card["name"]))]))
    out.append(Function("kind", [c, const(card["kind"])]))
    out += [Function(key, [c, Number(card[key])]) for key in ("level", "atk", "def") if key in card]
    out += [Function(p, [c, lower_const(card[key])]) for key, p in (("attribute", "attribute"), ("type", "race"))
            if key in card]
    out += [Function("frame", [c, const(flag)]) for flag in FRAME_FLAGS if card.get(flag)]
    out += [Function("archetype", [c, Number(names.number(a))]) for a in card.get("archetypes", ())]
    out += [Function(key, [c, const(card[key])]) for key in ("spell_type", "trap_type") if key in card]
    for x, entry in enumerate(card_entries(card), start=1):
        _effect_facts(out, c, Number(x), entry_terms(entry, names.number, names.table.voc))


def _effect_facts(out: list, c: Symbol, x: Symbol, t) -> None:
    """The facts of effect entry x of card c (its terms, pyrules.effects.entry_terms)."""
    out.append(Function("card_effect", [c, x, term_symbol(t.effect), const(t.about), const(t.where)]))
    out += [Function("effect_to", [c, x, term_symbol(f)]) for f in t.to]
    out += [Function("effect_while", [c, x, term_symbol(w)]) for w in t.conditions]


def term_symbol(t) -> Symbol:
    """An effect term of pyrules.effects (an int, ("const", word) or (functor, [terms])) as a symbol."""
    if t.__class__ is int:
        return Number(t)
    head, rest = t
    if head == "const":
        return const(rest)
    return Function(head, [term_symbol(a) for a in rest])


def encode(game: Game, names: NameTable, defaults: dict[str, str], prefix: list[Symbol] | None = None,
           shared: set[str] | None = None) -> Encoding:
    """All facts of a snapshot.  `defaults` holds the default value of every reading; `prefix`
    (batch) is put before the arguments of every fact; with `shared` (batch), database cards
    get one db_card fact each and their names are collected in `shared` (NameTable.facts_of)."""
    enc = Encoding(game=game, names=names.scope(), prefix=list(prefix or ()))
    names.prepare([e.card for e in game.entries])
    _encode_turn(enc, game)
    _number_cards(enc, game)
    for e in game.entries:
        _encode_card(enc, names, e, shared)
    enc.facts += [enc.fact("on_chain", enc.card(ident)) for ident in game.chain]
    _encode_window(enc, game)
    for k, ev in enumerate(game.events, start=1):
        _encode_event(enc, k, ev)
    for k, eff in enumerate(game.effects, start=1):
        _encode_applied(enc, k, eff)
    if game.attack is not None:
        _encode_attack(enc, game.attack)
    F = enc.fact
    enc.facts += [F("reading_default", name, value) for name, value in defaults.items()]
    enc.facts += [F("selected_reading", name, value) for name, value in game.readings.items()]
    return enc


def _encode_turn(enc: Encoding, game: Game) -> None:
    """The players (numbered from 1), their Life Points and Decks; turn, phase, step."""
    out, F = enc.facts, enc.fact
    for n, p in enumerate(game.players, start=1):
        enc.player_no[p], enc.player_key[n] = n, p
        out += [F("player", n), F("life", n, game.life[p]), F("deck_size", n, game.deck[p])]
    out += [F("turn", game.turn), F("turn_player", enc.player(game.turn_player)), F("phase", game.phase)]
    # CONTRACT 10: a listed Deck, its top card at position 1, each card by its name number
    out += [F("deck_card", enc.player(p), n, enc.names.number(card["name"]))
            for p, cards in game.deck_cards.items() for n, card in enumerate(cards, start=1)]
    # ... and what each of those cards is, as the card deck(P,N) (no zone, no effect entries: rules/input.lp)
    for p, cards in game.deck_cards.items():
        for n, card in enumerate(cards, start=1):
            out += _deck_card_facts(enc, Function("deck", [enc.player(p), Number(n)]), card)
    if game.moving_to is not None:
        out.append(F("moving_to", game.moving_to))
    if game.winner is not None:
        out.append(F("winner", enc.player(game.winner)))
    if game.battle_step is not None:
        out.append(F("battle_step", game.battle_step))
    if game.battle_step_given:
        out.append(F("battle_step_given"))


DECK_CARD_PREDICATES = frozenset(CARD_PREDICATES) - set(_ENTRY_FACTS)


def _deck_card_facts(enc: Encoding, c: Symbol, card: dict) -> list[Symbol]:
    """What a card of a listed Deck is (its name, kind, Level, Type, ...: card_facts without effect
    entries), as card `c`, with the snapshot's prefix (batch)."""
    made: list[Symbol] = []
    card_facts(made, c, card, enc.names)
    return [Function(f.name, [*enc.prefix, *f.arguments]) for f in made if f.name in DECK_CARD_PREDICATES]


def _number_cards(enc: Encoding, game: Game) -> None:
    """Card ids -> numbers from 1: the cards in the zones, then the ids of cards gone."""
    for n, e in enumerate(game.entries, start=1):
        if e.id in enc.card_no:        # a duplicate id was reported by validation
            continue
        enc.card_no[e.id], enc.card_id[n] = n, e.id
    for ident in game.gone_ids:
        n = len(enc.card_no) + 1
        enc.card_no[ident], enc.card_id[n] = n, ident


def _encode_card(enc: Encoding, names: NameTable, e: Entry, shared: set[str] | None) -> None:
    """One card of the zones: where it is, what is attached to it, what it is."""
    out, F = enc.facts, enc.fact
    c = number(enc.card_no[e.id])
    if shared is not None:
        # a batch: one fact per card for where it is (batch_link_rules unpacks it)
        out.append(F(PLACE, c, enc.player(e.player), e.zone, e.slot, enc.player(e.owner),
                     e.position or "none", e.face or "none"))
    else:
        out.extend(_place_facts(enc, names, e, c))
    if e.equipped_to:
        out.append(F("equipped_to", c, enc.card(e.equipped_to)))
    if e.equipped_turn is not None:
        out.append(F("equipped_turn", c, e.equipped_turn))
    if e.set_turn is not None:
        out.append(F("set_turn", c, e.set_turn))
    if e.properly_summoned:
        out.append(F("properly_summoned", c))
    out += [F(f"{key}_now", c, value) for key, value in e.current]
    out += [F("counters", c, kind, count) for kind, count in e.counters]
    out.extend(names.facts_of(e.card, c, enc.names, enc.prefix, shared))


def _place_facts(enc: Encoding, names: NameTable, e: Entry, c: Symbol) -> list[Symbol]:
    """Where a card is: the same few facts for the same place, reused across queries
    (single queries only: a batch's facts carry the snapshot number)."""
    placed = names.placements if not enc.prefix else None
    key = (enc.card_no[e.id], enc.player_no[e.player], e.zone, e.slot, enc.player_no[e.owner], e.position, e.face)
    where = placed.get(key) if placed is not None else None
    if where is None:
        F = enc.fact
        where = [F("zone", c, enc.player(e.player), e.zone), F("slot", c, e.slot), F("owner", c, enc.player(e.owner))]
        if e.position:
            where.append(F("position", c, e.position))
        if e.face:
            where.append(F("face", c, e.face))
        if placed is not None:
            if len(placed) > 100_000:
                placed.clear()
            placed[key] = where
    return where


def _encode_window(enc: Encoding, game: Game) -> None:
    """Who may act now (CONTRACT 8): the chain's links, and priority, window and passed where the
    snapshot departs from their defaults (the turn player, open, false)."""
    F = enc.fact
    enc.facts += [F("chain_link", n, enc.card(c), enc.player(p), x) for n, (c, p, x) in enumerate(game.links, start=1)]
    if game.priority != game.turn_player:
        enc.facts.append(F("priority", enc.player(game.priority)))
    if game.window == "event":
        enc.facts.append(F("window", "event"))
    if game.passed:
        enc.facts.append(F("passed"))


_EVENT_CARDS = ("card", "target")           # event keys that hold a card id
_EVENT_FLAGS = ("negated", "replay", "gone", "summoning")


def _encode_event(enc: Encoding, k: int, ev: dict) -> None:
    """Event k (from 1) of this turn."""
    out, F = enc.facts, enc.fact
    out.append(F("event", k, ev["event"]))
    out += [F(f"event_{key}", k, enc.card(ev[key])) for key in _EVENT_CARDS if key in ev]
    out += [F(f"event_{key}", k, enc.player(ev[key])) for key in ("player", "to") if key in ev]
    out += [F("event_tribute", k, enc.card(t)) for t in ev.get("tributes") or ()]
    out += [F(f"event_{flag}", k) for flag in _EVENT_FLAGS if ev.get(flag)]
    if "how" in ev:
        out.append(F("event_how", k, ev["how"]))
    if ev["event"] == "activate":
        out.append(F("event_effect", k, ev.get("effect", 1)))
    if "phase" in ev:
        out.append(F("event_phase", k, ev["phase"]))
    if "by" in ev:
        out.append(F("event_by", k, ev["by"]))
    if "amount" in ev:
        out.append(F("event_amount", k, ev["amount"]))
    if "method" in ev:
        out.append(F("event_method", k, ev["method"] if ev["method"] in SPECIAL_SUMMON_METHODS else "other"))


def _encode_applied(enc: Encoding, k: int, eff: dict) -> None:
    """Applied effect k (from 1) of the snapshot, the cards and the player it applies to."""
    out, F = enc.facts, enc.fact
    out.append(F("applied", k, term_symbol(applied_term(eff, enc.names.number, enc.names.table.voc))))
    out += [F("applied_card", k, enc.card(ident)) for ident in eff.get("cards") or ()]
    if "player" in eff:
        out.append(F("applied_player", k, enc.player(eff["player"])))
    if "until" in eff:
        out.append(F("applied_until", k, eff["until"]))


def _encode_attack(enc: Encoding, a: dict) -> None:
    """The attack in progress."""
    F = enc.fact
    enc.facts += [F("attack_attacker", enc.card(a["attacker"])), F("attack_target", enc.card(a["target"]))]
    enc.facts += [F("target_at_declaration", enc.card(t)) for t in a["targets_at_declaration"]]
