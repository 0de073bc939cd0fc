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
  stands in such positions, t's functor there (`V = (t1; t2)`: one of theirs); for a
  predicate no rule defines (only facts give it, so the facts' keys say all that may stand
  anywhere in it), also the functor written at each place inside its compound arguments
  (`card_effect(C,_,monster_effect(ignition,X,_,_,_,_),_,_)` needs `ignition` first in a
  `monster_effect/6` term at card_effect/5's third place, `card_effect/5:2>monster_effect/6:0`;
  a fact's keys name each such place of its own); and when such a literal's first argument
  is a variable that a positive `zone(V,P,Z)` literal of the rule places in a zone Z written
  there (zone/3 given by facts alone), the same needs met by the facts of cards in Z: its
  *zoned* keys, "@Z|" before the predicate or place, made per query from the facts of
  those predicates (zoned_keys), so that a rule about an effect of a monster in the Monster
  Zone is left out when only cards in hand carry such effects;
- the rules that can fire are found by iterating to a fixpoint from the facts;
- then, when the program has `#show p/n.` statements (so that only the atoms they name are
  answered; term shows alone hide nothing), a rule is kept only if what it defines is read:
  by a statement that is not such a rule (a `#show`, a constraint, a choice, a rule whose head
  is on a cycle through `not` or an aggregate, `p :- not p.`) or by the body of a rule kept
  this way.  A rule whose head no kept statement reads changes no shown atom (its head atoms
  are read by nothing, and a rule off such cycles never takes an answer away).

Literals under `not`, in aggregates or in conditions are never needed (they can hold with
nothing).  Constant names given by `#const` stand for anything; a program with parts other
than `base`, with `#external` atoms or with classically negated atoms (`-p(X)`: clingo's own
`:- p(X), -p(X).` reads both) is kept whole, and so is every fact of a query that gives a
classically negated fact.  A conditional `#show` is kept like a
rule: only when its positive condition can hold.  The keys of a fact and the rules kept
for a set of keys are cached (facts repeat from query to query); the analysis of the rule
files (made by pyrules/dependencies.py, which walks clingo's AST) is plain JSON (strings: a
predicate `name/arity`, a place `name/arity:position`, a functor `name/arity`, `#number` or
`#string`), kept per rules version (pyrules/cache.py).

Facts by zone.  A card's facts are many (its name, kind, Level, Attribute, frame, place in its
zone...), and many rules read them only for cards in some zones: `slot(I,S)` only where
`zone(I,P,monster_zone)` binds I, a card's Attribute only for the Graveyard's monsters.  The
zone step (on the statements kept, once per set of keys) leaves out the facts whose first
argument is a card that no reading can match, again on the rules' text alone:

- from the facts up: the zones of the cards that may stand at each place of a derived atom
  (and the constants, for a zone written through a variable: `zone(I,P,Z), field_zone_kind(Z)`);
  a body variable is bound by every positive literal it stands in, so its zones are what all
  of them allow together (a `zone(I,P,Z)` literal: Z's zones); a place of a given predicate,
  or a variable no positive literal binds, allows anything;
- from the readers down: which zones may matter at each place: a reading (positive, under
  `not`, in an aggregate or a condition) of a variable allows the zones its binders allow,
  and within a plain rule (see above: only its head's readers use it), only those of its head
  places' readers; a place holding anything but a variable, and any predicate read by a
  statement not looked into (a `#show p/n`, a directive) or in a head's condition, matters
  everywhere;
- a fact whose first argument is a card of a zone that does not matter at that place is left
  out; a number no `zone/3` fact places (a card gone) and every other fact are kept.

Leaving such a fact out changes no answer: every rule instance it could match has a binder
that cannot hold for that card, or a head atom no kept statement reads.  The step needs the
`zone/3` facts to be the only zone atoms (a program deriving zone/3 keeps every fact) and the
`#show p/n` statements (without them every atom is an answer).  A query that gives clingo the
statements as text (an Engine's first queries) skips it: its analysis costs about 13 ms once.

tests/test_prune.py checks that every ruling case's answer is the same with and without.
"""
from __future__ import annotations

from typing import Callable, Iterable, Iterator, Sequence

from clingo import Symbol, SymbolType

from .symbols import symbol_key

NUMBER, STRING = "#number", "#string"
ANYTHING = None                                 # a place where any term may stand
ZONE = "zone/3"                                 # zone(I,P,Z): card I of player P is in zone Z
UNPLACED = "#unplaced"                          # (the zone step) a number no zone fact places
NEGATED = "#negated"                            # the key of a classically negated fact

_KEYS: dict[object, tuple] = {}                 # the keys of a fact, cached by its symbol_key
_MAX_CACHED = 200_000


def symbol_functor(a: Symbol) -> str | None:
    """The functor of a symbol (a name and arity, a number, a string), ANYTHING for any other."""
    t = a.type
    if t is SymbolType.Function:
        return f"{a.name}/{len(a.arguments)}"
    if t is SymbolType.Number:
        return NUMBER
    if t is SymbolType.String:
        return STRING
    return ANYTHING


def _symbol_keys(f: Symbol) -> tuple:
    """A fact's keys: its predicate, and (place, functor) for each argument; NEGATED alone for
    a classically negated fact (`-p(1)`)."""
    if f.type is not SymbolType.Function:
        return ()
    if f.negative:
        return (NEGATED,)
    args = f.arguments
    sig = f"{f.name}/{len(args)}"
    keys = [sig, *((f"{sig}:{i}", symbol_functor(a)) for i, a in enumerate(args))]
    for i, a in enumerate(args):
        _inner_keys(f"{sig}:{i}", a, keys)
    return tuple(keys)


def _inner_keys(place: str, a: Symbol, keys: list) -> None:
    """(place, functor) of each argument inside a compound term at `place`, and inside those:
    `card_effect/5:2>monster_effect/6:0` for the first argument of a monster_effect/6 term
    at card_effect/5's third place (dependencies.py reads the rules' terms the same way)."""
    if a.type is not SymbolType.Function or not a.arguments:
        return
    outer = f"{place}>{a.name}/{len(a.arguments)}"
    for k, b in enumerate(a.arguments):
        keys.append((f"{outer}:{k}", symbol_functor(b)))
        _inner_keys(f"{outer}:{k}", b, keys)


_SHARED: dict[tuple, tuple] = {}                # one tuple object for all facts with the same keys


def _symbol_place(f: Symbol, keys: tuple) -> tuple:
    """(the keys, the number in the fact's first place or None, the zone a `zone(I,P,Z)` fact
    names or None): what the zone step reads of a fact."""
    if not keys:
        return keys, None, None
    args = f.arguments
    if not args:
        return keys, None, None
    first = args[0].number if args[0].type is SymbolType.Number else None
    zone = None
    if keys[0] == ZONE and args[2].type is SymbolType.Function and not args[2].arguments:
        zone = args[2].name
    return keys, first, zone


def facts_keys(facts: Iterable[Symbol]) -> tuple[frozenset, list[tuple]]:
    """The keys the facts give, and for each fact (its keys, the number in its first place,
    the zone it names: _symbol_place), cached per symbol_key() (facts with the same keys share one
    keys tuple, so that each is added once)."""
    get, key = _KEYS.get, symbol_key
    each = []
    for f in facts:
        k = get(key(f))
        if k is None:
            keys = _symbol_keys(f)
            k = _symbol_place(f, _SHARED.setdefault(keys, keys))
            if len(_KEYS) >= _MAX_CACHED:
                _KEYS.clear()
                _SHARED.clear()
            _KEYS[key(f)] = k
        each.append(k)
    have: set = set()
    for k in {id(k[0]): k[0] for k in each}.values():
        have.update(k)
    return frozenset(have), each


def zoned_keys(each: list[tuple], zoned: frozenset[str]) -> frozenset:
    """The zoned keys of the facts of these predicates (facts_keys' `each`): for a fact whose first
    argument is a card a `zone(I,P,Z)` fact places, its keys again prefixed by "@Z|" (what a rule
    that places that card in zone Z needs of it: dependencies.py)."""
    where: dict[int | None, set[str]] = {}      # card -> its zones (None: the cards that are no number)
    for k, first, zone in each:
        if zone is not None:
            where.setdefault(first, set()).add(zone)
    every = set().union(*where.values())
    out: set = set()
    for k, first, _ in each:
        if k and k[0] in zoned:
            for z in (every if first is None else where.get(first, ())):     # (not a number: any zone)
                got = _ZONED.get((z, k))
                if got is None:
                    if len(_ZONED) >= _MAX_CACHED:
                        _ZONED.clear()
                    got = _ZONED[(z, k)] = tuple(f"@{z}|{x}" if isinstance(x, str) else (f"@{z}|{x[0]}", x[1])
                                                 for x in k)
                out.update(got)
    return frozenset(out)


_ZONED: dict[tuple, tuple] = {}                 # (zone, a fact's keys) -> its zoned keys


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
        self.zones: list | None = self._valid_zones(data.get("zones"))    # the zone step's entries
        self.zones_loader: Callable[[], object] | None = None   # where they come from when not given
        self._compiled: list | None = None      # the zone entries compiled (at the first query)
        self._defines = {r[0]: frozenset(sig for sig, _ in r[2]) for r in self.rules}
        self._body = {r[0]: None if r[3] is None else frozenset(r[3]) for r in self.rules}
        self._kept: dict[frozenset, list] = {}  # keys -> [kept indexes, predicates they read, kept statements]
        self._zoned = frozenset(sig.partition("|")[2] for r in self.rules for sig, _ in r[1] if sig.startswith("@"))
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

    def _valid_zones(self, zones: object) -> list | None:
        """The zone step's entries (dependencies.zone_entries) if they are of these statements;
        None (every fact read is kept) otherwise."""
        if isinstance(zones, list) and len(zones) == len(self.source) and all(
                e is None or (isinstance(e, dict) and {"head", "bind", "occ", "any", "plain"} <= e.keys())
                for e in zones):
            return zones
        return None

    def predicates(self) -> set[tuple[str, int]]:
        """Every predicate (name, arity) the statements read."""
        return set(self._predicates)

    def kept(self, facts: Sequence[Symbol]) -> list:
        """The statements to ground with these facts, in their order."""
        return self.program(facts)[0]

    def program(self, facts: Sequence[Symbol]) -> tuple[list, list[Symbol]]:
        """(the statements to ground with these facts, the facts they read): a fact no kept
        statement mentions (a card's Attribute while no kept rule asks), or mentions only for
        cards of other zones (the zone step), changes nothing."""
        got, facts = self._select(facts, by_zone=True)
        if got[2] is None:
            got[2] = [self.source[i] for i in got[0]]
        return got[2], facts

    def select(self, facts: Sequence[Symbol]) -> tuple[list[int], list[Symbol]]:
        """program(), with the statements as their indexes and without the zone step (the
        statements-as-text path of a one-shot query spares its analysis: about 13 ms once, then
        1-2 ms per new set of keys)."""
        got, facts = self._select(facts, by_zone=False)
        return got[0], facts

    def _select(self, facts: Sequence[Symbol], by_zone: bool) -> tuple[list, list[Symbol]]:
        keys, each = facts_keys(facts)
        if self._zoned:
            keys = keys | zoned_keys(each, self._zoned)
        got = self._kept.get(keys)
        if got is None and NEGATED in keys:     # `-p(1)` given: clingo's `:- p(1), -p(1).` reads
            got = [list(range(len(self.source))), None, None, {}]     # every fact: all kept
            return got, list(facts)
        if got is None:
            live = self._fixpoint(keys)
            got = [live, frozenset().union(*(self.reads[i] for i in live)), None, None]
            if len(self._kept) >= 1024:
                self._kept.clear()
            self._kept[keys] = got
        reads, demand = got[1], None
        if by_zone:
            demand = got[3]
            if demand is None:
                demand = got[3] = self._zone_demand(got[0], keys)
        if not demand:
            return got, [f for f, k in zip(facts, each) if not k[0] or k[0][0] in reads]
        return got, _by_zone(facts, each, reads, demand)

    def _zone_demand(self, live: list[int], keys: frozenset) -> dict[str, frozenset]:
        """The zone step ("Facts by zone" in the module docstring): for each predicate given as
        facts whose every reading, in the statements kept, binds its first place to cards of
        some zones, those zones (with UNPLACED); predicates read otherwise are left out (all
        their facts are kept)."""
        if not self.shows or ZONE not in keys:
            return {}
        if self.zones is None and self.zones_loader is not None:
            load, self.zones_loader = self.zones_loader, None
            self.zones = self._valid_zones(load())
        zones = self.zones
        if zones is None:
            return {}
        entries = [zones[i] for i in live]
        if any(e is not None and any(h[0] == ZONE for h in e["head"]) for e in entries):
            return {}                               # zone/3 derived: the zones are not the facts'
        given = {k for k in keys if isinstance(k, str)}
        if self._compiled is None:
            self._compiled = [compile_zone_entry(e) for e in zones]
        return zone_demand([self._compiled[i] for i in live], [self.reads[i] for i in live], given)

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



_EMPTY: frozenset = frozenset()


def _meet(a: frozenset | None, b: frozenset | None) -> frozenset | None:
    """What two bounds on a variable allow together (ANYTHING: no bound)."""
    if a is ANYTHING:
        return b
    if b is ANYTHING:
        return a
    return a & b


def _leaves(sig: str, args: list) -> Iterator[tuple[tuple, list | None]]:
    """(place, argument) of each argument of an atom, and of the arguments of compound terms
    within them: a place is (predicate, position), followed by (functor, position) for each
    compound term it stands in (`candidate(normal_summon(I,S))`: I at ("candidate/1", 0,
    "normal_summon/2", 0)).  A compound term itself comes as ["f", functor, arguments]."""
    stack: list[tuple[tuple, list | None]] = [((sig, j), a) for j, a in enumerate(args)]
    while stack:
        place, a = stack.pop()
        yield place, a
        if a is not None and a[0] == "f":
            stack.extend(((*place, a[1], k), b) for k, b in enumerate(a[2]))


def _variables(binders: list) -> dict[str, tuple[list, list]]:
    """Each variable of some binders: (the places it stands in, apart from a zone literal's
    card; the third argument of each zone literal whose card it is)."""
    out: dict[str, tuple[list, list]] = {}
    for sig, args in binders:
        for place, a in _leaves(sig, args):
            if a is not None and a[0] == "v":
                places, zone_args = out.setdefault(a[1], ([], []))
                if place == (ZONE, 0) and len(args) == 3:
                    zone_args.append(args[2])
                else:
                    places.append(place)
    return out


def compile_zone_entry(e: dict | None) -> tuple | None:
    """An entry of the zone step (dependencies._zone_entry) in the form zone_demand reads:
    (its head's places: (place, argument, the body's variables), its readings: (place,
    variable or None, the variables of the reading's binders, the head places of the variable
    when the rule is plain), the predicates it reads anywhere)."""
    if e is None:
        return None
    bind = _variables(e["bind"])
    heads = [(place, a, bind) for sig, args in e["head"] for place, a in _leaves(sig, args)]
    readings: list[tuple] = []
    for sig, args, extra in e["occ"]:
        variables = _variables(e["bind"] + extra) if extra else bind
        for place, a in _leaves(sig, args):
            if a is None or a[0] == "c":
                readings.append((place, None, variables, ()))
            elif a[0] == "v":
                at = tuple(hp for hp, h, _ in heads if h == a) if e["plain"] else ()
                readings.append((place, a[1], variables, at))
    return heads, readings, e["any"]


def _by_zone(facts: Sequence[Symbol], each: list[tuple], reads: frozenset, demand: dict) -> list[Symbol]:
    """The facts read, but those of cards in zones their predicate's demand leaves out."""
    where: dict[int, str] = {}
    for k in each:
        if k[2] is not None:
            where[k[1]] = UNPLACED if k[1] in where else k[2]     # (two zones: not known)
    out = []
    for f, (k, first, _) in zip(facts, each):
        if not k:
            out.append(f)
        elif k[0] in reads:
            zones = demand.get(k[0])
            if zones is None or first is None or where.get(first, UNPLACED) in zones:
                out.append(f)
    return out


def _settle(items: list, step: Callable[[tuple], bool]) -> None:
    """Apply `step` to each item (place, ..., the places it reads) until nothing grows: an item
    is visited again when a place it reads grew."""
    users: dict = {}
    for n, item in enumerate(items):
        for place in item[-1]:
            users.setdefault(place, []).append(n)
    todo = list(range(len(items)))
    waiting = set(todo)
    while todo:
        n = todo.pop()
        waiting.discard(n)
        if step(items[n]):
            for u in users.get(items[n][0], ()):
                if u not in waiting:
                    waiting.add(u)
                    todo.append(u)


def _widen(table: dict, key: tuple, t: frozenset | None) -> bool:
    """Let `t` stand at a place too; True if that is new."""
    old = table.get(key, _EMPTY)
    if old is ANYTHING or t is not ANYTHING and t <= old:
        return False
    table[key] = ANYTHING if t is ANYTHING else old | t
    return True


def _within(place: tuple, open_places: set) -> bool:
    """Whether a place lies inside one of `open_places` (a place whose terms are not known
    to be the compound terms the rules write there)."""
    return any(place[:k] in open_places for k in range(2, len(place), 2))


class _ZoneStep:
    """The zone step over the kept statements' compiled entries (compile_zone_entry; None: a
    statement not looked into), what each reads and the predicates given as facts."""

    def __init__(self, entries: list, reads: list, given: set[str]) -> None:
        self.given = given
        self.kept = [e for e in entries if e is not None]
        self.zone_of: dict[tuple, frozenset | None] = {}    # place -> zones of the cards there
        self.value_of: dict[tuple, frozenset | None] = {}   # place -> constants there
        self.opaque: set[tuple] = set()          # places a head writes a variable or an unknown term at
        self.need: dict[tuple, frozenset | None] = {}       # place -> zones where it matters
        self.whole: set[tuple] = set()           # places read whole (a variable): all inside them matters
        self.everywhere: set[str] = set()        # predicates read where the step does not look
        for e, read in zip(entries, reads):
            self.everywhere.update(read if e is None else e[2])

    def _look(self, table: dict, place: tuple) -> frozenset | None:
        if place[0] in self.given or len(place) > 2 and _within(place, self.opaque):
            return ANYTHING
        return table.get(place, _EMPTY)

    def values(self, v: str, variables: dict) -> frozenset | None:
        t: frozenset | None = ANYTHING
        for place in variables[v][0] if v in variables else ():
            t = _meet(t, self._look(self.value_of, place))
        return t

    def zones(self, v: str, variables: dict) -> frozenset | None:
        if v not in variables:
            return ANYTHING
        places, zone_args = variables[v]
        t: frozenset | None = ANYTHING
        for place in places:
            t = _meet(t, self._look(self.zone_of, place))
        for z in zone_args:
            t = _meet(t, ANYTHING if z is None or z[0] == "f" else frozenset([z[1]]) if z[0] == "c"
                      else self.values(z[1], variables))
        return t

    def up(self, item: tuple) -> bool:
        """A head place: what its argument may be, from the rule's body."""
        place, a, variables = item
        if a is None or a[0] == "v":
            if place not in self.opaque:
                self.opaque.add(place)
                grew = True
            else:
                grew = False
            if a is None:
                zt, vt = ANYTHING, ANYTHING
            else:
                zt, vt = self.zones(a[1], variables), self.values(a[1], variables)
        elif a[0] == "c":
            grew, zt, vt = False, _EMPTY, frozenset([a[1]])
        else:                                   # a compound term: no card, no constant
            grew, zt, vt = False, _EMPTY, ANYTHING
        return _widen(self.zone_of, place, zt) | _widen(self.value_of, place, vt) | grew

    def needed(self, place: tuple) -> frozenset | None:
        if place[0] in self.everywhere or len(place) > 2 and _within(place, self.whole):
            return ANYTHING
        return self.need.get(place, _EMPTY)

    def down(self, item: tuple) -> bool:
        """A reading: the zones its variable allows where the head places it reaches matter."""
        place, t, at = item
        for head_place in at:
            t = _meet(t, self.needed(head_place))
        return _widen(self.need, place, t)

    def demand(self) -> dict[str, frozenset]:
        # 1. what may stand at each place of a derived atom (from the facts up)
        items = [item for e in self.kept for item in e[0] if item[0][0] not in self.given]
        grew = True
        while grew:
            grew = False
            for item in items:
                grew |= self.up(item)
        # 2. where it may matter (from the readers down)
        readings = []                           # (place read, zones of its variable, head places of it)
        for e in self.kept:
            for place, v, variables, at in e[1]:
                if place[0] in self.everywhere:
                    continue
                self.whole.add(place)
                if v is None:
                    _widen(self.need, place, ANYTHING)
                else:
                    readings.append((place, self.zones(v, variables), at))
        _settle(readings, self.down)
        out = {}
        for sig in self.given - self.everywhere:
            zs = self.need.get((sig, 0), _EMPTY)
            if zs is not ANYTHING:
                out[sig] = zs | {UNPLACED}
        return out


def zone_demand(entries: list, reads: list, given: set[str]) -> dict[str, frozenset]:
    """The zone step over the kept statements' compiled entries (compile_zone_entry; None: a
    statement not looked into) and what each reads, with `given` the predicates of the facts:
    predicate -> the zones (and UNPLACED) of the cards whose facts of it may matter, for the
    given predicates where that is not every zone (module docstring, "Facts by zone")."""
    return _ZoneStep(entries, reads, given).demand()


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
