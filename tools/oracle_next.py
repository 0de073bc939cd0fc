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
`draw` (whose card is read from the core's hand), comparing after each.

Tallies per action kind: `agree` (at once), `agree_after_steps` (with how many no-choice steps),
`differ`, `forbidden` (pyrules does not permit the core's action), `invalid` (pyrules refuses the
snapshot), `error` (Engine.next raised something else).  Writes $ORACLE_OUT/next/NAME.json (the
tallies) and NAME.differ.jsonl (the first --keep lines of each kind that did not agree, with both
digests' differing parts).  Exit 2 when pyrules has no `Engine.next` yet.

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
        event = next((e for e in reversed(rec["after"].get("this_turn", [])) if e["event"] == action["action"]), {})
        if event.get("tributes"):
            action["tributes"] = event["tributes"]
    return action


def successor(engine: Engine, snap: dict, action: dict) -> tuple[str, Any]:
    """('ok', snapshot) | ('forbidden', reasons) | ('invalid', problems) | ('error', text)."""
    try:
        res = engine.next(snap, action)  # type: ignore[attr-defined]
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
    card the hand gained); else None."""
    try:
        permitted = [a.to_json() for a in engine.legal(snap).permitted]
    except InvalidInput:
        return None
    draws = [a for a in permitted if a["action"] == "draw"]   # the core's next point is past the normal draw
    if draws:
        permitted = draws[:1]
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
        self.passes: collections.Counter = collections.Counter()
        self.kept: list[dict] = []
        self.keep_n: collections.Counter = collections.Counter()
        self.keep = keep

    def add(self, kind: str, outcome: str, rec: dict, detail: Any = None) -> None:
        self.counts[(kind, outcome)] += 1
        key = (kind, outcome)
        if outcome.startswith("agree") or self.keep_n[key] >= self.keep:
            return
        self.keep_n[key] += 1
        self.kept.append({"kind": kind, "outcome": outcome, "action": rec["action"], "core": rec.get("core"),
                          "detail": detail, "before": rec["before"]})

    def table(self) -> dict[str, dict[str, int]]:
        out: dict[str, dict[str, int]] = collections.defaultdict(dict)
        for (kind, outcome), n in sorted(self.counts.items()):
            out[kind][outcome] = n
        return dict(out)


def compare_line(engine: Engine, rec: dict, tally: Tally, max_passes: int) -> None:
    """One line: pyrules' successor of the core's action against the core's next decision point."""
    kind = rec["action"]["action"]
    if rec["before"] is None:
        tally.add(kind, "no_before", rec)
        return
    status, got = successor(engine, rec["before"], completed(rec))
    if status != "ok":
        tally.add(kind, status, rec, got)
        return
    n, last = follow(engine, got, rec["digest_after"], max_passes)
    if n == 0:
        tally.add(kind, "agree", rec)
    elif n is not None:
        tally.add(kind, "agree_after_steps", rec)
        tally.passes[n] += 1
    else:
        tally.add(kind, "differ", rec, differing(rec["digest_after"], last))


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
    summary = {"files": args.files, "table": tally.table(), "passes": dict(sorted(tally.passes.items()))}
    with open(os.path.join(out_dir, name + ".json"), "w") as f:
        json.dump(summary, f, indent=1)
    with open(os.path.join(out_dir, name + ".differ.jsonl"), "w") as f:
        for k in tally.kept:
            f.write(json.dumps(k) + "\n")
    report(summary["table"], summary["passes"])
    return 0


def report(table: dict[str, dict[str, int]], passes: dict[int, int]) -> None:
    """Agreement per action kind (agree at once or after no-choice steps) on stdout."""
    tot_a = tot = 0
    for kind, outcomes in sorted(table.items()):
        n = sum(outcomes.values())
        a = outcomes.get("agree", 0) + outcomes.get("agree_after_steps", 0)
        tot_a, tot = tot_a + a, tot + n
        print("  %-18s %6d/%-6d agree %6.2f%%  %s" % (kind, a, n, 100.0 * a / max(n, 1), outcomes))
    print("  all                %6d/%-6d agree %6.2f%%  no-choice steps followed (steps: lines): %s" % (tot_a, tot, 100.0 * tot_a / max(tot, 1),
                                                                            passes))


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
