"""The JSON Schemas of snapshots and cards.

One schema serves three purposes: `pyrules schema` prints it, `validate()` (pyrules/validator.py)
checks snapshots and inline cards against it (every problem with its field path), and
docs/snapshots.md documents it (docs/reference/snapshot.schema.json is this schema, generated).  The
`effects` entries are derived from the effect vocabulary (pyrules/effects.py, rules/effects.yaml).
"""
from __future__ import annotations

import re
from typing import Any

from .effects import entry_definitions, entry_schema
from .validator import validate
from .words import ATTRIBUTES, FRAME_FLAGS, RACES

__all__ = ["ATTRIBUTES", "FRAME_FLAGS", "RACES", "validate"]
PHASE_NAMES = {"draw": "Draw Phase", "standby": "Standby Phase", "main1": "Main Phase 1",
               "battle": "Battle Phase", "main2": "Main Phase 2", "end": "End Phase"}   # in turn order
PHASES = list(PHASE_NAMES)
BATTLE_STEPS = ["start", "battle", "damage", "end"]
EVENTS = ["normal_summon", "set", "flip_summon", "special_summon", "position_change", "flipped",
          "attack", "draw", "battle_by_effect", "returned", "control_change", "set_spell_trap", "activate",
          "enter_phase", "destroyed", "battle_damage",
          "returned_to_hand"]     # wp-auditB: a card returned from the field to its owner's hand (docs/snapshots.md)
SUMMON_EVENTS = ("normal_summon", "flip_summon", "special_summon")     # may carry summoning: true (CONTRACT 8)
SPECIAL_SUMMON_METHODS = ["synchro", "fusion", "ritual", "procedure", "revive", "effect", "other"]

_str = {"type": "string"}
_id = {"type": "string", "minLength": 1, "description": "a card id, unique in the snapshot; 'direct' is reserved"}
_name_list = {"type": "array", "items": _str}

CARD_SCHEMA: dict[str, Any] = {
    "title": "pyrules card",
    "description": "A card of the card database, or an inline card definition in a snapshot.",
    "type": "object",
    "required": ["name", "kind"],
    "additionalProperties": False,
    "definitions": entry_definitions(),      # printed alone (--card), the card schema is its own root
    "properties": {
        "name": {"type": "string", "minLength": 1},
        "passcode": {"type": "integer", "minimum": 0},
        "kind": {"enum": ["monster", "spell", "trap"]},
        "level": {"type": "integer", "minimum": 0, "maximum": 12},
        "attribute": {"enum": ATTRIBUTES},
        "type": {"enum": RACES, "description": "the monster's Type"},
        "atk": {"type": "integer", "minimum": 0, "maximum": 1_000_000},
        "def": {"type": "integer", "minimum": 0, "maximum": 1_000_000},
        "atk_unknown": {"type": "boolean"},
        **{flag: {"type": "boolean"} for flag in FRAME_FLAGS},
        "spell_type": {"enum": ["normal", "quickplay", "continuous", "equip", "field", "ritual"]},
        "trap_type": {"enum": ["normal", "continuous", "counter"]},
        "archetypes": {"type": "array", "items": {"type": "string", "minLength": 1}, "uniqueItems": True,
                       "description": "the archetypes the card belongs to (\"Archfiend\", \"Amazoness\", ...): "
                                      "what a text's \"Archfiend\" monsters or \"Amazoness\" monsters names"},
        "effects": {"type": "array", "items": entry_schema(),
                    "description": "the card's effects (pyrules effects lists every kind)"},
        "unmodelled": {"type": "string", "description": "rule-relevant text of the card that no effect models yet, and why"},
        "activation_unmodelled": {"type": "string", "description": "a Spell or Trap Card's activation text that asks "
                                  "something no effect models yet (a condition, a cost, targets), and what"},
        "faceup_unread": {"type": "string", "description": "a Spell or Trap Card that stays face-up has sentences "
                          "worded like activated effects of the face-up card that no pattern reads (not judged: "
                          "effect_not_modelled): how many"},
        "source": _str,
        "note": _str,
    },
}

RETIRED_CARD_KEYS: dict[str, str] = {
    "can_attack_directly": "{effect: can_attack_directly}",
    "attacks_each_monster": "{effect: attacks_each_monster}",
    "equip_grants_direct_attack": "{effect: can_attack_directly, to: {equipped: true}}",
    "equip_forbids_attack": "{effect: cannot_attack, to: {equipped: true}}",
    "cannot_be_attacked_while": "{effect: cannot_be_attack_target, while: {face_up_card: NAME}} (one per card named)",
    "attack_lock": "{effect: cannot_attack, to: {side: opponent|both, level_min: N}}",
    "synchro_tuner": "{effect: synchro_tuner, name: NAME}",
    "synchro_non_tuner_attribute": "{effect: synchro_non_tuner_attribute, attribute: ATTRIBUTE}",
    "special_summon_restriction": "{effect: special_summon_restriction, how: HOW}",
    "sends_to_graveyard_banished": "{effect: graveyard_banished, what: all|monsters}",
}
"""The card keys retired for effects -> the `effects` entry to write instead: a card that still
gives one is invalid input naming that entry (retired_key_message), not a card without it."""


def retired_key_message(path: str, message: str, card_path: str | None = None) -> str:
    """The message of a problem at `path`: for a retired key of the card at `card_path` (the
    schema's "unknown key"), one naming the effect to write instead; else `message`.  Without
    `card_path`, `path` is in a snapshot, whose inline cards are the `card` of an entry."""
    if message != "unknown key":
        return message
    head, _, key = path.rpartition(".")
    is_card = head == card_path if card_path is not None else re.search(r"(\]|\.field_spell)\.card$", head)
    if not is_card or key not in RETIRED_CARD_KEYS:
        return message
    return f"a retired card key: write the effect instead, effects: [{RETIRED_CARD_KEYS[key]}] (pyrules effects)"


_counters = {"type": "object", "additionalProperties": False,
             "description": "the counters on the card now, by kind (default: none)",
             "properties": {"spell": {"type": "integer", "minimum": 0, "maximum": 99,
                                      "description": "Spell Counters on the card"}}}
_card_ref = {"anyOf": [{"type": "string", "description": "a card name from the database"},
                       {"$ref": "#/definitions/card"}]}

_monster = {
    "type": "object", "required": ["id", "card", "position"], "additionalProperties": False,
    "properties": {"id": _id, "card": _card_ref, "position": {"enum": ["attack", "defense"]},
                   "face": {"enum": ["up", "down"]}, "owner": _str,
                   "atk": {"type": "integer", "minimum": 0, "maximum": 1_000_000, "description": "current ATK (default: printed)"},
                   "def": {"type": "integer", "minimum": 0, "maximum": 1_000_000, "description": "current DEF (default: printed)"},
                   "level": {"type": "integer", "minimum": 0, "maximum": 12, "description": "current Level (default: printed)"},
                   "counters": _counters},
}
_spell_trap = {
    "type": "object", "required": ["id", "card", "face"], "additionalProperties": False,
    "properties": {"id": _id, "card": _card_ref, "face": {"enum": ["up", "down"]},
                   "equipped_to": _id, "owner": _str,
                   "equipped_turn": {"type": "integer", "minimum": 1, "maximum": 100_000,
                                     "description": "the duel turn on which this card was equipped (with equipped_to; "
                                                    "at most the snapshot's turn)"},
                   "set_turn": {"type": "integer", "minimum": 1, "maximum": 100_000,
                                "description": "the duel turn on which this face-down card was Set (at most the "
                                               "snapshot's turn; default: an earlier turn of its player, or this turn on "
                                               "the turn player's first, turn 1 or 2)"},
                   "counters": _counters},
}
_pile_entry = {"anyOf": [{"type": "string", "description": "a bare card name"}, {
    "type": "object", "required": ["id", "card"], "additionalProperties": False,
    "properties": {"id": _id, "card": _card_ref, "properly_summoned": {"type": "boolean"}, "owner": _str}}]}
_hand_entry = {"anyOf": [{"type": "string", "description": "a bare card name"}, {
    "type": "object", "required": ["id", "card"], "additionalProperties": False,
    "properties": {"id": _id, "card": _card_ref, "owner": _str}}]}

_player = {
    "type": "object", "additionalProperties": False,
    "properties": {
        "life": {"type": "integer", "minimum": 0, "maximum": 1_000_000_000},
        "deck": {"anyOf": [{"type": "integer", "minimum": 0, "maximum": 100_000,
                            "description": "how many cards are left in the Deck (default 30)"},
                           {"type": "array", "items": {"type": "string", "minLength": 1},
                            "description": "the cards left in the Deck by name, the top card first (CONTRACT 10)"}]},
        "hand": {"type": "array", "items": _hand_entry},
        "extra_deck": {"type": "array", "items": _hand_entry},
        "monsters": {"type": "array", "items": _monster},
        "spells_traps": {"type": "array", "items": _spell_trap},
        "field_spell": {"anyOf": [{"type": "null"}, _spell_trap]},
        "graveyard": {"type": "array", "items": _pile_entry},
        "banished": {"type": "array", "items": _pile_entry},
    },
}

_event = {
    "type": "object", "required": ["event"], "additionalProperties": False,
    "properties": {
        "event": {"enum": EVENTS},
        "card": _id,
        "player": _str,
        "tributes": {"type": "array", "items": _id},
        "negated": {"type": "boolean"},
        "replay": {"type": "boolean"},
        "target": _id,
        "how": {"enum": ["manual", "effect"]},
        "method": _str,
        "to": _str,
        "gone": {"type": "boolean"},
        "effect": {"type": "integer", "minimum": 1, "maximum": 99,
                   "description": "activate: which of the card's activated effects (default 1)"},
        "phase": {"enum": PHASES, "description": "enter_phase: the phase the turn entered"},
        "summoning": {"type": "boolean", "description": "a Summon being performed, not yet successful (CONTRACT 8)"},
        "by": {"enum": ["battle", "effect"], "description": "destroyed: by battle or by an effect (CONTRACT 9)"},
        "amount": {"type": "integer", "minimum": 0, "maximum": 1_000_000_000,
                   "description": "battle_damage: the Life Points lost (CONTRACT 9)"},
    },
}
_link = {"anyOf": [_id, {
    "type": "object", "required": ["card"], "additionalProperties": False,
    "properties": {"card": _id, "player": {**_str, "description": "who activated it (default: the card's controller)"},
                   "effect": {"type": "integer", "minimum": 1, "maximum": 99,
                              "description": "which of the card's activated effects (default 1)"}}}]}

SNAPSHOT_SCHEMA: dict[str, Any] = {
    "$schema": "http://json-schema.org/draft-07/schema#",
    "title": "pyrules snapshot (contract version 1)",
    "type": "object",
    "required": ["snapshot"],
    "additionalProperties": False,
    "definitions": {"card": CARD_SCHEMA, **entry_definitions()},
    "properties": {
        "snapshot": {"enum": [1], "description": "format version"},
        "turn": {"type": "integer", "minimum": 1, "maximum": 100_000},
        "turn_player": _str,
        "phase": {"enum": PHASES},
        "battle_step": {"enum": BATTLE_STEPS},
        "chain": {"type": "array", "items": _link,
                  "description": "the chain being built, link 1 first: {card, player, effect} or a bare id (CONTRACT 8)"},
        "priority": {**_str, "description": "the player who may act now (default: the turn player)"},
        "window": {"enum": ["open", "event"],
                   "description": "open (default) or event: the last this_turn event has just happened (CONTRACT 8)"},
        "passed": {"type": "boolean", "description": "the other player has just passed in this window"},
        "moving_to": {"enum": PHASES, "description": "the turn player declared a move to this phase, which may "
                                                     "follow the current one; the other player may still act in the "
                                                     "phase being left (CONTRACT 10)"},
        "winner": {**_str, "description": "the player who has won the duel: nothing more is permitted (CONTRACT 11)"},
        "readings": {"type": "object", "additionalProperties": {"type": ["string", "boolean"]}},
        "players": {"type": "object", "additionalProperties": _player},
        "this_turn": {"type": "array", "items": _event},
        "effects": {"type": "array", "items": entry_schema(applied=True),
                    "description": "effects that resolved effects left on cards or players (CONTRACT 6)"},
        "attack": {"anyOf": [{"type": "null"}, {
            "type": "object", "required": ["attacker", "target", "targets_at_declaration"],
            "additionalProperties": False,
            "properties": {"attacker": _id, "target": _id,
                           "targets_at_declaration": {"type": "array", "items": _id}}}]},
    },
}

def schemas() -> dict[str, Any]:
    """Both schemas, as `pyrules schema` prints them."""
    return {"snapshot": SNAPSHOT_SCHEMA, "card": CARD_SCHEMA}
