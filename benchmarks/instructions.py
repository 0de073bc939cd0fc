"""What clingo spends on a query, counted in machine instructions: deterministic where wall time is not.

For the typical query and the board of issue 13 (benchmarks/summons_board.yaml), the program a
`legal()` query grounds (the statements the pruner keeps and the facts they read) is written out and
run K times in a child process under valgrind's callgrind, which counts the instructions executed
inside clingo's own calls only (a new Control, replaying the statements, adding the facts, grounding,
solving, reading the model, freeing the Control): pyrules' Python is not counted.  The same program
is run again without its facts, which leaves what clingo spends on the statements themselves (their
fixed cost, paid whether or not they fire).  The counts do not drift with the machine's speed, so a
rules change can be weighed to a fraction of a percent in one run, where timing needs many runs.

    python benchmarks/instructions.py            # about half a minute; needs valgrind

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
from workload import summons_board, typical  # noqa: E402

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


def body_literals(statements: list) -> int:
    """How many body elements the rules have (literals, comparisons, aggregates)."""
    return sum(len(s.body) for s in statements if hasattr(s, "body"))


def count(work: Path, program: Path, facts: Path, runs: int) -> int:
    """Instructions inside clingo's calls per run."""
    toggles = [f"--toggle-collect={c}" for c in CALLS]
    env = dict(os.environ, PYTHONHASHSEED="0")
    out = subprocess.run(["valgrind", "--tool=callgrind", "--callgrind-out-file=/dev/null", *toggles,
                          sys.executable, str(work / "child.py"), str(program), str(facts), str(runs)],
                         capture_output=True, text=True, env=env)
    got = re.search(r"Collected : (\d+)", out.stderr)
    if out.returncode != 0 or got is None:
        raise SystemExit(f"valgrind failed:\n{out.stderr[-2000:]}")
    return int(got.group(1)) // runs


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--runs", type=int, default=2, help="queries per count (default 2)")
    args = ap.parse_args()
    if shutil.which("valgrind") is None:
        print("valgrind is not installed: nothing counted", file=sys.stderr)
        sys.exit(2)
    engine = Engine()
    rows = []
    with tempfile.TemporaryDirectory() as tmp:
        work = Path(tmp)
        (work / "child.py").write_text(CHILD)
        (work / "none.facts").write_text("")
        for name, snap in (("typical", typical(1)), ("board (issue 13)", summons_board(1))):
            _, facts, _ = engine.encode(snap)
            kept, read = program_for(engine.statements, facts)
            program, facts_file = work / f"{len(rows)}.lp", work / f"{len(rows)}.facts"
            program.write_text("\n".join(str(s) for s in kept) + "\n")
            facts_file.write_text("\n".join(str(f) for f in read) + "\n")
            rows.append((name, len(kept), body_literals(kept), len(read),
                         count(work, program, facts_file, args.runs), count(work, program, work / "none.facts", args.runs)))
    base = rows[0][4]
    print(f"{'query':18s} {'statements':>10s} {'body literals':>13s} {'facts':>6s} "
          f"{'instructions':>13s} {'without facts':>13s} {'x typical':>9s}")
    for name, n, lits, nf, full, bare in rows:
        print(f"{name:18s} {n:10d} {lits:13d} {nf:6d} {full / 1e6:12.1f}M {bare / 1e6:12.1f}M {full / base:8.2f}x")


if __name__ == "__main__":
    main()
