#!/usr/bin/env python3
"""pyrules benchmark: prints ONE table from one run.

    python benchmarks/bench.py            # the full run (several minutes)
    python benchmarks/bench.py --quick    # a smoke run for CI (small counts; numbers are rough)

Rows: per-query latency of a typical snapshot (median, p95) against the floor measured in
the same run, as issue 6 defines it (ground() + solve() on a Control that already holds the
rules and the snapshot's facts), and against the ground+solve of only what pyrules grounds
(the rules the pruner keeps and the facts they read: the rest is pyrules' own Python); the naive way (new Control, load every .lp file, facts as
text, ground, solve); `pyrules check` from the shell; batch throughput with 1 and 2 workers; growth with
monsters, events and Synchro Monsters in the Extra Deck; the Fusion/Ritual/procedure board of
issue 13 (benchmarks/summons_board.yaml) against the typical query (alternating blocks of 20, 1,000 queries of
each: with 200 the ratio moved by 0.4 from run to run on this machine; the median of the ratios within each
round of two blocks, which drifts slower than a round do not move, and the ratio of the medians); peak memory
and memory after many
queries with unique card ids; `diff READING --depth 2` and `--depth 3` for each shipped reading.  Times are medians unless the row says otherwise.
"""
from __future__ import annotations

import argparse
import datetime
import gc
import json
import os
import platform
import resource
import shutil
import statistics
import subprocess
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
sys.path.insert(0, str(HERE))
sys.path.insert(0, str(ROOT))

import clingo  # noqa: E402
import clingo.ast  # noqa: E402

from pyrules import Engine  # noqa: E402
from pyrules.batch import run  # noqa: E402
from pyrules.encode import encode  # noqa: E402
from pyrules.solver import BASE, CLINGO_ARGS, program_for  # noqa: E402
from pyrules.symbols import add_facts, add_statements  # noqa: E402
from workload import snapshot, spell_trap_board, summons_board, synchro_board, typical  # noqa: E402


def ms(seconds: float) -> str:
    return f"{seconds * 1e3:.2f} ms"


def pct(values: list[float], q: float) -> float:
    values = sorted(values)
    return values[min(len(values) - 1, int(q * len(values)))]


def rss_mb() -> float:
    with open("/proc/self/statm") as f:
        return int(f.read().split()[1]) * os.sysconf("SC_PAGE_SIZE") / 2**20


def peak_mb() -> float:
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def ground_solve_time(statements, facts) -> float:
    """ground() + solve() on a Control that already holds these statements and facts."""
    ctl = clingo.Control(CLINGO_ARGS)
    with clingo.ast.ProgramBuilder(ctl) as b:
        add_statements(b, statements)
    with ctl.backend() as backend:
        add_facts(backend, facts)
    t = time.perf_counter()
    ctl.ground(BASE)
    ctl.solve(on_model=lambda m: None)
    dt = time.perf_counter() - t
    del ctl
    return dt


def floor_once(engine: Engine, snap: dict) -> float:
    """The ground+solve of what the query grounds: the rules that can fire with its facts
    and the facts they read (pyrules/prune.py)."""
    _, facts, _ = engine.encode(snap)
    return ground_solve_time(*program_for(engine.statements, facts))


def floor_all_once(engine: Engine, snap: dict) -> float:
    """The floor as issue 6 defines it: the ground+solve of the rules (every statement of
    the rule files) with the snapshot's facts."""
    _, facts, _ = engine.encode(snap)
    return ground_solve_time(engine.statements.parsed, facts)


def naive_once(engine: Engine, snap: dict) -> float:
    """The naive way, end to end: new Control, load the .lp files, facts as text, ground, solve."""
    t = time.perf_counter()
    game = engine.game(snap)
    enc = encode(game, engine.names, engine.reading_defaults)
    text = "".join(f"{s}.\n" for s in enc.facts) + "mode(legal).\n"
    ctl = clingo.Control(["--warn=none"])
    for path in engine.files:
        ctl.load(str(path))
    ctl.add("base", [], text)
    ctl.ground([("base", [])])
    shown = []
    ctl.solve(on_model=lambda m: shown.extend(m.symbols(shown=True)))
    [(s.name, s.arguments) for s in shown]
    return time.perf_counter() - t


def e2e_once(engine: Engine, snap: dict) -> float:
    t = time.perf_counter()
    engine.legal(snap)
    return time.perf_counter() - t


def latency(engine: Engine, make, n: int) -> float:
    """Median end-to-end legal() time over n snapshots made by make(i)."""
    snaps = [make(i) for i in range(n + 3)]
    for s in snaps[:3]:
        engine.legal(s)
    return statistics.median(e2e_once(engine, s) for s in snaps[3:])


def alternating(engine: Engine, makers: list, n: int, block: int = 20) -> list[float]:
    """Median end-to-end legal() time of each maker's snapshots, n each, run in alternating
    blocks (the order rotating), so that the machine's drifts hit every kind alike."""
    return alternating_blocks(engine, makers, n, block)[0]


def alternating_blocks(engine: Engine, makers: list, n: int, block: int = 20) -> tuple[list[float], list[list[float]]]:
    """alternating(), and each kind's median per round of blocks (a round runs one block of
    each kind back to back): the ratio of two kinds' medians within a round is not moved by
    drifts slower than a round."""
    snaps = [[make(i) for i in range(n + 3)] for make in makers]
    for kind in snaps:
        for s in kind[:3]:
            engine.legal(s)
    runs: list[list[float]] = [[] for _ in makers]
    rounds: list[list[float]] = [[] for _ in makers]
    order = list(range(len(makers)))
    for b, start in enumerate(range(3, n + 3, block)):
        for k in order[b % len(order):] + order[:b % len(order)]:
            got = [e2e_once(engine, s) for s in snaps[k][start:start + block]]
            runs[k] += got
            rounds[k].append(statistics.median(got))
    return [statistics.median(r) for r in runs], rounds


BARE = ("import clingo; c = clingo.Control(); c.add('base', [], 'a.'); c.ground([('base', [])]); "
        "c.solve(on_model=lambda m: None)")


def startup(n: int) -> tuple[float, float]:
    """Median wall time of `pyrules check` on the example snapshot and of a bare Python
    process that imports clingo and solves a trivial program, run alternately (bare, check,
    check, bare, ...) after one warm-up run of each.  Bytecode may be written (as pip does
    at install time), so neither side pays for compiling its modules.  The `pyrules` run is the console
    script installed beside the interpreter the bare process runs, found on PATH only when there is
    none: a version manager's shim first on PATH (pyenv's is a shell script that runs `pyenv exec`;
    the interpreter run by its full path leaves it there) costs tens of milliseconds that are not
    pyrules'."""
    beside = Path(sys.executable).with_name("pyrules")      # this interpreter's console script
    exe = str(beside) if beside.is_file() else shutil.which("pyrules")
    check = ([exe] if exe else [sys.executable, "-m", "pyrules"]) + [
        "check", str(ROOT / "facts" / "examples" / "main_phase.yaml"), "normal_summon(skull,[faith])"]
    bare = [sys.executable, "-c", BARE]
    env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
    times: dict[str, list[float]] = {"bare": [], "check": []}
    for r in range(n + 1):
        for name, cmd in (("bare", bare), ("check", check)) if r % 2 == 0 else (("check", check), ("bare", bare)):
            t = time.perf_counter()
            subprocess.run(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=False, env=env)
            if r:                                 # round 0 warms up (bytecode, the pyrules cache)
                times[name].append(time.perf_counter() - t)
    return statistics.median(times["check"]), statistics.median(times["bare"])


def throughput(engine: Engine, lines: list[str], workers: int) -> float:
    t = time.perf_counter()
    out = sum(1 for _ in run(lines, engine=engine, engine_config=engine.config, workers=workers, as_json=True))
    assert out == len(lines)
    return len(lines) / (time.perf_counter() - t)


def rows_latency(engine: Engine, q: bool) -> list[tuple[str, str, str]]:
    """A typical single query vs the floor and the naive way.  The three run in alternating
    blocks of 20 snapshots (the order rotating per block), so that noise hits all three
    alike while each runs as it would in a loop of its own: a floor or naive run between
    two legal() calls would leave them another Control's memory to work in."""
    snaps = [typical(i) for i in range((10 if q else 400) + 5)]
    for s in snaps[:5]:
        engine.legal(s), floor_once(engine, s), floor_all_once(engine, s), naive_once(engine, s)
    timed = {"e2e": e2e_once, "floor": floor_all_once, "pruned": floor_once, "naive": naive_once}
    runs: dict[str, list[float]] = {k: [] for k in timed}
    order = list(timed)
    for b, start in enumerate(range(5, len(snaps), 20)):
        block = snaps[start:start + 20]
        for name in order[b % 4:] + order[:b % 4]:
            runs[name] += [timed[name](engine, s) for s in block]
    e2e = runs["e2e"]
    med_e2e, med_floor, med_pruned, med_naive = (statistics.median(runs[k]) for k in order)
    return [
        ("typical legal(): median / p95", f"{ms(med_e2e)} / {ms(pct(e2e, 0.95))}", ""),
        ("floor (issue 6: ground+solve of the rules + the snapshot's facts): median", ms(med_floor), ""),
        ("ratio pyrules / floor", f"{med_e2e / med_floor:.3f}x", "<= 1.5x"),
        ("ground+solve of only the rules pyrules keeps (prune.py): median", ms(med_pruned), ""),
        ("ratio pyrules / that (all of pyrules' Python around clingo)", f"{med_e2e / med_pruned:.3f}x", ""),
        ("naive (new Control, load .lp, text facts): median", ms(med_naive), ""),
        ("ratio naive / pyrules", f"{med_naive / med_e2e:.3f}x", ">= 1.3x"),
    ]


def rows_startup(engine: Engine, q: bool) -> list[tuple[str, str, str]]:
    check_s, bare_s = startup(1 if q else 20)
    return [("`pyrules check` from the shell / bare `import clingo` + trivial solve (alternating)",
             f"{ms(check_s)} / {ms(bare_s)}", ""),
            ("ratio `pyrules check` / bare process (start-up)", f"{check_s / bare_s:.3f}x", "<= 2x")]


def rows_batch(engine: Engine, q: bool) -> list[tuple[str, str, str]]:
    """Batch throughput: the median of 3 runs each."""
    n_batch = 64 if q else 4000
    lines = [json.dumps(typical(i)) for i in range(n_batch)]
    throughput(engine, lines[:64], 1)
    rows = []
    for w in (1, 2):
        rate = statistics.median(throughput(engine, lines, w) for _ in range(1 if q else 3))
        rows.append((f"batch, {w} worker{'s' if w > 1 else ''} ({n_batch} typical snapshots, median of 3 runs)",
                     f"{rate:.0f} snapshots/s", ">= 2000/s with 2" if w == 2 else ""))
    return rows


def against_typical(engine: Engine, make, n: int, label: str) -> tuple[str, str, str]:
    """A board's row against the typical query, alternating: the median of the rounds' ratios (their
    middle half) and the ratio of the medians (target: under 2x)."""
    (board, typical_s), (b_rounds, t_rounds) = alternating_blocks(
        engine, [lambda i: make(i + 1), lambda i: typical(i + 1)], n)
    ratios = [b / t for b, t in zip(b_rounds, t_rounds)]
    paired = statistics.median(ratios)
    low, _, high = statistics.quantiles(ratios, n=4) if len(ratios) > 1 else (paired, paired, paired)
    return (f"{label}: median of the rounds' ratios (their middle half); ratio of the medians",
            f"{ms(board)} ({paired:.2f}x typical, {low:.2f}-{high:.2f}; {board / typical_s:.2f}x)", "< 2x typical")

def rows_growth(engine: Engine, q: bool) -> list[tuple[str, str, str]]:
    n = 2 if q else 100
    rows = [(f"monsters: {k} a side ({2 * k} in all)",
             ms(latency(engine, lambda i, k=k: snapshot(i + 1, per_side=k), n)), "") for k in (0, 2, 5)]
    rows += [(f"events this turn: {k}", ms(latency(engine, lambda i, k=k: snapshot(i + 1, events=k), n)), "")
             for k in (0, 5, 20)]
    rows += [(f"Extra Deck: {k} Synchro Monsters, 5 face-up materials",
              ms(latency(engine, lambda i, k=k: synchro_board(i + 1, k), n)), "< 20 ms" if k == 15 else "")
             for k in (0, 5, 15)]
    rows.append(against_typical(engine, summons_board, 10 * n,
                                "Fusion/Ritual/procedure board (issue 13: 5 monsters, 6 in hand, 10 in the Graveyard, "
                                "Polymerization, a Ritual Spell, 15 Fusion Monsters)"))
    rows.append(against_typical(engine, spell_trap_board, 10 * n,
                                "activation board (issue 36: ten Spells and Traps in hand and on the field, "
                                "a three-link chain)"))
    return rows


def rows_memory(engine: Engine, q: bool) -> list[tuple[str, str, str]]:
    """RSS after mem_small and after mem_big queries, every one with new card ids."""
    mem_small, mem_big = (20, 60) if q else (1000, 50_000)
    gc.collect()
    for i in range(mem_small):
        engine.legal(typical(10_000_000 + i))
    gc.collect()
    small = rss_mb()
    for i in range(mem_small, mem_big):
        engine.legal(typical(10_000_000 + i))
    gc.collect()
    big = rss_mb()
    return [
        (f"memory (RSS) after {mem_small:,} unique-id queries", f"{small:.1f} MiB", ""),
        (f"memory (RSS) after {mem_big:,} unique-id queries", f"{big:.1f} MiB ({(big / small - 1) * 100:+.1f}%)",
         "within 10%"),
        ("peak memory (max RSS of this process)", f"{peak_mb():.1f} MiB", ""),
    ]


NEXT_ACTIONS = ("change_position(am0_{n},defense)", "normal_summon(h3_{n},[])", "declare_attack(am0_{n},bm0_{n})")


def rows_turn(engine: Engine, q: bool) -> list[tuple[str, str, str]]:
    """`next` against the typical `legal()` (Main Phase 1; alternating, one action kind at a time), and a
    whole duel of Normal Monsters played by `pyrules play`'s loop (decisions a second: one legal
    and one next each)."""
    from pyrules.paths import checkout_root
    from pyrules.play import duel, read_deck
    n = 20 if q else 300
    rows = []
    for action in NEXT_ACTIONS:
        snaps = [typical(i + 1) for i in range(n + 3)]
        acted = [dict(s, phase="battle") if "declare_attack" in action else s for s in snaps]
        for i in range(3):
            engine.legal(snaps[i]), engine.next(acted[i], action.format(n=i + 1))
        legal_t, next_t = [], []
        for i in range(3, n + 3):
            t = time.perf_counter()
            engine.legal(snaps[i])
            legal_t.append(time.perf_counter() - t)
            t = time.perf_counter()
            engine.next(acted[i], action.format(n=i + 1))
            next_t.append(time.perf_counter() - t)
        ratio = statistics.median(next_t) / statistics.median(legal_t)
        rows.append((f"next({action.split('(')[0]}) / the typical legal() (alternating; the attack in the Battle Phase)",
                     f"{ms(statistics.median(next_t))} / {ms(statistics.median(legal_t))}: {ratio:.2f}x", "<= 1.5x"))
    root = checkout_root()
    decks = [read_deck(root / d, engine.cards) for d in ("facts/decks/normal_a.txt", "facts/decks/normal_b.yaml")]
    t = time.perf_counter()
    steps = sum(1 for s in duel(engine, decks[0], decks[1], seed=3, max_actions=60 if q else 3000) if s.action)
    rate = steps / (time.perf_counter() - t)
    rows.append((f"pyrules play, a duel of Normal Monsters (seed 3, {steps} decisions: legal + next each)",
                 f"{rate:.0f} decisions/s", ""))
    return rows

def rows_search(engine: Engine, q: bool) -> list[tuple[str, str, str]]:
    """`pyrules diff READING --depth N` for each shipped reading (its default depth scope and pool), as the command
    runs it: the search's own time, the step rewrite read from the cache folder (made once per rules version)
    and the replay by next and check included.  --quick: one reading at depth 2."""
    from pyrules.search import Searcher
    readings = ["summon_priority"] if q else sorted(engine.catalogue.readings)
    rows = []
    for depth, target in ((2, "< 10 s"), (3, "< 60 s")):
        if q and depth > 2:
            break
        for reading in readings:
            r = Searcher(engine).diff(reading, depth=depth)
            cx = r.found[0] if r.found else None
            found = ("none found" if cx is None else
                     f"{len(cx.before) + 1} action{'s' if cx.before else ''}, "
                     f"{'reproduced' if cx.reproduced else 'NOT reproduced'}")
            rows.append((f"diff {reading} --depth {depth} (the depth scope and pool; rewrite cached)",
                         f"{r.seconds:.1f} s ({found})", target))
    return rows


SECTIONS = {"latency": rows_latency, "startup": rows_startup, "batch": rows_batch,
            "growth": rows_growth, "memory": rows_memory, "turn": rows_turn, "search": rows_search}


def print_table(rows: list[tuple[str, str, str]], q: bool) -> None:
    cpu = platform.processor() or "?"
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                cpu = line.split(":", 1)[1].strip()
                break
    except OSError:
        pass
    print(f"pyrules benchmark{' (--quick: small counts, rough numbers)' if q else ''}, "
          f"{datetime.date.today().isoformat()}, {os.cpu_count()} cores, {cpu}, "
          f"Python {platform.python_version()}, clingo {clingo.__version__}")
    width = max(len(r[0]) for r in rows)
    vwidth = max(len(r[1]) for r in rows)
    print(f"| {'measure'.ljust(width)} | {'value'.ljust(vwidth)} | target |")
    print(f"|{'-' * (width + 2)}|{'-' * (vwidth + 2)}|--------|")
    for name, value, target in rows:
        print(f"| {name.ljust(width)} | {value.ljust(vwidth)} | {target} |")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--quick", action="store_true", help="small counts, for CI: checks that the benchmark runs")
    ap.add_argument("--only", default=",".join(SECTIONS), help=f"sections to run (of {', '.join(SECTIONS)})")
    args = ap.parse_args()
    engine = Engine()
    rows: list[tuple[str, str, str]] = []
    for name in args.only.split(","):
        rows += SECTIONS[name.strip()](engine, args.quick)
    print_table(rows, args.quick)


if __name__ == "__main__":
    main()
