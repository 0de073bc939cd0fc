"""Where the wall time of a `legal()` query goes, phase by phase: the typical query against the board
of issue 13 (benchmarks/summons_board.yaml).

The steps of `Engine.legal()` are run one by one through the same public names it uses (encode the
snapshot; keep the statements that can fire and the facts they read, solver.program_for; a new
Control; replay the statements; give the facts; ground; solve; free the Control; read the shown
atoms, Answer.of; decode the permitted actions, Engine.read_legal), each timed.  Board and typical
queries alternate one by one (the order swapping each round), so the machine's drifts hit both alike;
the table gives the median of each phase in ms, the difference and the ratio.  Where
benchmarks/instructions.py counts clingo's work, this shows what the Python around it costs.

    python benchmarks/phases.py [N]      # N rounds (default 300), about ten seconds

Not part of the tests or CI.
"""
from __future__ import annotations

import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "benchmarks"))

import clingo  # noqa: E402
from clingo.ast import ProgramBuilder  # noqa: E402

from pyrules import Engine  # noqa: E402
from pyrules.solver import BASE, CLINGO_ARGS, Answer, program_for  # noqa: E402
from pyrules.symbols import add_facts, add_statements  # noqa: E402
from workload import summons_board, typical  # noqa: E402

PHASES = ["encode", "prune", "new Control", "replay rules", "give facts", "ground", "solve", "free",
          "read atoms", "decode"]


def run(engine: Engine, snap: dict) -> list[float]:
    """The phases of one legal() query, in seconds."""
    clock = time.perf_counter
    t = [clock()]
    enc, facts, _ = engine.encode(snap)
    t.append(clock())
    kept, facts = program_for(engine.statements, facts)
    t.append(clock())
    shown: list = []
    ctl = clingo.Control(CLINGO_ARGS)
    t.append(clock())
    with ProgramBuilder(ctl) as builder:
        add_statements(builder, kept)
    t.append(clock())
    with ctl.backend() as backend:
        add_facts(backend, facts)
    t.append(clock())
    ctl.ground(BASE)
    t.append(clock())
    ctl.solve(on_model=lambda m: shown.extend(m.symbols(shown=True)))
    t.append(clock())
    del ctl
    t.append(clock())
    atoms = Answer.of(shown)
    t.append(clock())
    engine.read_legal(enc, atoms)
    t.append(clock())
    return [b - a for a, b in zip(t, t[1:])]


def main() -> None:
    rounds = int(sys.argv[1]) if len(sys.argv) > 1 else 300
    engine = Engine()
    engine.legal(typical(0))
    list(engine.statements.parsed)                  # parsed now, not in the first timed query
    kinds = {"board": summons_board, "typical": typical}
    times: dict[str, list[list[float]]] = {k: [] for k in kinds}
    for i in range(rounds + 10):
        order = list(kinds) if i % 2 else list(kinds)[::-1]
        for k in order:
            got = run(engine, kinds[k](i + 1))
            if i >= 10:                             # ten rounds warm up
                times[k].append(got + [sum(got)])
    print(f"{'phase (ms, medians)':20s} {'board':>8s} {'typical':>8s} {'diff':>7s} {'ratio':>6s}")
    for p, name in enumerate(PHASES + ["total"]):
        b = statistics.median(r[p] for r in times["board"]) * 1e3
        t = statistics.median(r[p] for r in times["typical"]) * 1e3
        print(f"{name:20s} {b:8.3f} {t:8.3f} {b - t:7.3f} {b / t:5.2f}x")


if __name__ == "__main__":
    main()
