"""Many snapshots at once: shared groundings, worker processes, JSON Lines.

Speed comes from grounding a chunk of snapshots in ONE clingo call: an AST transform
adds a snapshot number W as the first argument of every atom of the rules (and the
body literal snap(W)), each snapshot's facts get its number, and the answer atoms are
split by that number again.  The rules themselves are unchanged, so every snapshot gets
exactly the verdicts a single query gives (tests/test_batch.py compares them).

Worker processes each hold their own Engine (clingo objects do not pickle): they get
plain data (snapshot dicts or JSON text) and send back plain results.
"""
from __future__ import annotations

import gc
import json
import multiprocessing
import signal
import sys
from contextlib import contextmanager
from pathlib import Path
from typing import IO, Any, Callable, Iterable, Iterator, Sequence

from clingo import Function, Symbol
from clingo import ast

from .actions import Action, parse_action
from .astwalk import AtomRewriter, predicates_read, with_first_argument
from .encode import batch_link_rules
from .errors import InvalidInput, Problem
from .symbols import number, split_by_first
from .limits import Limits, parse_json
from .solver import Answer, parse_text

CHUNK = 64                      # snapshots per shared grounding (measured: 50-100 is best)
_W = "W__pyrules_snapshot"      # the snapshot variable the transform adds

Result = Any                    # Legal | Verdict | InvalidInput


# ---- the AST transform ------------------------------------------------------------
class _Unsupported(Exception):
    pass


class _AddSnapshot(AtomRewriter):
    """Adds the snapshot number W as the first argument of every atom of every statement,
    and snap(W) to the bodies where nothing else binds W."""

    def __init__(self) -> None:
        pos = ast.Position("<pyrules batch>", 0, 0)
        self.loc = ast.Location(pos, pos)
        self.var = ast.Variable(self.loc, _W)
        self.snap = ast.Literal(self.loc, ast.Sign.NoSign,
                                ast.SymbolicAtom(ast.Function(self.loc, "snap", [self.var], 0)))

    def atom(self, sig, term):
        if sig is None:
            raise _Unsupported(str(term))
        return with_first_argument(term, self.var)

    def bound(self, body) -> list:
        """The body, with snap(W) first unless a positive atom of the body (which now has W)
        already binds W: then snap(W) would only slow the grounding down."""
        for lit in body:
            if (lit.ast_type == ast.ASTType.Literal and lit.sign == ast.Sign.NoSign
                    and lit.atom.ast_type == ast.ASTType.SymbolicAtom):
                return list(body)
        return [self.snap, *body]

    def visit_Rule(self, node):
        node = node.update(**self.visit_children(node))
        return node.update(body=self.bound(node.body))

    def visit_ShowTerm(self, node):
        node = node.update(**self.visit_children(node))
        return node.update(term=self.term(node.term), body=self.bound(node.body))

    def visit_ShowSignature(self, node):
        return node.update(arity=node.arity + 1)

    def visit_Defined(self, node):
        return node.update(arity=node.arity + 1)


_PLAIN = {ast.ASTType.Rule, ast.ASTType.ShowSignature, ast.ASTType.ShowTerm, ast.ASTType.Defined,
          ast.ASTType.Program, ast.ASTType.Comment, ast.ASTType.Definition}


def shared_statements(statements: Sequence, cards: dict[str, int] | None = None) -> list | None:
    """The rules with a snapshot argument, or None when a construct is not supported
    (the batch then judges snapshots one by one); then the rules that give database cards
    their facts from the facts shared by the chunk (encode.batch_link_rules)."""
    tr = _AddSnapshot()
    out = []
    try:
        for stmt in statements:
            if stmt.ast_type not in _PLAIN:
                return None
            out.append(tr(stmt))
    except _Unsupported:
        return None
    out += [s for s in parse_text(batch_link_rules(predicates_read(statements), cards))
            if s.ast_type != ast.ASTType.Program]
    return out


# ---- judging many snapshots in one process ------------------------------------------
class Batch:
    """Judges snapshots with an Engine, CHUNK at a time in one grounding each, through the
    engine's public seam: encode, solve (with the prepared shared rules), read_legal and
    read_verdict."""

    def __init__(self, engine, readings: dict[str, str] | None = None, check: Any = None,
                 chunk: int = CHUNK):
        self.engine = engine
        self.readings = readings
        self.action: Action | None = parse_action(check) if check is not None else None
        self.chunk = max(1, chunk)
        # the card part's predicates are card facts too: shared once per grounding (encode.NameTable)
        engine.names.card_predicates.update(engine.card_part_predicates())
        cards = dict(engine.names.card_predicates)
        self.statements = engine.prepared("batch", lambda statements: shared_statements(statements, cards))

    def judge(self, snapshots: Iterable[Any]) -> Iterator[Result]:
        """One result per snapshot, in order: Legal, Verdict (check) or InvalidInput."""
        buf: list[Any] = []
        for s in snapshots:
            buf.append(s)
            if len(buf) >= self.chunk:
                yield from self.judge_chunk(buf)
                buf = []
        if buf:
            yield from self.judge_chunk(buf)

    def _one(self, snapshot: Any) -> Result:
        if isinstance(snapshot, InvalidInput):      # a line that could not be read
            return snapshot
        try:
            if self.action is None:
                return self.engine.legal(snapshot, self.readings)
            return self.engine.check(snapshot, self.action, self.readings)
        except InvalidInput as e:
            return e

    def judge_chunk(self, snapshots: Sequence[Any]) -> list[Result]:
        if self.statements is None or len(snapshots) == 1:
            return [self._one(s) for s in snapshots]
        engine = self.engine
        results: list[Result] = [None] * len(snapshots)
        encoded = []
        all_facts: list[Symbol] = []
        shared: set[str] = set()        # database cards of the chunk: their facts go in once
        for k, snap in enumerate(snapshots):
            if isinstance(snap, InvalidInput):
                results[k] = snap
                continue
            w = number(k)
            try:
                enc, facts, term = engine.encode(snap, self.readings, self.action, prefix=[w], shared=shared)
            except InvalidInput as e:
                results[k] = e
                continue
            all_facts.append(Function("snap", [w]))
            all_facts.extend(facts)
            encoded.append((k, enc, term))
        if not encoded:
            return results
        all_facts.extend(engine.names.shared_facts(shared))
        answers = split_by_first(engine.solve(all_facts, self.statements))
        for k, enc, term in encoded:
            atoms = Answer(answers.get(k))
            try:
                if self.action is None:
                    results[k] = engine.read_legal(enc, atoms)
                else:
                    results[k] = engine.read_verdict(enc, atoms, self.action, term)
            except InvalidInput as e:
                results[k] = e
        return results


# ---- JSON Lines --------------------------------------------------------------------------
def parse_line(text: "str | InvalidInput", limits: Limits | None = None) -> Any:
    """One input line -> a snapshot dict, or InvalidInput for a line that is not one (over the
    byte limit, not UTF-8 (limits.read_lines), not JSON, nested too deeply, a key given twice,
    not an object).  The other limits are checked when the snapshot is read."""
    if isinstance(text, InvalidInput):
        return text
    text = text.strip()
    if not text:
        return InvalidInput(Problem("line", "empty line (expected one JSON snapshot)"))
    try:
        value = parse_json(text, "line", limits or Limits.from_env(), walk=False)
    except InvalidInput as e:
        return e
    if not isinstance(value, dict):
        return InvalidInput(Problem("line", "a snapshot is a JSON object"))
    return value


class Line(str):
    """One output record as JSON text; `error` says whether the line could not be judged."""
    error: bool = False

    def __reduce__(self):                 # keeps `error` across worker processes
        return (_line, (str(self), self.error))


def _line(text: str, error: bool) -> Line:
    out = Line(text)
    out.error = error
    return out


def record(line: int, result: Result) -> dict[str, Any]:
    """The output record of one input line."""
    if isinstance(result, InvalidInput):
        return {"line": line, "error": [str(p) for p in result.problems]}
    return {"line": line, **result.to_json()}


# ---- worker processes --------------------------------------------------------------------------
_WORKER: dict[str, Any] = {}


def _init_pool_worker(config: dict[str, Any]) -> None:
    """A worker process of the pool: its Engine, then the garbage collector told to leave the
    objects it starts with alone (they live as long as the process; scanning them would also
    copy the pages a forked worker shares with its parent) and to run less often."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)     # Ctrl-C: the parent ends the pool in order
    signal.signal(signal.SIGTERM, signal.SIG_DFL)    # Pool.terminate(): end at once, quietly
    _init_worker(config)
    gc.freeze()
    gc.set_threshold(10_000, 50, 50)


def _init_worker(config: dict[str, Any]) -> None:
    engine = _WORKER.get("engine") if _WORKER.get("config") == config["engine"] else None
    if engine is None:
        engine = config["factory"](**config["engine"])
    _WORKER["config"] = config["engine"]
    _WORKER["engine"] = engine
    _WORKER["batch"] = Batch(engine, config["readings"], config["check"], config["chunk"])
    _WORKER["as_json"] = config["as_json"]
    _WORKER["lines"] = config.get("lines", True)


def _work(task: tuple[int, list[Any]]) -> list[Any]:
    start, items = task
    batch: Batch = _WORKER["batch"]
    if _WORKER["lines"]:
        limits = batch.engine.limits
        items = [parse_line(x, limits) if isinstance(x, (str, InvalidInput)) else x for x in items]
    results = batch.judge_chunk(items)
    if _WORKER["as_json"]:
        return [_line(json.dumps(record(start + i, r)), isinstance(r, InvalidInput)) for i, r in enumerate(results)]
    return results


def _chunks(items: Iterable[Any], size: int, first: int = 0) -> Iterator[tuple[int, list[Any]]]:
    buf: list[Any] = []
    n = first
    for x in items:
        buf.append(x)
        if len(buf) >= size:
            yield n, buf
            n += len(buf)
            buf = []
    if buf:
        yield n, buf


def run(items: Iterable[Any], *, engine=None, engine_factory: Callable[..., Any] | None = None,
        engine_config: dict[str, Any] | None = None, readings: dict[str, str] | None = None,
        check: Any = None, workers: int = 1, chunk: int = CHUNK, as_json: bool = False,
        first: int = 1, lines: bool = True) -> Iterator[Any]:
    """Judge snapshots in order: dicts, or text, which is a JSON Lines line (with lines=True; an
    InvalidInput from limits.read_lines stands for a line that could not be read) or any
    snapshot text `Engine.legal` reads (lines=False).  Yields results (Legal, Verdict or
    InvalidInput), or with as_json the output record of each line as a `Line` (JSON text).
    `engine` judges them in this process; a process that has none makes one with
    engine_factory(**engine_config) (pyrules.Engine: this module does not import the engine)."""
    factory = engine_factory or (type(engine) if engine is not None else None)
    if factory is None:
        raise ValueError("batch.run needs an engine or an engine_factory")
    config = {"engine": engine_config or {}, "factory": factory, "readings": readings, "check": check,
              "chunk": chunk, "as_json": as_json, "lines": lines}
    if workers <= 1:
        if engine is None:
            engine = factory(**config["engine"])
        _WORKER["engine"], _WORKER["config"] = engine, config["engine"]
        _init_worker(config)
        for task in _chunks(items, chunk, first):
            yield from _work(task)
        return
    if engine is not None:        # forked workers inherit the parent's Engine (nothing to re-read)
        _WORKER["engine"], _WORKER["config"] = engine, config["engine"]
    methods = multiprocessing.get_all_start_methods()
    ctx = multiprocessing.get_context("fork" if "fork" in methods else "spawn")
    with ctx.Pool(workers, initializer=_init_pool_worker, initargs=(config,)) as pool:
        for out in pool.imap(_work, _chunks(items, chunk, first), chunksize=1):
            yield from out


def progress(items: Iterable[Any], total: int | None, stream=None) -> Iterator[Any]:
    """Pass items through, drawing a progress line on stream (stderr) when it is a terminal."""
    stream = stream or sys.stderr
    if not stream.isatty():
        yield from items
        return
    done = 0
    for x in items:
        done += 1
        if done % 100 == 0 or done == total:
            stream.write(f"\r{done}/{total} snapshots" if total else f"\r{done} snapshots")
            stream.flush()
        yield x
    stream.write(f"\r{done}/{total or done} snapshots\n")
    stream.flush()


# ---- a run of `pyrules batch`: its output, and how a signal stops it -------------------------------
class Stopped(Exception):
    """SIGTERM or SIGINT (Ctrl-C) received while a batch writes its output."""

    def __init__(self, signum: int) -> None:
        super().__init__(signum)
        self.signum, self.name = signum, signal.Signals(signum).name


@contextmanager
def stopped_by_signals() -> Iterator[None]:
    """SIGTERM and SIGINT (Ctrl-C) raise Stopped in the batch's main loop, so that the pool of
    workers is ended in order (no worker is left to write into a closed pipe)."""
    def stop(signum, _frame):
        raise Stopped(signum)
    old = {s: signal.signal(s, stop) for s in (signal.SIGTERM, signal.SIGINT)}
    try:
        yield
    finally:
        for s, handler in old.items():
            signal.signal(s, handler)


def count_lines(path: Path) -> int:
    with open(path, "rb") as f:
        return sum(chunk.count(b"\n") for chunk in iter(lambda: f.read(1 << 20), b""))


def write_lines(results: Iterator[Line], out: IO[str], total: int | None) -> tuple[int, int, Stopped | None]:
    """Write run()'s output records (as_json) to out, one a line, with a progress line on a
    terminal: (lines written, lines with an error, the signal that stopped the run or None).  A
    run stopped by SIGTERM or Ctrl-C ends its worker processes (results.close()) before they
    write anything."""
    done = errors = 0
    with stopped_by_signals():
        try:
            for line in progress(results, total):
                out.write(line + "\n")
                done += 1
                errors += line.error
        except Stopped as e:
            close = getattr(results, "close", None)
            if close is not None:
                close()              # the worker processes end before they write anything
            return done, errors, e
    return done, errors, None
