"""The analysis the pruner works from (pyrules/prune.py's docstring says what it computes):
what each statement of the rules needs, gives and reads, found by walking clingo's AST.

It runs once per rules version (its result is plain JSON, kept in the cache: pyrules/cache.py),
so it lives apart from the pruner: a query whose analysis comes from the cache never loads
clingo.ast (about 3 ms of every `pyrules check`).
"""
from __future__ import annotations

from typing import Any, Sequence

from clingo import SymbolType
from clingo.ast import ASTType, ComparisonOperator, Sign

from .astwalk import atoms, children, head_body, predicates_read, signatures
from .prune import ANYTHING, NUMBER, STRING, ZONE, giving_first, symbol_functor


def _term_functor(term: Any, consts: frozenset[str]) -> str | None:
    """The functor a term of the rules writes, ANYTHING when not known (a variable...)."""
    kind = term.ast_type
    if kind == ASTType.SymbolicTerm:
        s = term.symbol
        if s.type is SymbolType.Function and not (not s.arguments and s.name in consts):
            return f"{s.name}/{len(s.arguments)}"
        if s.type is SymbolType.Number:
            return NUMBER
        if s.type is SymbolType.String:
            return STRING
    elif kind == ASTType.Function and not term.external:
        return f"{term.name}/{len(term.arguments)}"
    return ANYTHING


def _arguments(term: Any) -> list:
    return list(term.arguments) if term.ast_type == ASTType.Function else []


def _whole(statements: Sequence) -> bool:
    """Whether a statement list is kept whole: it has `#external` atoms, parts other than
    `base`, or classically negated atoms (`-p(X)`: clingo's own `:- p(X), -p(X).`, which
    no statement shows, reads both wherever they stand)."""
    kinds = {s.ast_type for s in statements}
    return (ASTType.External in kinds
            or any(s.ast_type == ASTType.Program and s.name != "base" for s in statements)
            or any(_classical(s) for s in statements))


def _classical(node: Any) -> bool:
    """Whether a classically negated atom stands under an AST node."""
    if node.ast_type == ASTType.SymbolicAtom:
        return any(t.ast_type == ASTType.UnaryOperation for t in _pool(node.symbol))
    return any(_classical(child) for child in children(node))


def _basics(statements: Sequence) -> tuple[bool, frozenset[str], set[tuple[str, int]]]:
    """(kept whole: _whole, the #const names, the predicates on a cycle through `not`: _unstable)."""
    consts = frozenset(s.name for s in statements if s.ast_type == ASTType.Definition)
    return _whole(statements), consts, _unstable(statements)


def analyse(statements: Sequence) -> dict:
    """What the pruner needs to know of a statement list, as plain JSON data: the statements
    always kept, each rule's needs and gives, and the predicates each statement reads."""
    whole, consts, unstable = _basics(statements)
    given = _given_only(statements)
    always: list[int] = []
    rules: list[list] = []
    for i, s in enumerate(statements):
        if whole or s.ast_type not in (ASTType.Rule, ASTType.ShowTerm):
            always.append(i)
        else:
            rules.append([i, *_analyse(s, consts, given), _body_reads(s, unstable)])
    reads = [sorted(f"{n}/{a}" for n, a in predicates_read([s])) for s in statements]
    # only `#show p/n.` (or `#show.`) hides the atoms it does not name; term shows alone do not
    shows = any(s.ast_type == ASTType.ShowSignature for s in statements)
    return {"always": always, "rules": rules, "reads": reads, "shows": shows and not whole,
            "order": giving_first(rules), "predicates": sorted({p for r in reads for p in r}),
            "zones": _zone_entries(statements, whole, consts, unstable)}


def zone_entries(statements: Sequence) -> list:
    """analyse()'s "zones" alone: what the pruner's zone step reads of each statement."""
    return _zone_entries(statements, *_basics(statements))


def _zone_entries(statements: Sequence, whole: bool, consts: frozenset[str], unstable: set) -> list:
    return [None if whole else _zone_entry(s, consts, _body_reads(s, unstable) is not None) for s in statements]


def _zone_arg(term: Any, consts: frozenset[str]) -> list | None:
    """An argument as the zone step of the pruner reads it: ["v", name] for a variable,
    ["c", name] for a constant written (not a #const), ["f", name/arity, [argument...]] for a
    compound term written, None for anything else."""
    if term.ast_type == ASTType.Variable:
        return None if term.name == "_" else ["v", term.name]
    if (term.ast_type == ASTType.SymbolicTerm and term.symbol.type is SymbolType.Function
            and not term.symbol.arguments and term.symbol.name not in consts):
        return ["c", term.symbol.name]
    if term.ast_type == ASTType.Function and term.arguments and not term.external:
        return ["f", f"{term.name}/{len(term.arguments)}", [_zone_arg(a, consts) for a in term.arguments]]
    return None


def _zone_atom(lit: Any, consts: frozenset[str]) -> list | None:
    """[predicate, [argument...]] of a literal over one symbolic atom (no pool), else None."""
    if lit.ast_type != ASTType.Literal or lit.atom.ast_type != ASTType.SymbolicAtom:
        return None
    found = list(atoms(lit.atom))
    if len(found) != 1 or lit.atom.symbol.ast_type == ASTType.UnaryOperation:
        return None
    (name, arity), term = found[0]
    return [f"{name}/{arity}", [_zone_arg(a, consts) for a in _arguments(term)]]


def _binders(literals: Any, consts: frozenset[str]) -> list[list]:
    """The positive literals over one symbolic atom among `literals`: what binds variables."""
    out = []
    for lit in literals:
        if lit.ast_type == ASTType.Literal and lit.sign == Sign.NoSign:
            got = _zone_atom(lit, consts)
            if got is not None:
                out.append(got)
    return out


def _zone_entry(stmt: Any, consts: frozenset[str], plain: bool) -> dict | None:
    """What the zone step of the pruner (prune.py, "Facts by zone") reads of a rule or a
    conditional #show: the atoms its head defines ("head": [predicate, [argument...]]), the
    positive body literals that bind its variables ("bind"), every atom its body reads ("occ":
    [predicate, [argument...], the binders of its aggregate element or condition]), whether it
    is a plain rule whose head atoms matter only where they are read ("plain": _body_reads);
    "any": the predicates read where this step does not look (a head's conditions, a pool, a
    theory atom).  None for any other statement: what it reads is read whatever the zone."""
    if stmt.ast_type not in (ASTType.Rule, ASTType.ShowTerm):
        return None
    occ, anywhere = _zone_reads(stmt.body, consts)
    head: list[list] = []
    if stmt.ast_type == ASTType.Rule:
        defined, used = head_body(stmt)
        head = [[f"{n}/{a}", [_zone_arg(x, consts) for x in _arguments(t)]] for (n, a), t in defined]
        anywhere |= {f"{n}/{a}" for n, a in used} - {f"{n}/{a}" for n, a in signatures(list(stmt.body))}
        if stmt.head.ast_type != ASTType.Literal:     # a choice or disjunction: its conditions, too
            for element in getattr(stmt.head, "elements", ()):
                anywhere.update(f"{n}/{a}" for n, a in signatures(element))
    else:
        anywhere.update(f"{n}/{a}" for n, a in signatures(stmt.term))
    return {"head": head, "bind": _binders(stmt.body, consts), "occ": occ, "any": sorted(anywhere), "plain": plain}


def _zone_reads(body: Any, consts: frozenset[str]) -> tuple[list[list], set[str]]:
    """(each atom a body reads: [predicate, [argument...], the binders of its aggregate element
    or condition], the predicates it reads where the zone step does not look)."""
    occ: list[list] = []
    anywhere: set[str] = set()

    def read(lit: Any, extra: list[list]) -> None:
        got = _zone_atom(lit, consts) if lit.ast_type == ASTType.Literal else None
        if got is not None:
            occ.append([got[0], got[1], extra])
        elif not (lit.ast_type == ASTType.Literal and lit.atom.ast_type in (ASTType.Comparison, ASTType.BooleanConstant)):
            anywhere.update(f"{n}/{a}" for n, a in signatures(lit))

    for lit in body:
        if lit.ast_type == ASTType.ConditionalLiteral:
            extra = _binders(lit.condition, consts)
            for inner in [lit.literal, *lit.condition]:
                read(inner, extra)
        elif lit.ast_type == ASTType.Literal and lit.atom.ast_type == ASTType.BodyAggregate:
            for element in lit.atom.elements:
                extra = _binders(element.condition, consts)
                for inner in element.condition:
                    read(inner, extra)
        else:
            read(lit, [])
    return occ, anywhere


def _unstable(statements: Sequence) -> set[tuple[str, int]]:
    """The predicates on a cycle of the rules' dependencies that passes through `not`, an
    aggregate or a condition (`p :- not p.`): such rules can take every answer away, so the
    relevance step never leaves them out."""
    edges: dict[tuple[str, int], set[tuple[tuple[str, int], bool]]] = {}   # head -> (body predicate, through not)
    for s in statements:
        if s.ast_type != ASTType.Rule:
            continue
        defined, _ = head_body(s)
        positive: set = set()
        other: set = set()
        for lit in s.body:
            if (lit.ast_type == ASTType.Literal and lit.sign == Sign.NoSign
                    and lit.atom.ast_type == ASTType.SymbolicAtom):
                positive |= signatures(lit)
            else:
                other |= signatures(lit)
        for head in {sig for sig, _ in defined}:
            edges.setdefault(head, set()).update({(b, False) for b in positive} | {(b, True) for b in other})
    component = _components(edges)
    return {h for h, out in edges.items() for b, through in out if through and component.get(b) == component[h]}


def _components(edges: dict) -> dict:
    """Tarjan's strongly connected components of the predicate graph: predicate -> component."""
    index: dict = {}
    low: dict = {}
    stack: list = []
    on: set = set()
    comp: dict = {}

    def visit(v) -> None:
        index[v] = low[v] = len(index)
        stack.append(v)
        on.add(v)
        for w, _ in edges.get(v, ()):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            while True:
                w = stack.pop()
                on.discard(w)
                comp[w] = v
                if w == v:
                    break

    for v in list(edges):
        if v not in index:
            visit(v)
    return comp


def _body_reads(rule: Any, unstable: set[tuple[str, int]]) -> list[str] | None:
    """The predicates a plain rule's body reads (head: one or more atoms, no classical
    negation, none on a cycle through `not`: _unstable); None for any other statement (a
    #show, a constraint, a choice, ...), which is always kept when it can fire."""
    if rule.ast_type != ASTType.Rule or not {sig for sig, _ in head_body(rule)[0]}.isdisjoint(unstable):
        return None
    head = rule.head
    if not (head.ast_type == ASTType.Literal and head.sign == Sign.NoSign
            and head.atom.ast_type == ASTType.SymbolicAtom and any(True for _ in atoms(head.atom))
            and all(a.ast_type != ASTType.UnaryOperation for a in _pool(head.atom.symbol))):
        return None
    _, body = head_body(rule)
    return sorted(f"{n}/{a}" for n, a in body)


def _pool(term: Any) -> list:
    return list(term.arguments) if term.ast_type == ASTType.Pool else [term]


def _given_only(statements: Sequence) -> frozenset[str] | None:
    """The predicates no rule's head defines (only facts give them), None when some head is
    not read (a theory atom): the predicates whose compound arguments the facts alone fill, so
    that a need inside such an argument is checked (_nested_needs)."""
    defined: set[str] = set()
    for s in statements:
        if s.ast_type == ASTType.Rule:
            if s.head.ast_type not in (ASTType.Literal, ASTType.Aggregate, ASTType.Disjunction,
                                       ASTType.HeadAggregate):
                return None
            defined.update(f"{n}/{a}" for (n, a), _ in head_body(s)[0])
    return frozenset(f"{n}/{a}" for n, a in predicates_read(statements)) - defined


def _nested_needs(place: str, term: Any, consts: frozenset[str]) -> list[list]:
    """[place, functor] of each argument written inside a compound term at `place` (and inside
    those), where a constant or compound term is written: a place inside a compound term is
    the place, ">", the term's functor, ":" and the position (`card_effect/5:2>monster_effect/6:0`,
    as prune.py's facts' keys name it)."""
    out: list[list] = []
    if term.ast_type == ASTType.Function and not term.external:
        args = [(a, _term_functor(a, consts)) for a in term.arguments]
    elif term.ast_type == ASTType.SymbolicTerm and term.symbol.type is SymbolType.Function:
        args = [(None, symbol_functor(a)) for a in term.symbol.arguments]
    else:
        return out
    outer = f"{place}>{term.name if term.ast_type == ASTType.Function else term.symbol.name}/{len(args)}"
    for k, (a, f) in enumerate(args):
        if f is not ANYTHING:
            out.append([f"{outer}:{k}", f])
        if a is not None:
            out += _nested_needs(f"{outer}:{k}", a, consts)
    return out


def _analyse(rule: Any, consts: frozenset[str], given: frozenset[str] | None = None) -> tuple[list, list]:
    """(what a rule's positive body needs: [predicate, [[place, functor]...]] per literal,
    what its head gives: [predicate, [[place, "functor", functor] or [place, "places",
    [the body places of its variable]]...]] per atom).  A `#show term : body.` is read as
    a rule that gives nothing: it shows nothing while its body cannot hold.  For a predicate
    of `given` (no rule defines it), what is written inside its compound arguments is needed
    too (_nested_needs): the facts' keys name every place inside theirs."""
    needs: list[list] = []
    places: dict[str, list[str]] = {}           # variable -> the body places it stands in
    for lit in rule.body:
        if (lit.ast_type == ASTType.Literal and lit.sign == Sign.NoSign
                and lit.atom.ast_type == ASTType.SymbolicAtom):
            found = list(atoms(lit.atom))
            if len(found) != 1:                 # (a pool in a body literal: nothing needed)
                continue
            (name, arity), term = found[0]
            sig = f"{name}/{arity}"
            needs.append([sig, _literal_needs(sig, term, places, consts, given is not None and sig in given)])
    needs += _comparison_needs(rule, places, consts)
    if given is not None and ZONE in given:
        needs += _zone_needs(rule, consts, given)
    gives: list[list] = []
    defined, _ = head_body(rule) if rule.ast_type == ASTType.Rule else ([], set())
    for (name, arity), term in defined:
        sig = f"{name}/{arity}"
        spec: list[list] = []
        for j, a in enumerate(_arguments(term)):
            if a.ast_type == ASTType.Variable and a.name != "_" and a.name in places:
                spec.append([f"{sig}:{j}", "places", places[a.name]])
            else:
                spec.append([f"{sig}:{j}", "functor", _term_functor(a, consts)])
        gives.append([sig, spec])
    return needs, gives


def _literal_needs(sig: str, term: Any, places: dict[str, list[str]], consts: frozenset[str],
                   nested: bool) -> list[list]:
    """[place, functor] of each argument a positive body literal writes (with nested: inside its
    compound arguments too); the places of its variables recorded in `places`."""
    need: list[list] = []
    for j, a in enumerate(_arguments(term)):
        if a.ast_type == ASTType.Variable:
            places.setdefault(a.name, []).append(f"{sig}:{j}")
            continue
        f = _term_functor(a, consts)
        if f is not ANYTHING:
            need.append([f"{sig}:{j}", f])
            if nested:
                need += _nested_needs(f"{sig}:{j}", a, consts)
    return need


def _zone_needs(rule: Any, consts: frozenset[str], given: frozenset[str]) -> list[list]:
    """The needs of a positive body literal over a predicate only facts give, whose first argument is
    a variable that a positive `zone(V,_,Z)` literal places in a zone named Z: the literal's needs
    (inside its compound arguments too) as met by the facts of cards in that zone (prune.py names
    them "@Z|" followed by the predicate or place: zoned keys)."""
    zones: dict[str, set[str]] = {}
    lits = []
    for lit in rule.body:
        got = _zone_atom(lit, consts) if lit.ast_type == ASTType.Literal and lit.sign == Sign.NoSign else None
        if got is None or not got[1] or got[1][0] is None or got[1][0][0] != "v":
            continue
        if got[0] == ZONE and len(got[1]) == 3 and got[1][2] is not None and got[1][2][0] == "c":
            zones.setdefault(got[1][0][1], set()).add(got[1][2][1])
        elif got[0] in given and got[0] != ZONE:
            lits.append((got[0], got[1][0][1], lit))
    out: list[list] = []
    for sig, var, lit in lits:
        (_, term), = atoms(lit.atom)
        need = _literal_needs(sig, term, {}, consts, True)
        for z in sorted(zones.get(var, ())):
            out.append([f"@{z}|{sig}", [[f"@{z}|{place}", f] for place, f in need]])
    return out


def _comparison_needs(rule: Any, places: dict[str, list[str]], consts: frozenset[str]) -> list[list]:
    """What a positive comparison `V = t` (or `V = (t1; t2 ...)`, `t = V`) of a variable that
    stands in body places needs: one of the functors written, at each of those places."""
    out: list[list] = []
    for lit in rule.body:
        if not (lit.ast_type == ASTType.Literal and lit.sign == Sign.NoSign
                and lit.atom.ast_type == ASTType.Comparison and len(lit.atom.guards) == 1
                and lit.atom.guards[0].comparison == ComparisonOperator.Equal):
            continue
        left, right = lit.atom.term, lit.atom.guards[0].term
        if left.ast_type != ASTType.Variable:
            left, right = right, left
        if left.ast_type != ASTType.Variable or left.name == "_" or left.name not in places:
            continue
        alternatives = right.arguments if right.ast_type == ASTType.Pool else [right]
        functors = sorted({f for f in (_term_functor(a, consts) for a in alternatives)}, key=str)
        if ANYTHING in functors:
            continue
        for place in places[left.name]:
            out.append([place.rpartition(":")[0], [[place, functors]]])
    return out
