"""Benchmark of the counterexample search (issue 5).

    python benchmarks/search_bench.py [--repeat N] [--json]

Measures, on this machine:
  * the first minimal counterexample of `pyrules diff position_change_limit` at scope
    monsters=2,events=3 (target: under 5 s), and of first_turn_draw at the default scope;
  * every shipped property proved in its default scope (target: under 30 s each);
  * a few larger scopes, to show how the search grows.
Times are wall-clock seconds of Searcher.diff / Searcher.verify (grounding and solving; the
Engine, which reads the rules once, is built beforehand and reported apart).
"""
from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from pyrules import Engine  # noqa: E402
from pyrules.search import Scope, Searcher  # noqa: E402


def timed(fn, repeat: int):
    times, result = [], None
    for _ in range(repeat):
        t = time.perf_counter()
        result = fn()
        times.append(time.perf_counter() - t)
    return result, times


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--json", action="store_true")
    args = ap.parse_args()

    t = time.perf_counter()
    engine = Engine()
    searcher = Searcher(engine)
    setup = time.perf_counter() - t
    rows = []

    def diff_row(reading, scope_text, limit):
        scope = Scope.parse(scope_text)
        res, times = timed(lambda: searcher.diff(reading, scope=scope), args.repeat)
        cx = res.found[0] if res.found else None
        rows.append({"what": f"diff {reading}", "scope": str(scope), "median_s": statistics.median(times),
                     "max_s": max(times), "limit_s": limit,
                     "result": (f"{cx.cards} card(s), {cx.events} event(s), {cx.action.term()}, "
                                f"minimal={cx.optimal}, reproduced={cx.reproduced}") if cx else res.summary()})

    diff_row("position_change_limit", "monsters=2,events=3", 5)
    diff_row("first_turn_draw", "", 5)
    diff_row("position_change_limit", "monsters=3,hand=2,graveyard=2,events=4", None)
    diff_row("position_change_limit", "monsters=5,hand=2,graveyard=2,events=5", None)

    for name in sorted(searcher.properties()):
        (res,), times = timed(lambda: searcher.verify([name]), args.repeat)
        rows.append({"what": f"verify {name}", "scope": str(res.result.scope), "median_s": statistics.median(times),
                     "max_s": max(times), "limit_s": 30, "result": res.summary().split(" (")[0]})
    for name, scope_text in [("attacker_keeps_position", "monsters=3,hand=2,graveyard=2,events=4"),
                             ("tribute_count_exact", "monsters=3,hand=2,graveyard=2,events=4")]:
        scope = Scope.parse(scope_text)
        (res,), times = timed(lambda: searcher.verify([name], scope=scope), args.repeat)
        rows.append({"what": f"verify {name}", "scope": str(scope), "median_s": statistics.median(times),
                     "max_s": max(times), "limit_s": None, "result": res.summary().split(" (")[0]})

    ok = all(r["limit_s"] is None or r["max_s"] < r["limit_s"] for r in rows)
    if args.json:
        print(json.dumps({"setup_s": setup, "repeat": args.repeat, "pool": list(searcher.pool),
                          "rows": rows, "within_limits": ok}, indent=2))
    else:
        print(f"Engine + Searcher setup: {setup:.2f}s; pool: {', '.join(searcher.pool)}; "
              f"{args.repeat} run(s) each\n")
        w = max(len(r["what"]) for r in rows)
        for r in rows:
            limit = f"< {r['limit_s']}s" if r["limit_s"] else ""
            print(f"{r['what'].ljust(w)}  median {r['median_s']:6.2f}s  max {r['max_s']:6.2f}s  {limit:7} "
                  f"{r['scope']}\n{'':{w}}  -> {r['result']}")
        print("\nall within limits" if ok else "\nSOME LIMIT EXCEEDED")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
