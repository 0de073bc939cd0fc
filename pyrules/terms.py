"""Actions <-> clingo terms, in one encoded snapshot (the codec's terms; encode.py makes the
snapshot's facts, sentences.py its words): the query term of an Action, the Action of an
answer's action term, the card sets of an answer, and the snapshot field an invalid/2 atom
names.  Card and player numbers become ids again through the Encoding.
"""
from __future__ import annotations

from typing import Any

from clingo import Function, Number, Symbol, SymbolType

from .actions import SIGNATURES, TERM_SIGNATURES, Action
from .encode import Encoding, const
from .errors import InvalidInput, Problem
from .model import ZONES
from .solver import Answer
from .symbols import name_args, symbol_key, value_of

ZONE_KEYS = {v: k for k, v in ZONES.items()}


_SHAPES: dict[Any, tuple[str, tuple[tuple[str, str, Any], ...]]] = {}


def _set_value(term: Symbol) -> Any:
    """A card set term of an action: a list c(J,Rest) ending in nil (the sets legal mode builds,
    rules/summons.lp) as the tuple of its card numbers, read from the term itself; any other set
    (a mask m(P,M), the query's q) by symbol_key, its cards being its set_member atoms."""
    numbers: list[int] = []
    t = term
    while t.type is SymbolType.Function:
        name, args = name_args(t)
        if name == "nil" and not args:
            return tuple(numbers)
        if name != "c" or len(args) != 2 or args[0].type is not SymbolType.Number:
            break
        numbers.append(args[0].number)
        t = args[1]
    return symbol_key(term)


def _shape(term: Symbol) -> tuple[str, tuple[tuple[str, str, Any], ...]]:
    """An action term read once: its name and (field, kind, value) per argument, where values
    are still card and player numbers (and sets: _set_value).  Action terms recur across
    queries (they hold numbers, not ids), so shapes are kept, up to a bound."""
    name, args = name_args(term)
    shape = (name, tuple((key, kind, _set_value(arg) if kind == "ids" else value_of(arg))
                         for (key, kind), arg in zip(TERM_SIGNATURES[name], args)))
    if len(_SHAPES) < 100_000:
        _SHAPES[symbol_key(term)] = shape
    return shape


def action_term(enc: Encoding, action: Action, facts: list[Symbol]) -> Symbol:
    """The term of an action in this encoded snapshot (InvalidInput for ids or a player it does not
    hold); the cards of a set go into `facts` as member(q, C)."""
    problems = [Problem(f"action.{key}", f"no card with id {ident!r} in the snapshot")
                for key, ident in action.ids() if ident not in enc.card_no]
    if action.player is not None and action.player not in enc.player_no:
        problems.append(Problem("action.player", f"{action.player!r} is not one of the players"))
    if problems:
        raise InvalidInput(problems)
    args = [_argument(enc, kind, getattr(action, key), facts) for key, kind in TERM_SIGNATURES[action.action]]
    for key, kind in SIGNATURES[action.action]:            # a card name is a fact beside the term (card_drawn)
        value = getattr(action, key)
        if kind == "name" and value is not None:
            if value not in enc.names.table.cards:
                raise InvalidInput(Problem(f"action.{key}", f"unknown card name {value!r}"))
            facts.append(enc.fact(key, enc.names.number(value)))
    return Function(action.action, args) if args else const(action.action)


def _argument(enc: Encoding, kind: str, value: Any, facts: list[Symbol]) -> Symbol:
    """One argument of an action's term (a set's cards go into `facts` as member(q, C))."""
    if kind in ("id", "target"):
        return enc.card(value)
    if kind == "by":                      # the enabling card, or none: any that works
        return const("none") if value is None else enc.card(value)
    if kind == "ids":
        facts += [enc.fact("member", const("q"), enc.card(ident)) for ident in value]
        return const("q")
    if kind == "player":
        return enc.player(value if value is not None else enc.game.turn_player)
    if kind == "actor":                   # default: the player with priority (CONTRACT 9)
        return enc.player(value if value is not None else enc.game.priority)
    if kind == "effect":
        return Number(value)
    return const(value)

def decode_action(enc: Encoding, term: Symbol, members: dict[Any, list[str]]) -> Action:
    """The Action of an action term; `members` maps the set terms that are not lists (symbol_key)
    to card ids."""
    shape = _SHAPES.get(symbol_key(term))
    if shape is None:
        shape = _shape(term)
    name, fields = shape
    out: dict[str, Any] = {}
    for key, kind, v in fields:
        if kind == "ids":
            ids = [enc.card_id[n] for n in v] if v.__class__ is tuple else members.get(v, ())
            out[key] = tuple(sorted(ids))
        elif kind == "id" or (kind == "target" and v != "direct") or (kind == "by" and v != "none"):
            out[key] = enc.card_id[v]
        elif kind == "by":
            pass
        elif kind in ("player", "actor"):
            out[key] = enc.player_key[v]
        else:
            out[key] = v
    return Action.made(name, out)


def members(enc: Encoding, atoms: Answer) -> dict[Any, list[str]]:
    """The card ids of each card set of the answer (set_member atoms), by symbol_key."""
    members: dict[Any, list[str]] = {}
    for s, i in atoms.get("set_member", 2):
        members.setdefault(symbol_key(s), []).append(enc.card_id[value_of(i)])
    return members


def subject_path(enc: Encoding, subject: Symbol) -> str:
    """The snapshot field an invalid/2 atom's subject names (card(I), side(P,Z), snapshot(F), link(N), event(K), set_for(...))."""
    a = subject.arguments
    if subject.name == "card":
        ident = enc.card_id.get(a[0].number, f"#{a[0].number}")
        entry = enc.game.by_id.get(ident)
        return entry.path if entry else str(ident)
    if subject.name == "side":
        return f"players.{enc.player_key[a[0].number]}.{ZONE_KEYS.get(a[1].name, a[1].name)}"
    if subject.name == "snapshot":
        return a[0].name
    if subject.name == "link":                    # a chain link, from 1
        return f"chain[{a[0].number - 1}]"
    if subject.name == "event":                   # an event of this_turn, from 1
        return enc.game.events[a[0].number - 1].get("path", f"this_turn[{a[0].number - 1}]")
    if subject.name == "set_for" and a[0].arguments and a[0].arguments[0].type == SymbolType.Number:
        return subject_path(enc, Function("card", [a[0].arguments[0]]))   # a purpose names its card first
    return str(subject)
