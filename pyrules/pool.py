"""The bundled Goat pool (facts/goat/) and the audit of a card pool's effects.

tools/build_pool.py imports ../shared/data/goat-format-en.cdb with the text patterns and
the curated overlay (pyrules/importers.py) and writes, with `pool_files`:
  facts/goat/cards.jsonl   the cards' facts (names, passcodes, stats, frames, effects,
                           `unmodelled`), no card text, with the rulings' cards of
                           facts/cards.yaml in place of the imported ones (and after them,
                           those no database holds): a first line {"names": [...]}, then
                           one card's JSON per line (pyrules/cards.py reads it lazily; the
                           default card database is this file alone)
  facts/goat/audit.json    the audit computed at build time (`audit`), which
                           `pyrules cards audit` prints without a PATH.
"""
from __future__ import annotations

import json
from collections import Counter
from pathlib import Path
from typing import Any

from .cards import POOL_FILE, rulings_cards
from .effects import activation_modelled, faceup_effects_modelled, kinds_in, monster_effects_modelled
from .importers import ImportResult, import_cards
from .paths import facts_dir

AUDIT_FILE = "goat/audit.json"


def effects_of(record: dict) -> list[dict]:
    """The effects a card ends with: the curated ones when the overlay curates it, else the derived ones."""
    return record["curated"] if "curated" in record else record.get("derived", [])


def activated_only(record: dict) -> bool:
    """A record whose text says nothing of Summons, attacks or positions the patterns leave unread and
    whose entries are all about activations (a kind with a `group:`, pyrules.effects.kinds_in)."""
    kinds = {e["effect"] for e in effects_of(record)}
    return bool(kinds) and kinds <= kinds_in() and "unmodelled" not in record


def audit(result: ImportResult) -> dict[str, Any]:
    """The audit of an import: the cards whose text permits or forbids Summons, Tributes, attacks or
    battle positions (or that carry such an effect), each with its effects or why it is not modelled;
    the counts per effect kind; the share modelled, of them all and of those but the ones the overlay
    says have no bearing on the actions judged (counted apart: `no_bearing`, never as modelled).  A card
    whose only entries are about activating it or its effects (pyrules.effects.kinds_in) is
    counted in the activation and monster-effect parts instead (`records` still lists every card)."""
    every = dict(sorted(result.audit.items()))
    records = {n: r for n, r in every.items() if not activated_only(r)}
    kinds: Counter[str] = Counter()
    left: Counter[str] = Counter()
    for r in records.values():
        kinds.update({e["effect"] for e in effects_of(r)})
        left.update({e["effect"] for e in r.get("leaves", ())})
    modelled = sum(1 for r in records.values() if "unmodelled" not in r and "no_bearing" not in r)
    no_bearing = sum(1 for r in records.values() if "no_bearing" in r)
    bearing = len(records) - no_bearing
    return {"source": result.source, "cards": len({c["name"] for c in result.cards}),
            "touching": len(records), "modelled": modelled,
            "share_modelled": round(modelled / len(records), 3) if records else 1.0,
            "no_bearing": no_bearing,
            "share_modelled_of_bearing": round(modelled / bearing, 3) if bearing else 1.0,
            "per_kind": dict(sorted(kinds.items())), "left_behind_per_kind": dict(sorted(left.items())),
            "from_overlay": sum(1 for r in records.values() if "curated" in r),
            "activation": activation_audit(result.one_per_name(), result.activation),
            "monster_effects": monster_effects_audit(result.one_per_name(), result.unread_activated),
            "faceup_effects": faceup_effects_audit(result.one_per_name()),
            "records": every}


def activation_audit(cards: list[dict], records: dict[str, dict] | None = None) -> dict[str, Any]:
    """For the Spells and Traps: how many have an activation text that asks something (`bearing`: a condition,
    a cost, targets, cards its effect needs; the import's activation records, pyrules.importers.activation_record),
    and how many of those have all of it modelled (pyrules.effects.activation_modelled), by name; the others
    are judged by their frame's rules alone and listed as unmodelled when activated.  `unread` counts what the
    unmodelled ones ask that no pattern reads."""
    records = records or {}
    spells_traps = [c for c in cards if c.get("kind") in ("spell", "trap")]
    bearing = [c for c in spells_traps if records.get(c["name"], {}).get("asks")]
    modelled = sorted(c["name"] for c in bearing if activation_modelled(c))
    unread: Counter[str] = Counter()
    for c in bearing:
        why = c.get("activation_unmodelled") or ""
        unread.update(w for w in {w for r in records.values() for w in r.get("asks", ())} if w in why)
    return {"spells_traps": len(spells_traps), "bearing": len(bearing), "modelled": len(modelled),
            "share_modelled_of_bearing": round(len(modelled) / len(bearing), 3) if bearing else 1.0,
            "unmodelled": len(spells_traps) - len(modelled), "unread": dict(sorted(unread.items())),
            "modelled_cards": modelled}


def monster_effects_audit(cards: list[dict], unread: dict[str, list[str]]) -> dict[str, Any]:
    """For the Effect Monsters: how many have activated effects read from their text (`monster_effect`
    entries) and of those, how many have each one's activation whole (pyrules.effects.monster_effects_modelled:
    an event the snapshot records, nothing unread) or are judged by their effects' types alone; and the
    Effect Monsters with a sentence worded like an activated effect that no `numbered` pattern reads (`unread`)."""
    effect_monsters = [c for c in cards if c.get("kind") == "monster" and c.get("effect")]
    with_entries = [c for c in effect_monsters
                    if any(e.get("effect") == "monster_effect" for e in c.get("effects") or ())]
    whole = sorted(c["name"] for c in with_entries if monster_effects_modelled(c))
    names = {c["name"] for c in effect_monsters}
    left = sorted(n for n in unread if n in names)
    return {"effect_monsters": len(effect_monsters), "with_activated_effects": len(with_entries),
            "modelled": len(whole), "by_type_only": len(with_entries) - len(whole), "modelled_cards": whole,
            "unread": len(left), "unread_cards": left}


def faceup_effects_audit(cards: list[dict]) -> dict[str, Any]:
    """g36st (issue 36): for the Spells and Traps, how many have activated effects of the face-up card read from their
    text (`spell_trap_effect` entries, rules/activation_faceup.lp) and of those, how many have every such sentence
    read (pyrules.effects.faceup_effects_modelled); and the Continuous, Equip and Field Spells and Continuous Traps with
    a sentence worded like a face-up activated effect that no pattern reads (`faceup_unread`: judged by no rule,
    effect_not_modelled), by name."""
    spells_traps = [c for c in cards if c.get("kind") in ("spell", "trap")]
    with_entries = sorted(c["name"] for c in spells_traps
                          if any(e.get("effect") == "spell_trap_effect" for e in c.get("effects") or ()))
    whole = sorted(c["name"] for c in spells_traps if faceup_effects_modelled(c))
    unread = sorted(c["name"] for c in spells_traps if c.get("faceup_unread"))
    return {"spells_traps": len(spells_traps), "with_faceup_effects": len(with_entries), "modelled": len(whole),
            "modelled_cards": whole, "partly_read_cards": sorted(set(with_entries) - set(whole)),
            "unread": len(unread), "unread_cards": unread}


def with_curated(cards: list[dict], curated: list[dict]) -> list[dict]:
    """The pool's cards with the rulings' cards (facts/cards.yaml) over them: a curated card
    replaces the imported one of its name; those the pool lacks come last."""
    by_name = {c["name"]: c for c in curated}
    out = [by_name.pop(c["name"], c) for c in cards]
    return out + list(by_name.values())


def pool_files(cdb: str | Path) -> dict[str, str]:
    """The shipped files (path under facts/ -> text) built from a cards.cdb and the rulings' cards
    (facts/cards.yaml, with the overlay's effects for those it curates: rulings_cards)."""
    result = import_cards(cdb)
    cards = with_curated(result.one_per_name(), rulings_cards())
    head = {"names": [c["name"] for c in cards], "source": Path(cdb).name, "built_by": "tools/build_pool.py",
            "note": "facts, not card texts; the cards of facts/cards.yaml replace the imported ones"}
    lines = [json.dumps(head, ensure_ascii=False)] + [json.dumps(c, ensure_ascii=False) for c in cards]
    return {POOL_FILE: "\n".join(lines) + "\n",
            AUDIT_FILE: json.dumps(audit(result), ensure_ascii=False, indent=1) + "\n"}


def bundled_audit() -> dict[str, Any]:
    """The audit of the bundled pool, as computed when it was built."""
    return json.loads((facts_dir() / AUDIT_FILE).read_text(encoding="utf-8"))
