"""Actions: parsing (JSON object, dict or term form), checking ids, and the term form.

An `Action` is plain data.  `to_json()` gives the canonical object of the contract
with defaults filled in and id lists sorted; `term()` gives the term form.
"""
from __future__ import annotations

import re
from typing import Any

from .errors import InvalidInput, Problem
from .limits import Limits, check_text_size, parse_json
from .records import Record, record, set_field

POSITIONS = ("attack", "defense")
PHASE_NAMES = ("draw", "standby", "main1", "battle", "main2", "end")
FACES = ("up", "down")

# action name -> ordered fields: (key, kind), kind in id, ids, position, face, target, player,
# by (an optional id: the card that enables the Summon; without it, any that works), effect (which of a card's
# activated effects, from 1), actor (the player who acts; default: the player with priority), phase (a phase name)
SIGNATURES: dict[str, tuple[tuple[str, str], ...]] = {
    "change_position": (("card", "id"), ("to", "position")),
    "flip_summon": (("card", "id"),),
    "normal_summon": (("card", "id"), ("tributes", "ids")),
    "set": (("card", "id"), ("tributes", "ids")),
    "normal_summon_defense": (("card", "id"), ("tributes", "ids")),
    "synchro_summon": (("card", "id"), ("materials", "ids"), ("position", "position")),
    "fusion_summon": (("card", "id"), ("materials", "ids"), ("position", "position"), ("by", "by")),
    "ritual_summon": (("card", "id"), ("tributes", "ids"), ("position", "position"), ("by", "by")),
    "procedure_summon": (("card", "id"), ("costs", "ids"), ("position", "position")),
    "special_summon": (("card", "id"), ("position", "position"), ("player", "player")),
    "effect_position": (("card", "id"), ("to", "position"), ("face", "face")),
    "declare_attack": (("card", "id"), ("target", "target")),
    "enter_battle_phase": (),
    "draw": (("card_drawn", "name"),),
    "enter_phase": (("phase", "phase"),),
    "discard": (("cards", "ids"),),
    "end_turn": (),
    "set_spell_trap": (("card", "id"),),
    "activate": (("card", "id"), ("effect", "effect"), ("player", "actor")),
    "pass": (),
}
# the arguments of each action's clingo term: its fields but a card name (kind "name", card_drawn), which the
# codec gives beside the term as a fact (terms.action_term)
TERM_SIGNATURES: dict[str, tuple[tuple[str, str], ...]] = {
    name: tuple(arg for arg in sig if arg[1] != "name") for name, sig in SIGNATURES.items()}
OPTIONAL: dict[tuple[str, str], Any] = {("normal_summon", "tributes"): [], ("set", "tributes"): [],
                                        ("normal_summon_defense", "tributes"): [],
                                        ("special_summon", "player"): None, ("fusion_summon", "by"): None,
                                        ("ritual_summon", "by"): None, ("activate", "effect"): 1,
                                        ("activate", "player"): None, ("draw", "card_drawn"): None}
# action name -> (what it asks, one example in the term form).  With SIGNATURES and OPTIONAL the one
# description of the actions: `pyrules actions` and docs/reference/actions.md are made from them (catalogue()).
ABOUT: dict[str, tuple[str, str]] = {
    "change_position": ("a manual change of a face-up monster's battle position", "change_position(ox,defense)"),
    "flip_summon": ("a Flip Summon", "flip_summon(bug)"),
    "normal_summon": ("a Normal or Tribute Summon", "normal_summon(skull,[ox])"),
    "set": ("a Normal or Tribute Set", "set(skull,[ox])"),
    "normal_summon_defense": ("ours: the face-up Defense Position Normal Summon that replaces a Set under "
                              "\"Light of Intervention\" (docs/summons.md)", "normal_summon_defense(skull,[ox])"),
    "synchro_summon": ("a Synchro Summon", "synchro_summon(jw,[js,pike],attack)"),
    "fusion_summon": ("a Fusion Summon, by the \"Polymerization\" or \"Fusion Gate\" `by` names (left out: any "
                      "that works)", "fusion_summon(dp,[dm,bb],attack,poly)"),
    "ritual_summon": ("a Ritual Summon, by the Ritual Spell `by` names (left out: any that works)",
                      "ritual_summon(bls,[ox,faith],attack,blr)"),
    "procedure_summon": ("a Special Summon by the card's own printed procedure", "procedure_summon(cs,[dm,faith],attack)"),
    "special_summon": ("could a generic effect (\"Monster Reborn\") Special Summon this card from where it is, to "
                       "`player`'s side (only `check` answers it)", "special_summon(dp,attack)"),
    "effect_position": ("could a card effect put the monster in that position (only `check` answers it)",
                        "effect_position(ox,defense,down)"),
    "declare_attack": ("an attack declaration (`target` a card id or `direct`); during an attack, what a replay "
                       "allows", "declare_attack(ox,skull)"),
    "enter_battle_phase": ("entering the Battle Phase from Main Phase 1: v1's name of enter_phase(battle), the one "
                           "`legal` lists", "enter_battle_phase"),
    "draw": ("the turn player's normal draw in the Draw Phase", "draw"),
    "enter_phase": ("the turn player's move to a phase that may follow the current one (the move waits while the "
                    "other player may answer: moving_to); `legal` lists the move to the Battle Phase as "
                    "enter_battle_phase", "enter_phase(main2)"),
    "discard": ("the turn player's discard down to 6 cards in hand in their End Phase (`legal`: one entry per set "
                "of as many cards as the hand holds over 6)", "discard([h7])"),
    "end_turn": ("the end of the turn, from the End Phase, once the hand holds 6 cards or fewer", "end_turn"),
    "set_spell_trap": ("Set a Spell or Trap Card from the hand (a Field Spell in the Field Zone)", "set_spell_trap(mf)"),
    "activate": ("activate a Spell or Trap Card from the hand or Set (docs/activation.md); `legal` lists it without "
                 "`player`, `check` reports the player filled in", "activate(mf,1,B)"),
    "pass": ("the player with priority does not respond", "pass"),
}
# an argument's kind -> what it is; and, for an optional argument whose default is None, what leaving it out means
KINDS: dict[str, str] = {"id": "a card id", "ids": "a list of card ids, in any order", "position": "attack or defense",
                         "face": "up or down", "target": "a card id, or direct", "player": "a player (A or B)",
                         "by": "the id of the card that enables the Summon",
                         "effect": "which of the card's activated effects, from 1", "actor": "the player who acts",
                         "phase": "a phase: draw, standby, main1, battle, main2 or end",
                         "name": "a card name (not part of the verdict: the card a draw from a Deck given as a "
                                 "count takes, for pyrules next)"}
UNSET: dict[str, str] = {"by": "any card that works", "player": "the turn player",
                         "actor": "the player with priority", "name": "the top card of a listed Deck"}


def catalogue() -> list[dict[str, Any]]:
    """Every action, in ORDER: its term form, JSON form, arguments (each with its kind, whether it
    is required, its default), what it asks and one example (term and JSON)."""
    out = []
    for name in ORDER:
        asks, example = ABOUT[name]
        args = [{"key": key, "kind": kind, "is": KINDS[kind], "required": (name, key) not in OPTIONAL,
                 **({"default": _copy(OPTIONAL[(name, key)]), "left_out": _left_out(name, key, kind)}
                    if (name, key) in OPTIONAL else {})} for key, kind in SIGNATURES[name]]
        out.append({"action": name, "term": _term_form(name), "json": _json_form(name), "arguments": args,
                    "asks": asks, "example": example, "example_json": parse_action(example).to_json()})
    return out


def _copy(value: Any) -> Any:
    return list(value) if isinstance(value, list) else value


def _left_out(name: str, key: str, kind: str) -> str:
    default = OPTIONAL[(name, key)]
    return UNSET[kind] if default is None else "[]" if default == [] else str(default)


def _placeholder(key: str, kind: str) -> str:
    return f"[{key.upper()}...]" if kind == "ids" else key.upper()


def _term_form(name: str) -> str:
    """normal_summon(CARD[,[TRIBUTES...]]): the arguments in order, the optional ones in [,...]."""
    sig = SIGNATURES[name]
    if not sig:
        return name
    required = [_placeholder(k, kind) for k, kind in sig if (name, k) not in OPTIONAL]
    optional = [_placeholder(k, kind) for k, kind in sig if (name, k) in OPTIONAL]
    return f"{name}({','.join(required)}" + "".join(f"[,{o}" for o in optional) + "]" * len(optional) + ")"


def _json_form(name: str) -> str:
    """{"action": "normal_summon", "card": CARD, "tributes": [TRIBUTES...]} (optional keys may be left out)."""
    return "{" + ", ".join([f'"action": "{name}"', *(f'"{k}": {_placeholder(k, kind)}' for k, kind in SIGNATURES[name])]) + "}"


ORDER = list(SIGNATURES)
_NONE = {"card": None, "to": None, "face": None, "tributes": None, "materials": None, "costs": None,
         "position": None, "target": None, "player": None, "by": None, "effect": None, "phase": None, "cards": None,
         "card_drawn": None}
_RANK = {name: n for n, name in enumerate(ORDER)}


@record
class Action(Record):
    """One action of the contract (section 2)."""
    action: str
    card: str | None = None
    to: str | None = None
    face: str | None = None
    tributes: tuple[str, ...] | None = None
    materials: tuple[str, ...] | None = None
    position: str | None = None
    target: str | None = None
    player: str | None = None
    costs: tuple[str, ...] | None = None
    by: str | None = None
    effect: int | None = None
    phase: str | None = None
    cards: tuple[str, ...] | None = None
    card_drawn: str | None = None

    def __init__(self, action: str, card: str | None = None, to: str | None = None, face: str | None = None,
                 tributes: tuple[str, ...] | None = None, materials: tuple[str, ...] | None = None,
                 position: str | None = None, target: str | None = None, player: str | None = None,
                 costs: tuple[str, ...] | None = None, by: str | None = None, effect: int | None = None,
                 phase: str | None = None, cards: tuple[str, ...] | None = None,
                 card_drawn: str | None = None) -> None:
        set_field(self, "action", action)
        set_field(self, "card", card)
        set_field(self, "to", to)
        set_field(self, "face", face)
        set_field(self, "tributes", tributes)
        set_field(self, "materials", materials)
        set_field(self, "position", position)
        set_field(self, "target", target)
        set_field(self, "player", player)
        set_field(self, "costs", costs)
        set_field(self, "by", by)
        set_field(self, "effect", effect)
        set_field(self, "phase", phase)
        set_field(self, "cards", cards)
        set_field(self, "card_drawn", card_drawn)

    def _signature(self) -> tuple[tuple[str, str], ...]:
        """The action kind's fields; InvalidInput for a kind made by hand that does not exist."""
        sig = SIGNATURES.get(self.action) if isinstance(self.action, str) else None
        if sig is None:
            raise InvalidInput(Problem("action.action", f"unknown action {self.action!r}"))
        return tuple(sig)

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"action": self.action}
        for key, kind in self._signature():
            value = getattr(self, key)
            if value is None:
                continue
            out[key] = sorted(value) if kind == "ids" else value
        return out

    def term(self) -> str:
        args = []
        for key, kind in self._signature():
            value = getattr(self, key)
            if value is None:
                continue
            args.append("[" + ",".join(_quote(v) for v in sorted(value)) + "]" if kind == "ids" else _quote(str(value)))
        return self.action + (f"({','.join(args)})" if args else "")

    def ids(self) -> list[tuple[str, str]]:
        """(field, id) for every card id the action names."""
        out = []
        for key, kind in self._signature():
            value = getattr(self, key)
            if kind == "id" or (kind == "target" and value != "direct") or (kind == "by" and value is not None):
                out.append((key, value))
            elif kind == "ids":
                out += [(f"{key}[{i}]", v) for i, v in enumerate(value)]
        return out

    def sort_key(self) -> tuple:
        """The stable order of `legal`: by action kind, then by the action's fields."""
        t, m, c = self.tributes, self.materials, self.costs
        return (_RANK[self.action], self.card or "", self.to or "", self.face or "",
                "" if t is None else "\x00".join(t), "" if m is None else "\x00".join(m),
                "" if c is None else "\x00".join(c),
                self.position or "", self.target or "", self.player or "", self.by or "", self.effect or 0,
                self.phase or "", "" if self.cards is None else "\x00".join(self.cards), self.card_drawn or "")

    @classmethod
    def made(cls, action: str, fields: dict[str, Any]) -> "Action":
        """Action(action=action, **fields), for fields already checked (decoded answers):
        __init__ sets its fourteen fields one call at a time."""
        obj = object.__new__(cls)
        d = obj.__dict__
        d.update(_NONE)
        d.update(fields)
        d["action"] = action
        return obj

    def __str__(self) -> str:
        return self.term()


_PLAIN = re.compile(r"[A-Za-z0-9_.\-]+\Z")


def _quote(value: str) -> str:
    if _PLAIN.match(value):
        return value
    return '"' + value.replace("\\", "\\\\").replace('"', '\\"') + '"'


# ---- the term form ---------------------------------------------------------
_TOKEN = re.compile(r'\s*(?:(?P<word>[A-Za-z0-9_.\-]+)|(?P<str>"(?:[^"\\]|\\["\\])*")|(?P<punct>[(),\[\]]))')


def _tokens(text: str) -> list[tuple[str, str]]:
    out, pos = [], 0
    text = text.strip()
    while pos < len(text):
        m = _TOKEN.match(text, pos)
        if not m or m.end() == pos:
            raise InvalidInput(Problem("action", f"cannot read the action at {text[pos:pos + 12]!r}"))
        pos = m.end()
        if m.group("word") is not None:
            out.append(("word", m.group("word")))
        elif m.group("str") is not None:
            out.append(("word", re.sub(r'\\(["\\])', r'\1', m.group("str")[1:-1])))
        else:
            out.append(("punct", m.group("punct")))
        while pos < len(text) and text[pos].isspace():
            pos += 1
    return out


def parse_term(text: str) -> dict[str, Any]:
    """The action object of the term form, e.g. normal_summon(skull,[ox]).  Raises InvalidInput."""
    toks = _tokens(text)
    name = _term_name(toks, text)
    args = _term_args(toks[1:], name, text)
    sig = SIGNATURES[name]
    if len(args) > len(sig):
        raise InvalidInput(Problem("action", f"{name} takes at most {len(sig)} arguments, got {len(args)}"))
    return {"action": name, **{key: _term_value(kind, value) for (key, kind), value in zip(sig, args)}}


def _term_value(kind: str, value: Any) -> Any:
    """An argument of the term form as the action object has it: an effect number as a number."""
    return int(value) if kind == "effect" and isinstance(value, str) and value.isdigit() and len(value) <= 6 else value


def _term_name(toks: list[tuple[str, str]], text: str) -> str:
    """The action name the term starts with: a known one."""
    if not toks or toks[0][0] != "word":
        raise InvalidInput(Problem("action", f"expected an action name, got {text!r}"))
    name = toks[0][1]
    if name not in SIGNATURES:
        raise InvalidInput(Problem("action", f"unknown action {name!r} (known: {', '.join(ORDER)})"))
    return name


def _term_args(rest: list[tuple[str, str]], name: str, text: str) -> list[Any]:
    """The arguments after the name: none, or (arg, arg, ...) where an arg is an id or a list of ids."""
    if not rest:
        return []
    if rest[0] != ("punct", "(") or rest[-1] != ("punct", ")"):
        raise InvalidInput(Problem("action", f"expected {name}(...), got {text!r}"))
    body = rest[1:-1]
    args: list[Any] = []
    i = 0
    while i < len(body):
        arg, i = _term_arg(body, i)
        args.append(arg)
        i = _after_arg(body, i)
    return args


def _term_arg(body: list[tuple[str, str]], i: int) -> tuple[Any, int]:
    """The argument at body[i] (an id or a [list]) and the position after it."""
    tok = body[i]
    if tok == ("punct", "["):
        return _term_list(body, i + 1)
    if tok[0] == "word":
        return tok[1], i + 1
    raise InvalidInput(Problem("action", f"unexpected {tok[1]!r}"))


def _after_arg(body: list[tuple[str, str]], i: int) -> int:
    """Past the ',' after an argument, which another argument must follow; or the end."""
    if i >= len(body):
        return i
    if body[i] != ("punct", ","):
        raise InvalidInput(Problem("action", f"expected ',' between arguments, got {body[i][1]!r}"))
    if i + 1 >= len(body):
        raise InvalidInput(Problem("action", "an argument is missing after ','"))
    return i + 1


def _term_list(body: list[tuple[str, str]], i: int) -> tuple[list[str], int]:
    """The ids of a list whose '[' is just before body[i], and the position after its ']'."""
    items = []
    while i < len(body) and body[i] != ("punct", "]"):
        if body[i][0] != "word":
            raise InvalidInput(Problem("action", f"unexpected {body[i][1]!r} in a list"))
        items.append(body[i][1])
        i = _after_item(body, i + 1)
    if i >= len(body):
        raise InvalidInput(Problem("action", "a list is not closed with ]"))
    return items, i + 1


def _after_item(body: list[tuple[str, str]], i: int) -> int:
    """Past the ',' after an id in a list (another id must follow), or at the ']' or the end."""
    if i < len(body) and body[i] == ("punct", ","):
        if i + 1 < len(body) and body[i + 1] == ("punct", "]"):
            raise InvalidInput(Problem("action", "an id is missing after ',' in a list"))
        return i + 1
    if i < len(body) and body[i] != ("punct", "]"):
        raise InvalidInput(Problem("action", f"expected ',' or ']' in a list, got {body[i][1]!r}"))
    return i


def parse_action(value: Any) -> Action:
    """An Action from an Action, a dict/JSON object, or the term form.  Raises InvalidInput.
    An Action made by hand is checked as its object would be (Action("nonsense"), or
    tributes="ox" where a list of ids goes, are invalid input naming the field)."""
    value = _fields_of(value) if isinstance(value, Action) else _action_object(value)
    name = _action_name(value)
    sig = dict(SIGNATURES[name])
    problems = [Problem(f"action.{key}", f"unknown key for {name}") for key in value if key != "action" and key not in sig]
    fields: dict[str, Any] = {}
    for key, kind in SIGNATURES[name]:
        path = f"action.{key}"
        if key in value:
            got, problem = _field_value(path, kind, value[key])
        elif (name, key) in OPTIONAL:
            got, problem = _default(name, key), None
        else:
            got, problem = None, Problem(path, "is required")
        if problem is None:
            fields[key] = got
        else:
            problems.append(problem)
    if problems:
        raise InvalidInput(problems)
    return Action(action=name, **fields)


def _fields_of(action: Action) -> dict[str, Any]:
    """An Action's object: its action name and the fields it gives (a tuple of ids as a list)."""
    fields = {key: getattr(action, key) for key in _NONE}
    return {"action": action.action, **{key: list(v) if isinstance(v, tuple) else v
                                        for key, v in fields.items() if v is not None}}


def _action_object(value: Any) -> dict:
    """The action as an object: text is read as JSON (starting with '{') or as the term form."""
    if isinstance(value, str):
        limits = Limits.from_env()
        check_text_size(value, limits, "action")
        text = value.strip()
        if text.startswith("{"):
            value = parse_json(text, "action", limits, "action")
        else:
            value = parse_term(text)
    if not isinstance(value, dict):
        raise InvalidInput(Problem("action", f"expected an action object or term, got {type(value).__name__}"))
    return value


def _action_name(value: dict) -> str:
    """The object's action name: a known one."""
    name = value.get("action")
    if not isinstance(name, str):
        raise InvalidInput(Problem("action.action", f"expected an action name (a string), got {_kind(name)} "
                                                    f"(known: {', '.join(ORDER)})"))
    if name not in SIGNATURES:
        raise InvalidInput(Problem("action.action", f"unknown action {name!r} (known: {', '.join(ORDER)})"))
    return name


def _default(name: str, key: str) -> Any:
    """The value of an optional field left out (a list default as a tuple)."""
    default = OPTIONAL[(name, key)]
    return tuple(default) if isinstance(default, list) else default


def _field_value(path: str, kind: str, v: Any) -> tuple[Any, Problem | None]:
    """(the field's value, None), or (None, the problem with it)."""
    if kind == "effect":
        return _effect_number(path, v)
    if kind == "ids":
        if not isinstance(v, list) or not all(isinstance(x, str) for x in v):
            return None, Problem(path, "expected a list of ids (strings)")
        if len(set(v)) != len(v):
            return None, Problem(path, "names the same id twice")
        return tuple(sorted(v)), None
    if not isinstance(v, str):
        return None, Problem(path, f"expected a string, got {_kind(v)}")
    if kind == "position" and v not in POSITIONS:
        return None, Problem(path, f"must be attack or defense; got {v!r}")
    if kind == "phase" and v not in PHASE_NAMES:
        return None, Problem(path, f"must be one of {', '.join(PHASE_NAMES)}; got {v!r}")
    if kind == "face" and v not in FACES:
        return None, Problem(path, f"must be up or down; got {v!r}")
    if kind in ("id", "by") and v == "direct":
        return None, Problem(path, "'direct' is not a card id")
    return v, None


def _effect_number(path: str, v: Any) -> tuple[Any, Problem | None]:
    """An effect number, from 1."""
    if not isinstance(v, int) or isinstance(v, bool) or not 1 <= v <= 99:
        return None, Problem(path, f"expected the number of one of the card's activated effects (1 to 99), got {v!r}")
    return v, None


def _kind(value: Any) -> str:
    return {dict: "a mapping", list: "a list", type(None): "null", bool: "true or false", int: "a number",
            float: "a number", str: "a string"}.get(type(value), type(value).__name__)
