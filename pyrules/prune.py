"""Leaving out, before grounding, the rules that cannot fire with a query's facts.

Most rules are about things a given snapshot does not have (a Fusion Monster, a Toon, an
effect kind no card in play carries).  clingo grounds every rule it is given, and a rule
that never fires still costs its share of grounding: the cost is mostly fixed per rule.  A
rule whose body needs an atom that neither the facts nor any rule that can fire may give
can never fire, so leaving it out changes no answer (its head atoms stay false, as they
would be).  This is an over-approximation computed on the rules' text, no game reasoning:

- a term's *functor*: a constant or compound term's name and arity (`cannot_attack`,
  `fusion_material/2`), a number, a string; anything else (a variable, an operation) is
  not known;
- what may be true: the predicates (name, arity) and, for each argument position, the
  functors that may stand there, or "anything".  The facts give theirs; a rule that can
  fire gives its head's: the functor written, or for a variable the functors its positive
  body literals allow at that variable's places (else "anything");
- what a rule needs: each positive body literal's predicate, with the functor written in
  each of its argument positions; and for a positive comparison `V = t` of a variable that
  stands in such positions, t's functor there (`V = (t1; t2)`: one of theirs);
- the rules that can fire are found by iterating to a fixpoint from the facts;
- then, when the program has `#show p/n.` statements (so that only the atoms they name are
  answered; term shows alone hide nothing), a rule is kept only if what it defines is read:
  by a statement that is not such a rule (a `#show`, a constraint, a choice, a rule whose head
  is on a cycle through `not` or an aggregate, `p :- not p.`) or by the body of a rule kept
  this way.  A rule whose head no kept statement reads changes no shown atom (its head atoms
  are read by nothing, and a rule off such cycles never takes an answer away).

Literals under `not`, in aggregates or in conditions are never needed (they can hold with
nothing).  Constant names given by `#const` stand for anything; a program with parts other
than `base` or with `#external` atoms is kept whole.  A conditional `#show` is kept like a
rule: only when its positive condition can hold.  The keys of a fact and the rules kept
for a set of keys are cached (facts repeat from query to query); the analysis of the rule
files (made by pyrules/dependencies.py, which walks clingo's AST) is plain JSON (strings: a
predicate `name/arity`, a place `name/arity:position`, a functor `name/arity`, `#number` or
`#string`), kept per rules version (pyrules/cache.py).
tests/test_prune.py checks that every ruling case's answer is the same with and without.
"""
from __future__ import annotations

from typing import Iterable, Sequence

from clingo import Symbol, SymbolType

NUMBER, STRING = "#number", "#string"
ANYTHING = None                                 # a place where any term may stand

_KEYS: dict[Symbol, tuple] = {}                 # the keys of a fact, cached by its symbol
_MAX_CACHED = 200_000


def _symbol_functor(a: Symbol) -> str | None:
    t = a.type
    if t is SymbolType.Function:
        return f"{a.name}/{len(a.arguments)}"
    if t is SymbolType.Number:
        return NUMBER
    if t is SymbolType.String:
        return STRING
    return ANYTHING


def _symbol_keys(f: Symbol) -> tuple:
    """A fact's keys: its predicate, and (place, functor) for each argument."""
    if f.type is not SymbolType.Function:
        return ()
    args = f.arguments
    sig = f"{f.name}/{len(args)}"
    return (sig, *((f"{sig}:{i}", _symbol_functor(a)) for i, a in enumerate(args)))


_SHARED: dict[tuple, tuple] = {}                # one tuple object for all facts with the same keys


def facts_keys(facts: Iterable[Symbol]) -> tuple[frozenset, list[tuple]]:
    """The keys the facts give, and each fact's keys (cached per symbol; facts with the same
    keys share one tuple, so that each is added once)."""
    get = _KEYS.get
    each = []
    for f in facts:
        k = get(f)
        if k is None:
            k = _symbol_keys(f)
            k = _SHARED.setdefault(k, k)
            if len(_KEYS) >= _MAX_CACHED:
                _KEYS.clear()
                _SHARED.clear()
            _KEYS[f] = k
        each.append(k)
    have: set = set()
    for k in {id(k): k for k in each}.values():
        have.update(k)
    return frozenset(have), each


class Pruner:
    """The rules of a statement list that can fire, for the facts of a query.  `analysis` is
    dependencies.analyse(statements), maybe as read back from JSON (solver.pruner() makes it
    when not given)."""

    def __init__(self, statements: Sequence, analysis: dict) -> None:
        self.source = statements                # the statements given (kept alive while cached)
        data = self.analysis = analysis
        self.always: list[int] = list(data["always"])
        self.rules: list = data["rules"]        # [index, needs, gives, body reads or None] of each rule
        self.reads: list[frozenset] = [frozenset(r) for r in data["reads"]]
        self.shows: bool = bool(data["shows"])
        n = len(statements)
        if (len(self.reads) != n or any(len(r) != 4 for r in self.rules)
                or any(not (isinstance(i, int) and 0 <= i < n) for i in [*self.always, *(r[0] for r in self.rules)])):
            raise ValueError("the analysis is not of these statements")
        self._defines = {r[0]: frozenset(sig for sig, _ in r[2]) for r in self.rules}
        self._body = {r[0]: None if r[3] is None else frozenset(r[3]) for r in self.rules}
        self._kept: dict[frozenset, list] = {}  # keys -> [kept indexes, predicates they read, kept statements]
        order = data.get("order")               # the rules in the order the fixpoint visits them (kept
        if not (isinstance(order, list) and sorted(order) == list(range(len(self.rules)))):   # with the analysis)
            order = giving_first(self.rules)
        self._order = [self.rules[k] for k in order]
        every = data.get("predicates")          # (kept with the analysis; else made from the reads)
        every = every if isinstance(every, list) else {s for r in self.reads for s in r}
        try:
            self._predicates = frozenset((name, int(a)) for name, _, a in (s.rpartition("/") for s in every))
        except (AttributeError, ValueError):
            raise ValueError("the analysis names predicates that are not name/arity") from None

    def predicates(self) -> set[tuple[str, int]]:
        """Every predicate (name, arity) the statements read."""
        return set(self._predicates)

    def kept(self, facts: Sequence[Symbol]) -> list:
        """The statements to ground with these facts, in their order."""
        return self.program(facts)[0]

    def program(self, facts: Sequence[Symbol]) -> tuple[list, list[Symbol]]:
        """(the statements to ground with these facts, the facts they read): a fact no kept
        statement mentions (a card's Attribute while no kept rule asks) changes nothing."""
        got, facts = self._select(facts)
        if got[2] is None:
            got[2] = [self.source[i] for i in got[0]]
        return got[2], facts

    def select(self, facts: Sequence[Symbol]) -> tuple[list[int], list[Symbol]]:
        """program(), with the statements as their indexes."""
        got, facts = self._select(facts)
        return got[0], facts

    def _select(self, facts: Sequence[Symbol]) -> tuple[list, list[Symbol]]:
        keys, each = facts_keys(facts)
        got = self._kept.get(keys)
        if got is None:
            live = self._fixpoint(keys)
            got = [live, frozenset().union(*(self.reads[i] for i in live)), None]
            if len(self._kept) >= 1024:
                self._kept.clear()
            self._kept[keys] = got
        reads = got[1]
        return got, [f for f, k in zip(facts, each) if not k or k[0] in reads]

    def _fixpoint(self, keys: frozenset) -> list[int]:
        present: set[str] = set()
        may: dict[str, set | None] = {}         # place -> functors that may stand there; None: anything
        for k in keys:
            if isinstance(k, str):
                present.add(k)
            else:
                _add(may, k[0], k[1])
        live: set[int] = set()
        grew = True
        while grew:
            grew = False
            for i, needs, gives, _ in self._order:
                if i in live or _met(needs, present, may):
                    live.add(i)
                    grew |= _give(gives, present, may)
        return sorted(self.always + list(self._read(live)))

    def _read(self, live: set[int]) -> set[int]:
        """The rules that can fire whose heads are read (module docstring): all of them in a
        program without #show."""
        if not self.shows:
            return live
        read: set[str] = set().union(*(self.reads[i] for i in self.always))
        kept = {i for i in live if self._body[i] is None}
        read.update(*(self.reads[i] for i in kept))
        pending = {i: body for i in live if (body := self._body[i]) is not None}
        grew = True
        while grew:
            grew = False
            for i in [i for i in pending if not self._defines[i].isdisjoint(read)]:
                kept.add(i)
                read |= pending.pop(i)
                grew = True
        return kept



def giving_first(rules: list) -> list[int]:
    """The positions of the rules in an order where, outside cycles, those giving a predicate
    come before those needing it: the fixpoint then settles in about two passes instead of
    one per step of the longest chain (its result does not depend on the order)."""
    needs_of: dict[str, set[str]] = {}          # predicate -> predicates the rules giving it need
    for _, needs, gives, _ in rules:
        for sig, _ in gives:
            needs_of.setdefault(sig, set()).update(n for n, _ in needs)
    rank: dict[str, int] = {}
    done = 0
    for start in needs_of:                      # depth-first, a predicate after what it needs
        if start in rank:
            continue
        rank[start] = -1                        # (on the path)
        stack = [(start, iter(needs_of.get(start, ())))]
        while stack:
            sig, rest = stack[-1]
            nxt = next((n for n in rest if n not in rank), None)
            if nxt is None:
                stack.pop()
                done += 1
                rank[sig] = done
            else:
                rank[nxt] = -1
                stack.append((nxt, iter(needs_of.get(nxt, ()))))
    return sorted(range(len(rules)), key=lambda k: min((rank.get(sig, 0) for sig, _ in rules[k][2]), default=0))


def _give(gives: list, present: set, may: dict) -> bool:
    """Record what a rule that can fire gives; True if anything is new."""
    grew = False
    for sig, spec in gives:
        if sig not in present:
            present.add(sig)
            grew = True
        for place, how, what in spec:
            for f in (_allowed(may, what) if how == "places" else (what,)):
                grew |= _add(may, place, f)
    return grew


def _add(may: dict, place: str, functor: str | None) -> bool:
    """Record that `functor` (ANYTHING: any term) may stand at a place; True if that is new."""
    have = may.get(place, ())
    if have is None:
        return False
    if functor is ANYTHING:
        may[place] = None
        return True
    if functor in have:
        return False
    if not have:
        may[place] = {functor}
    else:
        have.add(functor)
    return True


def _allowed(may: dict, places: list[str]) -> Iterable[str | None]:
    """The functors a variable may take: those allowed at every body place it stands in."""
    out: set | None = None
    for place in places:
        got = may.get(place, set())
        if got is None:
            continue
        out = set(got) if out is None else out & got
    return (ANYTHING,) if out is None else out


def _met(needs: list, present: set, may: dict) -> bool:
    for sig, need in needs:
        if sig not in present:
            return False
        for place, f in need:
            got = may.get(place, ())
            if got is None:
                continue
            if isinstance(f, list):             # (one of these functors)
                if not any(x in got for x in f):
                    return False
            elif f not in got:
                return False
    return True
