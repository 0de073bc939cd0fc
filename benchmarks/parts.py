"""Where a `legal()` query's instructions go, phase by phase, and what each part of the issue 13
board costs: deterministic counts (valgrind's callgrind), where wall time needs many runs.

Phases: a child process makes an Engine, runs 15 warm-up queries of a kind (past the Engine's text
queries and its parse), then runs the engine's public steps on six snapshots of that kind up to a
phase (encode; prune, solver.program_for; a new Control; replay the statements; give the facts;
ground; solve; read the shown atoms, Answer.of; decode, Engine.read_legal); the count up to each
phase less the count up to the one before, over six, is that phase's share (the freeing of a
Control may fall in the next query's "new Control").

Parts: the whole query on the board with one thing left out (the Ritual Spell, Polymerization, the
procedure monsters, the Extra Deck, the Graveyard), against the board itself and the typical query.

    python benchmarks/parts.py              # both tables, about fifteen minutes; needs valgrind
    python benchmarks/parts.py --phases     # the phases only (about seven minutes)

Not part of the tests or CI; exit status 2 when valgrind is missing.
"""
from __future__ import annotations

import argparse
import copy
import json
import shutil
import sys
import tempfile
from pathlib import Path

import yaml

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

from instructions import ROOT, collected  # noqa: E402

PHASES = ["encode", "prune", "control", "replay", "facts", "ground", "solve", "read", "decode"]

PHASE_CHILD = """
import sys
sys.path[:0] = [sys.argv[1], sys.argv[1] + "/benchmarks"]
import clingo
from clingo.ast import ProgramBuilder
from pyrules import Engine
from pyrules.solver import BASE, CLINGO_ARGS, Answer, program_for
from pyrules.symbols import add_facts, add_statements
from workload import summons_board, typical
make = summons_board if sys.argv[2] == "board" else typical
stop, runs = int(sys.argv[3]), int(sys.argv[4])
engine = Engine()
for i in range(1, 16):
    engine.legal(make(i))
for s in [make(100 + i) for i in range(6)][:runs]:
    enc, facts, _ = engine.encode(s)
    if stop >= 1:
        kept, facts = program_for(engine.statements, facts)
    if stop >= 2:
        ctl = clingo.Control(CLINGO_ARGS)
    if stop >= 3:
        with ProgramBuilder(ctl) as builder:
            add_statements(builder, kept)
    if stop >= 4:
        with ctl.backend() as backend:
            add_facts(backend, facts)
    if stop >= 5:
        ctl.ground(BASE)
    if stop >= 6:
        shown = []
        ctl.solve(on_model=lambda m: shown.extend(m.symbols(shown=True)))
        del ctl
    if stop >= 7:
        atoms = Answer.of(shown)
    if stop >= 8:
        engine.read_legal(enc, atoms)
"""

PART_CHILD = """
import copy, json, sys
sys.path[:0] = [sys.argv[1], sys.argv[1] + "/benchmarks"]
from pyrules import Engine
from workload import typical, uniquify
base = json.loads(open(sys.argv[2]).read()) if sys.argv[2] != "typical" else None
runs = int(sys.argv[3])
make = typical if base is None else (lambda i: uniquify(copy.deepcopy(base), i))
engine = Engine()
for i in range(1, 16):
    engine.legal(make(i))
for s in [make(100 + i) for i in range(6)][:runs]:
    engine.legal(s)
"""


def _without(hand: tuple[str, ...] = (), spells: tuple[str, ...] = (), extra: tuple[str, ...] = (),
             zones: tuple[str, ...] = ()):
    def leave_out(snap: dict) -> None:
        side = snap["players"]["A"]
        for key, ids in (("hand", hand), ("spells_traps", spells), ("extra_deck", extra)):
            side[key] = [c for c in side.get(key, []) if c["id"] not in ids]
        for key in zones:
            side.pop(key, None)
    return leave_out


PARTS = {
    "the board": _without(),
    "without the Ritual Spell": _without(spells=("blr",)),
    "without Polymerization": _without(hand=("poly",)),
    "without the procedure monsters (Chaos Sorcerer, XY-Dragon Cannon)": _without(hand=("cs",), extra=("x15",)),
    "without the Extra Deck": _without(zones=("extra_deck",)),
    "without the Graveyard": _without(zones=("graveyard",)),
}


def per_query(child: Path, *args: str, none: int | None = None) -> float:
    """Instructions of six queries less those of none (counted now unless given), over six."""
    if none is None:
        none = collected([str(child), *args, "0"], [])
    return (collected([str(child), *args, "6"], []) - none) / 6


def phases(work: Path) -> None:
    child = work / "phases.py"
    child.write_text(PHASE_CHILD)
    print(f"{'phase (M instructions)':24s} {'typical':>8s} {'board':>8s}")
    rows = {}
    for kind in ("typical", "board"):
        none = collected([str(child), str(ROOT), kind, "0", "0"], [])        # (the same for every phase)
        upto = [per_query(child, str(ROOT), kind, str(k), none=none) for k in range(len(PHASES))]
        rows[kind] = [b - a for a, b in zip([0.0] + upto, upto)] + [upto[-1]]
    for n, name in enumerate(PHASES + ["total"]):
        print(f"{name:24s} {rows['typical'][n] / 1e6:8.2f} {rows['board'][n] / 1e6:8.2f}")


def parts(work: Path) -> None:
    child = work / "parts.py"
    child.write_text(PART_CHILD)
    board = yaml.safe_load((HERE / "summons_board.yaml").read_text(encoding="utf-8"))
    typical = per_query(child, str(ROOT), "typical")
    print(f"\n{'whole legal() (M instructions)':68s} {'':>8s} {'x typical':>9s}")
    print(f"{'the typical query':68s} {typical / 1e6:8.2f} {1:9.2f}")
    for name, leave_out in PARTS.items():
        snap = copy.deepcopy(board)
        leave_out(snap)
        path = work / "snap.json"
        path.write_text(json.dumps(snap))
        got = per_query(child, str(ROOT), str(path))
        print(f"{name:68s} {got / 1e6:8.2f} {got / typical:9.2f}", flush=True)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--phases", action="store_true", help="the phases only")
    args = ap.parse_args()
    if shutil.which("valgrind") is None:
        print("valgrind is not installed: nothing counted", file=sys.stderr)
        sys.exit(2)
    from pyrules import Engine
    from workload import typical
    engine = Engine()                   # the rules' cache written now, not in a counted child
    for i in range(engine.statements.TEXT_QUERIES + 2):
        engine.legal(typical(i))
    with tempfile.TemporaryDirectory() as tmp:
        phases(Path(tmp))
        if not args.phases:
            parts(Path(tmp))


if __name__ == "__main__":
    main()
