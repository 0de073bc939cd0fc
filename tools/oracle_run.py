#!/usr/bin/env python3
"""Play random duels in the reference duel engine and compare its lists with pyrules' (an instrument, never a test).

Runs the oracle's harness (../shared/tools/oracle/compare.py, built as its README says) unchanged but for these
additions, patched in from outside:
1. compare.py's discard list compares counts (ints); on a disagreement its key is built with "|" + name, which
   fails for an int: name_of is wrapped to return a str.
2. Every disagreement is also written to $ORACLE_OUT/dis/LABEL_rR_sS.jsonl.gz (kind, dispute, the snapshot), so
   each can be classified, not only the first example of each kind.
3. The results JSON is written after every duel too, so a run stopped for time keeps its tallies.
4. An activation taken at a chain prompt records the candidate's EDESC byte (`core.edesc` in *.next.jsonl);
5. and whether the core chained it before its next decision point (`core.chained`: false for a continuous
   procedure offered as a candidate, whose EDESC byte is 0 too).  tools/oracle_next.py reads both.

With --corrected, the harness's known recording errors (docs/reference-engine.md) are corrected as the duel is
played; the random policy draws nothing more, so the same seed plays the same duels, and each correction is
tallied under "fix:*":
- `events_mark` is reset at a new turn (the harness empties the turn's events there but keeps the mark, so the
  Draw and Standby Phases' first response windows were written `open`);
- the core's chain prompt to the turn player in an open state with an empty chain (after a chain resolved, or at
  a phase's start) is not compared: the core offers only spell speed 2 and higher there and the speed-1 rest at
  the idle command that follows, which is compared (CONTRACT 8 has one decision point there);
- a chain candidate whose EDESC byte is nonzero is a continuous procedure, no activation: left out of the core's
  list;
- `attack` is dropped from a snapshot whose attacker, or attacked monster, has left the field;
- each Deck is written as its cards by name, top first (CONTRACT 10), not as a count: the core's scripts look into
  the Deck ("Gather Your Mind", "Rock Bombardment"), which a count cannot show;
- a chain link whose card moves while the chain is built (the cost of "Wave-Motion Cannon" sends the card itself to
  the Graveyard, "Amazoness Archer" may Tribute itself) names the card where it is now, not the id of the zone it left
  (the snapshot held no card of that id: rejected);
- a Summon being performed that the chain built on it negated ("Horn of Heaven") is no longer being performed once
  that chain is over (the harness kept `summoning: true` on it, after the activations, with no chain: rejected);
- a face-up "Narrow Pass" leaves `normal_summons_left` on each player: 2 less the Normal Summons (Tribute Summons
  included) that player made since its activation, which the harness counts from the core's messages (pyrules reads
  the count from the snapshot; the core's script reads the card otherwise: no Normal Summon while the player controls
  2 or more monsters, so where the two part the lists still differ);
- the Monster Zones the core reports disabled (MSG_FIELD_DISABLED: "Ground Collapse", "Ojama King", "Dimensionhole")
  are written as `unusable_monster_zones` on their player, counting the empty ones (the harness wrote none, so
  pyrules saw a free zone where the core had none);
- a lock on activations the core registers on a player (EFFECT_CANNOT_ACTIVATE, whose filter is a script function the
  harness cannot read) is written as `cards_cannot_be_activated` for the cards its owner's text names
  (ACTIVATION_LOCKS: "Sasuke Samurai #2", Spell and Trap Cards until the End Phase); the harness wrote nothing;
- the Spell Counters the core's card query reports on each card on the field (QUERY_COUNTERS, counter kind 0x1) are
  written as that card's `counters: {spell: N}` (the harness wrote none, so every card held none: "Miracle Restoring"
  and "Skilled Dark Magician" were never payable for pyrules);
- a face-up Spell or Trap Card's effect chained (a Continuous, Equip or Field Spell's, a Continuous Trap's, with a
  description of its own, aux.Stringid(code, k)) is written as its effect k+2: the harness wrote none for the first
  (effect 1, the number of the card's own activation, CONTRACT 9) and k+1 for the others; approximate as the
  harness's reading is (a card whose activation has a description of its own, "Call of the Mummy", is read as a
  face-up effect too);
- a monster destroyed on the field and sent to the Graveyard is written as a `destroyed` event (CONTRACT 9: `by`
  battle or effect, the card as it is in the Graveyard): the harness wrote none, so a card that answers it
  ("Michizure", "Hero Signal") had no event to answer. (Spells and Traps destroyed are not written: whose effect
  destroyed a card, which some of those answers ask, is not in the core's message.)
- a Spell or Trap Card Set in a Spell & Trap Zone (MSG_SET) is written with the turn it was Set (`set_turn`, on a
  face-down card only; forgotten when the card leaves the zone): the harness wrote none, so "Anti-Spell Fragrance"'s
  wait for its player's next turn could not be read in the opponent's turn after the Set;
- an End Phase discard prompt that is not the hand size's (its count is not the hand's cards beyond 6: a card's own
  End Phase discard, "Spiritual Energy Settle Machine"'s) is not compared: the harness took every discard prompt of
  the turn player's End Phase over their whole hand for the hand size's.

usage: ORACLE_OUT=DIR OCG_ORACLE_DIR=DIR ORACLE_ASSUME_NEW=1 python tools/oracle_run.py [--corrected] POOL NDUELS SEED RULE
"""
import collections
import gzip
import json
import os
import struct
import sys

HARNESS = os.environ.get("ORACLE_TOOLS", os.path.join(os.path.dirname(__file__), "../../shared/tools/oracle"))
if not os.path.exists(os.path.join(HARNESS, "compare.py")):
    sys.exit("no oracle harness at %s: set ORACLE_TOOLS to ../shared/tools/oracle" % HARNESS)  # exit status 1
sys.path.insert(0, HARNESS)
CORRECTED = "--corrected" in sys.argv
if CORRECTED:
    sys.argv.remove("--corrected")

import compare  # type: ignore[import-not-found]  # noqa: E402

FIX: collections.Counter = collections.Counter()


def candidates(b) -> list:
    """A MSG_SELECT_CHAIN's candidates: (EDESC byte, forced, code, location, description) each."""
    return [struct.unpack_from("<BBIII", b, 11 + 14 * k) for k in range(b[1])]


ORIGINAL = {"track": compare.Duel.track, "snapshot": compare.Duel.snapshot,
            "chain_point": compare.Runner.chain_point, "duel": compare.Runner.duel,
            "discard_point": compare.Runner.discard_point}
HAND_SIZE = 6   # rulebook-turn-and-summons: the End Phase (a hand of more than 6 cards is discarded down to 6)


NARROW_PASS = 40172183
MSG_FIELD_DISABLED = 56     # the core's message: the zones disabled now (player 0's bits, then player 1's from bit 16)
ZONE_DISABLERS = ("Ground Collapse", "Ojama King", "Dimensionhole")
EFFECT_CANNOT_ACTIVATE = 6
REASON_DESTROY, REASON_BATTLE = 0x1, 0x20
ACTIVATION_LOCKS = {"Sasuke Samurai #2": ("spell", "trap")}   # the owner of such a lock -> the cards its text names


def fixed_track(self, t, b):
    """--corrected: the harness's events mark is reset at a new turn; a chain link's card followed where it moves; a
    Summon negated by the chain on it is no longer being performed; the Normal Summons since "Narrow Pass"; the turn a
    card was Set in a Spell & Trap Zone."""
    moved = None
    if t == compare.M.MOVE:
        _code, prev, cur, reason = struct.unpack_from("<IIII", b)
        pc, pl_, ps, _pp = compare.loc_of(prev)
        moved = (self.id_of(pc, pl_, ps), compare.loc_of(cur), (pc, pl_, ps), reason)
    out = ORIGINAL["track"](self, t, b)
    track_set(self, t, b)
    if t == compare.M.NEW_TURN:
        self.events_mark = 0
    elif moved is not None:
        track_move(self, *moved)
    elif t == compare.M.CHAIN_END and self.summoning and self.summoning.get("card") not in self.slot.values():
        self.summoning = None
        FIX["negated_summon_ended"] += 1
    elif t == compare.M.CHAINING:
        code, info = struct.unpack_from("<II", b)
        c, loc, seq, _p = compare.loc_of(info)
        if code == NARROW_PASS and loc == compare.L_SZONE:
            narrow(self)[(c, seq)] = [0, 0]
        _c, _i, _tc, tl, _ts, desc = struct.unpack_from("<IIBBBI", b)
        faceup_effect_number(self, code, tl, desc)
    elif t == MSG_FIELD_DISABLED:
        self.disabled_field = struct.unpack_from("<I", b)[0]
    elif t == compare.M.SUMMONING:
        _code, info = struct.unpack_from("<II", b)
        c, loc, _s, _p = compare.loc_of(info)
        for counts in narrow(self).values():
            counts[c] += loc == compare.L_MZONE
    return out


def faceup_effect_number(d, code, where, desc) -> None:
    """A Spell or Trap Card's effect chained from the Spell & Trap Zone with a description of its own
    (aux.Stringid(code, k)) is its face-up effect: the card's own activation is its effect 1 (CONTRACT 9, its
    description 0), so its face-up effects count from 2 (rules/activation_faceup.lp); the harness wrote k+1 for k>0 and
    nothing (effect 1) for k=0.  `where`: the location the effect was activated from (the card may have moved since:
    "Wave-Motion Cannon"'s cost)."""
    ev = d.events[-1] if d.events else None
    if where != compare.L_SZONE or not ev or ev.get("event") != "activate" or desc >> 4 != code:
        return
    t = _card_type(code)      # a Continuous, Equip or Field Spell or a Continuous Trap (no monster, a Union, there)
    if not t & 0x6 or t & 0x1 or not t & (0x20000 | 0x40000 | 0x80000):
        return
    ev["effect"] = (desc & 0xf) + 2
    if d.chain and d.chain[-1].get("card") == ev.get("card"):
        d.chain[-1]["effect"] = ev["effect"]
    FIX["faceup_effect_number"] += 1


_TYPES: dict = {}


def _card_type(code) -> int:
    """The card type bits of a card code, from the harness's card database (loaded once)."""
    if not _TYPES:
        _TYPES.update({c: row[2] for c, row in compare.CardDB(compare.CDB).rows.items()})
    return _TYPES.get(code & 0x7fffffff, 0)


def activation_locks(d, s) -> None:
    """The players' applied locks on activating Spells or Traps (ACTIVATION_LOCKS), as cards_cannot_be_activated."""
    for pl in (0, 1):
        for e in d.core_effects(pl, 0, 0, [EFFECT_CANNOT_ACTIVATE]):
            src = d.db.names.get(e["owner"])
            if src in ACTIVATION_LOCKS and d.is_applied(e):
                s.setdefault("effects", []).extend({"effect": "cards_cannot_be_activated", "player": "AB"[pl], "what": w,
                                                    "during": "any", "source": src} for w in ACTIVATION_LOCKS[src])
                FIX["activation_lock_written"] += 1


def unusable_zones(d, s) -> None:
    """The empty Monster Zones the core has disabled, written as unusable_monster_zones on their player."""
    bits = getattr(d, "disabled_field", 0)
    if not bits & 0x1f001f:
        return
    on_field = [c["card"] for p in s["players"].values() for c in (p.get("monsters") or []) + (p.get("spells_traps") or [])
                if c.get("face") == "up" and c.get("card") in ZONE_DISABLERS]
    for pl in (0, 1):
        taken = d.query(pl, compare.L_MZONE)[:5]
        count = sum(1 for k in range(5) if bits >> (16 * pl + k) & 1 and (k >= len(taken) or taken[k] is None))
        if count:
            e = {"effect": "unusable_monster_zones", "player": "AB"[pl], "count": count}
            if on_field:
                e["source"] = on_field[0]
            s.setdefault("effects", []).append(e)
            FIX["unusable_zones_written"] += 1


QUERY_COUNTERS_FLAGS = 0x20003  # QUERY_CODE | QUERY_POSITION | QUERY_COUNTERS: code, location, then the counters
COUNTER_KINDS = {0x1: "spell"}  # the core's counter kinds -> the snapshot's counters keys


def field_counters(d, pl, loc) -> dict:
    """The counters the core reports on player pl's cards in location loc: zone index -> {kind: count}."""
    ln = d.L.query_field_card(d.p, pl, loc, QUERY_COUNTERS_FLAGS, d.buf, 0)
    raw, i, out = d.buf.raw[:ln], 0, {}
    while i < ln:
        clen = struct.unpack_from("<i", raw, i)[0]
        if clen > 4:
            _qf, _code, info, n = struct.unpack_from("<IIIi", raw, i + 4)
            seq = compare.loc_of(info)[2]
            for k in range(n):
                word = struct.unpack_from("<I", raw, i + 20 + 4 * k)[0]
                kind = COUNTER_KINDS.get(word & 0xffff)
                if kind and word >> 16:
                    out.setdefault(seq, {})[kind] = word >> 16
        i += max(clen, 4)
    return out


def write_counters(d, s) -> None:
    """The counters on each card on the field, written on its entry (monsters by the harness's slot ids, Spells and
    Traps by zone)."""
    for pl, key in ((0, "A"), (1, "B")):
        side = s["players"][key]
        for loc, ids in ((compare.L_MZONE, {seq: d.slot.get((pl, seq)) for seq in range(5)}),
                         (compare.L_SZONE, {**{seq: "%s.s%d" % (key, seq) for seq in range(5)}, 5: "%s.fs" % key})):
            for seq, counters in field_counters(d, pl, loc).items():
                entries = (side.get("monsters") or []) + (side.get("spells_traps") or []) + [side.get("field_spell") or {}]
                for e in entries:
                    if e.get("id") == ids.get(seq) and e.get("face") != "down":
                        e["counters"] = counters
                        FIX["counters_written"] += 1


def set_turns(d) -> dict:
    """The turn each card in a Spell & Trap Zone was Set on: (controller, zone) -> turn."""
    if not hasattr(d, "set_turn_of"):
        d.set_turn_of = {}
    return d.set_turn_of


def track_set(d, t, b) -> None:
    """MSG_SET: a card Set in a Spell & Trap Zone on this turn."""
    if t != compare.M.SET:
        return
    _code, info = struct.unpack_from("<II", b)
    c, loc, seq, _p = compare.loc_of(info)
    if loc == compare.L_SZONE:
        set_turns(d)[(c, seq)] = d.turn


def write_set_turns(d, s) -> None:
    """Each face-down card in a Spell & Trap Zone the harness saw Set gets its `set_turn`."""
    for (c, seq), turn in set_turns(d).items():
        for e in s["players"]["AB"[c]].get("spells_traps") or []:
            if e.get("id") == "%s.s%d" % ("AB"[c], seq) and e.get("face") == "down" and 1 <= turn <= s["turn"]:
                e["set_turn"] = turn
                FIX["set_turn_written"] += 1


def narrow(d) -> dict:
    """The face-up "Narrow Pass" cards the harness follows: (controller, zone) -> Normal Summons since its activation,
    per player."""
    if not hasattr(d, "narrow_pass"):
        d.narrow_pass = {}
    return d.narrow_pass


def track_move(d, old_id, cur, prev, reason) -> None:
    """A card moved: a chain link naming it by the zone it left names it where it is now; a "Narrow Pass" that left
    its zone is followed no more; a monster destroyed on the field and sent to the Graveyard is a `destroyed` event."""
    c, loc, seq, _p = cur
    new_id = d.id_of(c, loc, seq)
    if prev[1] == compare.L_SZONE:   # it left its Spell & Trap Zone: its Set turn goes with it
        set_turns(d).pop((prev[0], prev[2]), None)
    if prev[1] == compare.L_MZONE and loc == compare.L_GRAVE and reason & REASON_DESTROY:
        d.events.append({"event": "destroyed", "card": new_id, "by": "battle" if reason & REASON_BATTLE else "effect"})
        FIX["destroyed_event_written"] += 1
    for link in d.chain:
        if link.get("card") == old_id and old_id != new_id:
            link["card"] = new_id
            FIX["chain_card_moved"] += 1
    if prev[1] == compare.L_SZONE:
        narrow(d).pop((prev[0], prev[2]), None)


def fixed_snapshot(self, phase_name, first_turn_draw, extra=None):
    """--corrected: each Deck listed by name; no `attack` whose attacker or attacked monster has left the field."""
    s = ORIGINAL["snapshot"](self, phase_name, first_turn_draw, extra)
    for pl, key in ((0, "A"), (1, "B")):  # the core's Deck (location 1), top card first (the end of its list)
        s["players"][key]["deck"] = [self.db.names[c[0]] for c in reversed(self.query(pl, 1)) if c]
    face_up = {c["id"] for p in s["players"].values() for c in p.get("spells_traps") or []
               if c.get("card") == "Narrow Pass" and c.get("face") == "up"}
    for (c, seq), counts in sorted(narrow(self).items()):
        if "%s.s%d" % ("AB"[c], seq) in face_up:
            s.setdefault("effects", []).extend(
                {"effect": "normal_summons_left", "player": "AB"[pl], "count": max(0, 2 - counts[pl]),
                 "source": "Narrow Pass"} for pl in (0, 1))
            FIX["narrow_pass_counted"] += 1
    unusable_zones(self, s)
    write_set_turns(self, s)
    activation_locks(self, s)
    write_counters(self, s)
    a = s.get("attack")
    if isinstance(a, dict):
        on_field = {m["id"] for p in s["players"].values() for m in p.get("monsters") or [] if isinstance(m, dict)}
        if a.get("attacker") not in on_field or a.get("target") not in on_field | {"direct"}:
            del s["attack"]
            FIX["stale_attack_dropped"] += 1
        elif a.get("targets_at_declaration"):
            a["targets_at_declaration"] = [t for t in a["targets_at_declaration"] if t in on_field]
    return s


def fixed_chain_point(self, d, b):
    """--corrected: the open-state prompt to the turn player is not compared; procedures are no candidates."""
    pl, n = b[0], b[1]
    raw = [bytes(b[11 + 14 * k: 11 + 14 * (k + 1)]) for k in range(n)]
    cands = candidates(b)
    if not d.chain and len(d.events) <= d.events_mark and pl == d.turn_player and not d.moving_to:
        FIX["open_select_chain_skipped"] += 1
        saved, before = self.cmp_set, (self.tally["points:chain"], self.tally["agree_point"])
        self.cmp_set = lambda *a, **k: True
        try:
            full, _ = ORIGINAL["chain_point"](self, d, b)
        finally:
            self.cmp_set = saved
        self.tally["points:chain"], self.tally["agree_point"] = before
        return full, cands
    keep = [k for k, x in enumerate(cands) if x[0] == 0]
    if len(keep) == n:
        return ORIGINAL["chain_point"](self, d, b)
    FIX["edesc_candidates_dropped"] += n - len(keep)
    full, _ = ORIGINAL["chain_point"](self, d, bytes(b[:1]) + bytes([len(keep)]) + bytes(b[2:11])
                                      + b"".join(raw[k] for k in keep))
    return full, cands


def fixed_discard_point(self, d, b):
    """--corrected: a discard prompt whose count is not the hand's cards beyond the hand size is a card's own discard,
    not the End Phase's: answered as the harness answers it, not compared."""
    mn, n = b[2], b[4]
    if mn == n - HAND_SIZE:
        return ORIGINAL["discard_point"](self, d, b)
    FIX["effect_discard_not_compared"] += 1
    saved, before = self.cmp_set, (self.tally["points:discard"], self.tally["agree_point"])
    self.cmp_set = lambda *a, **k: True
    try:
        return ORIGINAL["discard_point"](self, d, b)
    finally:
        self.cmp_set = saved
        self.tally["points:discard"], self.tally["agree_point"] = before


def fixed_duel(self, *a, **k):
    """--corrected: the corrections' counts go into the tallies."""
    try:
        return ORIGINAL["duel"](self, *a, **k)
    finally:
        for key, v in FIX.items():
            self.tally["fix:" + key] = v


if CORRECTED:  # applied first, so the additions below wrap them (the results written after each duel hold fix:*)
    compare.Duel.track, compare.Duel.snapshot = fixed_track, fixed_snapshot
    compare.Runner.chain_point, compare.Runner.duel = fixed_chain_point, fixed_duel
    compare.Runner.discard_point = fixed_discard_point

_name_of = compare.Runner.name_of
compare.Runner.name_of = lambda self, snap, cid: str(_name_of(self, snap, cid))

label = sys.argv[1] + ("x" if os.environ.get("ORACLE_ASSUME_NEW") else "")
os.makedirs(os.path.join(compare.OUT, "dis"), exist_ok=True)
LOG = gzip.open(os.path.join(compare.OUT, "dis", "%s_r%s_s%s.jsonl.gz" % (
    label, sys.argv[4] if len(sys.argv) > 4 else "1", sys.argv[3] if len(sys.argv) > 3 else "1")), "wt")
_disagree = compare.Runner.disagree


def disagree(self, kind, snap, detail, cards=()):
    rec = {"kind": kind, "cards": [str(c) for c in cards], "dispute": detail, "snapshot": snap}
    if kind.startswith(("chain", "pass")) and getattr(self, "_chain_meta", None) is not None:
        rec["core_cands"] = self._chain_meta  # per candidate: id, EDESC byte (0 activation, else a procedure), forced
    LOG.write(json.dumps(rec) + "\n")
    return _disagree(self, kind, snap, detail, cards)


compare.Runner.disagree = disagree
_chain_point = compare.Runner.chain_point


def around_candidates(original, attr: str, record):
    """`original(self, d, b)` at a chain prompt, with `self.<attr>` set meanwhile to what `record(self, d,
    candidates)` makes of the prompt's candidates (None again after)."""
    def wrapped(self, d, b):
        setattr(self, attr, record(self, d, candidates(b)))
        try:
            return original(self, d, b)
        finally:
            setattr(self, attr, None)
    return wrapped


compare.Runner.chain_point = around_candidates(
    _chain_point, "_chain_meta",
    lambda self, d, cands: [[d.id_of(*compare.loc_of(x[3])[:3]), x[0], x[1], self.db.names.get(x[2] & 0x7fffffff)]
                            for x in cands])

# 4. an activation the policy took at a chain prompt carries the candidate's EDESC byte in its `core` detail
#    (results/*.next.jsonl): nonzero (EDESC_OPERATION / EDESC_RESET) marks a continuous procedure the core
#    offers as a candidate, no activation (tools/oracle_next.py of pyrules reads it).
_answer_chain = compare.Runner.answer_chain


compare.Runner.answer_chain = around_candidates(
    _answer_chain, "_took_edesc", lambda self, d, cands: {d.id_of(*compare.loc_of(x[3])[:3]): x[0] for x in cands})
_took = compare.Runner.took


def took(self, full, action, core):
    edesc = getattr(self, "_took_edesc", None) or {}
    if action.get("action") == "activate" and action.get("card") in edesc:
        core = dict(core, edesc=edesc[action["card"]])
    return _took(self, full, action, core)


compare.Runner.took = took

# 5. ... and whether the core chained it: `core.chained` (a MSG_CHAINING of that card before the next decision
#    point; false: the candidate was a continuous procedure, such as "Messenger of Peace"'s Standby Phase payment,
#    whose EDESC byte is 0 like an activation's).  Meaningful for a card already on the field only: a card activated
#    from the hand is chained under its new field id.
_track = compare.Duel.track


def track(self, t, b):
    if t == compare.M.CHAINING:
        code, info, tc, tl, ts, desc, n = compare.struct.unpack_from("<IIBBBIB", b)
        c, loc, s_, p = compare.loc_of(info)
        self.oracle_chained = getattr(self, "oracle_chained", []) + [self.id_of(c, loc, s_)]
    return _track(self, t, b)


compare.Duel.track = track
_took5 = compare.Runner.took


def took5(self, full, action, core):
    d = self.cur_duel
    out = _took5(self, full, action, core)
    self._chain_watch = None
    if action.get("action") == "activate" and d is not None and self.pending:
        self._chain_watch = (action["card"], len(getattr(d, "oracle_chained", [])), self.pending[2])
    return out


compare.Runner.took = took5
_note = compare.Runner.note


def note(self, d, full):
    w = getattr(self, "_chain_watch", None)
    if w and self.pending and self.pending[2] is w[2]:
        w[2]["chained"] = w[0] in getattr(d, "oracle_chained", [])[w[1]:]
    self._chain_watch = None
    return _note(self, d, full)


compare.Runner.note = note

# 3. the results JSON is written after every duel too (same shape as compare.main's), so a run stopped for
#    time keeps its tallies; compare.main overwrites it at the end.
_duel = compare.Runner.duel
ERRORS = {}


def duel(self, seed, *a, **k):
    try:
        return _duel(self, seed, *a, **k)
    except compare.HarnessError as e:
        ERRORS[str(e)[:80]] = ERRORS.get(str(e)[:80], 0) + 1
        raise
    finally:
        out = {"pool": label, "rule": self.rule, "seed": int(sys.argv[3]), "tally": dict(self.tally),
               "errors": dict(ERRORS), "by_card": {"%s|%s" % kk: v for kk, v in self.by_card.most_common()},
               "kcount": dict(self.kcount), "examples": {kk: v[0] for kk, v in self.kinds.items()},
               "interim_duels_started": seed % 100000 + 1}
        fn = os.path.join(compare.OUT, "results", "%s_r%d_s%s.json" % (label, self.rule, sys.argv[3]))
        with open(fn + ".tmp", "w") as f:
            json.dump(out, f)
        os.replace(fn + ".tmp", fn)
        LOG.flush()  # a run stopped for time keeps its disagreements up to the last duel


compare.Runner.duel = duel
sys.argv[0] = compare.__file__
try:
    compare.main()
finally:
    LOG.close()
