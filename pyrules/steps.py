"""The step rewrite of `pyrules diff --depth N`: the rules of one snapshot made into the rules of a
sequence of snapshots, for bounded model checking over the `next` relation (rules/next/*.lp).

Python decides no rule here: it rewrites the rule base with clingo.ast, the way the search's
`worldify` does.  The state facts are the input facts (rules/input.lp) a successor can change: the
F of every `next(F)` head of the rules, and the two facts a snapshot's encoding derives from them
(`on_chain`, `battle_step_given`).  Every predicate that depends on one of them (a fixpoint over the
rules, `dependents`) takes a step argument S; every predicate that depends on a reading or on the
state takes a world argument W; both go first, world then step: zone(I,P,Z) becomes zone(W,S,I,P,Z).
What never changes (a card's printed data, the readings' catalogue) stays as it is, unindexed.

`bridges` writes the rules that join the steps: the generated snapshot (the generator's facts,
unindexed) is step 0 of both worlds, and next(W,S,F) is F at step S+1 in world W.

How it grounds (docs/counterexamples.md, "Several actions"): `unrolled` writes each statement that mentions
the step variable once per step, with the step as a number.  gringo orders its work by which atoms may
match which (a rule at step 1 reads step 0 and no later step), so the steps ground one after the other and
each step's `not` is decided where the steps before it decide it, as in a query; with the step as a variable
every step would sit in one recursive component, and gringo would keep every negative literal of it
undecided.  `projected` gives back to clingo the anonymous variables of the indexed atoms: a step's atoms
are choices, not facts, so `query(W,S,_)` is matched once rather than once per query.
"""
from __future__ import annotations

import re
from typing import Any, Iterable

import clingo.ast as ast

from .astwalk import AtomRewriter, Sig, head_body, signatures, term_atoms, variable_counts, with_first_argument

WORLD_VAR, STEP_VAR = "W__", "S__"
WORLD_DOMAIN, STEP_DOMAIN = "world", "depth_step"
# input facts the rules/next/*.lp copy unchanged or change only for a card the search never makes (a card
# drawn: new_card/2 is not given, so a draw from a Deck given as a count has no successor in the search)
STATIC_FACTS: set[Sig] = {("player", 1), ("name", 2), ("owner", 2)}
# input facts an encoding derives from others (pyrules/encode.py), given at later steps by rules/search/diff_depth.lp
DERIVED_FACTS: set[Sig] = {("on_chain", 1), ("battle_step_given", 0)}
# the predicate rules/search/diff_depth.lp defines per world and step to say which action is done
FOCUS: set[Sig] = {("next_unfocused", 1)}


def dependents(statements: Iterable[Any], seeds: set[Sig]) -> set[Sig]:
    """The seeds, and the heads of every rule that mentions a predicate already found (a fixpoint,
    reached by a worklist: each predicate found wakes the rules that mention it)."""
    rules: list[set[Sig]] = []
    mentions: dict[Sig, list[int]] = {}
    for s in statements:
        if s.ast_type == ast.ASTType.Rule:
            defined, body = head_body(s)
            head = {sig for sig, _ in defined}
            for sig in head | body:
                mentions.setdefault(sig, []).append(len(rules))
            rules.append(head)
    found = set(seeds)
    todo = list(found)
    while todo:
        for r in mentions.get(todo.pop(), ()):
            new = rules[r] - found
            found |= new
            todo += new
    return found


def next_targets(statements: Iterable[Any]) -> set[Sig]:
    """The signature of every F in a `next(F)` head: the input facts a successor gives."""
    out: set[Sig] = set()
    for s in statements:
        if s.ast_type != ast.ASTType.Rule:
            continue
        for sig, term in head_body(s)[0]:
            if sig != ("next", 1) or term.ast_type != ast.ASTType.Function:
                continue
            arg = term.arguments[0]
            if arg.ast_type == ast.ASTType.Function:
                out.add((arg.name, len(arg.arguments)))
            elif arg.ast_type == ast.ASTType.SymbolicTerm:
                out.add((arg.symbol.name, len(arg.symbol.arguments)))
    return out


def state_facts(statements: Iterable[Any]) -> set[Sig]:
    """The input facts that may change from one step to the next."""
    return (next_targets(statements) - STATIC_FACTS) | DERIVED_FACTS


def _loc() -> ast.Location:
    pos = ast.Position("<depth>", 1, 1)
    return ast.Location(pos, pos)


def _domain(name: str, var: str) -> Any:
    return ast.Literal(_loc(), ast.Sign.NoSign, ast.SymbolicAtom(ast.Function(_loc(), name, [ast.Variable(_loc(), var)], 0)))


class _AddIndex(AtomRewriter):
    """Puts W and S before the arguments of the indexed atoms, and notes which it put."""

    def __init__(self, worlds: set[Sig], steps: set[Sig]):
        self.worlds, self.steps = worlds, steps
        self.world = self.step = False

    def atom(self, sig, term):
        if sig is None:
            return term
        if sig in self.steps:
            self.step = True
            term = with_first_argument(term, ast.Variable(term.location, STEP_VAR))
        if sig in self.worlds:
            self.world = True
            term = with_first_argument(term, ast.Variable(term.location, WORLD_VAR))
        return term


def stepify(statements: list, world_seeds: set[Sig], step_seeds: set[Sig]) -> tuple[list, set[Sig], set[Sig]]:
    """Give every predicate that depends on a step seed a step argument S and every one that depends on a
    world seed (or a step seed: worlds may part after a step) a world argument W; a rule that got one gets
    world(W) or depth_step(S) in its body.  Returns the statements and the world- and step-indexed signatures."""
    statements = list(statements)
    steps = dependents(statements, step_seeds)
    worlds = dependents(statements, world_seeds | step_seeds)
    out = []
    for s in statements:
        t = s.ast_type
        if t in (ast.ASTType.Defined, ast.ASTType.ShowSignature):
            sig = (s.name, s.arity)
            out.append(s.update(arity=s.arity + (sig in steps) + (sig in worlds)))
        elif t in (ast.ASTType.Rule, ast.ASTType.Minimize, ast.ASTType.ShowTerm):
            tr = _AddIndex(worlds, steps)
            s = tr(s)
            extra = ([_domain(WORLD_DOMAIN, WORLD_VAR)] if tr.world else []) + \
                    ([_domain(STEP_DOMAIN, STEP_VAR)] if tr.step else [])
            out.append(s.update(body=list(s.body) + extra) if extra else s)
        else:
            out.append(s)
    return out, worlds, steps


class _Anonymous(ast.Transformer):
    """Names the given variables `_` again."""

    def __init__(self, names: set[str]):
        self.names = names

    def visit_Variable(self, node: Any) -> Any:
        return ast.Variable(node.location, "_") if node.name in self.names else node


def _indexed_atom(lit: Any, indexed: set[Sig]) -> bool:
    """Whether a body literal is a positive atom of an indexed predicate."""
    if not (lit.ast_type == ast.ASTType.Literal and lit.sign == ast.Sign.NoSign
            and lit.atom.ast_type == ast.ASTType.SymbolicAtom):
        return False
    found = term_atoms(lit.atom.symbol)
    return len(found) == 1 and found[0][0] in indexed


def projected(statements: Iterable[Any], indexed: set[Sig]) -> list:
    """The statements, with each variable that occurs once in a rule, in a positive body atom of an indexed
    predicate (`indexed`: their signatures as rewritten), in a rule with two or more of them, anonymous again:
    clingo projects such an atom through a predicate of its own, matched once per value of the other
    arguments rather than once per atom (astwalk.name_anonymous names them, which is faster where the atoms
    are facts, as in a query; in the search they are not).  A rule with one such atom is left alone: it
    is matched once per atom either way."""
    out = []
    for s in statements:
        body = list(s.body) if s.ast_type == ast.ASTType.Rule else []
        atoms = [i for i, lit in enumerate(body) if _indexed_atom(lit, indexed)]
        if len(atoms) < 2:
            out.append(s)
            continue
        counts = variable_counts(s)
        for i in atoms:
            once = {v for v in variable_counts(body[i]) if counts.get(v) == 1 and v != "_"}
            if once:
                body[i] = _Anonymous(once)(body[i])
        out.append(s.update(body=body))
    return out


_STRING = re.compile(r'("(?:[^"\\]|\\.)*")')
_STEP = re.compile(r"\b" + STEP_VAR + r"\b")


def unrolled(texts: Iterable[str], last: int) -> list[str]:
    """The statements (clingo's texts) for the steps 0 to `last`: each one that mentions the step variable S__
    written once per step with the step as a number (outside string constants), the others once."""
    out = []
    for text in texts:
        parts = _STRING.split(text)
        if not any(_STEP.search(p) for p in parts[::2]):
            out.append(text)
            continue
        for k in range(last + 1):
            out.append("".join(p if i % 2 else _STEP.sub(str(k), p) for i, p in enumerate(parts)))
    return out


def rewritten(worlds: set[Sig], steps: set[Sig]) -> set[Sig]:
    """The signatures of the indexed predicates as stepify writes them (a world and a step argument added)."""
    return {(name, n + ((name, n) in worlds) + ((name, n) in steps)) for name, n in worlds | steps}


def _atom(name: str, args: list[str]) -> str:
    return f"{name}({','.join(args)})" if args else name


def bridges(state: set[Sig], targets: set[Sig], last: int) -> str:
    """The rules joining the steps 0 to `last`: each state fact of the generated snapshot (unindexed) holds at
    step 0 in both worlds; each next(W,S,F) of a successor's fact F holds at step S+1 in world W (written once
    per step, as `unrolled` writes the rules)."""
    lines = []
    for name, n in sorted(state):
        xs = [f"X{i}" for i in range(n)]
        lines.append(f"{_atom(name, ['W', '0', *xs])} :- {_atom(name, xs)}, {WORLD_DOMAIN}(W).")
        if (name, n) in targets:
            lines += [f"{_atom(name, ['W', str(k + 1), *xs])} :- next(W,{k},{_atom(name, xs)})." for k in range(last)]
    return "\n".join(lines)


def split_generator(generator: list, state: set[Sig], rule_heads: set[Sig]) -> tuple[list, list]:
    """The generator's statements in two parts: the snapshot (the choice rules of the state facts and what
    they and its #minimize read: step 0, kept as they are) and the rest (the actions asked and the check
    that the snapshot is valid, asked again at every step: rewritten with the rules).  rule_heads: what the
    rule base defines (a statement that reads it, `:- invalid(_,_)`, belongs to the steps)."""
    rules = [(s, *head_body(s)) for s in generator if s.ast_type == ast.ASTType.Rule]
    defined = {sig for _, d, _ in rules for sig, _ in d}
    snap = (state | STATIC_FACTS) & defined
    for s in generator:
        if s.ast_type == ast.ASTType.Minimize:
            snap |= {sig for sig in signatures(s) if sig in defined}
    changed = True
    while changed:
        changed = False
        for _, d, body in rules:
            heads = {sig for sig, _ in d}
            if heads and heads <= snap and not (body & defined) <= snap:
                snap |= body & defined
                changed = True
    kept: list = []
    stepped: list = []
    for s in generator:
        if s.ast_type == ast.ASTType.Minimize:
            kept.append(s)
        elif s.ast_type == ast.ASTType.Rule:
            d, body = head_body(s)
            heads = {sig for sig, _ in d}
            own = heads <= snap if heads else (body & defined) <= snap and not body & (rule_heads - snap)
            (kept if own else stepped).append(s)
        else:
            stepped.append(s)
    return kept, stepped
