"""The one way into clingo: rules parsed once, a program prepared from them, facts added as
symbols, grounded and solved.  The engine, the batch and the search all go through here.

No game rule is decided here: this is plumbing between parsed statements, facts and the
shown atoms of an answer.

clingo.ast is imported where it is used (parsing, replaying parsed statements): a query
that gives clingo the statements' texts (an Engine's first queries: Statements) does not
load it, which saves about 3 ms of every `pyrules check`.  clingo's AST objects free
themselves through clingo.ast's module globals, and at exit the interpreter tears modules
down newest first: clingo.ast, loaded late, would go before the modules imported earlier
that hold parsed statements, and each statement would print "Exception ignored in
AST.__del__".  So what pyrules holds of them is dropped at exit, before the teardown
(forget_at_exit; tests/test_cache.py).
"""
from __future__ import annotations

import atexit
import time
import weakref
from contextlib import contextmanager
from pathlib import Path
from typing import Callable, Iterable, Iterator, Sequence, overload

import clingo
from clingo import Symbol

from .errors import InvalidInput, Problem
from .prune import Pruner
from .symbols import CLINGO_LOCK, add_facts, add_statements, name_args, symbol_key

CLINGO_ARGS = ["--warn=none"]
UNBOUNDED = 2 ** 63 - 1          # the largest optimisation bound clingo reads (no bound at that priority)
_HOLDERS: weakref.WeakSet = weakref.WeakSet()   # objects holding parsed statements (forget_parsed())


def forget_at_exit(holder: object) -> None:
    """Have holder.forget_parsed() called at exit, before the modules are torn down (module
    docstring), unless the holder is gone by then."""
    _HOLDERS.add(holder)


@atexit.register
def _forget_parsed() -> None:
    _PRUNERS.clear()
    for holder in list(_HOLDERS):
        holder.forget_parsed()
BASE: list[tuple[str, list]] = [("base", [])]


_READ: dict[object, tuple[tuple[str, int], list[Symbol]]] = {}   # shown atom (symbol_key) -> ((name, arity), arguments)
_MAX_READ = 100_000


class Answer:
    """The shown atoms of one answer, read once: (name, arity) -> list of argument lists."""
    __slots__ = ("by",)

    def __init__(self, by: dict[tuple[str, int], list[list[Symbol]]] | None = None) -> None:
        self.by: dict[tuple[str, int], list[list[Symbol]]] = {} if by is None else by

    @classmethod
    def of(cls, symbols: Iterable[Symbol]) -> "Answer":
        """The atoms read apart.  Shown atoms recur from query to query (they hold card
        numbers, not ids), so each one's (name, arity) and arguments are kept, up to a
        bound: a lookup costs less than reading them out of clingo again.  The argument
        lists are shared: readers must not change them."""
        out = cls()
        by = out.by
        seen, handle = _READ.get, symbol_key
        for s in symbols:
            got_read = seen(handle(s))
            if got_read is None:
                name, args = name_args(s)
                got_read = ((name, len(args)), args)
                if len(_READ) >= _MAX_READ:
                    _READ.clear()
                _READ[handle(s)] = got_read
            key, args = got_read
            got = by.get(key)
            if got is None:
                by[key] = [args]
            else:
                got.append(args)
        return out

    def get(self, name: str, arity: int) -> list[list[Symbol]]:
        return self.by.get((name, arity), [])


def parse_rules(files: list[Path], ground_check: bool = True) -> list:
    """The rule files parsed once into clingo AST statements (replayed by every query).
    Comments and #defined directives only matter to the parser's warnings (off here), so
    they are not replayed.  Rules that do not parse or ground (a syntax error, an unsafe
    variable) raise InvalidInput with clingo's messages, which name the file and line.
    ground_check=False skips the grounding that finds unsafe variables (for files known to
    ground, pyrules/cache.py)."""
    from clingo.ast import ASTType, ProgramBuilder, parse_files

    from .astwalk import name_anonymous, unpooled         # (clingo.ast: loaded only to parse)
    messages: list[str] = []

    def log(_code, message: str) -> None:
        messages.append(message.strip())

    statements: list = []
    try:
        if not files:
            raise RuntimeError("no rule files (.lp) found")
        parse_files([str(p) for p in files], statements.append, logger=log)
        kinds = [s.ast_type for s in statements]          # (one pass: each read calls into clingo)
        skip = (ASTType.Comment, ASTType.Defined)
        statements = [s for s, k in zip(statements, kinds) if k not in skip]
        kinds = [k for k in kinds if k not in skip]
        # every file opens with an implicit "#program base."; when all are base, one is enough
        parts = [i for i, k in enumerate(kinds) if k == ASTType.Program]
        if {str(statements[i]) for i in parts} == {"#program base."}:
            drop = set(parts[1:])
            statements = [s for i, s in enumerate(statements) if i not in drop]
        statements = [name_anonymous(u) for s in statements for u in unpooled(s)]   # (astwalk: what clingo would do)
        if ground_check:
            ctl = clingo.Control(CLINGO_ARGS, logger=log)   # a first grounding finds unsafe variables
            with ProgramBuilder(ctl) as builder:
                add_statements(builder, statements)
            ctl.ground(BASE + [(CARD_PART, [])])
    except RuntimeError as e:
        where = str(files[0].parent) if files else "rules"
        errors = [m for m in messages if "error" in m] or messages or [str(e)]
        raise InvalidInput([Problem(where, f"the rules do not load: {m}") for m in errors]) from None
    return statements


CARD_PART = "card"


def split_parts(statements: list) -> tuple[list, list]:
    """(the statements of the base part, after one "#program base.", as parse_rules gives them;
    those of the card part, `#program card.`, without directives).  The card part holds the
    rules that read only one card's own printed data: an Engine grounds it once per card and
    gives each query its answers with the card's facts (Engine.derive_card_facts)."""
    base: list = []
    card: list = []
    part = "base"
    for s in statements:
        if s.ast_type.name == "Program":
            part = s.name
            if not base and part == "base":
                base.append(s)
            continue
        (card if part == CARD_PART else base).append(s)
    return base, card


class Statements(Sequence):
    """The statements of the rule files, as their texts at once and as parsed AST statements
    when first needed.  Parsing is the slow part of making an Engine (tens of milliseconds),
    and a one-shot query needs only the few statements that can fire with its facts: those
    go to clingo as text (clingo parses them, as it would the files), and an Engine asked
    more than TEXT_QUERIES times parses the texts once and replays the parsed statements
    from then on (replaying is faster than parsing text again).  The texts are clingo's own
    rendering of the statements parsed from the rule files, kept per rules version
    (pyrules/cache.py): the files are not read again, so an edit made while an Engine runs
    does not reach it.  tests/test_prune.py checks that the texts parse back to the same
    statements and that both ways give the same answers."""

    TEXT_QUERIES = 8

    def __init__(self, texts: list[str], parsed: list | None = None) -> None:
        self.texts = texts
        self._parsed = parsed
        self.text_queries = 0
        forget_at_exit(self)

    def forget_parsed(self) -> None:
        """Drop the parsed statements (parsed again from the texts if needed)."""
        self._parsed = None

    @property
    def parsed(self) -> list:
        """The AST statements (the texts parsed now if they were not)."""
        if self._parsed is None:
            try:
                got = parse_text("\n".join(self.texts))[1:]     # (after the implicit "#program base.")
            except RuntimeError:
                got = []
            if len(got) != len(self.texts):
                raise InvalidInput(Problem("rules", "the rule texts kept in the cache do not parse back "
                                                    "statement by statement (delete the cache folder)"))
            self._parsed = got
        return self._parsed

    def add_text(self, ctl: clingo.Control, kept_at: Iterable[int]) -> None:
        """Give clingo the statements at these positions, as text."""
        texts = self.texts
        try:
            ctl.add("base", [], "\n".join([texts[i] for i in kept_at]))
        except RuntimeError:
            raise InvalidInput(Problem("rules", "the rule texts kept in the cache do not parse "
                                                "(delete the cache folder)")) from None

    @property
    def is_parsed(self) -> bool:
        return self._parsed is not None

    def as_text(self) -> bool:
        """Whether the next query should give its statements as text (counts the query)."""
        if self._parsed is not None or self.text_queries >= self.TEXT_QUERIES:
            return False
        self.text_queries += 1
        return True

    def __len__(self) -> int:
        return len(self.texts)

    @overload
    def __getitem__(self, i: int) -> object: ...
    @overload
    def __getitem__(self, i: slice) -> list: ...

    def __getitem__(self, i):
        return self.parsed[i]

    def __iter__(self) -> Iterator:
        return iter(self.parsed)


def parse_text(text: str) -> list:
    """Program text (plumbing the code writes, never user text) parsed into statements."""
    from clingo.ast import parse_string
    out: list = []
    parse_string(text, out.append)
    return out


_PRUNERS: dict[int, Pruner] = {}        # by id() of a statement list (the Pruner holds the list)


def pruner(statements: Sequence, analysis: dict | None = None) -> Pruner:
    """The Pruner of a statement list (made once per list; `analysis`: dependencies.analyse()
    of it, as kept from an earlier run; made here when not given)."""
    got = _PRUNERS.get(id(statements))
    if got is None or got.source is not statements:
        if len(_PRUNERS) >= 32:
            _PRUNERS.clear()
        if analysis is None:
            from .dependencies import analyse
            analysis = analyse(statements)
        got = _PRUNERS[id(statements)] = Pruner(statements, analysis)
    return got


def program_for(statements: Sequence, facts: Sequence[Symbol]) -> tuple[list, list[Symbol]]:
    """What a query grounds: the statements that can fire with its facts and the facts they
    read (pyrules/prune.py)."""
    return pruner(statements).program(facts)


def ground_and_solve(statements: Sequence, facts: Iterable[Symbol], prune: bool = True) -> list[Symbol]:
    """The one-shot solver call of a query: a fresh Control with the parsed rules that can
    fire with the facts (program_for; all of them with prune=False) and the facts (through
    the backend, as symbols), grounded and solved; the shown atoms.  Statements not parsed
    yet (Statements) go to clingo as text."""
    shown: list[Symbol] = []
    facts = facts if isinstance(facts, (list, tuple)) else list(facts)
    with CLINGO_LOCK:
        ctl = clingo.Control(CLINGO_ARGS)
        if isinstance(statements, Statements) and statements.as_text():
            kept_at, facts = pruner(statements).select(facts) if prune else (range(len(statements)), facts)
            statements.add_text(ctl, kept_at)
        else:
            from clingo.ast import ProgramBuilder
            kept, facts = program_for(statements, facts) if prune else (statements, facts)
            with ProgramBuilder(ctl) as builder:
                add_statements(builder, kept)
        with ctl.backend() as backend:
            add_facts(backend, facts)
        ctl.ground(BASE)
        ctl.solve(on_model=lambda model: shown.extend(model.symbols(shown=True)))
        del ctl
    return shown


class Program:
    """A program built step by step (the search's): parsed statements, more text, facts and
    guarded facts, then grounded and solved, maybe again after more parts are added.
    clingo's messages go to `messages`; a failing step raises InvalidInput with them."""

    def __init__(self, statements: Sequence = ()) -> None:
        from clingo.ast import ProgramBuilder
        self.messages: list[str] = []
        with CLINGO_LOCK:
            self.ctl = clingo.Control(CLINGO_ARGS, logger=lambda code, msg: self.messages.append(msg.strip()))
            with self._failing(), ProgramBuilder(self.ctl) as builder:
                add_statements(builder, statements)

    @contextmanager
    def _failing(self) -> Iterator[None]:
        try:
            yield
        except RuntimeError as e:
            raise InvalidInput([Problem("rules", m) for m in self.messages] or [Problem("rules", str(e))]) from None

    def add(self, text: str, part: str = "base") -> None:
        with CLINGO_LOCK, self._failing():
            self.ctl.add(part, [], text)

    def add_facts(self, facts: Iterable[Symbol]) -> None:
        with CLINGO_LOCK, self._failing(), self.ctl.backend() as backend:
            add_facts(backend, facts)

    def add_guarded(self, pairs: Iterable[tuple[Symbol, Symbol]]) -> None:
        """head :- guard, for each (head, guard)."""
        with CLINGO_LOCK, self._failing(), self.ctl.backend() as be:
            for head, guard in pairs:
                be.add_rule([be.add_atom(head)], [be.add_atom(guard)])

    def ground(self, part: str = "base") -> None:
        with CLINGO_LOCK, self._failing():
            self.ctl.ground([(part, [])])

    def bound_below(self, cost: Sequence[int]) -> None:
        """Have the next solve look only for answers whose cost (a model's cost, highest priority first) is
        lexicographically below `cost`, through clingo's optimisation bound (which admits the bound itself):
        the last priority above 0 one less, every later one unbounded.  clingo refuses every answer when a
        priority's bound is below 0, so a cost that is not all whole numbers above or at 0, or all 0 (no cost
        of such weights is below it), sets no bound."""
        last = max((i for i, c in enumerate(cost) if c > 0), default=None)
        if last is None or any(c < 0 for c in cost):
            return
        bound = [*cost[:last], cost[last] - 1] + [UNBOUNDED] * (len(cost) - last - 1)
        solve = self.ctl.configuration.solve
        assert isinstance(solve, clingo.Configuration)
        solve.opt_mode = "opt," + ",".join(str(c) for c in bound)

    def optimum(self, deadline: float | None = None,
                tick: Callable[[bool], None] | None = None) -> tuple[Sequence[Symbol] | None, bool, bool]:
        """Solve for the optimal model: (its shown atoms or None, finished, proved optimal).
        Stops cleanly at `deadline` (time.monotonic()); `tick(found_one)` is called about
        four times a second while the search runs."""
        best: Sequence[Symbol] | None = None

        def on_model(m: clingo.Model) -> None:
            nonlocal best
            best = m.symbols(shown=True)

        with self.ctl.solve(on_model=on_model, async_=True) as handle:
            while True:
                remaining = None if deadline is None else deadline - time.monotonic()
                if remaining is not None and remaining <= 0:
                    handle.cancel()
                    return best, False, False
                if handle.wait(0.25 if remaining is None else min(0.25, remaining)):
                    break
                if tick is not None:
                    tick(best is not None)
            res = handle.get()
        return best, True, bool(res.exhausted) and best is not None


def atoms_of(*, files: Iterable[Path] = (), text: str = "") -> list[Symbol]:
    """Every atom of a small declarative program (catalogue entries, properties, sources),
    grounded as it is; RuntimeError when it does not parse or ground."""
    with CLINGO_LOCK:
        ctl = clingo.Control(CLINGO_ARGS)
        for path in files:
            ctl.load(str(path))
        if text:
            ctl.add("base", [], text)
        ctl.ground(BASE)
        return [a.symbol for a in ctl.symbolic_atoms]
