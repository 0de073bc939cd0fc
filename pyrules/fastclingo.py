"""The lean per-query calls into clingo: replaying parsed rules, adding facts through the
backend, making symbols and reading the shown atoms.

clingo's Python wrapper allocates a few cffi objects on every call (Function, add_atom,
name, arguments).  A query makes hundreds of such calls, so the fast path makes the same C
calls with buffers allocated once, through clingo's private cffi layer (clingo._internal:
`_lib`, `_ffi`, `_handle_error`, the `_rep` of symbols, backends, program builders and AST
nodes, and `Symbol(rep)`).  Measured gain: the "fastclingo" rows of benchmarks/bench.py.

Safety: at import every private name the fast path uses is looked up, and the fast path is
then run once on a small program against the public API (`_self_test`); on the first
missing name or difference the module uses the public API instead (`FALLBACK` says why).
Setting PYRULES_PUBLIC_API=1 forces the public API (CI runs the whole suite that way too).
Both paths give identical results.  No game rule is decided here.
"""
from __future__ import annotations

import importlib
import os
import threading
from types import ModuleType, SimpleNamespace
from typing import Any, Callable, Iterable, Sequence

import clingo
import clingo.ast
from clingo import Symbol, SymbolType

# clingo's program building is not safe to run in two threads at once (seen here: "invalid
# ast" errors and crashes with two Controls in two threads, through clingo's own Python API
# too).  Every place that builds, grounds or solves a program holds this lock, so an Engine
# may be used from several threads (e.g. Dask's threaded workers); processes run in parallel.
CLINGO_LOCK = threading.RLock()

Split = dict[int, dict[tuple[str, int], list[list[Symbol]]]]


# ---- the public API: always there, and the reference the fast path is tested against ----------
def _public() -> SimpleNamespace:
    def add_statements(builder, statements: Sequence) -> None:
        for stmt in statements:
            builder.add(stmt)

    def add_facts(backend, symbols: Iterable[Symbol]) -> None:
        add_atom, add_rule = backend.add_atom, backend.add_rule
        for s in symbols:
            add_rule([add_atom(s)])

    def name_args(sym: Symbol) -> tuple[str, list[Symbol]]:
        return sym.name, sym.arguments

    def split_by_first(symbols: Iterable[Symbol]) -> Split:
        out: Split = {}
        for s in symbols:
            args = s.arguments
            out.setdefault(args[0].number, {}).setdefault((s.name, len(args) - 1), []).append(args[1:])
        return out

    def symbol_key(sym: Symbol) -> Any:
        return sym

    return SimpleNamespace(Function=clingo.Function, Number=clingo.Number, add_statements=add_statements,
                           add_facts=add_facts, name_args=name_args, split_by_first=split_by_first,
                           symbol_key=symbol_key)


# ---- the fast path ------------------------------------------------------------------------------
_LIB_FUNCTIONS = ("clingo_backend_add_atom", "clingo_backend_rule", "clingo_symbol_name", "clingo_symbol_arguments",
                  "clingo_symbol_create_function", "clingo_symbol_create_number", "clingo_symbol_number",
                  "clingo_program_builder_add")


class _Buffers:
    """The C buffers of the fast path, allocated once per thread (cffi releases the GIL)."""
    __slots__ = ("atom", "sym", "out", "name", "args", "size", "buf", "num")

    def __init__(self, new: Callable[[str], Any]) -> None:
        self.atom = new("clingo_atom_t[1]")
        self.sym = new("clingo_symbol_t[1]")
        self.out = new("clingo_symbol_t[1]")
        self.name = new("char const**")
        self.args = new("clingo_symbol_t const**")
        self.size = new("size_t*")
        self.buf = new("clingo_symbol_t[64]")
        self.num = new("int*")


def _fast(internal: ModuleType) -> SimpleNamespace:
    """The fast path over clingo's cffi layer `internal`; AttributeError names the first
    private name that is missing."""
    ffi, lib, handle_error = internal._ffi, internal._lib, internal._handle_error
    for name in _LIB_FUNCTIONS:
        getattr(lib, name)
    new = ffi.new
    local = threading.local()

    def buffers() -> _Buffers:
        try:
            return local.b
        except AttributeError:
            b = local.b = _Buffers(new)
            return b

    return SimpleNamespace(**_fast_symbols(lib, handle_error, buffers), **_fast_program(ffi, lib, handle_error, buffers),
                           **_fast_readers(ffi, lib, handle_error, buffers), symbol_key=lambda sym: sym._rep)


def _fast_symbols(lib: Any, handle_error: Any, buffers: Callable[[], _Buffers]) -> dict[str, Any]:
    """Function and Number without the per-call allocations."""
    create, create_number = lib.clingo_symbol_create_function, lib.clingo_symbol_create_number
    public_function = clingo.Function
    raw_names: dict[str, bytes] = {}

    def Function(name: str, arguments: Sequence[Symbol] = (), positive: bool = True) -> Symbol:  # noqa: N802
        raw = raw_names.get(name)
        if raw is None:
            raw = raw_names[name] = name.encode()
        n = len(arguments)
        if n >= 63:
            return public_function(name, arguments, positive)
        b = buffers()
        buf, out = b.buf, b.out
        for i in range(n):
            buf[i] = arguments[i]._rep
        if not create(raw, buf, n, positive, out):
            handle_error(False)
        return Symbol(out[0])

    def Number(number: int) -> Symbol:  # noqa: N802
        out = buffers().out
        create_number(number, out)
        return Symbol(out[0])

    return {"Function": Function, "Number": Number}


def _fast_program(ffi: Any, lib: Any, handle_error: Any, buffers: Callable[[], _Buffers]) -> dict[str, Any]:
    """Replaying parsed statements and adding facts, one C call each."""
    empty = ffi.NULL
    add_atom, rule, builder_add = lib.clingo_backend_add_atom, lib.clingo_backend_rule, lib.clingo_program_builder_add

    def add_statements(builder, statements: Sequence) -> None:
        rep = builder._rep
        for stmt in statements:
            if not builder_add(rep, stmt._rep):
                handle_error(False)

    def add_facts(backend, symbols: Iterable[Symbol]) -> None:
        b = buffers()
        rep, atom, sym = backend._rep, b.atom, b.sym
        for s in symbols:
            sym[0] = s._rep
            if not (add_atom(rep, sym, atom) and rule(rep, False, atom, 1, empty, 0)):
                handle_error(False)

    return {"add_statements": add_statements, "add_facts": add_facts}


def _fast_readers(ffi: Any, lib: Any, handle_error: Any, buffers: Callable[[], _Buffers]) -> dict[str, Any]:
    """Reading a symbol's name and arguments, and a batch's answer split by snapshot number."""
    string = ffi.string
    sym_name, sym_args, sym_number = lib.clingo_symbol_name, lib.clingo_symbol_arguments, lib.clingo_symbol_number
    names: dict[bytes, str] = {}
    name_at: dict[Any, str] = {}        # clingo's interned name pointer -> str (names are never freed)

    def name_args(sym: Symbol) -> tuple[str, list[Symbol]]:
        b = buffers()
        rep = sym._rep
        sym_name(rep, b.name)
        raw = string(b.name[0])
        name = names.get(raw)
        if name is None:
            name = names[raw] = raw.decode()
        sym_args(rep, b.args, b.size)
        arr, n = b.args[0], b.size[0]
        return name, [Symbol(arr[i]) for i in range(n)]

    def split_by_first(symbols: Iterable[Symbol]) -> Split:
        b = buffers()
        namep, argsp, size, num = b.name, b.args, b.size, b.num
        out: Split = {}
        for s in symbols:
            rep = s._rep
            sym_name(rep, namep)
            ptr = namep[0]
            name = name_at.get(ptr)
            if name is None:
                name = name_at[ptr] = string(ptr).decode()
            sym_args(rep, argsp, size)
            arr, n = argsp[0], size[0]
            if not sym_number(arr[0], num):
                handle_error(False)
            by = out.get(num[0])
            if by is None:
                by = out[num[0]] = {}
            key = (name, n - 1)
            got = by.get(key)
            if got is None:
                got = by[key] = []
            got.append([Symbol(arr[i]) for i in range(1, n)])
        return out

    return {"name_args": name_args, "split_by_first": split_by_first}


def _self_test(fast: SimpleNamespace, public: SimpleNamespace) -> None:
    """Run every function of the fast path once on a small program and compare it with the
    public API: AssertionError (or the error of a private name) on the first difference."""
    F, N = fast.Function, fast.Number
    made = [F("p", [N(1), F("a")]), F("q", [N(2)], False), F("r"), F("s", [N(7), F("t", [N(-3)])])]
    want = [clingo.Function("p", [clingo.Number(1), clingo.Function("a")]),
            clingo.Function("q", [clingo.Number(2)], False), clingo.Function("r"),
            clingo.Function("s", [clingo.Number(7), clingo.Function("t", [clingo.Number(-3)])])]
    assert made == want
    assert [fast.name_args(s) for s in want] == [public.name_args(s) for s in want]
    assert fast.split_by_first([want[0], want[3]]) == public.split_by_first([want[0], want[3]])
    assert fast.symbol_key(F("r")) == fast.symbol_key(want[2])
    statements: list = []
    clingo.ast.parse_string("u(X) :- p(X,a). #show u/1. #show s/2.", statements.append)
    shown: list[Symbol] = []
    ctl = clingo.Control(["--warn=none"])
    with clingo.ast.ProgramBuilder(ctl) as builder:
        fast.add_statements(builder, statements)
    with ctl.backend() as backend:
        fast.add_facts(backend, made)
    ctl.ground([("base", [])])
    ctl.solve(on_model=lambda m: shown.extend(m.symbols(shown=True)))
    assert sorted(shown) == sorted([clingo.Function("u", [clingo.Number(1)]), want[3]])


PATHS: dict[str, SimpleNamespace] = {"public": _public()}   # and "fast" when it passed (benchmarks/bench.py)


def _choose() -> tuple[SimpleNamespace, str | None]:
    """The fast path when every private name is there and it passes the self-test; else the
    public API and why."""
    public = PATHS["public"]
    try:
        fast = _fast(importlib.import_module("clingo._internal"))
        _self_test(fast, public)
    except Exception as e:   # any missing name or difference: the public API, which is always right
        return public, f"{type(e).__name__}: {e}"
    PATHS["fast"] = fast
    if os.environ.get("PYRULES_PUBLIC_API"):
        return public, "PYRULES_PUBLIC_API is set"
    return fast, None


_PATH, FALLBACK = _choose()
FAST = FALLBACK is None                      # whether the fast path is in use
Function: Callable[..., Symbol] = _PATH.Function
Number: Callable[[int], Symbol] = _PATH.Number
add_statements: Callable[[Any, Sequence], None] = _PATH.add_statements
add_facts: Callable[[Any, Iterable[Symbol]], None] = _PATH.add_facts
name_args: Callable[[Symbol], tuple[str, list[Symbol]]] = _PATH.name_args
split_by_first: Callable[[Iterable[Symbol]], Split] = _PATH.split_by_first
symbol_key: Callable[[Symbol], Any] = _PATH.symbol_key
"""A cheap dict key for a symbol: its number in clingo's symbol table (the symbol itself on
the public API).  Symbols are interned, so equal symbols have equal keys."""

_VALUES: dict = {}


def value_of(sym: Symbol):
    """The Python value of a number (int) or constant (str) symbol, cached by the symbol:
    answer atoms repeat the same few numbers and constants many times."""
    key = symbol_key(sym)
    v = _VALUES.get(key)
    if v is None:
        v = sym.number if sym.type == SymbolType.Number else sym.name
        if len(_VALUES) < 100_000:
            _VALUES[key] = v
    return v


def number(n: int, _cache: dict[int, Symbol] = {}) -> Symbol:
    """Number(n), shared for small n."""
    sym = _cache.get(n)
    if sym is None:
        sym = Number(n)
        if len(_cache) < 100_000:
            _cache[n] = sym
    return sym
