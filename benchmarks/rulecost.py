"""What the rules of a `legal()` query cost clingo, group by group and statement by statement, in
machine instructions (valgrind's callgrind, as benchmarks/instructions.py counts them: only the
instructions inside clingo's calls, each count a fresh child process that builds the program twice).

The program is the one a query grounds: the statements the pruner keeps and the facts they read
(`solver.program_for`), for the typical snapshot and the board of issue 13.

    python benchmarks/rulecost.py groups    # the board's program with each group of rules left out
    python benchmarks/rulecost.py own       # each statement only the board keeps, left out, no facts
    python benchmarks/rulecost.py relaxed   # the statements no value-level pruner could keep (below)

`groups`: a group is the statements whose text matches a pattern (GROUPS); leaving one out also
leaves out what it alone derived, so a group's figure is what the board pays for it.  `own`: with no
facts nothing is derived, so each figure is that statement's fixed cost (about 2 minutes).
`relaxed`: every negative literal dropped (the positive relaxation, which can only derive more), a
statement whose body has no match there could be left out by a pruner that knew the facts' values;
the ones printed for each query are those (`B`: the board keeps it, the typical query does not).

Not part of the tests or CI; exit status 2 when valgrind is missing.  benchmarks/HISTORY.md
(2026-12-05) has the figures.
"""
from __future__ import annotations

import argparse
import re
import shutil
import sys
import tempfile
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import clingo
from clingo import ast
from clingo.ast import ASTType

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

from instructions import CALLS, CHILD, ROOT, collected  # noqa: E402

sys.path.insert(0, str(ROOT))
from pyrules import Engine  # noqa: E402
from pyrules.solver import program_for  # noqa: E402
from workload import summons_board, typical  # noqa: E402

GROUPS = {"procedure": r"proc_|procedure", "ritual": r"ritual", "set limit": r"^set_layer|too_many_sets",
          "fusion": r"fusion|named_material|substitute\("}


def programs(work: Path) -> dict[str, tuple[list[str], Path]]:
    """The statements (as text) and the facts file of each query kind."""
    engine = Engine()
    for i in range(engine.statements.TEXT_QUERIES + 2):     # past the text queries: the cache written now
        engine.legal(typical(i))
        engine.legal(summons_board(i))
    out = {}
    for kind, make in (("typical", typical), ("board", summons_board)):
        kept, read = program_for(engine.statements, engine.encode(make(1))[1])
        facts = work / f"{kind}.facts"
        facts.write_text("".join(f"{f}\n" for f in read))
        out[kind] = ([str(s) for s in kept], facts)
    return out


def count(work: Path, name: str, lines: list[str], facts: Path) -> int:
    """Instructions inside clingo's calls for one query of this program (2 runs, averaged)."""
    program = work / f"{name}.lp"
    program.write_text("".join(f"{line}\n" for line in lines))
    toggles = [f"--toggle-collect={c}" for c in CALLS]
    return collected([str(work / "child.py"), str(program), str(facts), "2"], toggles) // 2


def groups(work: Path, progs: dict) -> None:
    lines, facts = progs["board"]
    jobs = [("none", r"^\Z")] + list(GROUPS.items())

    def one(k: int) -> tuple[str, int, int]:
        name, pattern = jobs[k]
        kept = [line for line in lines if not re.search(pattern, line)]
        return name, len(lines) - len(kept), count(work, f"group{k}", kept, facts)
    with ThreadPoolExecutor(2) as pool:
        results = list(pool.map(one, range(len(jobs))))
    whole = results[0][2]
    print(f"the board's program: {len(lines)} statements, {whole / 1e6:.2f}M instructions")
    for name, n, c in results[1:]:
        print(f"without {name:10s} (-{n:2d} statements)  {c / 1e6:6.2f}M  ({(c - whole) / 1e6:+.2f}M)")


def own(work: Path, progs: dict) -> None:
    lines, _ = progs["board"]
    typical_lines = set(progs["typical"][0])
    empty = work / "none.facts"
    empty.write_text("")
    whole = count(work, "own", lines, empty)
    mine = [i for i, line in enumerate(lines) if line not in typical_lines]

    def one(i: int) -> tuple[int, int]:
        return i, count(work, f"own{i}", lines[:i] + lines[i + 1:], empty)
    with ThreadPoolExecutor(2) as pool:
        results = sorted(pool.map(one, mine), key=lambda r: r[1])
    print(f"the board's program with no facts: {whole / 1e6:.2f}M; the {len(mine)} statements only it keeps:")
    for i, c in results:
        print(f"{(whole - c) / 1e3:6.0f}k  {lines[i][:150]}")
    print(f"together {sum(whole - c for _, c in results) / 1e6:.2f}M")


def _positive_variables(body: list) -> list[ast.AST]:
    found: dict[str, ast.AST] = {}

    class Names(ast.Transformer):
        def visit_Variable(self, node):
            if node.name != "_":
                found.setdefault(node.name, node)
            return node
    for lit in body:
        if lit.ast_type == ASTType.Literal and lit.atom.ast_type == ASTType.SymbolicAtom:
            Names()(lit)
    return list(found.values())


def unmatched(lines: list[str], facts: Path) -> list[str]:
    """The rules whose body has no match in the positive relaxation of the program."""
    parsed: list = []
    ast.parse_string("\n".join(lines), parsed.append)
    out, rules = [], {}
    for i, stmt in enumerate(parsed):
        if stmt.ast_type != ASTType.Rule:
            out.append(stmt)
            continue
        body = [lit for lit in stmt.body if not (lit.ast_type == ASTType.Literal and lit.sign != ast.Sign.NoSign)]
        out.append(stmt.update(body=body))
        if len(stmt.body):
            rules[i] = str(stmt)
            loc = stmt.location
            args = [ast.SymbolicTerm(loc, clingo.Number(i)), *_positive_variables(body)]
            head = ast.Literal(loc, ast.Sign.NoSign, ast.SymbolicAtom(ast.Function(loc, "fired__", args, False)))
            out.append(ast.Rule(loc, head, body))
    ctl = clingo.Control(["--warn=none"])
    with ast.ProgramBuilder(ctl) as builder:
        for stmt in out:
            builder.add(stmt)
    ctl.add("base", [], "".join(f"{f}.\n" for f in facts.read_text().splitlines() if f))
    ctl.ground([("base", [])])
    fired = {a.symbol.arguments[0].number for a in ctl.symbolic_atoms if a.symbol.name == "fired__"}
    return [text for i, text in rules.items() if i not in fired]


def relaxed(progs: dict) -> None:
    for kind, other in (("board", "typical"), ("typical", "board")):
        lines, facts = progs[kind]
        others = set(progs[other][0])
        idle = unmatched(lines, facts)
        print(f"{kind}: {len(idle)} of {len(lines)} statements have no match in the positive relaxation")
        for text in idle:
            print(("  B " if kind == "board" and text not in others else "    ") + text[:150])


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("what", choices=["groups", "own", "relaxed"])
    args = ap.parse_args()
    if args.what != "relaxed" and shutil.which("valgrind") is None:
        print("valgrind is not installed: nothing counted", file=sys.stderr)
        sys.exit(2)
    with tempfile.TemporaryDirectory() as tmp:
        work = Path(tmp)
        (work / "child.py").write_text(CHILD)
        progs = programs(work)
        if args.what == "groups":
            groups(work, progs)
        elif args.what == "own":
            own(work, progs)
        else:
            relaxed(progs)


if __name__ == "__main__":
    main()
