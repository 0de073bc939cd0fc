#!/usr/bin/env python3
"""Survey of the Goat pool's activation texts (issues 36 and 37: groundwork, docs/design/activation.md).

Reads the Spells and Traps (and the Effect Monsters' activated effects) of goat-format-en.cdb
(alternate artworks, `alias` set, left out), keeps the cards that facts/goat/cards.jsonl imports,
and sorts what each activation text asks of the moment into condition kinds: the event it
answers, a state it needs, targets that must exist, costs, once per turn, free Monster Zones,
cards needed in a zone, the Damage Step, Counter Trap negation kinds, Trap Monsters.  Each kind
is one regular expression or a few, matched case-insensitively against the whole text (old
"You can only activate this card when ..." wordings and the newer "When ...: " ones alike).

A card's activation text *bears on the rules* when at least one kind fires: its activation is
then limited by more than its frame (spell speed, zones, the turn it was Set).  A sentence in
the activation position (the first sentence, or one starting "Activate only" / "You can only
activate" / "This card can only be activated") that opens with a condition word but that no
kind reads makes the card `other_condition`: outside every kind.

The coverage: the kinds taken in order of how many more bearing cards each one completes
(a card is covered when every kind it has is taken and it has no other_condition), until 90%.
A regex survey, not the importer: the patterns of facts/patterns/ are to be written (and
hand-checked) from it.

usage: python tools/survey_activation.py [--cdb PATH] [--pool facts/goat/cards.jsonl] [--json]
                                         [--cards KIND] [--list-outside]
"""
from __future__ import annotations

import argparse
import collections
import json
import re
import sqlite3
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
DEFAULT_CDB = ROOT.parent.parent / "shared" / "data" / "goat-format-en.cdb"   # /work/shared/data from /work/wt/X
if not DEFAULT_CDB.exists():
    DEFAULT_CDB = Path("/work/shared/data/goat-format-en.cdb")

# datas.type bits (shared/data/README.md)
MONSTER, SPELL, TRAP, EFFECT, RITUAL, TRAPMONSTER, TOKEN = 0x1, 0x2, 0x4, 0x20, 0x80, 0x100, 0x4000
QUICKPLAY, CONTINUOUS, EQUIP, FIELD, COUNTER, FLIP = 0x10000, 0x20000, 0x40000, 0x80000, 0x100000, 0x200000


def frame(t: int) -> str:
    kind = "spell" if t & SPELL else "trap"
    for bit, name in ((QUICKPLAY, "quick-play"), (CONTINUOUS, "continuous"), (EQUIP, "equip"), (FIELD, "field"),
                      (COUNTER, "counter"), (RITUAL, "ritual")):
        if t & bit:
            return f"{kind}:{name}"
    return f"{kind}:normal"


def speed(fr: str) -> int:
    if fr == "trap:counter":
        return 3
    if fr.startswith("trap") or fr == "spell:quick-play":
        return 2
    return 1


IC = re.I
R = lambda *parts: re.compile("|".join(parts), IC)   # noqa: E731

OPP = r"(?:your opponent(?:'s)?|an opponent's|the opponent's|opponent's)"
WHEN = r"(?:when|if|activate only when|activate only if|you can (?:only )?activate this card when|this card can only be activated when|only when)"

# ---- the kinds: name -> (group, regex) ----------------------------------------------------
KINDS: dict[str, tuple[str, re.Pattern]] = {
    # the event a card answers (it is activated in the window right after that event)
    "on_attack_declared": ("event", R(
        r"\bwhen (?:an opponent's|your opponent's|a|your) monsters? declares? an attack",
        r"\b(?:when|only when) your opponent declares an attack",
        r"\bwhen (?:your opponent's|an opponent's) monster attacks",
        r"\bwhen an opponent's monster declares an attack",
        r"\bactivate only when an opponent's monster declares an attack",
        r"\bwhen your opponent'?s? (?:monster )?declares an attack")),
    "on_summon": ("event", R(
        r"\bwhen (?:your opponent|you|a player) (?:normal |flip |special |tribute )?(?:or (?:flip |special )?)?summons",
        r"\bwhen an? (?:[\w\s,-]*?)?(?:monster|token)\(?s?\)? (?:with [^:]*?)?(?:is|are) (?:normal |flip |special |tribute )?(?:or (?:flip |special )?)?summoned",
        r"\bwhen a monster\(s\) is (?:normal |flip |special )?summoned",
        r"\bwhen (?:a|an) [\w\s-]*monster is special summoned(?<!would be special summoned)",
        r"\bactivate only when a fusion monster is special summoned",
        r"\bif the (?:atk|def) of a monster summoned by your opponent",
        r"\bwhen a monster\(s\) is set"),
           ),
    "on_summon_would": ("event", R(r"\bwhen (?:a|your opponent's) monster would be (?:normal |special )?summoned",
                                   r"\bnegate the (?:normal |flip |special )?summon")),
    "on_activation": ("event", R(
        r"\bwhen (?:a|an|your opponent activates a|your opponent activates an) (?:normal |continuous |equip |field )?"
        r"(?:spell|trap|spell/trap|spell or trap)(?: card)?s? (?:is activated|that)",
        r"\bwhen (?:a|an) (?:normal |continuous |equip |field )?(?:spell|trap|spell/trap)(?: card)? is activated",
        r"\bwhen your opponent activates (?:a|an|\")",
        r"\bwhen a monster effect is activated|\bwhen (?:a|an) (?:effect|card's effect|effect monster's effect)",
        r"\b(?:activate only|you can only activate this card) when (?:your opponent activates|a|an) "
        r"(?:card|continuous|field|spell|trap|effect|card's)",
        r"\bnegate the activation", r"\bwhen a card is activated that targets", r"\bor a spell/trap card is activated",
        r"\bactivates a card that targets", r"\bwhen \"[^\"]+\" is activated")),
    "on_destroyed_or_sent": ("event", R(
        r"\b(?:when|activate only when|you can (?:only )?activate this card when) (?:a|an|1 or more of your|your|this)"
        r"[^.:]{0,60}(?:is|are) (?:destroyed|sent|removed|returned|banished)",
        r"\bwhen a monster\(s\) is destroyed", r"\bwhen a monster is sent from the field")),
    "on_damage": ("event", R(r"\bwhen you take (?:damage|battle damage)",
                             r"\b(?:when|activate only when|you can only activate this card when) (?:you take|an effect that inflicts damage|a card's effect that would inflict damage)",
                             r"\bwhen you are about to take", r"\bwhen an effect that inflicts damage")),
    "on_other_event": ("event", R(r"\bwhen your opponent draws", r"\bactivate only when your opponent draws",
                                  r"\bwhen you discard|\bactivate this card when you discard",
                                  r"\bis changed to face-up defense position\b",
                                  r"\bwhen a monster is equipped with an equip spell",
                                  r"\bwhen you normal summon a monster, if",
                                  r"\bactivate only when you activate one of your normal spell",
                                  r"\bwhen your opponent targets",
                                  r"\bhas attacked your opponent directly",
                                  r"\bwhen your opponent's monster attacks a face-up")),
    # when in the turn: phases, steps, whose turn
    "phase_or_turn": ("timing", R(
        r"\b(?:activate only|you can only activate this card|this card can only be activated) during\b",
        r"^during (?:your|either player's|your opponent's|the|a) (?:turn|main phase|battle phase|standby phase|end phase|damage step)\b",
        r"\bduring your opponent's battle phase:", r"\bat the start of your main phase 1",
        r"\bonly be activated during main phase 1", r"^during your turn:", r"^during your opponent's turn:",
        r"\bonly be activated during your opponent's turn")),
    "damage_step_text": ("timing", R(r"\bduring the damage step\b", r"\bduring damage calculation\b",
                                     r"\byou can activate this card during the damage step")),
    # a state that must hold ("Activate only if ...", "If you control X:")
    "state_condition": ("state", R(
        r"\b(?:activate only|you can (?:only )?activate this card|this card can only be activated) (?:if|while|when (?:there (?:are|is)|you have|both|your life|your opponent's (?:life|hand)|any player|the|you control))",
        r"^if (?:you control|there are|\"the sanctuary)[^:]*:", r"\bmust be on the field to activate",
        r"\byou must control no monsters to activate", r"^when there are [^:]*:", r"\bwhen your opponent has \d+ cards",
        r"\bonly activate this card when your (?:life points|opponent's life points)",
        r"\bonly activate this card's effect when you have",
        r"\bcan only be activated when any player", r"^if \d+ or more of your", r"^if your (?:opponent's )?life points",
        r"\bwhen your opponent has \d+ or more cards", r"^if \"[^\"]+\"(?: or \"[^\"]+\")? is on the field:")),
    "named_card_needed": ("state", R(r"\bif you control (?:a face-up )?\"", r"\bwhile there is a face-up \"",
                                     r"\bwhen there are \"", r"\bif you control \"", r"\"[^\"]+\" must be on the field",
                                     r"\bwhile \"[^\"]+\" is on the field", r"\bonly equip this card to \"",
                                     r"\bequip only to \"", r"\bcontrol a face-up \"",
                                     r"^if \"[^\"]+\"(?: or \"[^\"]+\")? is on the field:")),
    # targets (or, in the older wording, cards selected) that must exist
    "target_field_monster": ("target", R(
        r"\btarget(?:ing)? (?:\d+|up to \d+|the attacking|another|1 other)?[^;:.]{0,80}?monsters?(?: on the field| you control| your opponent controls| on each side)",
        r"\btarget (?:\d+ )?(?:face-up |face-down |attacking |set )?(?:\"[^\"]+\" )?monster",
        r"\btarget (?:1|2) [\w\s,\"'-]*monster (?:you|your opponent) controls",
        r"\bselect (?:\d+|and destroy \d+)[^.;:]{0,60}?monsters?(?: face-up)? (?:on (?:the|your|your opponent's|their) "
        r"(?:side of the )?field|your opponent controls|you control)",
        r"\bselect \d+ face-up (?:attack position )?monster\b", r"\btarget face-up monster", r"^select 1 monster\.",
        r"\bactivate this card by targeting \d+ [^;]*monster (?:you|your opponent) controls",
        r"\bactivate this card by targeting 1 monster on each side",
        r"\btarget the (?:attacking|opponent's battling) monster",
        r"\b(?:increase|decrease) (?:the (?:atk|def) of )?1 face-up monster", r"\bof 1 face-up monster",
        r"\bdestroy 1 face-up monster", r"\b1 face-up monster's def")),
    "target_grave_or_banished": ("target", R(
        r"\btarget(?:ing)? (?:\d+|up to \d+)[^;:.]{0,80}?(?:in (?:your|your opponent's|either player's|any) (?:gy|graveyard)|graveyards?\b|banished)",
        r"\bselect \d+[^.;:]{0,60}?(?:from|in) (?:your|your opponent's|either|the) (?:gy|graveyard)",
        r"\bselect 1 removed from play monster")),
    "target_spell_trap": ("target", R(
        r"\btarget(?:ing)? (?:\d+|up to \d+)?[^;:.]{0,40}?(?:spell/trap|spell|trap|set card|card)s? (?:card )?"
        r"(?:on the field|your opponent controls|you control|in the spell)",
        r"\btarget 1 card (?:on the field|your opponent controls)",
        r"\bselect \d+ (?:spell|trap|spell or trap)[^.;:]{0,30}(?:on the field|your opponent controls)",
        r"\bselecting 2 set spell or trap")),
    # costs
    "cost_life_points": ("cost", R(r"^(?!.*(?:standby phase|each player must pay|either player can pay|when this card is sent|"
                                   r"to declare an attack|to normal summon)).*(?:\bpay (?:\d+|half your|lp|any multiple)|"
                                   r"\bby paying \d+|\bpaying \d+ life points)")),
    "maintenance_cost": ("effect", R(r"\bstandby phases?[^.]*\bpay\b|\bpay\b[^.]*\bstandby phases?",
                                     r"\btribute 1 monster from your side of the field during each of your standby")),
    "cost_discard": ("cost", R(r"\bdiscard (?:\d+|your entire hand)[^.;]*?(?:;|to |then| from your hand\.)",
                               r"\bsend \d+ (?:card|spell)[^.;]*from your hand to (?:your|the) (?:gy|graveyard)",
                               r"^discard \d+", r"\bdiscard 1 (?:light monster|spell card)")),
    "cost_tribute": ("cost", R(r"\b(?:by )?tribut(?:e|ing) (?:\d+|1 each|all normal|a monster)[^.]*?(?:;|to activate|\. special summon| your opponent)",
                               r"^tribute \d+(?! monster from your side of the field during each)")),
    "cost_banish_or_counters": ("cost", R(r"\b(?:banish|remove from play) [^.;]*from your (?:gy|graveyard)[^.;]*(?:;| to )",
                                          r"\bremove \d+ spell counters", r"\bactivate this card by placing")),
    # limits and zones
    "once_per_turn": ("limit", R(r"\bonce per turn\b", r"\bonly activate 1\b", r"\bonce during each\b")),
    "free_monster_zones": ("zone", R(r"\bspecial summon (?:\d+|up to \d+|as many|this card|1|2|3|4)[^.]*?\b",
                                     r"\bspecial summon that target", r"\bspecial summon it\b",
                                     r"\bspecial summons? (?:\d+|them)\b")),
    # cards the effect needs (it must be able to do something: the duel core checks it at activation)
    "needs_cards_field": ("zone", R(
        r"\bdestroy all\b", r"\bremove from play all (?!monsters in both players' graveyards)\b", r"\bbanish all\b(?! monsters that were)",
        r"\breturn all\b", r"\bchange (?:all|the battle positions of all)\b", r"\bflip all\b", r"\bdestroy (?:\d+|the 1)\b")),
    "needs_cards_deck": ("zone", R(r"\bdraw (?:\d+|until)", r"\bfrom your deck\b", r"\bfrom (?:his/her|their|your opponent's) deck",
                                   r"\bfrom your hand or deck\b", r"\btop \d+ cards of your deck", r"\bin your deck\b")),
    "needs_cards_graveyard": ("zone", R(r"\b(?:add|return) [^.;]*from your (?:gy|graveyard)",
                                        r"\bspecial summon [^.;]*from your (?:gy|graveyard)",
                                        r"\bremove from play all monsters in both players' graveyards")),
    "needs_cards_hand": ("zone", R(r"\bin your opponent's hand\b", r"\bspecial summon [^.;]*from your hand\b",
                                   r"\bselect \d+ [^.;]*cards? from your hand\b", r"\bfrom each player's hand",
                                   r"\byour opponent discards\b", r"\blook at your opponent's hand")),
    "equip_target": ("target", R(r"\bequip only to\b", r"\bequipped with this card\b", r"\bthe equipped monster\b",
                                 r"\bequip this card to\b", r"\bcan only (?:be )?equip", r"\bequip 1\b")),
    "declares_name_or_kind": ("other", R(r"\bdeclare (?:1|a) (?:card name|monster card name|type|attribute)",
                                         r"\bdeclare \d+ card", r"\bdeclare 1 type")),
    "counter_negation": ("counter", R(r"\bnegate the (?:activation|summon)", r"\bnegate [^.]*activation",
                                      r"\bnegate the effect damage", r"\bnegate the effect of a trap card",
                                      r"\byour opponent takes the damage instead")),
    "face_down_destroyed_trigger": ("effect", R(r"^when this face-down card is destroyed")),
    "trap_monster": ("frame", R(r"\bspecial summon this card (?:in (?:defense|attack) position )?as an? (?:normal|effect) monster",
                                r"\bthis card is (?:also )?still a trap card")),
    "summon_spell_modelled": ("frame", R(r"\bthis card is used to ritual summon\b", r"\bfusion summon 1 fusion monster\b",
                                         r"\bused to fusion summon\b")),
    "not_activatable": ("frame", R(r"\bcan only be placed on the field by the effect of")),
    "continuous_activated_effect": ("effect", R(r"\bonce per turn(?:, during [^:]*)?: you can\b",
                                                r"\bonce per turn,? (?:you can|by paying)\b",
                                                r"\byou can (?:pay|send this card)[^.]*to (?:activate|declare|inflict|look)",
                                                r"\bactivate this card's effect\b", r"\buse this (?:card's )?effect\b",
                                                r"\bthe turn player can special summon\b")),
}
COUNTER_NEGATES = {
    "summon": re.compile(r"\bsummon\b", IC), "spell": re.compile(r"\bspell card\b|\bspell\b", IC),
    "trap": re.compile(r"\btrap card\b|\btrap\b", IC), "monster_effect": re.compile(r"\bmonster effect\b", IC),
    "damage_effect": re.compile(r"\bdamage\b", IC),
}
# a sentence in the activation position that opens with a condition word
CONDITION_OPENING = re.compile(r"^(?:activate only|you can (?:only )?activate this card|this card can only be "
                               r"activated|when|if|during|at the|while|only)\b", IC)
# what changes ATK/DEF (FAQ: such a card may be activated in the Damage Step)
ATK_DEF_CHANGE = R(r"\b(?:gains?|loses?) (?:\d+|atk|def)", r"\b(?:increase|decrease)s? (?:the (?:original )?)?(?:atk|def)",
                   r"\b(?:atk|def)(?: and def)? (?:becomes|by \d+)", r"\bincrease \d+ face-up monster's def",
                   r"\bswitch the original atk", r"\bdecrease \d+ face-up monster's def", r"\bbecomes? 0\b")
MONSTER_ACTIVATED = {
    "flip": R(r"\bflip:"),
    "trigger": R(r"\b(?:when|if|each time) this card (?:is|was|inflicts|destroys|declares|attacks|battles|is changed)[^:]*[:,] "
                 r"(?:you can|draw|destroy|inflict|special summon|target|add|send|return|equip|select|look|toss|banish|gain|your opponent|discard)",
                 r"\b(?:when|if) this card (?:is|was) [^.:]*summoned[^.:]*:",
                 r"\bduring (?:the|your|each) (?:end|standby) phase[^:]*: ", r"\bwhen this card is sent to the graveyard"),
    "quick": R(r"\(this is a quick effect\)", r"\bduring either player's turn[^:]*: you can",
               r"\bwhen (?:your opponent|a|an) [^:]*(?:is activated|activates|would)[^:]*: you can",
               r"\bduring (?:damage calculation|the damage step)[^:]*: you can",
               r"\bduring your opponent's (?:turn|battle phase)[^:]*: you can"),
    "ignition": R(r"^(?:once per turn(?:, during your main phase)?: )?you can (?:tribute|discard|send|pay|banish|remove|flip|target|select|destroy|special summon|change|equip|inflict|look|return|reveal)",
                  r"\bonce per turn: you can\b", r"\bonce per turn,? you can\b", r"\bonce per turn, during your main phase",
                  r"\byou can tribute this card", r"\b(?:by|you can) (?:offering|tributing|discarding|sending|paying)\b"),
}
MISS_TIMING = re.compile(r"\bwhen [^.:]*: you can\b", IC)    # optional "When ... : You can" (a wording that can miss the timing)


def sentences(text: str) -> list[str]:
    """Split at . ! ? followed by a space, outside quotes and parentheses (as pyrules.patterns.sentences)."""
    out, buf, depth, quoted = [], [], 0, False
    text = re.sub(r"[\r\n]+", " ", text or "")
    for i, ch in enumerate(text):
        buf.append(ch)
        if ch == '"':
            quoted = not quoted
        elif ch == "(" and not quoted:
            depth += 1
        elif ch == ")" and not quoted and depth:
            depth -= 1
        elif ch in ".!?" and not quoted and depth == 0 and (i + 1 == len(text) or text[i + 1].isspace()):
            out.append("".join(buf).strip())
            buf = []
    if "".join(buf).strip():
        out.append("".join(buf).strip())
    return [s for s in out if s]


# kinds that alone limit no activation: the declaration made on resolution, a Standby Phase payment
NOT_BEARING = {"declares_name_or_kind", "maintenance_cost"}
POSITIONED = re.compile(r"^(?:activate only|you can (?:only )?activate this card(?!'s)|this card can only be activated|"
                        r"activate this card|activate by|activate 1 of)", IC)
PERSISTENT = ("spell:equip", "spell:field", "spell:continuous", "trap:continuous")


def _read_kinds(sents: list[str], positioned: list[str], fr: str) -> tuple[list[str], dict[str, str]]:
    """Every kind whose regex reads a sentence where that kind is looked for, with the first such sentence."""
    kinds: list[str] = []
    why: dict[str, str] = {}
    for name, (group, rx) in KINDS.items():
        where = sents
        if group in ("event", "timing", "state"):
            where = positioned
            if fr in PERSISTENT:   # a face-up card's own "When ...:" is its effect, not its activation's condition
                where = [s for s in positioned if POSITIONED.match(s)]
                if name.startswith("on_") and not where and rx.search(sents[0]) and "continuous_trigger" not in kinds:
                    kinds.append("continuous_trigger")
                    why["continuous_trigger"] = sents[0]
        sent = next((s for s in where if rx.search(s)), None)
        if sent is not None:
            kinds.append(name)
            why[name] = sent
    return kinds, why


def _adjust(kinds: list[str], why: dict[str, str], fr: str, whole: str) -> None:
    """Kinds that follow from others, or that another kind shows to be misread."""
    if "trap_monster" in kinds and "free_monster_zones" not in kinds:
        kinds.append("free_monster_zones")       # a Trap Monster needs a free Monster Zone too
        why["free_monster_zones"] = why["trap_monster"]
    if "counter_negation" in kinds:
        kinds.remove("counter_negation")
        said = why.pop("counter_negation")
        if fr == "trap:counter":
            for k, rx in COUNTER_NEGATES.items():
                if rx.search(said) or rx.search(whole):
                    kinds.append("counter_negates_" + k)
                    why["counter_negates_" + k] = said
    if "equip_target" in kinds and fr != "spell:equip" and not re.search(r"\bequip this card to\b", whole, IC):
        kinds.remove("equip_target")
    if "face_down_destroyed_trigger" in kinds and "on_destroyed_or_sent" in kinds:
        kinds.remove("on_destroyed_or_sent")     # its effect when destroyed while Set: no condition of an activation
    if "on_summon_would" in kinds and "on_summon" in kinds and "would be summoned" in why["on_summon"].lower() \
            and not re.search(r"\bis summoned|summons a", why["on_summon"], IC):
        kinds.remove("on_summon")


NOT_OTHER = re.compile(r"^(?:(?:while|if) (?:this card|the equipped|a monster equipped|you control a monster)|"
                       r"during (?:each|this|the end phase of|the turn)|if (?:a|the) (?:monster|atk|def)|"
                       r"when this face-down card)", IC)


def classify(text: str, fr: str) -> dict:
    """The kinds of one Spell/Trap text, each with the sentence that shows it (`why`).
    The event, timing and state kinds are read in the activation position only: the first sentence,
    and any sentence that says how the card is activated ("Activate only ...", "You can only activate
    this card ..."); on a Continuous, Equip or Field card a first sentence "When ...:" is an effect of the
    face-up card (its `continuous_trigger`), not a condition of the card's activation."""
    sents = sentences(text) or [""]
    positioned = [s for k, s in enumerate(sents) if k == 0 or POSITIONED.match(s)]
    whole = " ".join(sents)
    kinds, why = _read_kinds(sents, positioned, fr)
    _adjust(kinds, why, fr, whole)
    dmg = fr == "trap:counter" or "damage_step_text" in kinds or (
        (fr == "spell:quick-play" or fr.startswith("trap")) and bool(ATK_DEF_CHANGE.search(whole)))
    condition_kinds = {n for n in kinds if KINDS.get(n, ("",))[0] in ("event", "timing", "state")}
    other = [s for s in positioned if CONDITION_OPENING.match(s) and not condition_kinds and not NOT_OTHER.match(s)
             and not (fr in PERSISTENT and not POSITIONED.match(s))]
    if other:
        kinds.append("other_condition")
        why["other_condition"] = other[0]
    return {"kinds": kinds, "why": why, "damage_step_allowed": dmg, "other_sentences": other}


def load(cdb: Path, pool: Path) -> tuple[list[dict], list[dict], dict]:
    names = set()
    extra = collections.Counter()
    with pool.open() as f:
        header = json.loads(f.readline())
        for line in f:
            d = json.loads(line)
            names.add(d["name"])
            if d["kind"] in ("spell", "trap") and d["source"] != "goat-format-en.cdb":
                extra[d["source"]] += 1
    con = sqlite3.connect(f"file:{cdb}?mode=ro", uri=True)
    rows = con.execute("select t.name, t.desc, d.type from datas d join texts t on d.id = t.id where d.alias = 0").fetchall()
    st, mons = [], []
    missing = 0
    for name, desc, t in rows:
        if name not in names:
            missing += 1
            continue
        if t & (SPELL | TRAP) and not t & MONSTER:
            st.append({"name": name, "frame": frame(t), "text": desc or ""})
        elif t & MONSTER and t & EFFECT and not t & TOKEN:
            mons.append({"name": name, "text": desc or "", "flip": bool(t & FLIP)})
    return st, mons, {"pool_header_cards": len(names), "cdb_rows_not_in_pool": missing,
                      "pool_spells_traps_from_other_sources": dict(extra), "built_by": header.get("built_by")}


def coverage(records: list[dict], target: float = 0.9) -> tuple[list[tuple[str, int, float]], list[dict]]:
    """Greedy: take the kind that completes the most bearing cards, until `target` of them are covered."""
    bearing = [dict(r, kinds=[k for k in r["kinds"] if k not in NOT_BEARING]) for r in records if r["bearing"]]
    taken: set[str] = set()
    steps = []
    all_kinds = {k for r in bearing for k in r["kinds"]} - {"other_condition"}
    covered = lambda r: "other_condition" not in r["kinds"] and set(r["kinds"]) <= taken   # noqa: E731
    while all_kinds - taken:
        best = max(sorted(all_kinds - taken), key=lambda k: (
            sum(1 for r in bearing if not covered(r) and "other_condition" not in r["kinds"]
                and set(r["kinds"]) <= taken | {k}),
            sum(1 for r in bearing if k in r["kinds"])))
        taken.add(best)
        n = sum(1 for r in bearing if covered(r))
        steps.append((best, n, n / len(bearing)))
        if n / len(bearing) >= target:
            break
    outside = [r for r in bearing if not covered(r)]
    return steps, outside


def survey(cdb: Path, pool: Path) -> dict:
    st, mons, meta = load(cdb, pool)
    records = []
    for c in st:
        r = classify(c["text"], c["frame"])
        kinds = r["kinds"]
        bearing = bool(set(kinds) - NOT_BEARING)
        records.append({"name": c["name"], "frame": c["frame"], "speed": speed(c["frame"]), "kinds": kinds,
                        "why": r["why"],
                        "bearing": bearing, "damage_step_allowed": r["damage_step_allowed"],
                        "other_sentences": r["other_sentences"]})
    per_kind = collections.Counter(k for r in records for k in r["kinds"])
    per_group = collections.Counter()
    for r in records:
        for g in {KINDS[k][0] if k in KINDS else ("counter" if k.startswith("counter_negates") else
                                                  "effect" if k == "continuous_trigger" else "other")
                  for k in r["kinds"]}:
            per_group[g] += 1
    frames = collections.Counter(r["frame"] for r in records)
    steps, outside = coverage(records)
    mon = collections.Counter()
    miss = 0
    for m in mons:
        kinds = [k for k, rx in MONSTER_ACTIVATED.items() if rx.search(m["text"]) or (k == "flip" and m["flip"])]
        for k in kinds:
            mon[k] += 1
        if kinds:
            mon["any_activated"] += 1
        if MISS_TIMING.search(m["text"]):
            miss += 1
    return {
        "meta": meta,
        "spells_traps": len(records), "spells": sum(r["frame"].startswith("spell") for r in records),
        "traps": sum(r["frame"].startswith("trap") for r in records),
        "frames": dict(sorted(frames.items())),
        "speed": dict(sorted(collections.Counter(r["speed"] for r in records).items())),
        "bearing": sum(r["bearing"] for r in records),
        "no_bearing": [r["name"] for r in records if not r["bearing"]],
        "per_kind": dict(per_kind.most_common()),
        "per_group": dict(per_group.most_common()),
        "damage_step_allowed": sum(r["damage_step_allowed"] for r in records),
        "coverage_90": [{"kind": k, "covered": n, "share": round(s, 3)} for k, n, s in steps],
        "outside": [{"name": r["name"], "frame": r["frame"], "kinds": r["kinds"]} for r in outside],
        "monsters": {"effect_monsters": len(mons), **dict(mon), "optional_when_you_can": miss},
        "records": records,
    }


def print_exclude(s: dict, exclude: str) -> None:
    left = tuple(exclude.split(","))
    bearing = [r for r in s["records"] if r["bearing"]]
    out = [r for r in bearing if any((k.startswith(left) and k not in NOT_BEARING) or k == "other_condition"
                                     for k in r["kinds"])]
    print(f"modelling every kind but {', '.join(left)}: {len(bearing) - len(out)} of {len(bearing)} bearing cards "
          f"({(len(bearing) - len(out)) / len(bearing):.1%}); outside: {len(out)}")
    for r in out:
        print(f"  {r['frame']:18} {r['name']}: {', '.join(r['kinds'])}")


def print_cards(s: dict, prefix: str) -> None:
    for r in s["records"]:
        k = next((k for k in r["kinds"] if k.startswith(prefix)), None)
        if k:
            print(f"{r['frame']:18} {r['name']:34} | {r['why'].get(k, '')[:150]}")


def print_summary(s: dict, list_outside: bool) -> None:
    print(f"Spells and Traps in the pool: {s['spells_traps']} ({s['spells']} Spells, {s['traps']} Traps); "
          f"pool meta: {s['meta']}")
    print("frames:", s["frames"])
    print("spell speed:", s["speed"])
    print(f"activation text bears on the rules: {s['bearing']}; no bearing: {len(s['no_bearing'])}")
    print(f"may be activated in the Damage Step (Counter Trap, ATK/DEF change, or text): {s['damage_step_allowed']}")
    print("\ncards per group:")
    for k, n in s["per_group"].items():
        print(f"  {k:10} {n}")
    print("\ncards per kind:")
    for k, n in s["per_kind"].items():
        print(f"  {k:40} {n}")
    print("\nkinds in the order that covers the bearing cards (cumulative):")
    for st in s["coverage_90"]:
        print(f"  + {st['kind']:40} {st['covered']:4}  {st['share']:.1%}")
    print(f"\noutside those kinds: {len(s['outside'])}")
    if list_outside:
        for r in s["outside"]:
            print(f"  {r['frame']:18} {r['name']}: {', '.join(r['kinds'])}")
    print("\nEffect Monsters:", s["monsters"])


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--cdb", type=Path, default=DEFAULT_CDB)
    ap.add_argument("--pool", type=Path, default=ROOT / "facts" / "goat" / "cards.jsonl")
    ap.add_argument("--json", action="store_true", help="the whole survey as JSON (with every card's kinds)")
    ap.add_argument("--cards", metavar="KIND", help="the cards of one kind (a prefix), with the sentence read")
    ap.add_argument("--list-outside", action="store_true", help="the bearing cards outside the 90%% kinds")
    ap.add_argument("--exclude", metavar="K1,K2", help="coverage when every kind but these is modelled (prefixes)")
    a = ap.parse_args(argv)
    s = survey(a.cdb, a.pool)
    if a.json:
        json.dump(s, sys.stdout, indent=1)
        print()
    elif a.exclude:
        print_exclude(s, a.exclude)
    elif a.cards:
        print_cards(s, a.cards)
    else:
        print_summary(s, a.list_outside)
    return 0


if __name__ == "__main__":
    import signal
    signal.signal(signal.SIGPIPE, signal.SIG_DFL)   # `| head` ends the listing quietly
    sys.exit(main())
