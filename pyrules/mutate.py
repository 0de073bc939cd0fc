"""Mutation testing of the rules: which rules do the ruling cases pin down? (`pyrules test --mutate`)

A mutant is the rules folder with one change in one rule statement, made on clingo's AST
(the statements `RuleBase.program()` parses) and written back over that statement's text:

  drop     a body literal of the rule left out            (`member(S,J)` dropped)
  not      a `not` taken away (`not not` becomes `not`)    (`not substitute(J)` -> `substitute(J)`)
  op       a comparison's operator moved across its boundary: < and <=, > and >=, = and !=
  number   a number one higher or one lower                (`L >= 5` -> `L >= 6`, `L >= 4`)

Every place of every rule file (`rulebase.program_files`: the catalogue and search/ apart) is
a candidate; a seeded shuffle (`--seed`) picks the sample, so a sample is the same while the
rules are.  A candidate whose statement no longer grounds on its own (a variable left unsafe
by a dropped literal) is no mutant: the next candidate is drawn instead.

Each mutant runs the ruling cases through `cases.run_check` with a fresh Engine on a
temporary copy of the rules folder (the cache off, so the user's cache keeps the real rules'
entries), in a forked child so that a mutant whose grounding does not end is stopped
(where processes do not fork, in this process, without that limit).  A mutant is killed at
its first failing check; checks that killed earlier mutants run first, then those of case
files named after the mutated file (battle.lp: battle_*.yaml, mutants_battle.yaml), so a killed mutant costs
about one Engine.  A survivor ran every check.

A mutant that changes nothing a duel can show is marked equivalent by a comment the tool
reads, with the reason:

    % mutate: equivalent: WHY              every mutant of the next rule (on a comment line
                                           directly above it) or of this line (after code)
    % mutate: equivalent(drop; op): WHY    only those kinds
    % mutate: equivalent(drop own_summon(A,_,S)): WHY
                                           only the mutant of that kind whose literal is
                                           written so (as the table shows it); for a number,
                                           a part of its change as shown: `number 1 -> 2 at p(K+[1])`

Equivalent mutants are listed, not run, and left out of the score: killed / (killed +
survived), a mutant that timed out counting as killed.
"""
from __future__ import annotations

import fnmatch
import json
import os
import random
import re
import shutil
import sys
import tempfile
import time
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any, Callable, Iterable, Iterator

from .cases import case_checks, load_cases, run_check
from .rulebase import RuleBase, rel

KINDS = ("drop", "not", "op", "number")
DEFAULT_COUNT = 30
DEFAULT_SEED = 1
DEFAULT_MIN = 0.95

# ---- where a statement can change ------------------------------------------------------
Path_ = tuple[tuple[str, int | None], ...]     # (key, index in a sequence or None) from the statement down


@dataclass(frozen=True)
class Site:
    """One place of one rule statement where a mutation applies."""
    file: Path
    index: int          # the statement's index in its file's parsed statements
    path: Path_         # to the node changed (for drop: to the body literal left out)
    kind: str
    option: int = 0     # number: +1 or -1


def _walk(node: Any, path: Path_ = ()) -> Iterator[tuple[Path_, Any]]:
    """(path, node) of a node and every AST node under it, the location apart."""
    from clingo import ast
    yield path, node
    for key in node.keys():
        if key == "location":
            continue
        value = getattr(node, key)
        if isinstance(value, ast.AST):
            yield from _walk(value, path + ((key, None),))
        elif isinstance(value, (ast.ASTSequence, list, tuple)):
            for i, v in enumerate(value):
                if isinstance(v, ast.AST):
                    yield from _walk(v, path + ((key, i),))


_SWAP: dict[str, str] = {"LessThan": "LessEqual", "LessEqual": "LessThan", "GreaterThan": "GreaterEqual",
                         "GreaterEqual": "GreaterThan", "Equal": "NotEqual", "NotEqual": "Equal"}


def statement_sites(stmt: Any, file: Path, index: int) -> list[Site]:
    """Every mutation of one statement (a rule; other statements have none), in AST order."""
    from clingo import SymbolType
    from clingo.ast import ASTType, Sign
    if stmt.ast_type != ASTType.Rule:
        return []
    out = [Site(file, index, (("body", i),), "drop") for i in range(len(stmt.body))]
    for path, node in _walk(stmt):
        kind = node.ast_type
        if kind == ASTType.Literal and path and path[0][0] == "body" and node.sign != Sign.NoSign:
            out.append(Site(file, index, path, "not"))
        elif kind == ASTType.Guard:
            out.append(Site(file, index, path, "op"))
        elif kind == ASTType.SymbolicTerm and node.symbol.type == SymbolType.Number:
            out += [Site(file, index, path, "number", 1), Site(file, index, path, "number", -1)]
    return out


def _changed(node: Any, site: Site) -> Any:
    """The node at the end of the site's path, changed as its kind says."""
    from clingo import Number
    from clingo.ast import ComparisonOperator, Sign, SymbolicTerm
    if site.kind == "not":
        return node.update(sign=Sign.Negation if node.sign == Sign.DoubleNegation else Sign.NoSign)
    if site.kind == "op":
        return node.update(comparison=ComparisonOperator[_SWAP[ComparisonOperator(node.comparison).name]])
    if site.kind == "number":
        return SymbolicTerm(node.location, Number(node.symbol.number + site.option))
    raise ValueError(f"unknown mutation kind {site.kind}")


def _rebuilt(node: Any, path: Path_, site: Site) -> Any:
    """The node with the one at `path` changed (or, for drop, the last step's entry left out)."""
    key, i = path[0]
    value = getattr(node, key)
    last = len(path) == 1
    if i is None:
        return node.update(**{key: _changed(value, site) if last else _rebuilt(value, path[1:], site)})
    items = list(value)
    if last and site.kind == "drop":
        del items[i]
    else:
        items[i] = _changed(items[i], site) if last else _rebuilt(items[i], path[1:], site)
    return node.update(**{key: items})


def mutated(stmt: Any, site: Site) -> Any:
    """The statement with the site's one change."""
    return _rebuilt(stmt, site.path, site)


def _node_at(stmt: Any, path: Path_) -> Any:
    node = stmt
    for key, i in path:
        node = getattr(node, key) if i is None else list(getattr(node, key))[i]
    return node


def _line(stmt: Any, path: Path_) -> int:
    """The line of the deepest node on the path that has a location (the statement's at worst)."""
    line, node = stmt.location.begin.line, stmt
    for key, i in path:
        node = getattr(node, key) if i is None else list(getattr(node, key))[i]
        if "location" in node.keys():
            line = node.location.begin.line
    return line


def splice(text: str, stmt: Any, new: str) -> str:
    """The file text with the statement's span (clingo's 1-based byte columns, the end excluded)
    written as `new`, followed by as many line breaks as the span had, so no other line moves."""
    data = text.encode("utf-8")
    starts = [0] + [m.end() for m in re.finditer(rb"\n", data)]
    begin, end = stmt.location.begin, stmt.location.end
    a = starts[begin.line - 1] + begin.column - 1
    b = starts[end.line - 1] + end.column - 1
    return (data[:a] + new.encode("utf-8") + b"\n" * (end.line - begin.line) + data[b:]).decode("utf-8")


def grounds_alone(statement: str) -> str | None:
    """None when a statement's text parses and grounds by itself (no unsafe variable), else
    clingo's message."""
    import clingo
    from clingo.ast import ProgramBuilder, parse_string
    messages: list[str] = []
    try:
        ctl = clingo.Control(["--warn=none"], logger=lambda _c, m: messages.append(m.strip()))
        with ProgramBuilder(ctl) as builder:
            parse_string(statement, builder.add, logger=lambda _c, m: messages.append(m.strip()))
        ctl.ground([("base", [])])
    except RuntimeError as e:
        return "; ".join(messages) or str(e)
    return None


# ---- the equivalence markers ---------------------------------------------------------------
MARKER = re.compile(r"%\s*mutate:\s*equivalent\s*(?:\((.*?)\))?\s*:\s*(.*?)\s*$")


@dataclass(frozen=True)
class Marker:
    which: tuple[tuple[str, str], ...]     # (kind, literal as written or "") each; () every mutant
    why: str

    def covers(self, kind: str, before: str, mutation: str = "") -> bool:
        """Whether the marker covers a mutant of this kind and literal (for a number, a part of
        the change as shown, `1 -> 2 at p(K+[1])`, will do)."""
        return not self.which or any(k == kind and (not text or _bare(text) == _bare(before)
                                                    or (kind == "number" and _bare(text) in _bare(mutation)))
                                     for k, text in self.which)


def _bare(text: str) -> str:
    return "".join(text.split())


def markers(text: str) -> dict[int, tuple[Marker, bool]]:
    """line -> (its `% mutate: equivalent` marker, whether the line holds only the comment).
    A marker without its reason is no marker."""
    out = {}
    for n, line in enumerate(text.splitlines(), 1):
        m = MARKER.search(line)
        if m and m.group(2):
            which = tuple((spec.strip().partition(" ")[0], spec.strip().partition(" ")[2].strip())
                          for spec in (m.group(1) or "").split(";") if spec.strip())
            out[n] = (Marker(which, m.group(2)), line.lstrip().startswith("%"))
    return out


def equivalence(text_lines: list[str], marks: dict[int, tuple[Marker, bool]], stmt_line: int, line: int,
                kind: str, before: str = "", mutation: str = "") -> str | None:
    """Why a mutant (its kind, the literal it changes) on `line` of a statement starting on
    `stmt_line` is equivalent (a marker after code on that line, or on a comment line of the
    comments right above the statement), or None."""
    found = []
    if line in marks and not marks[line][1]:
        found.append(marks[line][0])
    n = stmt_line - 1
    while n >= 1 and text_lines[n - 1].lstrip().startswith("%"):
        if n in marks:
            found.append(marks[n][0])
        n -= 1
    for mark in found:
        if mark.covers(kind, before, mutation):
            return mark.why
    return None


# ---- the mutants -------------------------------------------------------------------------------
@dataclass
class Mutant:
    """One mutant: where (file, line), what changed, and how the cases took it."""
    file: Path
    line: int
    kind: str
    before: str          # the literal (or head) the change touches, as clingo writes it
    after: str           # the same after the change ("" when dropped)
    text: str = field(repr=False, default="")        # the mutated file's text
    status: str = "pending"     # killed, survived, timeout, equivalent, stillborn
    why: str = ""               # equivalent: the marker's reason; stillborn: clingo's message
    killed_by: dict[str, str] | None = None          # {"file", "case", "check", "message"}
    seconds: float = 0.0

    detail: str = ""            # number: "5 -> 6"

    @property
    def mutation(self) -> str:
        if self.kind == "drop":
            return f"dropped {self.before}"
        if self.kind == "number":
            return f"{self.detail} at {self.before}"
        return f"{self.before}  ->  {self.after}"

    def to_json(self, folder: Path) -> dict[str, Any]:
        return {"file": rel(self.file, folder), "line": self.line, "kind": self.kind, "before": self.before,
                "after": self.after, "mutation": self.mutation, "status": self.status, "why": self.why or None,
                "killed_by": self.killed_by, "seconds": round(self.seconds, 2)}


def _element(stmt: Any, path: Path_) -> Any:
    """The top-level part of the statement the path goes through: a body literal, or the head."""
    return _node_at(stmt, path[:1])


def candidates(folder: Path) -> tuple[RuleBase, list[Site]]:
    """Every site of every rule file of the folder, in file and statement order."""
    base = RuleBase(folder)
    prog = base.program()
    if prog.problems:
        from .errors import InvalidInput, Problem
        raise InvalidInput([Problem(str(p.file), "; ".join(p.messages) or p.message) for p in prog.problems])
    return base, [s for path, stmts in prog.statements.items() for i, st in enumerate(stmts)
                  for s in statement_sites(st, path, i)]


_SENTINEL = 1234567891      # a number no rule writes: where the mutated number stands


def make_mutant(base: RuleBase, site: Site) -> Mutant | None:
    """The mutant of a site (its file's text with the statement rewritten); None when the
    change is not seen in the statement's text (nothing changed)."""
    stmt = base.program().statements[site.file][site.index]
    new = mutated(stmt, site)
    if str(new) == str(stmt):
        return None
    before = _element(stmt, site.path)
    after = "" if site.kind == "drop" else str(_element(new, site.path))
    text = base.text(site.file)
    m = Mutant(site.file, _line(stmt, site.path), site.kind, str(before), after, splice(text, stmt, str(new)))
    if site.kind == "number":       # the number marked where it stands: 1 -> 2 at p(K+[1])
        old = _node_at(stmt, site.path).symbol.number
        marked = mutated(stmt, replace(site, option=_SENTINEL - old))
        m.before = str(_element(marked, site.path)).replace(str(_SENTINEL), f"[{old}]")
        m.detail = f"{old} -> {old + site.option}"
    why = equivalence(text.splitlines(), markers(text), stmt.location.begin.line, m.line, site.kind, m.before,
                      m.mutation)
    if why:
        m.status, m.why = "equivalent", why
    else:
        problem = grounds_alone(str(new))
        if problem:
            m.status, m.why = "stillborn", problem
    return m


def _inside(folder: Path, file: Path) -> str:
    """A rule file's path inside the rules folder, as `--only` globs match it (`next/next_chain.lp`)."""
    return Path(file).resolve().relative_to(Path(folder).resolve()).as_posix()


def rule_files(folder: Path) -> list[str]:
    """The rule files mutants are drawn from, as paths inside the rules folder."""
    return [_inside(folder, f) for f in RuleBase(folder).program().statements]


def in_files(folder: Path, site_file: Path, only: tuple[str, ...]) -> bool:
    """Whether a site's file is one of `only` (globs on its path inside the rules folder, as
    `activation_*.lp` or `next/*.lp`); every file when `only` is empty."""
    return not only or any(fnmatch.fnmatchcase(_inside(folder, site_file), g) for g in only)


def sample(folder: Path, count: int, seed: int, only: tuple[str, ...] = ()) -> tuple[list[Mutant], int]:
    """`count` mutants drawn with the seed (equivalent ones among them) from the files `only`
    names (every file when empty), and how many drawn candidates were passed over (they did not
    ground alone, or changed nothing)."""
    base, sites = candidates(folder)
    sites = [s for s in sites if in_files(folder, s.file, only)]
    order = list(range(len(sites)))
    random.Random(seed).shuffle(order)
    out: list[Mutant] = []
    skipped = 0
    seen: set[tuple[Path, str]] = set()
    for k in order:
        if len(out) >= count:
            break
        m = make_mutant(base, sites[k])
        if m is None or m.status == "stillborn" or (m.file, m.text) in seen:
            skipped += 1
            continue
        seen.add((m.file, m.text))
        out.append(m)
    return out, skipped


# ---- the cases they run ------------------------------------------------------------------------
@dataclass(frozen=True)
class Check:
    file: str
    case: dict
    label: str
    spec: dict


def load_checks(files: Iterable[Path], pattern: str | None = None) -> list[Check]:
    """Every check of the case files (the cases whose name contains `pattern`), in order."""
    return [Check(str(f), case, label, spec) for f in files for case in load_cases(f)
            if not pattern or pattern.lower() in case["name"].lower()
            for label, spec in case_checks(case)]


def first_failure(engine: Any, checks: list[Check], order: Iterable[int]) -> tuple[int, str] | None:
    """(index, message) of the first check (in `order`) that fails with this engine, or None."""
    for i in order:
        try:
            ok, msg = run_check(engine, checks[i].case, checks[i].spec)
        except Exception as e:        # noqa: BLE001 (a mutant may break anything: that is noticed)
            ok, msg = False, f"{type(e).__name__}: {e}"
        if not ok:
            return i, msg
    return None


def failures(engine: Any, checks: list[Check]) -> list[tuple[Check, str]]:
    """Every failing check with its message (the unmutated rules must pass them all)."""
    out = []
    for c in checks:
        try:
            ok, msg = run_check(engine, c.case, c.spec)
        except Exception as e:        # noqa: BLE001
            ok, msg = False, f"{type(e).__name__}: {e}"
        if not ok:
            out.append((c, msg))
    return out


def _spawn(work: Callable[[], dict]) -> tuple[int, int]:
    """work() in a forked child that writes its JSON reply to a pipe: (the child's pid, the pipe's
    read end)."""
    from .supervise import die_with
    sys.stdout.flush()
    sys.stderr.flush()
    read_end, write_end = os.pipe()
    parent = os.getpid()
    pid = os.fork()
    if pid == 0:
        code = 1
        try:
            os.close(read_end)
            die_with(parent)
            try:
                reply = work()
            except BaseException as e:             # noqa: BLE001 (reported as the mutant's outcome)
                reply = {"error": f"{type(e).__name__}: {e}"}
            with os.fdopen(write_end, "wb") as f:
                f.write(json.dumps(reply).encode("utf-8"))
            code = 0
        finally:
            os._exit(code)
    os.close(write_end)
    return pid, read_end


def _reply(chunks: list[bytes]) -> dict:
    """A child's reply from what it wrote."""
    try:
        got = json.loads(b"".join(chunks))
    except ValueError:
        return {"error": "the mutant's run ended without a reply"}
    return got if isinstance(got, dict) else {"error": "the mutant's run gave no reply"}


@dataclass
class Report:
    folder: Path
    seed: int
    count: int
    minimum: float
    mutants: list[Mutant]
    skipped: int
    checks: int
    seconds: float = 0.0

    def counted(self, status: str) -> int:
        return sum(m.status == status for m in self.mutants)

    @property
    def killed(self) -> int:
        return self.counted("killed") + self.counted("timeout")

    @property
    def judged(self) -> int:
        return self.killed + self.counted("survived")

    @property
    def score(self) -> float:
        return self.killed / self.judged if self.judged else 1.0

    @property
    def passed(self) -> bool:
        return self.score >= self.minimum

    def to_json(self) -> dict[str, Any]:
        return {"rules": str(self.folder), "seed": self.seed, "asked": self.count, "sample": len(self.mutants),
                "checks": self.checks,
                "killed": self.killed, "survived": self.counted("survived"), "timeout": self.counted("timeout"),
                "equivalent": self.counted("equivalent"), "stillborn": self.counted("stillborn"),
                "passed_over": self.skipped, "score": round(self.score, 4), "min": self.minimum,
                "passed": self.passed, "seconds": round(self.seconds, 1),
                "mutants": [m.to_json(self.folder) for m in self.mutants]}


def _topic(mutant: Mutant, checks: list[Check]) -> list[int]:
    """The checks of case files named after the mutated file (battle.lp: battle_*.yaml, mutants_battle.yaml)."""
    stem = mutant.file.stem.split("_")[0]
    return [i for i, c in enumerate(checks) if stem in Path(c.file).stem]


def _run_mutant(engine: Any, copy: Path, checks: list[Check], order: list[int]) -> dict:
    """In the child: an Engine on the mutated copy (the cache off), the checks until one fails."""
    from .errors import InvalidInput
    cache_was = os.environ.get("PYRULES_CACHE_DIR")
    os.environ["PYRULES_CACHE_DIR"] = "off"
    try:
        mutant_engine = type(engine)(rules=copy, cards=engine.cards, limits=engine.limits)
        got = first_failure(mutant_engine, checks, order)
    except InvalidInput as e:
        return {"stillborn": "; ".join(map(str, e.problems))}
    finally:                    # (where nothing forks, this runs in the command's own process)
        if cache_was is None:
            os.environ.pop("PYRULES_CACHE_DIR", None)
        else:
            os.environ["PYRULES_CACHE_DIR"] = cache_was
    return {"killed": None} if got is None else {"killed": got[0], "message": got[1]}


def _order(m: Mutant, checks: list[Check], killers: list[int],
           checks_of: Callable[[Mutant], Iterable[int]] | None) -> list[int]:
    """The checks a mutant runs, in order: those that killed earlier mutants, those of its topic, the rest."""
    own = list(range(len(checks)) if checks_of is None else checks_of(m))
    mine = set(own)
    return [i for i in dict.fromkeys(killers + _topic(m, checks) + own) if i in mine]


def run(engine: Any, checks: list[Check], mutants: list[Mutant], *, limit: float,
        progress: Callable[[int, int, Mutant], None] | None = None,
        checks_of: Callable[[Mutant], Iterable[int]] | None = None, workers: int = 1) -> None:
    """Run the checks against each mutant not marked equivalent, setting its status.  `checks_of`:
    the checks a mutant runs (every check when not given; tools/mutant_probe.py gives those where it
    was seen).  Where processes fork, each mutant runs in a forked child (_run_parallel), `workers` of
    them at once, each on its own copy of the rules; a mutant's status is the same either way."""
    if hasattr(os, "fork"):
        _run_parallel(engine, checks, mutants, limit, progress, checks_of, workers)
        return
    folder = engine.rules_dir                      # where nothing forks: in this process, without the limit
    killers: list[int] = []
    with tempfile.TemporaryDirectory(prefix="pyrules-mutants-") as tmp:
        copy = Path(tmp) / folder.name
        shutil.copytree(folder, copy)
        for n, m in enumerate(mutants):
            if m.status == "pending":
                target = copy / m.file.relative_to(folder)
                original = target.read_bytes()
                order = _order(m, checks, killers, checks_of)
                target.write_text(m.text, encoding="utf-8")
                start = time.monotonic()
                try:
                    reply = _run_mutant(engine, copy, checks, order)
                finally:
                    target.write_bytes(original)
                m.seconds = time.monotonic() - start
                _settle(m, reply, checks, killers)
            if progress:
                progress(n, len(mutants), m)


@dataclass
class _Slot:
    """One worker of a parallel run: its copy of the rules and the mutant it runs (n < 0: none)."""
    copy: Path
    n: int = -1
    pid: int = 0
    fd: int = -1
    target: Path | None = None
    original: bytes = b""
    start: float = 0.0
    chunks: list[bytes] = field(default_factory=list)


@dataclass
class _Pool:
    """The state of a parallel run (_run_parallel): the mutants, the queue of those left, the slots."""
    engine: Any
    checks: list[Check]
    mutants: list[Mutant]
    limit: float
    progress: Callable[[int, int, Mutant], None] | None
    checks_of: Callable[[Mutant], Iterable[int]] | None
    queue: list[int]
    slots: list[_Slot]
    killers: list[int] = field(default_factory=list)

    def start(self, slot: _Slot) -> None:
        """The next mutant of the queue, written into the slot's copy and run in a forked child."""
        slot.n = self.queue.pop(0)
        m = self.mutants[slot.n]
        slot.target = slot.copy / m.file.relative_to(self.engine.rules_dir)
        slot.original = slot.target.read_bytes()
        slot.target.write_text(m.text, encoding="utf-8")
        order = _order(m, self.checks, self.killers, self.checks_of)
        engine, copy, checks = self.engine, slot.copy, self.checks
        slot.start, slot.chunks = time.monotonic(), []
        slot.pid, slot.fd = _spawn(lambda: _run_mutant(engine, copy, checks, order))

    def finish(self, slot: _Slot, reply: dict | None) -> None:
        """The slot's child is done (or past the limit: reply None): its mutant settled, the copy restored."""
        from .supervise import end_child
        end_child(slot.pid)
        os.close(slot.fd)
        if slot.target is not None:
            slot.target.write_bytes(slot.original)
        m = self.mutants[slot.n]
        m.seconds = time.monotonic() - slot.start
        _settle(m, reply, self.checks, self.killers)
        if self.progress:
            self.progress(slot.n, len(self.mutants), m)
        slot.n = -1

    def wait(self) -> None:
        """Until some child writes or ends (or reaches the limit): read what came, settle who is done."""
        import select
        now = time.monotonic()
        for slot in [s for s in self.slots if s.n >= 0 and now - s.start > self.limit]:
            self.finish(slot, None)
        busy = [s for s in self.slots if s.n >= 0]
        if not busy:
            return
        left = max(0.0, min(self.limit - (now - s.start) for s in busy))
        ready = select.select([s.fd for s in busy], [], [], left)[0]
        for slot in [s for s in busy if s.fd in ready]:
            chunk = os.read(slot.fd, 1 << 16)
            if chunk:
                slot.chunks.append(chunk)
            else:
                self.finish(slot, _reply(slot.chunks))


def _run_parallel(engine: Any, checks: list[Check], mutants: list[Mutant], limit: float,
                  progress: Callable[[int, int, Mutant], None] | None,
                  checks_of: Callable[[Mutant], Iterable[int]] | None, workers: int) -> None:
    """run() with `workers` forked children at once, each on its own copy of the rules folder; progress
    is reported as each mutant ends (mutants marked equivalent first)."""
    from .supervise import end_child
    queue = [n for n, m in enumerate(mutants) if m.status == "pending"]
    for n, m in enumerate(mutants):
        if m.status != "pending" and progress:
            progress(n, len(mutants), m)
    with tempfile.TemporaryDirectory(prefix="pyrules-mutants-") as tmp:
        slots = []
        for k in range(min(workers, max(1, len(queue)))):
            copy = Path(tmp) / str(k) / engine.rules_dir.name
            shutil.copytree(engine.rules_dir, copy)
            slots.append(_Slot(copy))
        pool = _Pool(engine, checks, mutants, limit, progress, checks_of, queue, slots)
        try:
            while pool.queue or any(s.n >= 0 for s in slots):
                for slot in slots:
                    if slot.n < 0 and pool.queue:
                        pool.start(slot)
                pool.wait()
        finally:                                    # Ctrl-C, or any error: no child is left running
            for slot in slots:
                if slot.n >= 0:
                    end_child(slot.pid)
                    if slot.target is not None:
                        slot.target.write_bytes(slot.original)


def _settle(m: Mutant, reply: dict | None, checks: list[Check], killers: list[int]) -> None:
    """A mutant's status from its run's reply (a killer check moves to the front)."""
    if reply is None:
        m.status, m.why = "timeout", "the cases were still running past the time limit"
    elif "stillborn" in reply or "error" in reply:
        m.status, m.why = "stillborn", str(reply.get("stillborn") or reply.get("error"))
    elif reply.get("killed") is None:
        m.status = "survived"
    else:
        i = int(reply["killed"])
        c = checks[i]
        m.status = "killed"
        m.killed_by = {"file": c.file, "case": c.case["name"], "check": c.label, "message": str(reply.get("message"))}
        if i in killers:
            killers.remove(i)
        killers.insert(0, i)


def mutation_test(engine: Any, checks: list[Check], count: int = DEFAULT_COUNT, seed: int = DEFAULT_SEED,
                  minimum: float = DEFAULT_MIN, progress: Callable[[int, int, Mutant], None] | None = None,
                  baseline_seconds: float | None = None, only: tuple[str, ...] = (), workers: int = 1) -> Report:
    """Draw `count` mutants of the engine's rules with `seed` and run the checks against each.
    A mutant still running after ten times the unmutated run's time (`baseline_seconds`, one
    minute at least) is stopped, and counted as killed.  `only`: globs of the rule files to
    mutate (every file when empty); `workers`: mutants run at once (run())."""
    start = time.monotonic()
    mutants, skipped = sample(engine.rules_dir, count, seed, only)
    limit = max(60.0, 10 * (baseline_seconds or 6.0))
    run(engine, checks, mutants, limit=limit, progress=progress, workers=workers)
    return Report(engine.rules_dir, seed, count, minimum, mutants, skipped, len(checks), time.monotonic() - start)


ORDER = {"survived": 0, "equivalent": 1, "stillborn": 2, "timeout": 3, "killed": 4}


def table(report: Report) -> str:
    """The mutants as a text table, survivors first, then a summary line."""
    rows = sorted(report.mutants, key=lambda m: (ORDER.get(m.status, 9), str(m.file), m.line))
    lines = []
    for m in rows:
        where = f"{rel(m.file, report.folder)}:{m.line}"
        note = (f"by {Path(m.killed_by['file']).name}: {m.killed_by['case']}" if m.killed_by
                else m.why)
        if len(note) > 90:
            note = note[:87] + "..."
        lines.append(f"{m.status:<10} {where:<28} {m.kind:<6} {m.mutation}" + (f"\n{'':<11}{note}" if note else ""))
    lines.append(f"{report.killed} of {report.judged} non-equivalent mutants killed ({report.score:.0%}; "
                 f"--min {report.minimum:.0%}: {'reached' if report.passed else 'NOT reached'}); "
                 f"sample {len(report.mutants)}{'' if len(report.mutants) == report.count else ' (all there are)'}, "
                 f"seed {report.seed}, {report.counted('equivalent')} equivalent, "
                 f"{report.counted('timeout')} timed out, {report.skipped} candidates passed over; "
                 f"{report.checks} checks, {report.seconds:.0f} s")
    return "\n".join(lines)
