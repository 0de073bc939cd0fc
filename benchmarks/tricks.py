"""What each speed trick of pyrules buys, counted in machine instructions (deterministic).

Each variant is a copy of the package with one trick replaced by the plain code it stands for
(a textual patch: the run stops if the text to replace is missing), and is counted under
valgrind's callgrind, with the package as it is, in one run:

- start-up: a whole `python -m pyrules check` process on the example snapshot (the cache warm),
  and the ratio to a bare `python -c "import clingo; ..."` that solves a trivial program
  (benchmarks/bench.py's start-up row, in instructions);
- one whole `legal()`, pyrules' Python included, on the typical snapshot and on the board of
  issue 13 (as benchmarks/instructions.py counts it: N queries less none, over N), and their ratio;
- one snapshot of a 1-worker batch (the same way: 128 typical lines, two shared groundings, less none).

The variants of the start-up alone (STARTUP_ONLY: what a process does before and after its query)
are counted at start-up only.

    python benchmarks/tricks.py                   # every variant; needs valgrind (tens of minutes)
    python benchmarks/tricks.py --only handles    # the package as it is and one variant

Not part of the tests or CI (valgrind is not a dependency); exit status 2 when valgrind is missing.
"""
from __future__ import annotations

import argparse
import os
import re
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
BARE = ("import clingo; c = clingo.Control(); c.add('base', [], 'a.'); c.ground([('base', [])]); "
        "c.solve(on_model=lambda m: None)")

# name -> (what the variant replaces, [(file under pyrules/, text, replacement)])
VARIANTS: dict[str, tuple[str, list[tuple[str, str, str]]]] = {
    "handles": ("clingo's handles off (the public API: symbols.HANDLES)",
                [("symbols.py", "    HANDLES = (isinstance", "    HANDLES = False and (isinstance")]),
    "records": ("@dataclass(frozen=True) instead of records.py's records",
                [("records.py", "    made: Any = dataclass(init=False, repr=False, eq=False)(cls)",
                  "    return dataclass(frozen=True)(cls)\n    made: Any = cls")]),
    "gc": ("the collector left running (no gc.disable, no gc.freeze)",
           [("console.py", "    gc.disable()\n", ""),
            ("cli.py", "        gc.freeze()\n        gc.enable()\n", "        pass\n"),
            ("cli.py", "    finally:\n        gc.freeze()\n", "    finally:\n        pass\n")]),
    "exit": ("the usual exit (sys.exit) instead of os._exit",
             [("cli.py", "        else:\n            os._exit(code)\n", "        else:\n            sys.exit(code)\n")]),
    "text": ("no statements as text: every query parses the kept texts first (Statements.TEXT_QUERIES = 0)",
             [("solver.py", "    TEXT_QUERIES = 8\n", "    TEXT_QUERIES = 0\n")]),
    "memo": ("no memo of symbols (number, Answer.of's _READ, the pruner's _KEYS, terms' _SHAPES)",
             [("symbols.py", "    sym = _cache.get(n)\n", "    sym = None\n"),
              ("solver.py", "_MAX_READ = 100_000", "_MAX_READ = 0"),
              ("prune.py", "_MAX_CACHED = 200_000", "_MAX_CACHED = 0"),
              ("terms.py", "    shape = _SHAPES.get(symbol_key(term))\n", "    shape = None\n")]),
    "pruner": ("no pruner: every statement and every fact grounded (solver.ground_and_solve's prune)",
               [("solver.py", "facts: Iterable[Symbol], prune: bool = True)", "facts: Iterable[Symbol], prune: bool = False)")]),
    "relevance": ("every statement that can fire kept, read or not (prune.Pruner._read)",
                  [("prune.py", "        if not self.shows:\n            return live\n",
                    "        if True:\n            return live\n")]),
    "zones": ("no zone step: every fact a kept statement reads is given (prune.py, Facts by zone)",
              [("prune.py", "        got, facts = self._select(facts, by_zone=True)\n",
                "        got, facts = self._select(facts, by_zone=False)\n")]),
    "cardpart": ("the card part grounded in every query, not once per card (Engine.derive_card_facts)",
                 [("engine.py", "                parsed, card = split_parts(parse_rules(files))\n",
                   "                parsed, card = split_parts(parse_rules(files))\n"
                   "                parsed, card = parsed + card, []\n")]),
    "keys": ("no memo of the facts' keys (prune.facts_keys: _KEYS, _SHARED)",
             [("prune.py", "_MAX_CACHED = 200_000", "_MAX_CACHED = 0")]),
    "numbers": ("no memo of number symbols (symbols.number: Number(n) each time)",
                [("symbols.py", "    sym = _cache.get(n)\n", "    sym = None\n")]),
    "shapes": ("no memo of shown atoms and action shapes (Answer.of's _READ, terms' _SHAPES)",
               [("solver.py", "_MAX_READ = 100_000", "_MAX_READ = 0"),
                ("terms.py", "    shape = _SHAPES.get(symbol_key(term))\n", "    shape = None\n")]),
    "blake2": ("hashlib.blake2b (OpenSSL loaded) instead of _blake2",
               [("cache.py", "        from _blake2 import blake2b ", "        from hashlib import blake2b ")]),
}

BATCH = 128          # batch lines counted: two groundings of 64 (batch.CHUNK)

WHOLE = """
import sys
sys.path[:0] = [sys.argv[1], sys.argv[2]]
from pyrules import Engine
from workload import summons_board, typical
kind, n, runs = sys.argv[3], int(sys.argv[4]), int(sys.argv[5])
engine = Engine()
if kind == "batch":
    import json
    from pyrules.batch import run
    lines = [json.dumps(typical(i)) for i in range(n + 64)]
    for _ in run(lines[:64], engine=engine, workers=1, as_json=True):     # past the text queries, warm
        pass
    for _ in run(lines[64:64 + runs], engine=engine, workers=1, as_json=True):
        pass
else:
    make = summons_board if kind == "board" else typical
    for i in range(1, engine.statements.TEXT_QUERIES + 6):     # past the text queries and the parse
        engine.legal(make(i))
    snaps = [make(100 + i) for i in range(n)]
    for s in snaps[:runs]:
        engine.legal(s)
"""


def collected(args: list[str], path: Path | None, cwd: Path) -> int:
    """The instructions callgrind counts in a Python child process run with `args` (pyrules from `path`)."""
    env = dict(os.environ, PYTHONHASHSEED="0")
    env.pop("PYTHONDONTWRITEBYTECODE", None)
    if path is not None:
        env["PYTHONPATH"] = str(path)
        env["PYRULES_CACHE_DIR"] = str(path / "cache")
    cmd = ["valgrind", "--tool=callgrind", "--callgrind-out-file=/dev/null", sys.executable, *args]
    subprocess.run(cmd[3:], capture_output=True, env=env, cwd=cwd)       # warm: bytecode, the rules' cache
    out = subprocess.run(cmd, capture_output=True, text=True, env=env, cwd=cwd)
    got = re.search(r"Collected : (\d+)", out.stderr)
    if got is None:
        raise SystemExit(f"valgrind failed:\n{out.stderr[-2000:]}")
    return int(got.group(1))


STARTUP_ONLY = ("records", "gc", "exit", "text", "blake2")     # tricks of the start-up alone (module docstring)


def figures(tree: Path, work: Path, n: int, queries: bool = True) -> dict[str, float]:
    """The variant's counts: start-up (whole process), typical, board, batch (per query)."""
    check = ["-m", "pyrules", "check", str(ROOT / "facts" / "examples" / "main_phase.yaml"), "normal_summon(skull,[faith])"]
    out: dict[str, float] = {"startup": collected(check, tree, work)}
    for kind in ("typical", "board", "batch") if queries else ():
        k = BATCH if kind == "batch" else n
        args = [str(work / "whole.py"), str(tree), str(ROOT / "benchmarks"), kind, str(k)]
        out[kind] = (collected([*args, str(k)], tree, work) - collected([*args, "0"], tree, work)) / k
    return out


def variant_tree(name: str, base: Path) -> Path:
    """A copy of the package with the variant's patches applied (the rules and facts its own,
    by symbolic links, a cache folder of its own)."""
    tree = base / name
    shutil.copytree(ROOT / "pyrules", tree / "pyrules", ignore=shutil.ignore_patterns("__pycache__"))
    for folder in ("rules", "facts"):
        (tree / folder).symlink_to(ROOT / folder)
    for file, old, new in VARIANTS.get(name, ("", []))[1]:
        path = patched(tree / "pyrules", file, old)
        path.write_text(path.read_text().replace(old, new))
    return tree


def patched(package: Path, file: str, old: str) -> Path:
    """The file of the package that holds `old` once: `file`, or the one other module that
    does (the code moved); SystemExit when none does, or more than one."""
    first = package / file
    holders = [p for p in [first, *sorted(package.glob("*.py"))] if p.is_file() and p.read_text().count(old) == 1]
    if holders and holders[0] == first:
        return first
    holders = [p for p in set(holders) if p != first]
    if len(holders) != 1:
        raise SystemExit(f"{file} does not hold {old!r} once (nor one other module of the package)")
    return holders[0]


def wall(trees: dict[str, Path], work: Path, rounds: int) -> None:
    """Start-up in wall time: the bare process and `python -m pyrules check` of each tree, run in
    turn (the order rotating each round) after a warm-up round; the medians and their ratio to bare."""
    import statistics
    import time
    check = ["-m", "pyrules", "check", str(ROOT / "facts" / "examples" / "main_phase.yaml"), "normal_summon(skull,[faith])"]
    cmds = {"bare": (["-c", BARE], None), **{name: (check, tree) for name, tree in trees.items()}}
    times: dict[str, list[float]] = {name: [] for name in cmds}
    order = list(cmds)
    for r in range(rounds + 1):
        for name in order[r % len(order):] + order[:r % len(order)]:
            args, tree = cmds[name]
            env = dict(os.environ)
            env.pop("PYTHONDONTWRITEBYTECODE", None)
            if tree is not None:
                env.update(PYTHONPATH=str(tree), PYRULES_CACHE_DIR=str(tree / "cache"))
            t = time.perf_counter()
            subprocess.run([sys.executable, *args], capture_output=True, env=env, cwd=work)
            if r:
                times[name].append(time.perf_counter() - t)
    bare = statistics.median(times["bare"])
    for name, got in times.items():
        med = statistics.median(got)
        print(f"{name:9s} start-up {med * 1000:7.2f} ms ({med / bare:.3f}x bare)", flush=True)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--only", action="append", choices=sorted(VARIANTS), help="variants to count (default: all)")
    ap.add_argument("-n", type=int, default=10, help="queries of each kind per count (default 10)")
    ap.add_argument("--no-reference", action="store_true", help="count the variants only, not the package as it is")
    ap.add_argument("--wall", type=int, metavar="ROUNDS",
                    help="instead: start-up in wall time, ROUNDS alternating rounds (no valgrind needed)")
    args = ap.parse_args()
    if args.wall:
        with tempfile.TemporaryDirectory() as tmp:
            base = Path(tmp)
            (base / "work").mkdir()
            wall({name: variant_tree(name, base) for name in ["as-is", *(args.only or VARIANTS)]}, base / "work", args.wall)
        return
    if shutil.which("valgrind") is None:
        print("valgrind is not installed: nothing counted", file=sys.stderr)
        sys.exit(2)
    with tempfile.TemporaryDirectory() as tmp:
        base = Path(tmp)
        work = base / "work"
        work.mkdir()
        (work / "whole.py").write_text(WHOLE)
        bare = collected(["-c", BARE], None, work)
        names = args.only or list(VARIANTS)
        queries = any(name not in STARTUP_ONLY for name in names)
        ref = None if args.no_reference else figures(variant_tree("as-is", base), work, args.n, queries)
        if ref is not None:
            print(_row("as it is", ref, bare, None), flush=True)
        for name in names:
            got = figures(variant_tree(name, base), work, args.n, name not in STARTUP_ONLY)
            print(_row(name, got, bare, ref), flush=True)


def _row(name: str, got: dict[str, float], bare: int, ref: dict[str, float] | None) -> str:
    cells = [f"start-up {got['startup'] / 1e6:.1f}M ({got['startup'] / bare:.3f}x bare)"]
    if "typical" in got:
        cells += [f"typical {got['typical'] / 1e6:.2f}M", f"board {got['board'] / 1e6:.2f}M "
                  f"({got['board'] / got['typical']:.3f}x typical)", f"batch {got['batch'] / 1e6:.3f}M/snapshot"]
    if ref is not None:
        cells.append("vs as it is: " + ", ".join(f"{k} {got[k] / ref[k]:.3f}x" for k in got))
    return f"{name:9s} " + "; ".join(cells)


if __name__ == "__main__":
    main()
