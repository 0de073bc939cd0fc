#!/usr/bin/env python3
"""Check the pruner on the reference duel engine's decision points (an instrument, never a test).

Runs ../shared/tools/oracle/compare.py unchanged (it must be built: its README) and, at each
decision point it asks `pyrules legal` about, compares the shown atoms of the whole program with
every fact against those of the statements and facts the pruner keeps (pyrules/prune.py, the zone
step included): for legal() and `legal --all`, and with --checks for up to 2 permitted actions,
up to 3 forbidden candidates (drawn at random, seeded) and a Fusion, a Ritual and a procedure
Summon made up from the snapshot's cards.  Writes $ORACLE_OUT/prune_equiv_POOL_sSEED.txt: the
first differing snapshots (JSON lines), then the counts.

Usage (from the oracle's run folder, with its environment: OCG_ORACLE_DIR, ORACLE_OUT):
  python tools/oracle_prune_equiv.py [--checks] POOL NDUELS [SEED] [RULE]
"""
from __future__ import annotations

import json
import os
import random
import sys

sys.path.insert(0, os.environ.get("ORACLE_TOOLS", os.path.join(os.path.dirname(__file__), "../../shared/tools/oracle")))

import compare  # noqa: E402  (the oracle's harness)

from pyrules import InvalidInput  # noqa: E402
from pyrules.actions import parse_action  # noqa: E402
from pyrules.engine import REPORT_FORBIDDEN  # noqa: E402
from pyrules.solver import ground_and_solve  # noqa: E402

CHECKS = "--checks" in sys.argv
ARGS = [a for a in sys.argv[1:] if a != "--checks"]
SEED = int(ARGS[2]) if len(ARGS) > 2 else 1
RNG = random.Random(SEED)
LABEL = ARGS[0] + ("x" if os.environ.get("ORACLE_ASSUME_NEW") else "") + ("_checks" if CHECKS else "")
OUT = open(os.path.join(compare.OUT, "prune_equiv_%s_s%d.txt" % (LABEL, SEED)), "w")
STATS = {"points": 0, "compared": 0, "differ": 0, "invalid": 0}


def same(engine, snap: dict, facts, what) -> None:
    """The whole program's shown atoms against the kept program's, for one query's facts."""
    whole = sorted(map(str, ground_and_solve(engine.statements, facts, prune=False)))
    kept = sorted(map(str, ground_and_solve(engine.statements, facts)))
    STATS["compared"] += 1
    if whole != kept:
        STATS["differ"] += 1
        if STATS["differ"] <= 20:
            OUT.write(json.dumps({"snapshot": snap, "query": what, "only_whole": sorted(set(whole) - set(kept)),
                                  "only_kept": sorted(set(kept) - set(whole))}) + "\n")
            OUT.flush()


def made_up(snap: dict) -> list[dict]:
    """A Fusion, a Ritual and a procedure Summon of the turn player's cards, likely forbidden."""
    me = snap["players"].get(snap.get("turn_player", "A"), {})
    ids = {z: [c["id"] for c in me.get(z, [])] for z in ("hand", "monsters", "extra_deck", "graveyard")}
    ours = ids["hand"] + ids["monsters"]
    out = []
    if ids["extra_deck"]:
        out.append({"action": "fusion_summon", "card": RNG.choice(ids["extra_deck"]),
                    "materials": RNG.sample(ours, min(2, len(ours))), "position": "attack"})
    if ids["hand"]:
        costs = ids["graveyard"] + ids["monsters"]
        out.append({"action": "ritual_summon", "card": RNG.choice(ids["hand"]),
                    "tributes": RNG.sample(ours, min(2, len(ours))), "position": "defense"})
        out.append({"action": "procedure_summon", "card": RNG.choice(ids["hand"] + ids["extra_deck"]),
                    "costs": RNG.sample(costs, min(2, len(costs))), "position": "attack"})
    return out


def checks(engine, snap: dict) -> None:
    """Checks of actions drawn from legal --all, and of made-up Summons."""
    res = engine.legal(snap, include_forbidden=True)
    acts = RNG.sample(list(res.permitted), min(2, len(res.permitted)))
    forbidden = [v.action for v in res.forbidden]
    acts += RNG.sample(forbidden, min(3, len(forbidden)))
    for action in [a.to_json() for a in acts] + made_up(snap):
        try:
            _, facts, _ = engine.encode(snap, None, parse_action(action))
        except InvalidInput:
            STATS["invalid"] += 1
            continue
        same(engine, snap, facts, action)


_pyr = compare.Runner.pyr


def pyr(self, snap):
    """compare.py's own call, then the comparisons."""
    got = _pyr(self, snap)
    STATS["points"] += 1
    engine = self.engine
    list(engine.statements)                     # parsed: the zone step's path
    try:
        if CHECKS:
            checks(engine, snap)
        else:
            _, facts, _ = engine.encode(snap)
            for fs in (facts, facts + [REPORT_FORBIDDEN]):
                same(engine, snap, fs, "legal")
    except InvalidInput:
        STATS["invalid"] += 1
    return got


compare.Runner.pyr = pyr
sys.argv = [compare.__file__] + ARGS
try:
    compare.main()
finally:
    OUT.write(json.dumps(STATS) + "\n")
    OUT.close()
    print("prune_equiv", LABEL, SEED, STATS)
