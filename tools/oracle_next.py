#!/usr/bin/env python3
"""Compare `Engine.next` with the reference duel engine's successors (an instrument, never a test).

The oracle's harness (../shared/tools/oracle/compare.py, built as its README says) writes each
action its random policy takes to $ORACLE_OUT/results/POOL_rR_sS.next.jsonl.gz: the snapshot
before it, the action, the core's next decision point (`after`) and that point's `digest_after`
(zones by card name, positions, Life Points, Deck sizes, phase).  For each line this script asks
`Engine.next(before, action)` and compares the harness's own `digest` (compare.py imported by
path, read-only) of pyrules' successor with `digest_after`.  The core's `after` is its next
decision point: it skips the prompts where nobody may act, so when the digests differ the script
follows pyrules' successors while the player with priority has one permitted action and it is no
choice (`pass`, as docs/design/activation.md section 4 says; also `end_turn`), or the Draw Phase's
`draw` (whose card is read from the core's hand), or the move out of the Draw, Standby or End Phase's
open state when the core is in a later phase or turn (the core moves on by itself there), comparing after
each.

Tallies per action kind: `agree` (at once), `agree_after_steps` (with how many no-choice steps),
`differ`, `forbidden` (pyrules does not permit the core's action), `invalid` (pyrules refuses the
snapshot), `error` (Engine.next raised something else).  Writes $ORACLE_OUT/next/NAME.json (the
tallies) and NAME.differ.jsonl (the first --keep lines of each kind that did not agree, with both
digests' differing parts).  Exit 2 when pyrules has no `Engine.next` yet.

Two recording errors of the harness are known (docs/reference-engine.md), and a line that did not agree is
checked for them from the record itself; each is tallied as its own class and the figure is printed twice,
raw (every line as recorded) and corrected:
- `open_window_at_new_turn`: a Draw or Standby Phase response window written `open` where it is an `event`
  window (the harness's mark of the last prompt is not reset at a new turn, so the turn's first events do
  not count as new).  Recognised when the phase is `draw` or `standby`, the chain is empty, the turn has
  events and none of them is an activation (no chain has ended this turn, which would set the mark again).
  Corrected by comparing again with `window: event`: the corrected figure counts that outcome, so a
  disagreement that remains stays a disagreement.
- `procedure_recorded_as_activate`: the core's chain candidate, a face-up Spell or Trap Card, was a
  continuous procedure, not an activation ("Messenger of Peace"'s Standby Phase payment, "Swords of Revealing Light"'s count): the
  core did not chain the card before its next decision point (`core.chained: false`, written by the
  wrapper that records it), or its EDESC byte (`core.edesc`) is nonzero, or, in a record with neither,
  the core's successor in the same turn shows no activation of the card.  Counted only when pyrules
  forbids the activation (which is what the rules say of a procedure); left out of the corrected
  figure, since the record holds no action pyrules could be compared on.

Usage (the oracle's environment: ORACLE_OUT, ORACLE_TOOLS if the harness is elsewhere):
  python tools/oracle_next.py [--max N] [--keep K] [--passes P] RESULTS.next.jsonl.gz...
"""
from __future__ import annotations

import argparse
import collections
import gzip
import json
import os
import sys
from typing import Any, Iterator

HARNESS = os.environ.get("ORACLE_TOOLS", os.path.join(os.path.dirname(__file__), "../../shared/tools/oracle"))
if not os.path.exists(os.path.join(HARNESS, "compare.py")):
    sys.exit("no oracle harness at %s: set ORACLE_TOOLS to ../shared/tools/oracle" % HARNESS)  # exit status 1
sys.path.insert(0, HARNESS)

import compare  # noqa: E402  (the oracle's harness: its digest)

from pyrules import Engine, InvalidInput  # noqa: E402


def records(path: str) -> Iterator[dict]:
    """The lines of a .next.jsonl.gz with `before` resolved ("previous_after": the line before's `after`); a
    file cut short (a run stopped) gives its whole lines."""
    prev_after = None
    with gzip.open(path, "rt") as f:
        try:
            for line in f:
                rec = json.loads(line)
                if rec["before"] == "previous_after":
                    rec["before"] = prev_after
                prev_after = rec["after"]
                yield rec
        except (EOFError, json.JSONDecodeError):  # a run stopped for time: its file ends mid-line
            return


def completed(rec: dict) -> dict:
    """The core's action with what the core chose after it, when the successor shows it: a Normal Summon's
    or Set's Tributes (the harness records the command; the Tributes are chosen at the next prompt and
    the successor's Summon event lists them)."""
    action = dict(rec["action"])
    if action["action"] in ("normal_summon", "set") and "tributes" not in action:
        event: dict = next((e for e in reversed(rec["after"].get("this_turn", [])) if e["event"] == action["action"]), {})
        if event.get("tributes"):
            action["tributes"] = event["tributes"]
    return action


def successor(engine: Engine, snap: dict, action: dict) -> tuple[str, Any]:
    """('ok', snapshot) | ('forbidden', reasons) | ('invalid', problems) | ('error', text)."""
    try:
        res = engine.next(snap, action)
    except InvalidInput as e:
        return "invalid", [str(p) for p in e.problems]
    except Exception as e:  # a rule of rules/next/ made an invalid snapshot, or a decoder gap: counted, not fatal
        return "error", "%s: %s" % (type(e).__name__, str(e)[:300])
    after = getattr(res, "snapshot", res)
    if after is None:
        verdict = getattr(res, "verdict", None)
        return "forbidden", [r.to_json() if hasattr(r, "to_json") else str(r) for r in getattr(verdict, "reasons", ())]
    return "ok", after


def forced(engine: Engine, snap: dict, want: dict) -> dict | None:
    """The one action pyrules permits the player with priority when it is no choice: `pass` or `end_turn`; or
    the Draw Phase's `draw` whenever it is permitted (the core's next decision point after an End Phase is
    past the next turn's draw, its response windows skipped), its card named from the core's digest (the one
    card the hand gained); or, in the open state of the Draw, Standby or End Phase while the core's point is
    in another phase or turn, the move to the next phase or `end_turn` (the core has no command prompt in
    those phases: once both players have passed there it moves on itself); or `pass` at the other player's
    last chance before a phase move (`moving_to`, CONTRACT 10) while the core's point is in another phase or
    turn (the core is past that phase, so nobody acted: an activation would have cancelled the move); else
    None."""
    try:
        permitted = [a.to_json() for a in engine.legal(snap).permitted]
    except InvalidInput:
        return None
    draws = [a for a in permitted if a["action"] == "draw"]   # the core's next point is past the normal draw
    onward = {"draw": {"action": "enter_phase", "phase": "standby"}, "standby": {"action": "enter_phase", "phase": "main1"},
              "end": {"action": "end_turn"}}.get(snap.get("phase", ""))
    moves = [a for a in permitted if a == onward]
    passes = [a for a in permitted if a["action"] == "pass"]
    elsewhere = (want.get("phase"), want.get("turn")) != (snap.get("phase"), snap.get("turn"))
    if draws:
        permitted = draws[:1]
    elif passes and snap.get("moving_to") and elsewhere:
        return passes[0]
    elif moves and not snap.get("window") and elsewhere:
        return moves[0]
    if len(permitted) != 1 or permitted[0]["action"] not in ("pass", "end_turn", "draw"):
        return None
    action = permitted[0]
    if action["action"] == "draw" and "card_drawn" not in action:
        have = collections.Counter(compare.digest(snap)["players"][snap["turn_player"]]["hand"])
        gained = list((collections.Counter(want["players"][snap["turn_player"]]["hand"]) - have).elements())
        if len(gained) != 1:
            return None
        action["card_drawn"] = gained[0]
    return action


def follow(engine: Engine, after: dict, want: dict, max_steps: int) -> tuple[int | None, dict]:
    """How many of pyrules' no-choice successors (0..max_steps: see `forced`) reach the core's digest, or
    None; and the last successor's digest."""
    got = compare.digest(after)
    for n in range(max_steps + 1):
        if got == want:
            return n, got
        action = forced(engine, after, want) if n < max_steps else None
        if action is None:
            break
        status, nxt = successor(engine, after, action)
        if status != "ok":
            break
        after, got = nxt, compare.digest(nxt)
    return None, got


WINDOW_ERROR, PROCEDURE_ERROR = "open_window_at_new_turn", "procedure_recorded_as_activate"


def recorded_error(rec: dict, status: str) -> str | None:
    """Which known recording error of the harness a line that did not agree shows (module docstring), from the
    record itself; None when it shows neither."""
    before, events = rec["before"], rec["before"].get("this_turn", [])
    if rec["action"]["action"] == "activate" and status == "forbidden" and recorded_procedure(rec):
        return PROCEDURE_ERROR
    if (before.get("phase") in ("draw", "standby") and before.get("window") == "open" and not before.get("chain")
            and events and not any(e.get("event") == "activate" for e in events)):
        return WINDOW_ERROR
    return None


def recorded_procedure(rec: dict) -> bool:
    """Whether the core's chain candidate a line activates was a continuous procedure, not an activation: the
    wrapper's `core.chained` when recorded (the core chained the card before its next decision point or not); else a
    nonzero EDESC byte (EDESC_OPERATION, EDESC_RESET; a continuous effect's byte is 0 like an activation's, so 0
    says nothing); else no activation of the card in the core's successor of the same turn."""
    core = rec.get("core") or {}
    if not face_up_spell_trap(rec["before"], rec["action"]["card"]):  # a procedure is a face-up card's; a card from the
        return False                                                 # hand takes a new id on the field: no evidence
    if "chained" in core:
        return not core["chained"]
    if core.get("edesc"):
        return True
    before, after, card = rec["before"], rec["after"], rec["action"]["card"]
    activated = [e for e in after.get("this_turn", []) if e.get("event") == "activate" and e.get("card") == card]
    in_chain = any(link.get("card") == card for link in after.get("chain", []))
    return after.get("turn") == before.get("turn") and not activated and not in_chain


def face_up_spell_trap(snap: dict, card: str) -> bool:
    """Whether `card` is a face-up card in a Spell & Trap Zone (or the Field Zone) of the snapshot."""
    cards = [c for side in snap.get("players", {}).values() for c in side.get("spells_traps") or []]
    cards += [side["field_spell"] for side in snap.get("players", {}).values() if isinstance(side.get("field_spell"), dict)]
    return any(isinstance(c, dict) and c.get("id") == card and c.get("face") == "up" for c in cards)


def differing(a: Any, b: Any, path: str = "") -> dict[str, Any]:
    """The leaves where two digests differ: {path: [core, pyrules]}."""
    if isinstance(a, dict) and isinstance(b, dict):
        out: dict[str, Any] = {}
        for k in sorted(set(a) | set(b)):
            out.update(differing(a.get(k), b.get(k), path + "." + str(k) if path else str(k)))
        return out
    return {} if a == b else {path: [a, b]}


class Tally:
    """Counts per action kind and outcome, the no-choice steps taken, and the first lines of each outcome kept."""

    def __init__(self, keep: int) -> None:
        self.counts: collections.Counter = collections.Counter()
        self.corrected: collections.Counter = collections.Counter()  # (kind, outcome) after the corrections
        self.errors: collections.Counter = collections.Counter()     # (error class, kind, corrected outcome)
        self.passes: collections.Counter = collections.Counter()
        self.kept: list[dict] = []
        self.keep_n: collections.Counter = collections.Counter()
        self.keep = keep

    def add(self, kind: str, outcome: str, rec: dict, detail: Any = None, corrected: str | None = None) -> None:
        """One line's raw outcome, and its outcome after a recording error's correction when it showed one."""
        self.counts[(kind, outcome)] += 1
        self.corrected[(kind, corrected or outcome)] += 1
        key = (kind, outcome)
        if outcome.startswith("agree") or self.keep_n[key] >= self.keep:
            return
        self.keep_n[key] += 1
        self.kept.append({"kind": kind, "outcome": outcome, "action": rec["action"], "core": rec.get("core"),
                          "detail": detail, "before": rec["before"]})

    def table(self, counts: collections.Counter | None = None) -> dict[str, dict[str, int]]:
        out: dict[str, dict[str, int]] = collections.defaultdict(dict)
        for (kind, outcome), n in sorted((self.counts if counts is None else counts).items()):
            out[kind][outcome] = n
        return dict(out)

    def error_table(self) -> dict[str, dict[str, int]]:
        """Per recording error: how many lines showed it, by action kind and corrected outcome."""
        out: dict[str, dict[str, int]] = collections.defaultdict(dict)
        for (err, kind, outcome), n in sorted(self.errors.items()):
            out[err]["%s:%s" % (kind, outcome)] = n
        return dict(out)


def outcome_of(engine: Engine, rec: dict, max_passes: int) -> tuple[str, Any, int | None]:
    """(outcome, detail, no-choice steps) of pyrules' successor of the core's action against the core's next
    decision point."""
    status, got = successor(engine, rec["before"], completed(rec))
    if status != "ok":
        return status, got, None
    n, last = follow(engine, got, rec["digest_after"], max_passes)
    if n == 0:
        return "agree", None, 0
    if n is not None:
        return "agree_after_steps", None, n
    return "differ", differing(rec["digest_after"], last), None


def corrected_outcome(engine: Engine, rec: dict, status: str, max_passes: int) -> tuple[str | None, str | None]:
    """(recording error, outcome after its correction) of a line that did not agree, or (None, None)."""
    error = recorded_error(rec, status)
    if error == WINDOW_ERROR:
        fixed = dict(rec, before=dict(rec["before"], window="event"))
        return error, outcome_of(engine, fixed, max_passes)[0]
    if error == PROCEDURE_ERROR:
        return error, "excluded"
    return None, None


def compare_line(engine: Engine, rec: dict, tally: Tally, max_passes: int) -> None:
    """One line: its raw outcome and, when it did not agree and shows a known recording error, its corrected one."""
    kind = rec["action"]["action"]
    if rec["before"] is None:
        tally.add(kind, "no_before", rec)
        return
    outcome, detail, n = outcome_of(engine, rec, max_passes)
    if n:
        tally.passes[n] += 1
    error = fixed = None
    if not outcome.startswith("agree"):
        error, fixed = corrected_outcome(engine, rec, outcome, max_passes)
        if error:
            tally.errors[(error, kind, fixed)] += 1
            detail = {"recording_error": error, "corrected": fixed, "detail": detail}
    tally.add(kind, outcome, rec, detail, fixed)


def main(argv: list[str]) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("files", nargs="+")
    ap.add_argument("--max", type=int, default=0, help="lines per file (0: all)")
    ap.add_argument("--keep", type=int, default=5, help="lines kept per action kind and outcome")
    ap.add_argument("--passes", type=int, default=6, help="no-choice successors followed at most")
    ap.add_argument("--name", default=None, help="output name (default: the first file's)")
    args = ap.parse_args(argv)
    if not hasattr(Engine, "next"):
        print("pyrules has no Engine.next yet (CONTRACT 11; branch wp-next): nothing to compare", file=sys.stderr)
        return 2
    engine = Engine(cards=compare.CDB)
    tally = Tally(args.keep)
    for path in args.files:
        for i, rec in enumerate(records(path)):
            if args.max and i >= args.max:
                break
            compare_line(engine, rec, tally, args.passes)
    name = args.name or os.path.basename(args.files[0]).split(".")[0]
    out_dir = os.path.join(compare.OUT, "next")
    os.makedirs(out_dir, exist_ok=True)
    summary = {"files": args.files, "table": tally.table(), "corrected": tally.table(tally.corrected),
               "recording_errors": tally.error_table(), "passes": dict(sorted(tally.passes.items()))}
    with open(os.path.join(out_dir, name + ".json"), "w") as f:
        json.dump(summary, f, indent=1)
    with open(os.path.join(out_dir, name + ".differ.jsonl"), "w") as f:
        for k in tally.kept:
            f.write(json.dumps(k) + "\n")
    report(summary)
    return 0


def agreed(outcomes: dict[str, int]) -> tuple[int, int]:
    """(lines that agree, lines compared) of one action kind's outcomes; lines `excluded` are not compared."""
    n = sum(v for k, v in outcomes.items() if k != "excluded")
    return outcomes.get("agree", 0) + outcomes.get("agree_after_steps", 0), n


def report(summary: dict) -> None:
    """Agreement per action kind (agree at once or after no-choice steps), raw and corrected, and the recording
    errors, on stdout."""
    table, fixed = summary["table"], summary["corrected"]
    tot = [0, 0, 0, 0]
    print("  %-18s %-28s %-28s %s" % ("action", "raw (as recorded)", "corrected", "raw outcomes"))
    for kind, outcomes in sorted(table.items()):
        a, n = agreed(outcomes)
        ca, cn = agreed(fixed.get(kind, {}))
        tot = [tot[0] + a, tot[1] + n, tot[2] + ca, tot[3] + cn]
        print("  %-18s %6d/%-6d %6.2f%%        %6d/%-6d %6.2f%%        %s" % (
            kind, a, n, 100.0 * a / max(n, 1), ca, cn, 100.0 * ca / max(cn, 1), outcomes))
    print("  %-18s %6d/%-6d %6.2f%%        %6d/%-6d %6.2f%%" % (
        "all", tot[0], tot[1], 100.0 * tot[0] / max(tot[1], 1), tot[2], tot[3], 100.0 * tot[2] / max(tot[3], 1)))
    print("  no-choice steps followed (steps: lines): %s" % summary["passes"])
    for error, by in sorted(summary["recording_errors"].items()):
        print("  recording error %s: %d lines (action:corrected outcome) %s" % (error, sum(by.values()), by))


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
