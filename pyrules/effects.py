"""The effect vocabulary (rules/effects.yaml), and everything derived from it.

Each kind of effect is declared once, in rules/effects.yaml.  From that declaration
this module derives: the JSON Schema of a card's `effects` entries and of a
snapshot's `effects:` entries (with a per-kind check of the arguments), the facts
the encoder gives the rules for each entry, and the listing `pyrules effects` prints.
Nothing about the game is decided here: which actions an effect permits or forbids is
written in rules/*.lp.

Facts (documented in rules/input.lp):
  card_effect(C, X, E, About, Where)   entry X of card C is effect term E
  effect_to(C, X, F)                   a filter of a continuous entry (side(S), level_min(N), ...)
  effect_while(C, X, W)                a condition of a printed or continuous entry
  applied(K, E), applied_card(K, I), applied_player(K, P)   snapshot entry K
  applied_until(K, U)                  when snapshot entry K ends (its `until`: APPLIED_UNTIL)
"""
from __future__ import annotations

from functools import lru_cache
from pathlib import Path
from typing import Any, Callable, NamedTuple

from .errors import InvalidInput, Problem
from .limits import parse_yaml, read_file
from .paths import rules_dir
from .validator import validate
from .words import ATTRIBUTES, FRAME_FLAGS, RACES

DECLARATION = "effects.yaml"


# The declaration's records are named tuples: immutable like frozen dataclasses, and made
# about ten times faster when the module is imported (every command imports it).
class Arg(NamedTuple):
    name: str
    type: Any            # "integer" | "name" | "archetype" | "attribute" | "race" | "frame" | "boolean" | [words]
    meaning: str
    search: tuple[int, ...] = ()   # an integer argument's values the counterexample search tries


class Kind(NamedTuple):
    name: str
    meaning: str
    source: str
    about: str           # card | player
    printed: str         # field | anywhere
    args: tuple[Arg, ...]
    group: str | None = None   # what it is about when it is about activating (KIND_GROUPS), else None

    def to_json(self) -> dict[str, Any]:
        return {"effect": self.name, "meaning": self.meaning, "source": self.source, "about": self.about,
                "printed": self.printed, **({"group": self.group} if self.group else {}),
                "args": [{"name": a.name, "type": a.type, "meaning": a.meaning,
                          **({"search": list(a.search)} if a.search else {})} for a in self.args]}


_KIND_SCHEMAS: dict[tuple[int, str, bool], tuple["Vocabulary", dict]] = {}   # (id(voc), kind, applied) -> (voc, schema)


class Vocabulary(NamedTuple):
    kinds: dict[str, Kind]
    filters: dict[str, Arg]
    conditions: dict[str, Arg]


def _arg(name: str, spec: dict) -> Arg:
    return Arg(name, spec["type"], spec.get("meaning", ""), tuple(spec.get("search") or ()))


KIND_GROUPS = {
    "activation_condition": "states a condition of a Spell or Trap Card's activation (rules/activation_conditions.lp, "
                            "rules/activation_targets.lp): a card with one counts as having its activation modelled",
    "target_filter": "narrows what an activation's event, targets (or the cards it needs) must be, or where they "
                     "come from; it comes with an activation_condition entry",
    "needs_filter": "says what the cards a needs_cards entry counts must be",
    "equip_to": "says which monsters an Equip Spell may be equipped to",
    "monster_effect": "states a monster's activated effect (rules/monster_effects.lp)",
    "faceup_effect": "states an activated effect of a face-up Spell or Trap Card (rules/activation_faceup.lp)",
    "activation_window": "widens the windows a card is activated in (the Damage Step)",
    "answered_effect": "says what a card's effect does that another card's activation answers or needs (the damage "
                       "it inflicts, the turns it counts): it models no activation of the card itself",
    "summon_spell": "names the Summon a Spell's activation performs (a Ritual Spell, \"Polymerization\"): the "
                    "activation is judged by whether that Summon could be performed; a Summon kind, audited with the "
                    "Summons",
}
"""The groups a kind of rules/effects.yaml may declare (`group:`): every kind about activating a card or an
effect has one (the card audit reads them); Summon, attack and position kinds have none."""

ARG_TYPES = ["integer", "name", "archetype", "attribute", "race", "frame", "boolean"]
_ARG_SPEC = {"type": "object", "additionalProperties": False, "required": ["type"],
             "properties": {"type": {"anyOf": [{"type": "array", "items": {"type": "string", "minLength": 1}},
                                               {"enum": ARG_TYPES}]},
                            "meaning": {"type": "string"},
                            "search": {"type": "array", "items": {"type": "integer"}}}}
_ARGS = {"type": "object", "additionalProperties": _ARG_SPEC}
DECLARATION_SCHEMA: dict[str, Any] = {
    "type": "object", "additionalProperties": False, "required": ["kinds", "filters", "conditions"],
    "properties": {
        "kinds": {"type": "object", "additionalProperties": {
            "type": "object", "additionalProperties": False, "required": ["meaning", "source"],
            "properties": {"meaning": {"type": "string", "minLength": 1}, "source": {"type": "string", "minLength": 1},
                           "about": {"enum": ["card", "player"]}, "printed": {"enum": ["field", "anywhere"]},
                           "group": {"enum": list(KIND_GROUPS)},
                           "args": {"anyOf": [_ARGS, {"type": "null"}]}}}},
        "filters": _ARGS, "conditions": _ARGS}}
"""The shape of rules/effects.yaml (its header says what each key means)."""


def declaration_problems(data: Any, origin: str) -> list[Problem]:
    """Every way the declaration's data breaks its shape, each at `origin: field path`."""
    return [Problem(f"{origin}: {p}" if p else origin, m)
            for p, m in validate(data, DECLARATION_SCHEMA, DECLARATION_SCHEMA)]


def read_declaration(path: Path) -> dict[str, Any]:
    """The data of an effects.yaml, checked against DECLARATION_SCHEMA (InvalidInput naming the
    file and the field: the file missing, not UTF-8, not YAML, a key given twice, a wrong shape)."""
    data = parse_yaml(read_file(path, None, str(path)), str(path))
    problems = declaration_problems(data, str(path))
    if problems:
        raise InvalidInput(problems)
    return data


def _checked(data: Any) -> dict[str, Any]:
    """A cached declaration, checked again (a malformed cache entry is made again: ValueError)."""
    if declaration_problems(data, ""):
        raise ValueError("not a declaration")
    return data


def load_vocabulary(folder: Path | None = None) -> Vocabulary:
    """Read rules/effects.yaml (of `folder`, default the shipped rules); InvalidInput naming the
    file and the field when it is missing or malformed."""
    from . import cache                      # the YAML read once per version of the file
    path = (folder or rules_dir()) / DECLARATION
    if not path.is_file():
        raise InvalidInput(Problem(str(path), "no such file: the rules folder's effect declarations"))
    data = cache.cached("effects", cache.key([path]), lambda: read_declaration(path), from_json=_checked)
    kinds = {}
    for name, spec in data["kinds"].items():
        kinds[name] = Kind(name, spec["meaning"], spec["source"], spec.get("about", "card"),
                           spec.get("printed", "field"),
                           tuple(_arg(a, s) for a, s in (spec.get("args") or {}).items()), spec.get("group"))
    return Vocabulary(kinds, {n: _arg(n, s) for n, s in data["filters"].items()},
                      {n: _arg(n, s) for n, s in data["conditions"].items()})


@lru_cache(maxsize=None)
def _vocabulary_of(folder: Path | None) -> Vocabulary:
    return load_vocabulary(folder)


def vocabulary(folder: Path | str | None = None) -> Vocabulary:
    """The declaration of a rules folder, read once per process and folder: its effects.yaml
    (a designer's own kinds), or the shipped rules/effects.yaml for None, the shipped folder or
    a folder without one.  A malformed declaration is InvalidInput naming the file and the
    field (load_vocabulary).  Whoever reads a rules folder holds its vocabulary (the Engine:
    Engine.vocabulary) and passes it to the functions below (`voc`); without one they use the
    shipped declaration.  No declaration is chosen for the whole process."""
    chosen = Path(folder).resolve() if folder is not None else None
    if chosen is not None and (chosen == rules_dir().resolve() or not (chosen / DECLARATION).is_file()):
        chosen = None
    return _vocabulary_of(chosen)


# ---- JSON Schema ---------------------------------------------------------------------
def type_schema(t: Any) -> dict[str, Any]:
    """The JSON Schema of one argument type."""
    if isinstance(t, list):
        return {"enum": list(t)}
    table: dict[str, dict[str, Any]] = {
        "integer": {"type": "integer", "minimum": 0, "maximum": 1_000_000},
        "name": {"type": "string", "minLength": 1},
        "archetype": {"type": "string", "minLength": 1, "description": "an archetype, as cards' `archetypes` name it"},
        "attribute": {"enum": ATTRIBUTES}, "race": {"enum": RACES}, "frame": {"enum": FRAME_FLAGS},
        "boolean": {"type": "boolean"}}
    return table[t]


def _arg_schema(a: Arg) -> dict[str, Any]:
    return {**type_schema(a.type), "description": a.meaning}


APPLIED_UNTIL = {"end_of_turn": "the end of the turn (\"this turn\", \"until the end of this turn\")",
                 "end_phase": "the start of the End Phase (\"until the End Phase\")"}
"""The values of an applied entry's `until` (CONTRACT 6, extended: issue 37): when the effect ends."""


def _common(voc: Vocabulary, applied: bool) -> dict[str, Any]:
    if applied:
        return {"cards": {"type": "array", "items": {"type": "string", "minLength": 1},
                          "description": "ids of the monsters on the field it applies to"},
                "player": {"type": "string", "description": "the player it applies to"},
                "source": {"type": "string", "description": "the card the effect came from"},
                "until": {"enum": list(APPLIED_UNTIL),
                          "description": "when it ends (pyrules next drops it then): " +
                                         "; ".join(f"{k}: {v}" for k, v in APPLIED_UNTIL.items()) +
                                         " (without it: while it stays on its cards, or on its player)"}}
    return {"to": {"type": "object", "additionalProperties": False,
                   "description": "continuous: which cards (or players) it applies to; without it, printed",
                   "properties": {n: _arg_schema(a) for n, a in voc.filters.items()}},
            "while": {"type": "object", "additionalProperties": False,
                      "description": "conditions under which it applies",
                      "properties": {n: _arg_schema(a) for n, a in voc.conditions.items()}},
            "source": {"type": "string"}, "note": {"type": "string"}}


def kind_schema(kind: Kind, applied: bool = False, voc: Vocabulary | None = None,
                common: dict[str, Any] | None = None) -> dict[str, Any]:
    """The JSON Schema of an entry of this kind (a card's entry, or a snapshot's `effects:` entry);
    `common`: _common(voc, applied), when already made."""
    if common is None:
        common = _common(voc or vocabulary(), applied)
    return {"type": "object", "additionalProperties": False, "required": ["effect", *(a.name for a in kind.args)],
            "description": kind.meaning,
            "properties": {"effect": {"enum": [kind.name]}, **{a.name: _arg_schema(a) for a in kind.args},
                           **common}}


def entry_schema(applied: bool = False, voc: Vocabulary | None = None) -> dict[str, Any]:
    """The JSON Schema of any entry: `effect` names a kind; each kind's own schema (in
    allOf/if/then, for readers of the schema) says which arguments it takes."""
    voc = voc or vocabulary()
    props: dict[str, Any] = {}
    for k in voc.kinds.values():
        for a in k.args:
            props.setdefault(a.name, {})          # checked per kind by entry_problems()
    common = _common(voc, applied)
    if not applied:      # `to` and `while` once, under the root's definitions (entry_definitions), not per kind
        common = {**common, "to": {"$ref": "#/definitions/effect_to"}, "while": {"$ref": "#/definitions/effect_while"}}
    return {"type": "object", "required": ["effect"],
            "description": "an effect (pyrules effects lists the kinds)",
            "properties": {"effect": {"type": "string", "description": "one of: " + ", ".join(voc.kinds)},
                           **props, **common},
            "additionalProperties": False,
            "allOf": [{"if": {"properties": {"effect": {"const": k.name}}},
                       "then": kind_schema(k, applied, voc, common)} for k in voc.kinds.values()]}




def entry_definitions(voc: Vocabulary | None = None) -> dict[str, Any]:
    """The schemas a card's entries refer to (entry_schema: `to` and `while`), for the definitions of
    the schema that holds them (the card schema, the snapshot schema)."""
    common = _common(voc or vocabulary(), False)
    return {"effect_to": common["to"], "effect_while": common["while"]}


def entry_problems(entry: Any, path: str, applied: bool = False, voc: Vocabulary | None = None
                   ) -> list[tuple[str, str]]:
    """(path, message) for every way one entry breaks the schema of its kind (in `voc`, default
    the shipped declaration)."""
    voc = voc or vocabulary()
    if not isinstance(entry, dict):
        return [(path, f"expected a mapping, got {type(entry).__name__}")]
    name = entry.get("effect")
    if not isinstance(name, str) or name not in voc.kinds:
        return [(f"{path}.effect", f"unknown effect {name!r} (pyrules effects lists them)" if name is not None
                 else "is required")]
    known = _KIND_SCHEMAS.get((id(voc), name, applied))     # (the vocabulary kept with it: its id stays its own)
    if known is None or known[0] is not voc:
        known = _KIND_SCHEMAS[(id(voc), name, applied)] = (voc, kind_schema(voc.kinds[name], applied, voc))
    schema = known[1]
    return list(validate(entry, schema, schema, path))


def card_entries(card: dict) -> list[dict]:
    """A card's effect entries (its `effects` list)."""
    return list(card.get("effects") or ())


def kinds_in(*groups: str, voc: Vocabulary | None = None) -> frozenset[str]:
    """The kinds of the vocabulary (default the shipped one) whose `group:` is one of `groups` (KIND_GROUPS);
    with no group, every kind about activating a card or an effect (any group but summon_spell, whose kinds are
    the Summons'): audited apart from Summons, attacks and positions."""
    kinds = (voc or vocabulary()).kinds.values()
    return frozenset(k.name for k in kinds if k.group and (k.group in groups if groups else k.group != "summon_spell"))


def activation_modelled(card: dict) -> bool:
    """True when the card's entries state its activation's conditions (a kind of group activation_condition, or
    summon_spell: the Summon a Ritual Spell or "Polymerization" performs, rules/ritual.lp, rules/fusion.lp), or it
    is an Equip Spell (every one needs a face-up monster to equip: rules/activation_targets.lp, which its equip_to*
    entries narrow), and its activation text asks nothing they leave unread (no `activation_unmodelled`,
    pyrules.importers)."""
    conditions = kinds_in("activation_condition", "summon_spell")
    return not card.get("activation_unmodelled") and (card.get("spell_type") == "equip" or any(
        e.get("effect") in conditions for e in card.get("effects") or ()))


def faceup_effects_modelled(card: dict) -> bool:
    """True when a Spell or Trap Card's face-up activated effects are read from its text (`spell_trap_effect` entries,
    each stating its activation whole: rules/activation_faceup.lp) and it has no sentence worded like one that no
    pattern reads (`faceup_unread`, pyrules.importers)."""
    return (any(e.get("effect") == "spell_trap_effect" for e in card.get("effects") or ())
            and not card.get("faceup_unread"))


def monster_effects_modelled(card: dict) -> bool:
    """True when each of the card's `monster_effect` entries states its activation whole: an event the
    snapshot records (not `other`) and nothing unread in its text (`further: none`); a card without such
    entries when it is no Effect Monster."""
    entries = [e for e in card.get("effects") or () if e.get("effect") == "monster_effect"]
    if not entries:
        return not card.get("effect")       # a Normal Monster has none; an Effect Monster's may be unread
    return all(e.get("further") == "none" and e.get("event") != "other" for e in entries)


# ---- facts ------------------------------------------------------------------------------
Number = Callable[[str], int]       # a card name -> its name number


class Terms(NamedTuple):
    """The terms of one entry, as (functor, arguments) trees the encoder turns into symbols:
    a value is an int, a ("const", word) pair, or a (functor, [values]) pair."""
    effect: Any
    about: str
    where: str
    to: tuple[Any, ...]
    conditions: tuple[Any, ...]


def _value(t: Any, v: Any, number: Number) -> Any:
    if t == "integer":
        return int(v)
    if t in ("name", "archetype"):
        return number(v)
    if t in ("attribute", "race"):
        return ("const", str(v).lower().replace("-", "_").replace(" ", "_"))
    return ("const", str(v))


def _term(name: str, args: list[Any]) -> Any:
    return ("const", name) if not args else (name, args)


def entry_terms(entry: dict, number: Number, voc: Vocabulary | None = None) -> Terms:
    """The terms of a card's entry (already checked against its kind's schema in `voc`)."""
    voc = voc or vocabulary()
    kind = voc.kinds[entry["effect"]]
    effect = _term(kind.name, [_value(a.type, entry[a.name], number) for a in kind.args])
    to: list[Any] = []
    if "to" in entry:
        f = entry["to"]
        if "player" in f:
            to.append(("player", [("const", f["player"])]))
        else:
            to.append(("side", [("const", f.get("side", "both"))]))
        for key, value in f.items():
            if key in ("side", "player"):
                continue
            t = voc.filters[key].type
            if t == "boolean":
                if value:
                    to.append(("const", key))
            else:
                to.append((key, [_value(t, value, number)]))
    conds = tuple(_condition(key, voc.conditions[key].type, value, number)
                  for key, value in (entry.get("while") or {}).items()
                  if voc.conditions[key].type != "boolean" or value)
    return Terms(effect, kind.about, kind.printed, tuple(to), conds)


def _condition(key: str, t: Any, value: Any, number: Number) -> Any:
    """The term of one condition: a boolean one (true) is the bare word, others take their value."""
    return ("const", key) if t == "boolean" else (key, [_value(t, value, number)])


def applied_term(entry: dict, number: Number, voc: Vocabulary | None = None) -> Any:
    """The effect term of a snapshot's `effects:` entry (of a kind of `voc`)."""
    kind = (voc or vocabulary()).kinds[entry["effect"]]
    return _term(kind.name, [_value(a.type, entry[a.name], number) for a in kind.args])


# ---- the counterexample search ------------------------------------------------------------
GENERATED_PER_KIND = 32
"""The most applied entries of one kind the counterexample search may generate (generated_entries)."""


def generated_entries(voc: Vocabulary | None = None) -> list[dict]:
    """The applied entries (without `cards`/`player`) the counterexample search may put in a
    snapshot's `effects:`: every kind whose arguments take a few words (an enum or a boolean),
    with each combination of them; an integer argument takes the values its declaration lists
    under `search`; kinds with another number, a name, a Type or an Attribute argument are left
    out (the space would grow with each value), and so are kinds with more than GENERATED_PER_KIND
    combinations (the target_* kinds' zone, side and what: hundreds each)."""
    import itertools
    import math
    voc = voc or vocabulary()
    out = []
    for k in voc.kinds.values():
        domains: list[list[Any] | None] = [a.type if isinstance(a.type, list) else [True, False]
                                           if a.type == "boolean" else list(a.search) or None for a in k.args]
        if any(d is None for d in domains) or math.prod(len(d or ()) for d in domains) > GENERATED_PER_KIND:
            continue
        for values in itertools.product(*(d for d in domains if d is not None)):
            out.append({"effect": k.name, **{a.name: v for a, v in zip(k.args, values)}})
    return out


# ---- what the rules read ----------------------------------------------------------------
EFFECT_READERS = {("applies", 2): 0, ("effect_on", 3): 0, ("player_effect_on", 3): 0, ("card_effect", 5): 2}
"""The predicates with an effect term (at the position given): the derived ones
(rules/effects.lp defines them), and a card's own entries, which the card part of the rules
reads (`#program card.`): lint reads the rules' bodies to find which kinds they read."""
