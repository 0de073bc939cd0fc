"""Walking clingo's AST: the one place that knows where atoms sit in a parsed statement.

Used by the engine (which predicates the rules read), the batch (a snapshot argument on
every atom), the search (a world argument on the atoms that depend on a reading) and the
rule base (pyrules/rulebase.py: what each rule defines and uses, for lint and explain).  Every atom of a pool (`p(1;2)`, `p(X);q(X)`)
and of a classical negation (`-p(X)`) is seen.
"""
from __future__ import annotations

from typing import Any, Iterable, Iterator

import clingo
from clingo import ast
from clingo.ast import ASTType

Sig = tuple[str, int]


def term_atoms(term: Any) -> list[tuple[Sig, Any]]:
    """(signature, term) of each atom a symbolic atom's term stands for: a function, a
    constant, each element of a pool, the atom under a classical negation."""
    t = term.ast_type
    if t == ASTType.Function:
        return [((term.name, len(term.arguments)), term)]
    if t == ASTType.SymbolicTerm and term.symbol.type == clingo.SymbolType.Function:
        return [((term.symbol.name, len(term.symbol.arguments)), term)]
    if t == ASTType.Pool:
        return [found for arg in term.arguments for found in term_atoms(arg)]
    if t == ASTType.UnaryOperation:
        return term_atoms(term.argument)
    return []


def children(node: Any) -> Iterator[Any]:
    """The AST nodes directly under a node (its location apart)."""
    for key in node.keys():
        if key == "location":
            continue
        value = getattr(node, key)
        if isinstance(value, ast.AST):
            yield value
        elif isinstance(value, (ast.ASTSequence, list, tuple)):
            for v in value:
                if isinstance(v, ast.AST):
                    yield v


def atoms(node: Any) -> Iterator[tuple[Sig, Any]]:
    """(signature, term) of every atom under an AST node (or a list of nodes)."""
    if isinstance(node, (list, tuple, ast.ASTSequence)):
        for n in node:
            yield from atoms(n)
        return
    if node.ast_type == ASTType.SymbolicAtom:
        yield from term_atoms(node.symbol)
        return
    for child in children(node):
        yield from atoms(child)


def signatures(node: Any) -> set[Sig]:
    """The signatures of every atom under a node (or a list of nodes)."""
    return {sig for sig, _ in atoms(node)}


def predicates_read(statements: Iterable[Any]) -> set[Sig]:
    """Every predicate (name, arity) the rules mention, `#show p/N.` included: input facts
    of other predicates (a card's ATK, say, while no rule reads it) need not be given."""
    found: set[Sig] = set()
    for stmt in statements:
        if stmt.ast_type == ASTType.ShowSignature:
            found.add((stmt.name, stmt.arity))
        else:
            found |= signatures(stmt)
    return found


class AtomRewriter(ast.Transformer):
    """A transformer that replaces the term of every atom under a node (each element of a
    pool, the atom under a classical negation) by atom(signature, term).  Subclasses define
    atom() (the signature is None for a term that is not an atom) and may visit more nodes."""

    def atom(self, sig: Sig | None, term: Any) -> Any:
        return term

    def term(self, t: Any) -> Any:
        kind = t.ast_type
        if kind == ASTType.Pool:
            return t.update(arguments=[self.term(a) for a in t.arguments])
        if kind == ASTType.UnaryOperation:
            return t.update(argument=self.term(t.argument))
        found = term_atoms(t)
        return self.atom(found[0][0] if found else None, t)

    def visit_SymbolicAtom(self, node: Any) -> Any:
        return node.update(symbol=self.term(node.symbol))


def with_first_argument(term: Any, first: Any) -> Any:
    """An atom's term (a function or a constant) with `first` put before its arguments."""
    if term.ast_type == ASTType.SymbolicTerm:
        return ast.Function(term.location, term.symbol.name, [first], 0)
    return term.update(arguments=[first, *term.arguments])


def head_body(rule: Any) -> tuple[list[tuple[Sig, Any]], set[Sig]]:
    """(the atoms a rule's head defines, the signatures its body and conditions use)."""
    body = signatures(list(rule.body))
    head = rule.head
    kind = head.ast_type
    defined: list[tuple[Sig, Any]] = []
    if kind == ASTType.Literal:
        defined = list(atoms(head))
    elif kind in (ASTType.Aggregate, ASTType.Disjunction):
        for e in head.elements:
            defined += atoms(e.literal)
            body |= signatures(list(e.condition))
    elif kind == ASTType.HeadAggregate:
        for e in head.elements:
            defined += atoms(e.condition.literal)
            body |= signatures(list(e.condition.condition)) | signatures(list(e.terms))
    else:                                   # a theory atom, say: it defines nothing we know
        body |= signatures(head)
    for key in ("left_guard", "right_guard"):
        if key in head.keys() and getattr(head, key) is not None:
            body |= signatures(getattr(head, key))
    return defined, body


class _Unnamed(ast.Transformer):
    """Gives each anonymous variable `_` under a node a fresh name (see name_anonymous)."""

    def __init__(self, taken: set[str]) -> None:
        self.taken = taken
        self.k = 0

    def visit_Variable(self, node: Any) -> Any:
        if node.name != "_":
            return node
        while True:
            self.k += 1
            name = f"Any{self.k}"
            if name not in self.taken:
                return ast.Variable(node.location, name)


def variable_counts(node: Any, counts: dict[str, int] | None = None) -> dict[str, int]:
    """How often each variable (by name, `_` included) occurs under an AST node."""
    counts = {} if counts is None else counts
    if node.ast_type == ASTType.Variable:
        counts[node.name] = counts.get(node.name, 0) + 1
    for child in children(node):
        variable_counts(child, counts)
    return counts


def name_anonymous(stmt: Any) -> Any:
    """A rule with each `_` of its positive body literals named (Any1, Any2, ...), the same
    rule to clingo: each name occurs once, so it matches anything as `_` does.  clingo
    projects a positive literal with an anonymous variable through a rule and predicate of
    its own, for every such literal of every query; named, it is matched directly (about
    15% of clingo's work on the issue 13 board, benchmarks/instructions.py).  An `_` under
    `not`, in an aggregate or in a condition keeps its meaning only as `_` and stays."""
    if stmt.ast_type != ASTType.Rule:
        return stmt
    positive = [i for i, lit in enumerate(stmt.body)
                if lit.ast_type == ASTType.Literal and lit.sign == ast.Sign.NoSign
                and lit.atom.ast_type == ASTType.SymbolicAtom]
    if not positive:
        return stmt
    namer = _Unnamed(set(variable_counts(stmt)))
    body = list(stmt.body)
    for i in positive:
        body[i] = namer(body[i])
    return stmt.update(body=body) if namer.k else stmt


def unpooled(stmt: Any) -> list[Any]:
    """A statement with its pools (`p(1;2)`, `T = (a;b)`) spread into one statement per
    element, as clingo spreads them before grounding: the pruner (pyrules/prune.py) then
    leaves out each alternative that cannot fire with a query's facts on its own."""
    if stmt.ast_type != ASTType.Rule:
        return [stmt]
    return list(stmt.unpool())


def effect_kinds_read(statements: Iterable[Any], readers: dict[Sig, int]) -> list[str] | None:
    """The effect kinds the statements read by name: the functor at the effect position
    (`readers`: signature -> position, effects.EFFECT_READERS) of every body atom that names
    one.  None when some rule reads an effect term through a variable that it neither passes on
    unchanged into an effect position of its head (effect_on, applies: the machinery of
    rules/effects.lp) nor leaves alone (a rule about an entry whatever its kind): such a rule may
    read any kind, so every kind is read."""
    kinds: set[str] = set()
    for stmt in statements:
        if stmt.ast_type != ASTType.Rule:
            continue
        defined, _ = head_body(stmt)
        passed = {t.arguments[readers[sig]].name for sig, t in defined
                  if sig in readers and t.ast_type == ASTType.Function
                  and t.arguments[readers[sig]].ast_type == ASTType.Variable}
        counts = variable_counts(stmt)
        for sig, term in atoms(list(stmt.body)):
            if sig not in readers or term.ast_type != ASTType.Function:
                continue
            arg = term.arguments[readers[sig]]
            if arg.ast_type == ASTType.Variable:
                if arg.name != "_" and arg.name not in passed and counts.get(arg.name, 0) > 1:
                    return None
                continue
            found = term_atoms(arg)
            if not found:
                return None
            kinds.add(found[0][0][0])
    return sorted(kinds)
