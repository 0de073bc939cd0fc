"""The lean per-query calls into clingo: replaying parsed rules, adding facts through the
backend, and reading the shown atoms.

clingo's Python wrapper allocates a few cffi objects on every call (Function, add_atom,
name, arguments).  A query makes hundreds of such calls, so this module makes the same
C calls with buffers allocated once.  It uses clingo's cffi layer (clingo._internal,
stable across clingo 5.5-5.8); when that layer is missing it falls back to the public API
with identical results.  No game rule is decided here.
"""
from __future__ import annotations

import threading
from typing import Iterable, Sequence

from clingo import Function, Number, Symbol, SymbolType
from clingo import Function as _PublicFunction

try:   # pragma: no branch
    from clingo._internal import _ffi, _handle_error, _lib
    _RAW = all(hasattr(_lib, f) for f in ("clingo_backend_add_atom", "clingo_symbol_create_number", "clingo_backend_rule",
                                          "clingo_symbol_name", "clingo_symbol_arguments",
                                          "clingo_symbol_create_function", "clingo_program_builder_add"))
except ImportError:   # pragma: no cover
    _RAW = False

_NAMES: dict[bytes, str] = {}
_NAME_AT: dict = {}        # clingo's interned name pointer -> str (names are never freed)

# clingo's program building is not safe to run in two threads at once (seen here: "invalid
# ast" errors and crashes with two Controls in two threads, through clingo's own Python API
# too).  Every place that builds, grounds or solves a program holds this lock, so an Engine
# may be used from several threads (e.g. Dask's threaded workers); processes run in parallel.
CLINGO_LOCK = threading.RLock()


if _RAW:
    _EMPTY = _ffi.NULL
    _add_atom, _rule = _lib.clingo_backend_add_atom, _lib.clingo_backend_rule
    _sym_name, _sym_args = _lib.clingo_symbol_name, _lib.clingo_symbol_arguments
    _create = _lib.clingo_symbol_create_function
    _create_number = _lib.clingo_symbol_create_number
    _sym_number = _lib.clingo_symbol_number
    _builder_add = _lib.clingo_program_builder_add
    _string = _ffi.string
    _BYTES: dict[str, bytes] = {}
    _local = threading.local()     # cffi releases the GIL in C calls: buffers are per thread

    class _Buffers:
        __slots__ = ("atom", "sym", "out", "name", "args", "size", "buf", "num")

        def __init__(self) -> None:
            self.atom = _ffi.new("clingo_atom_t[1]")
            self.sym = _ffi.new("clingo_symbol_t[1]")
            self.out = _ffi.new("clingo_symbol_t[1]")
            self.name = _ffi.new("char const**")
            self.args = _ffi.new("clingo_symbol_t const**")
            self.size = _ffi.new("size_t*")
            self.buf = _ffi.new("clingo_symbol_t[64]")
            self.num = _ffi.new("int*")

    def _buffers() -> _Buffers:
        try:
            return _local.b
        except AttributeError:
            b = _local.b = _Buffers()
            return b

    def Function(name: str, arguments: Sequence[Symbol] = (), positive: bool = True) -> Symbol:  # noqa: N802
        """clingo.Function without the per-call allocations."""
        raw = _BYTES.get(name)
        if raw is None:
            raw = _BYTES[name] = name.encode()
        n = len(arguments)
        if n >= 63:
            return _PublicFunction(name, arguments, positive)
        b = _buffers()
        buf, out = b.buf, b.out
        for i in range(n):
            buf[i] = arguments[i]._rep
        if not _create(raw, buf, n, positive, out):
            _handle_error(False)
        return Symbol(out[0])

    def Number(number: int) -> Symbol:  # noqa: N802
        """clingo.Number without the per-call allocation."""
        out = _buffers().out
        _create_number(number, out)
        return Symbol(out[0])

    def add_statements(builder, statements: Sequence) -> None:
        """Replay parsed AST statements into a ProgramBuilder."""
        rep = builder._rep
        for stmt in statements:
            if not _builder_add(rep, stmt._rep):
                _handle_error(False)

    def add_facts(backend, symbols: Iterable[Symbol]) -> None:
        """Every symbol becomes a fact of the program."""
        b = _buffers()
        rep, atom, sym = backend._rep, b.atom, b.sym
        for s in symbols:
            sym[0] = s._rep
            if not (_add_atom(rep, sym, atom) and _rule(rep, False, atom, 1, _EMPTY, 0)):
                _handle_error(False)

    def name_args(sym: Symbol) -> tuple[str, list[Symbol]]:
        """The name and the arguments of a function symbol."""
        b = _buffers()
        rep = sym._rep
        _sym_name(rep, b.name)
        raw = _string(b.name[0])
        name = _NAMES.get(raw)
        if name is None:
            name = _NAMES[raw] = raw.decode()
        _sym_args(rep, b.args, b.size)
        arr, n = b.args[0], b.size[0]
        return name, [Symbol(arr[i]) for i in range(n)]

    def split_by_first(symbols: Iterable[Symbol]) -> dict[int, dict[tuple[str, int], list[list[Symbol]]]]:
        """Function symbols whose first argument is a number K, grouped by K and then by
        (name, number of other arguments): a batch's answer split by snapshot number."""
        b = _buffers()
        namep, argsp, size, num = b.name, b.args, b.size, b.num
        out: dict[int, dict[tuple[str, int], list[list[Symbol]]]] = {}
        for s in symbols:
            rep = s._rep
            _sym_name(rep, namep)
            ptr = namep[0]
            name = _NAME_AT.get(ptr)
            if name is None:
                name = _NAME_AT[ptr] = _string(ptr).decode()
            _sym_args(rep, argsp, size)
            arr, n = argsp[0], size[0]
            if not _sym_number(arr[0], num):
                _handle_error(False)
            by = out.get(num[0])
            if by is None:
                by = out[num[0]] = {}
            key = (name, n - 1)
            got = by.get(key)
            if got is None:
                got = by[key] = []
            got.append([Symbol(arr[i]) for i in range(1, n)])
        return out


else:   # pragma: no cover - the public API, slower but the same results
    def add_statements(builder, statements: Sequence) -> None:
        for stmt in statements:
            builder.add(stmt)

    def add_facts(backend, symbols: Iterable[Symbol]) -> None:
        add_atom, add_rule = backend.add_atom, backend.add_rule
        for s in symbols:
            add_rule([add_atom(s)])

    def name_args(sym: Symbol) -> tuple[str, list[Symbol]]:
        return sym.name, sym.arguments

    def split_by_first(symbols: Iterable[Symbol]) -> dict[int, dict[tuple[str, int], list[list[Symbol]]]]:
        out: dict[int, dict[tuple[str, int], list[list[Symbol]]]] = {}
        for s in symbols:
            args = s.arguments
            out.setdefault(args[0].number, {}).setdefault((s.name, len(args) - 1), []).append(args[1:])
        return out



_VALUES: dict = {}


def symbol_key(sym: Symbol):
    """A cheap dict key for a symbol: its number in clingo's symbol table (the symbol itself
    on the public API).  Symbols are interned, so equal symbols have equal keys."""
    return sym._rep if _RAW else sym


def value_of(sym: Symbol):
    """The Python value of a number (int) or constant (str) symbol, cached by the symbol's
    identity: answer atoms repeat the same few numbers and constants many times."""
    key = getattr(sym, "_rep", None) if _RAW else sym
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
