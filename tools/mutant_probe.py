#!/usr/bin/env python3
"""A fast probe of every mutant of a rule file: which mutants could a ruling case notice?

`pyrules test --mutate` runs one mutant at a time against the ruling cases (an Engine on a copy of the
rules, then up to every check: 20-60 s a mutant), so nobody can look at all the mutants of a file that
way.  This probe looks at all of them at once, in three steps:

1. Worlds.  Every check of the ruling cases is run once with the unmutated rules, and each grounding the
   Engine makes (`pyrules.engine.ground_and_solve`, patched here, not in the product) is solved once more
   for its whole model: the statements the pruner keeps, with every fact the query gave.  A model kept
   to the atoms of the predicates the probed file's statements read or derive is a *world*; identical
   worlds are one, and each world remembers the checks it came from.
2. Probe.  Each statement S of the file and each of its mutants S' (pyrules/mutate.py: `statement_sites`,
   `mutated`, `make_mutant`, so the `% mutate: equivalent` markers are read) is evaluated on every world
   at once, in one clingo grounding per statement: every body atom gets the world W as a first argument,
   the worlds' atoms are facts `p(W,...)`, and a head becomes `probe_(I,K,W,Head)` (K the mutant, 0 the
   original; a constraint's head is `constraint`; a choice's elements each, its bounds `bounds`).  A
   mutant whose derived heads are the original's in every world is *unseen*: no check's grounding
   would tell it from the original (a candidate survivor).  One that differs is *seen* in those
   worlds' checks.
3. Confirm (`--confirm`).  Each seen mutant is run for real (as `pyrules test --mutate` does, in a
   forked child) on only the checks where it was seen; if none fails, it survives too: the difference
   does not reach a verdict.  `--confirm-unseen N` also runs N unseen mutants on every check, to
   measure the approximation.

The approximation: when S' derives on a world's model M what S derives, M is still a model of the
mutated program (for stratified rules, its answer), so the checks' verdicts stay; a mutant that only
changes the support of atoms M already holds, or a grounding this probe does not see (the search's
`Program`, the batch's shared grounding), can be called unseen wrongly.  A seen mutant that is not
confirmed is reported as `seen` (killed or not is not known).

Usage:
  python tools/mutant_probe.py rules/summons.lp [more files] [--confirm] [--confirm-unseen N] [--json]
         [--rules rules] [--cases 'tests/cases/*.yaml'] [--only-line N]
"""
from __future__ import annotations

import argparse
import glob
import json
import os
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

import clingo  # noqa: E402
from clingo import ast  # noqa: E402

from pyrules import mutate  # noqa: E402
from pyrules.rulebase import RuleBase  # noqa: E402

WORLD_VAR = "W_PROBE_"
MAX_MODELS = 8          # models of one grounding kept as worlds (a query's program is mostly deterministic)


# ---- the predicates a statement reads or derives ------------------------------------------------------
def _atoms(node: Any) -> list[tuple[str, int]]:
    """(name, arity) of every symbolic atom in a statement."""
    out = []
    for _path, n in mutate._walk(node):
        if n.ast_type == ast.ASTType.SymbolicAtom:
            sig = _signature(n.symbol)
            if sig:
                out.append(sig)
    return out


def _signature(term: Any) -> tuple[str, int] | None:
    if term.ast_type == ast.ASTType.Function:
        return term.name, len(term.arguments)
    if term.ast_type == ast.ASTType.SymbolicTerm and term.symbol.type == clingo.SymbolType.Function:
        return term.symbol.name, len(term.symbol.arguments)
    if term.ast_type == ast.ASTType.UnaryOperation:        # -p(X): classical negation, left as it is
        return None
    return None


# ---- step 1: the worlds ---------------------------------------------------------------------------------
@dataclass
class Worlds:
    """Per probed file: the distinct worlds (kept atoms) and the checks of each."""
    signatures: dict[str, set[tuple[str, int]]]
    atoms: dict[str, list[list[clingo.Symbol]]] = field(default_factory=dict)
    checks: dict[str, list[set[int]]] = field(default_factory=dict)
    index: dict[str, dict[frozenset, int]] = field(default_factory=dict)
    groundings: int = 0
    seconds: float = 0.0

    def add(self, model: list[clingo.Symbol], check: int) -> None:
        for f, sigs in self.signatures.items():
            kept = [a for a in model if (a.name, len(a.arguments)) in sigs and a.type == clingo.SymbolType.Function
                    and a.positive]
            key = frozenset(kept)
            at = self.index.setdefault(f, {})
            w = at.get(key)
            if w is None:
                w = at[key] = len(self.atoms.setdefault(f, []))
                self.atoms[f].append(kept)
                self.checks.setdefault(f, []).append(set())
            self.checks[f][w].add(check)


def save_worlds(worlds: Worlds, path: Path) -> None:
    """The worlds as JSON (atoms as text), to probe again without running the checks."""
    path.write_text(json.dumps({"groundings": worlds.groundings, "seconds": worlds.seconds,
                                "files": {f: {"atoms": [[str(a) for a in w] for w in worlds.atoms.get(f, [])],
                                              "checks": [sorted(c) for c in worlds.checks.get(f, [])]}
                                          for f in worlds.signatures}}))


def load_worlds(path: Path, signatures: dict[str, set[tuple[str, int]]]) -> Worlds | None:
    """Worlds saved by save_worlds, if they hold every file asked for."""
    data = json.loads(path.read_text())
    if not set(signatures) <= set(data["files"]):
        return None
    worlds = Worlds(signatures, groundings=data["groundings"], seconds=data["seconds"])
    for f in signatures:
        worlds.atoms[f] = [[clingo.parse_term(a) for a in w] for w in data["files"][f]["atoms"]]
        worlds.checks[f] = [set(c) for c in data["files"][f]["checks"]]
    return worlds


def whole_models(statements: Any, facts: list[clingo.Symbol]) -> list[list[clingo.Symbol]]:
    """The models (every atom) of one grounding: the statements the pruner keeps with every fact."""
    from clingo.ast import ProgramBuilder

    from pyrules.solver import CLINGO_ARGS, Statements, pruner
    from pyrules.symbols import add_facts, add_statements
    kept_at, _ = pruner(statements).select(facts)
    ctl = clingo.Control(CLINGO_ARGS + ["0"])
    if isinstance(statements, Statements) and not statements.is_parsed:
        statements.add_text(ctl, kept_at)
    else:
        with ProgramBuilder(ctl) as builder:
            add_statements(builder, [statements[i] for i in kept_at])
    with ctl.backend() as backend:
        add_facts(backend, facts)
    ctl.ground([("base", [])])
    models: list[list[clingo.Symbol]] = []
    with ctl.solve(yield_=True) as handle:
        for m in handle:
            models.append(m.symbols(atoms=True))
            if len(models) >= MAX_MODELS:
                break
    return models


def record_worlds(engine: Any, checks: list, signatures: dict[str, set[tuple[str, int]]],
                  progress: bool = False) -> Worlds:
    """Run every check with the unmutated rules, each grounding's whole models made worlds."""
    import pyrules.engine as engine_module
    worlds = Worlds(signatures)
    original = engine_module.ground_and_solve
    current = [-1]
    start = time.monotonic()

    def patched(statements, facts, prune=True):
        facts = facts if isinstance(facts, (list, tuple)) else list(facts)
        got = original(statements, facts, prune)
        worlds.groundings += 1
        for model in whole_models(statements, list(facts)):
            worlds.add(model, current[0])
        return got

    engine_module.ground_and_solve = patched
    failed = []
    try:
        for i, c in enumerate(checks):
            current[0] = i
            ok, msg = _run(engine, c)
            if not ok:
                failed.append((c, msg))
            if progress and i % 500 == 0:
                print(f"  worlds: check {i}/{len(checks)}, {worlds.groundings} groundings, "
                      f"{time.monotonic() - start:.0f} s", file=sys.stderr)
    finally:
        engine_module.ground_and_solve = original
    if failed:
        raise SystemExit("the unmutated rules fail checks: " + "; ".join(f"{c.case['name']}: {m}" for c, m in failed[:5]))
    worlds.seconds = time.monotonic() - start
    return worlds


def _run(engine: Any, c: Any) -> tuple[bool, str]:
    from pyrules.cases import run_check
    try:
        return run_check(engine, c.case, c.spec)
    except Exception as e:          # noqa: BLE001
        return False, f"{type(e).__name__}: {e}"


# ---- step 2: the probe -------------------------------------------------------------------------------------
class _AddWorld(ast.Transformer):
    """Every symbolic atom gets the world variable as its first argument."""

    def __init__(self, loc: Any) -> None:
        self.w = ast.Variable(loc, WORLD_VAR)

    def visit_SymbolicAtom(self, node: Any) -> Any:
        t = node.symbol
        if t.ast_type == ast.ASTType.Function:
            return node.update(symbol=t.update(arguments=[self.w, *t.arguments]))
        if t.ast_type == ast.ASTType.SymbolicTerm and t.symbol.type == clingo.SymbolType.Function:
            return node.update(symbol=ast.Function(t.location, t.symbol.name, [self.w], 0))
        return node


def _fn(loc: Any, name: str, args: list) -> Any:
    return ast.Function(loc, name, args, 0)


def _num(loc: Any, n: int) -> Any:
    return ast.SymbolicTerm(loc, clingo.Number(n))


def _lit(loc: Any, term: Any, sign: Any = ast.Sign.NoSign) -> Any:
    return ast.Literal(loc, sign, ast.SymbolicAtom(term))


def probe_rules(stmt: Any, i: int, k: int) -> list[Any]:
    """The rules that derive `probe_(I,K,W,Head)` for what the statement derives in each world W."""
    loc = stmt.location
    add = _AddWorld(loc)
    world = _lit(loc, _fn(loc, "probe_world_", [ast.Variable(loc, WORLD_VAR)]))
    body = [world] + [add(b) for b in stmt.body]

    def head(term: Any) -> Any:
        return _lit(loc, _fn(loc, "probe_", [_num(loc, i), _num(loc, k), ast.Variable(loc, WORLD_VAR), term]))

    h = stmt.head
    if h.ast_type != ast.ASTType.Literal:
        return _choice_rules(h, body, head, add)
    if h.atom.ast_type == ast.ASTType.BooleanConstant:
        return [ast.Rule(loc, head(ast.SymbolicTerm(loc, clingo.Function("constraint"))), body)]
    if h.sign == ast.Sign.NoSign:
        return [ast.Rule(loc, head(h.atom.symbol), body)]
    return [ast.Rule(loc, head(_fn(loc, "negated", [h.atom.symbol])), body)]     # a negated head


def _element(kind: Any, e: Any) -> tuple[list, Any, list]:
    """(the tuple's terms, the literal, its condition) of a choice's or head aggregate's element."""
    if kind == ast.ASTType.HeadAggregate:
        return list(e.terms), e.condition.literal, list(e.condition.condition)
    symbolic = e.literal.atom.ast_type == ast.ASTType.SymbolicAtom
    return ([e.literal.atom.symbol] if symbolic else []), e.literal, list(e.condition)


def _choice_rules(h: Any, body: list, head: Any, add: _AddWorld) -> list[Any]:
    """A choice (or disjunction, or head aggregate): each element's atom where its condition holds, and
    `bounds` where the count of its elements true in the world's model breaks the choice's bounds."""
    loc, kind = h.location, h.ast_type
    elements = [_element(kind, e) for e in h.elements]
    out = [ast.Rule(loc, head(lit.atom.symbol), body + [add(c) for c in cond])
           for _, lit, cond in elements if lit.atom.ast_type == ast.ASTType.SymbolicAtom]
    if kind != ast.ASTType.Disjunction and (h.left_guard is not None or h.right_guard is not None):
        counted = [ast.BodyAggregateElement(terms, [add(lit)] + [add(c) for c in cond]) for terms, lit, cond in elements]
        function = h.function if kind == ast.ASTType.HeadAggregate else ast.AggregateFunction.Count
        agg = ast.BodyAggregate(loc, h.left_guard, function, counted, h.right_guard)
        out.append(ast.Rule(loc, head(ast.SymbolicTerm(loc, clingo.Function("bounds"))),
                            body + [ast.Literal(loc, ast.Sign.Negation, agg)]))
    return out


@dataclass
class Probed:
    mutant: mutate.Mutant
    statement: int
    k: int
    worlds: set[int] = field(default_factory=set)
    checks: set[int] = field(default_factory=set)
    confirmed: str = ""         # killed, survived (after --confirm), "" not run


def _world_control(atoms: list[list[clingo.Symbol]]) -> clingo.Control:
    """A Control with every world's atoms as facts p(W,...) and probe_world_(W), grounded."""
    ctl = clingo.Control(["--warn=none"])
    with ctl.backend() as backend:
        for w, model in enumerate(atoms):
            backend.add_rule([backend.add_atom(clingo.Function("probe_world_", [clingo.Number(w)]))])
            for a in model:
                backend.add_rule([backend.add_atom(clingo.Function(a.name, [clingo.Number(w), *a.arguments]))])
    ctl.ground([("base", [])])
    return ctl


def _mutants_of(base: RuleBase, stmt: Any, path: Path, i: int, stats: dict[str, int]) -> tuple[list[Probed], list]:
    """The statement's distinct mutants that load (numbered from 1) and the probe rules of it and them."""
    if stmt.ast_type != ast.ASTType.Rule:
        return [], []
    rules = probe_rules(stmt, i, 0)
    seen_text: set[str] = set()
    mine: list[Probed] = []
    for site in mutate.statement_sites(stmt, path, i):
        m = mutate.make_mutant(base, site)
        if m is None or m.text in seen_text:
            continue
        seen_text.add(m.text)
        if m.status == "stillborn":
            stats["stillborn"] += 1
            continue
        stats["mutants"] += 1
        stats["equivalent"] += m.status == "equivalent"
        mine.append(Probed(m, i, len(mine) + 1))
        new = mutate.mutated(stmt, site)
        if m.status != "equivalent" or mutate.grounds_alone(str(new)) is None:   # (a marked one may not ground)
            rules += probe_rules(new, i, len(mine))
    return mine, rules


def probe_file(base: RuleBase, path: Path, worlds: Worlds, only_line: int | None = None
               ) -> tuple[list[Probed], dict[str, Any]]:
    """Every mutant of the file's statements, evaluated on every world: one grounding (a program part
    of one Control that holds the worlds) per statement."""
    from clingo.ast import ProgramBuilder
    key = str(path)
    atoms = worlds.atoms.get(key, [])
    start = time.monotonic()
    ctl = _world_control(atoms)
    out: list[Probed] = []
    stats: dict[str, Any] = {"statements": 0, "mutants": 0, "equivalent": 0, "stillborn": 0}
    for i, stmt in enumerate(base.program().statements[path]):
        if only_line is not None and not (stmt.location.begin.line <= only_line <= stmt.location.end.line):
            continue
        mine, rules = _mutants_of(base, stmt, path, i, stats)
        if not mine:
            continue
        stats["statements"] += 1
        part = f"s{i}"
        with ProgramBuilder(ctl) as builder:
            builder.add(ast.Program(stmt.location, part, []))
            for r in rules:
                builder.add(r)
        ctl.add(part, [], f"probe_k_({i},1..{len(mine)}).\n"
                          f"probe_diff_({i},K,W) :- probe_({i},K,W,H), not probe_({i},0,W,H), K != 0.\n"
                          f"probe_diff_({i},K,W) :- probe_({i},0,W,H), probe_k_({i},K), not probe_({i},K,W,H).\n")
        ctl.ground([(part, [])])
        for sa in ctl.symbolic_atoms.by_signature("probe_diff_", 3):
            a = sa.symbol
            if a.arguments[0].number == i:
                mine[a.arguments[1].number - 1].worlds.add(a.arguments[2].number)
        for p in mine:
            for w in p.worlds:
                p.checks |= worlds.checks[key][w]
        out += mine
    stats["seconds"] = round(time.monotonic() - start, 1)
    stats["worlds"] = len(atoms)
    return out, stats


# ---- step 3: confirm --------------------------------------------------------------------------------------
def confirm(engine: Any, checks: list, which: list[Probed], every: bool = False,
            progress: bool = False) -> None:
    """Run each mutant for real (mutate.run) on the checks where it was seen (every check with `every`)."""
    own = {id(p.mutant): sorted(p.checks) for p in which}

    def said(n: int, total: int, m: mutate.Mutant) -> None:
        if progress:
            print(f"  confirm {n + 1}/{total} {m.file.name}:{m.line} {m.kind}: {m.status} ({m.seconds:.1f} s)",
                  file=sys.stderr)

    mutate.run(engine, checks, [p.mutant for p in which], limit=600.0, progress=said,
               checks_of=None if every else (lambda m: own[id(m)]))
    for p in which:
        p.confirmed = p.mutant.status


# ---- the command ------------------------------------------------------------------------------------------
def status(p: Probed) -> str:
    if p.mutant.status == "equivalent":
        return "equivalent"
    if not p.worlds:
        return p.confirmed and f"unseen-{p.confirmed}" or "unseen"
    return p.confirmed or "seen"


def _file_report(engine: Any, checks: list, folder: Path, f: Path, base: RuleBase, worlds: Worlds,
                 args: argparse.Namespace) -> dict[str, Any]:
    probed, stats = probe_file(base, f, worlds, args.only_line)
    live = [p for p in probed if p.mutant.status != "equivalent"]
    if not args.quiet:
        print(f"probe {f.name}: {stats['mutants']} mutants ({stats['equivalent']} equivalent), "
              f"{sum(1 for p in live if not p.worlds)} unseen, {stats['worlds']} worlds, {stats['seconds']} s",
              file=sys.stderr)
    t = time.monotonic()
    if args.confirm is not None:
        seen = [p for p in live if p.worlds]
        if args.confirm:
            seen = seen[::max(1, len(seen) // args.confirm)][:args.confirm]
        confirm(engine, checks, seen, progress=not args.quiet)
    if args.confirm_unseen:
        confirm(engine, checks, [p for p in live if not p.worlds][:args.confirm_unseen], every=True,
                progress=not args.quiet)
    stats["confirm_seconds"] = round(time.monotonic() - t, 1)
    counts: dict[str, int] = {}
    for p in probed:
        counts[status(p)] = counts.get(status(p), 0) + 1
    survivors = [p for p in live if status(p) in ("unseen", "survived", "unseen-survived")]
    return {"file": mutate.rel(f, folder), **stats, "counts": counts,
            "survivors": [{"line": p.mutant.line, "kind": p.mutant.kind, "mutation": p.mutant.mutation,
                           "status": status(p), "seen_in_checks": len(p.checks)} for p in survivors],
            "all": [{"line": p.mutant.line, "kind": p.mutant.kind, "mutation": p.mutant.mutation,
                     "status": status(p), "worlds": len(p.worlds), "checks": len(p.checks),
                     "killed_by": p.mutant.killed_by, "why": p.mutant.why or None} for p in probed]}


def _print(report: dict[str, Any]) -> None:
    for fr in report["files"]:
        print(f"== {fr['file']}: {fr['mutants']} mutants, "
              + ", ".join(f"{v} {k}" for k, v in sorted(fr["counts"].items()))
              + f"; probe {fr['seconds']} s, confirm {fr['confirm_seconds']} s")
        for s in fr["survivors"]:
            print(f"{s['status']:<16} {fr['file']}:{s['line']:<5} {s['kind']:<6} {s['mutation']}")
    print(f"{report['checks']} checks, {report['groundings']} groundings ({report['worlds_seconds']} s); "
          f"{report['seconds']} s in all")


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("files", nargs="+", type=Path)
    ap.add_argument("--rules", type=Path, default=None, help="the rules folder (default: rules/ of this tree)")
    ap.add_argument("--cases", default=str(ROOT / "tests" / "cases" / "*.yaml"), help="case files (a glob)")
    ap.add_argument("--confirm", type=int, nargs="?", const=0, default=None, metavar="N",
                    help="run each seen mutant on the checks where it was seen (N: only N of them, spread over "
                         "the file, to measure)")
    ap.add_argument("--confirm-unseen", type=int, default=0, metavar="N",
                    help="run N unseen mutants on every check (to measure the approximation)")
    ap.add_argument("--only-line", type=int, default=None, help="only the statement on this line (one file)")
    ap.add_argument("--worlds", type=Path, default=None,
                    help="a JSON file of the worlds: read when it holds the files asked for, else written "
                         "(the checks and rules must be those it was made with)")
    ap.add_argument("--json", action="store_true")
    ap.add_argument("-q", "--quiet", action="store_true")
    args = ap.parse_args(argv)
    os.environ["PYRULES_CACHE_DIR"] = "off"      # every grounding goes through ground_and_solve
    from pyrules import Engine
    files = [f.resolve() for f in args.files]
    default = ROOT / "rules"
    folder = (args.rules or (default if files[0].is_relative_to(default) else files[0].parent)).resolve()
    base = RuleBase(folder)
    prog = base.program()
    missing = [f for f in files if f not in prog.statements]
    if missing:
        raise SystemExit(f"not rule files of {folder}: {', '.join(map(str, missing))}")
    signatures = {str(f): {s for st in prog.statements[f] for s in _atoms(st)} for f in files}
    checks = mutate.load_checks(sorted(Path(p) for p in glob.glob(args.cases)))
    engine = Engine(rules=folder)
    t0 = time.monotonic()
    worlds = load_worlds(args.worlds, signatures) if args.worlds and args.worlds.exists() else None
    if worlds is None:
        worlds = record_worlds(engine, checks, signatures, progress=not args.quiet)
        if args.worlds:
            save_worlds(worlds, args.worlds)
    if not args.quiet:
        print(f"worlds: {len(checks)} checks, {worlds.groundings} groundings, {worlds.seconds:.0f} s", file=sys.stderr)
    report: dict[str, Any] = {"rules": str(folder), "checks": len(checks), "groundings": worlds.groundings,
                              "worlds_seconds": round(worlds.seconds, 1),
                              "files": [_file_report(engine, checks, folder, f, base, worlds, args) for f in files]}
    report["seconds"] = round(time.monotonic() - t0, 1)
    if args.json:
        print(json.dumps(report, indent=2))
    else:
        _print(report)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
