"""What clingo spends on a query, counted in machine instructions: deterministic where wall time is not.

For the typical query and the board of issue 13 (benchmarks/summons_board.yaml), the program a
`legal()` query grounds (the statements the pruner keeps and the facts they read) is written out and
run K times in a child process under valgrind's callgrind, which counts the instructions executed
inside clingo's own calls only (a new Control, replaying the statements, adding the facts, grounding,
solving, reading the model, freeing the Control): pyrules' Python is not counted.  The same program
is run again without its facts, which leaves what clingo spends on the statements themselves (their
fixed cost, paid whether or not they fire).  The counts do not drift with the machine's speed, so a
rules change can be weighed to a fraction of a percent in one run, where timing needs many runs.

Then the whole query, pyrules' Python included: a child process makes an Engine, runs warm-up
queries of a kind until the Engine replays parsed statements (its first Statements.TEXT_QUERIES
queries give clingo the statements as text, and the next one parses them: one-time costs that a
count over 20 queries would spread into each, about 16M instructions a query before 2026-12-04),
makes N snapshots of that kind (the benchmark's own, each with its own cards) and runs `legal()` on
the first K of them; the count with K = N less the count with K = 0, over N, is what one `legal()`
costs from snapshot to decoded answer (validation, encoding, pruning, clingo, decoding), the same
process start and warm-up cancelling out.

    python benchmarks/instructions.py            # about two minutes; needs valgrind

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
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "benchmarks"))

from pyrules import Engine  # noqa: E402
from pyrules.solver import program_for  # noqa: E402
from workload import KINDS  # noqa: E402

# the clingo C API calls a query makes (solver.ground_and_solve): only instructions inside them count
CALLS = ("clingo_control_new", "clingo_program_builder_begin", "clingo_program_builder_add",
         "clingo_program_builder_end", "clingo_backend_begin", "clingo_backend_add_atom", "clingo_backend_rule",
         "clingo_backend_end", "clingo_control_ground", "clingo_control_solve", "clingo_solve_handle_close",
         "clingo_model_symbols_size", "clingo_model_symbols", "clingo_control_free")

CHILD = """
import sys, clingo
from clingo.ast import ProgramBuilder, parse_string
program, facts, runs = sys.argv[1], sys.argv[2], int(sys.argv[3])
statements = []
parse_string(open(program).read(), statements.append)
symbols = [clingo.parse_term(line) for line in open(facts).read().splitlines() if line]
for _ in range(runs):
    ctl = clingo.Control(["--warn=none"])
    with ProgramBuilder(ctl) as builder:
        for s in statements:
            builder.add(s)
    with ctl.backend() as backend:
        for s in symbols:
            backend.add_rule([backend.add_atom(s)])
    ctl.ground([("base", [])])
    ctl.solve(on_model=lambda m: m.symbols(shown=True))
    del ctl
"""


WHOLE_CHILD = """
import sys
sys.path[:0] = [sys.argv[1], sys.argv[1] + "/benchmarks"]
from pyrules import Engine
from workload import KINDS
make = KINDS[sys.argv[2]]
n, runs = int(sys.argv[3]), int(sys.argv[4])
engine = Engine()
for i in range(1, engine.statements.TEXT_QUERIES + 6):     # past the text queries and the parse
    engine.legal(make(i))
snaps = [make(100 + i) for i in range(n)]
for s in snaps[:runs]:
    engine.legal(s)
"""


def body_literals(statements: list) -> int:
    """How many body elements the rules have (literals, comparisons, aggregates)."""
    return sum(len(s.body) for s in statements if hasattr(s, "body"))


def collected(args: list[str], toggles: list[str]) -> int:
    """The instructions valgrind's callgrind counts in a Python child process run with `args`."""
    env = dict(os.environ, PYTHONHASHSEED="0")
    out = subprocess.run(["valgrind", "--tool=callgrind", "--callgrind-out-file=/dev/null", *toggles,
                          sys.executable, *args], capture_output=True, text=True, env=env)
    got = re.search(r"Collected : (\d+)", out.stderr)
    if out.returncode != 0 or got is None:
        raise SystemExit(f"valgrind failed:\n{out.stderr[-2000:]}")
    return int(got.group(1))


def count(work: Path, program: Path, facts: Path, runs: int) -> int:
    """Instructions inside clingo's calls per run."""
    toggles = [f"--toggle-collect={c}" for c in CALLS]
    return collected([str(work / "child.py"), str(program), str(facts), str(runs)], toggles) // runs


def count_whole(work: Path, kind: str, n: int) -> int:
    """Instructions of one whole legal() query of a kind, pyrules' Python included (module docstring)."""
    args = [str(work / "whole.py"), str(ROOT), kind, str(n)]
    return (collected([*args, str(n)], []) - collected([*args, "0"], [])) // n


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--runs", type=int, default=2, help="queries per count (default 2)")
    ap.add_argument("--whole", type=int, default=20, metavar="N",
                    help="snapshots of each kind for the whole-query count (default 20; 0: not counted)")
    args = ap.parse_args()
    if shutil.which("valgrind") is None:
        print("valgrind is not installed: nothing counted", file=sys.stderr)
        sys.exit(2)
    engine = Engine()
    for i in range(engine.statements.TEXT_QUERIES + 2):     # the rules' cache written now, not in a counted child
        engine.legal(KINDS["typical"](i))
    rows = []
    with tempfile.TemporaryDirectory() as tmp:
        work = Path(tmp)
        (work / "child.py").write_text(CHILD)
        (work / "whole.py").write_text(WHOLE_CHILD)
        (work / "none.facts").write_text("")
        for name, make in KINDS.items():
            snap = make(1)
            _, facts, _ = engine.encode(snap)
            kept, read = program_for(engine.statements, facts)
            program, facts_file = work / f"{len(rows)}.lp", work / f"{len(rows)}.facts"
            program.write_text("\n".join(str(s) for s in kept) + "\n")
            facts_file.write_text("\n".join(str(f) for f in read) + "\n")
            rows.append((name, len(kept), body_literals(kept), len(read),
                         count(work, program, facts_file, args.runs), count(work, program, work / "none.facts", args.runs)))
        whole = [count_whole(work, kind, args.whole) for kind in KINDS] if args.whole > 0 else []
    base = rows[0][4]
    print(f"{'query':24s} {'statements':>10s} {'body literals':>13s} {'facts':>6s} "
          f"{'instructions':>13s} {'without facts':>13s} {'x typical':>9s}")
    for name, n, lits, nf, full, bare in rows:
        print(f"{name:24s} {n:10d} {lits:13d} {nf:6d} {full / 1e6:12.1f}M {bare / 1e6:12.1f}M {full / base:8.2f}x")
    if whole:
        print(f"\nwhole legal(), pyrules' Python included (mean of {args.whole} snapshots of each kind):")
        for name, got in zip(KINDS, whole):
            print(f"{name:24s} {got / 1e6:12.1f}M {got / whole[0]:8.2f}x")


if __name__ == "__main__":
    main()
