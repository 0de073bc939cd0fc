"""The engine: snapshot -> facts -> clingo (rules prepared once) -> typed verdicts.

Python never decides a rule of the game here: it validates the format, turns the
snapshot into facts, asks clingo once per query and reads the answer atoms.
"""
from __future__ import annotations

from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any, Iterable

import clingo
from clingo import Function, Symbol, SymbolType
from clingo.ast import ASTType, ProgramBuilder, parse_files

from .actions import SIGNATURES, Action, parse_action
from .cards import CardDB
from .encode import Encoding, NameTable, const, encode
from .errors import InvalidInput, Problem
from .fastclingo import CLINGO_LOCK, add_facts, add_statements, name_args, symbol_key, value_of
from .model import ZONES, Game, parse_snapshot
from .paths import rules_dir

ZONE_KEYS = {v: k for k, v in ZONES.items()}


@dataclass(frozen=True)
class Reason:
    """Why an action is forbidden: a stable id, a sentence, a source citation, and evidence."""
    rule: str
    text: str
    source: str
    evidence: tuple[str, ...] = ()

    def to_json(self) -> dict[str, Any]:
        out = {"rule": self.rule, "text": self.text, "source": self.source}
        if self.evidence:
            out["evidence"] = list(self.evidence)
        return out


@dataclass(frozen=True)
class Verdict:
    """The verdict on one action."""
    action: Action
    permitted: bool
    reasons: tuple[Reason, ...] = ()
    notes: tuple[tuple[str, str], ...] = ()   # derived facts about the action, e.g. materials_go_to

    def to_json(self) -> dict[str, Any]:
        out = {"action": self.action.to_json(), "permitted": self.permitted,
               "reasons": [r.to_json() for r in self.reasons]}
        if self.notes:
            out["notes"] = {k: v for k, v in self.notes}
        return out


@dataclass(frozen=True)
class Legal:
    """Every permitted action of a snapshot (and, when asked, the forbidden candidates)."""
    permitted: tuple[Action, ...]
    replay: bool
    forbidden: tuple[Verdict, ...] = ()

    def to_json(self, include_forbidden: bool = False) -> dict[str, Any]:
        out: dict[str, Any] = {"permitted": [a.to_json() for a in self.permitted], "replay": self.replay}
        if include_forbidden:
            out["forbidden"] = [v.to_json() for v in self.forbidden]
        return out


@dataclass(frozen=True)
class ReadingInfo:
    name: str
    default: str
    question: str
    source: str
    values: dict[str, str]   # value -> source


@dataclass
class Catalogue:
    reasons: dict[str, tuple[str, str]] = field(default_factory=dict)
    problems: dict[str, str] = field(default_factory=dict)
    readings: dict[str, ReadingInfo] = field(default_factory=dict)


def _string(sym: Symbol) -> str:
    return sym.string if sym.type == SymbolType.String else str(sym)


def load_catalogue(folder: Path) -> Catalogue:
    """Read reason, problem and reading facts (rules/catalogue/*.lp) once."""
    ctl = clingo.Control(["--warn=none"])
    for path in sorted(folder.glob("*.lp")):
        ctl.load(str(path))
    ctl.ground([("base", [])])
    cat = Catalogue()
    values: dict[str, dict[str, str]] = {}
    heads = []
    for atom in ctl.symbolic_atoms:
        heads.append(atom.symbol)
    for s in heads:
        a = s.arguments
        if s.name == "reason" and len(a) == 3:
            cat.reasons[a[0].name] = (_string(a[1]), _string(a[2]))
        elif s.name == "problem" and len(a) == 2:
            cat.problems[a[0].name] = _string(a[1])
        elif s.name == "reading_value" and len(a) == 3:
            values.setdefault(a[0].name, {})[str(a[1])] = _string(a[2])
    for s in heads:
        a = s.arguments
        if s.name == "reading" and len(a) == 4:
            cat.readings[a[0].name] = ReadingInfo(a[0].name, str(a[1]), _string(a[2]), _string(a[3]),
                                                  values.get(a[0].name, {}))
    return cat


class Answer:
    """The shown atoms of one answer, read once: (name, arity) -> list of argument lists."""
    __slots__ = ("by",)

    def __init__(self, by: dict[tuple[str, int], list[list[Symbol]]] | None = None) -> None:
        self.by: dict[tuple[str, int], list[list[Symbol]]] = {} if by is None else by

    @classmethod
    def of(cls, symbols: Iterable[Symbol]) -> "Answer":
        out = cls()
        by = out.by
        for s in symbols:
            name, args = name_args(s)
            key = (name, len(args))
            got = by.get(key)
            if got is None:
                by[key] = [args]
            else:
                got.append(args)
        return out

    def get(self, name: str, arity: int) -> list[list[Symbol]]:
        return self.by.get((name, arity), [])


CLINGO_ARGS = ["--warn=none"]
BASE = [("base", [])]
MODE_LEGAL = Function("mode", [Function("legal")])
REPORT_FORBIDDEN = Function("report_forbidden")


def parse_program(files: list[Path]) -> list:
    """The rule files parsed once into clingo AST statements (replayed by every query).
    Comments and #defined directives only matter to the parser's warnings (off here), so
    they are not replayed.  Rules that do not parse or ground (a syntax error, an unsafe
    variable) raise InvalidInput with clingo's messages, which name the file and line."""
    messages: list[str] = []

    def log(_code, message: str) -> None:
        messages.append(message.strip())

    statements: list = []
    try:
        if not files:
            raise RuntimeError("no rule files (.lp) found")
        parse_files([str(p) for p in files], statements.append, logger=log)
        statements = [s for s in statements if s.ast_type not in (ASTType.Comment, ASTType.Defined)]
        # every file opens with an implicit "#program base."; when all are base, one is enough
        parts = [i for i, s in enumerate(statements) if s.ast_type == ASTType.Program]
        if {str(statements[i]) for i in parts} == {"#program base."}:
            statements = [s for i, s in enumerate(statements) if i not in parts[1:]]
        ctl = clingo.Control(CLINGO_ARGS, logger=log)       # a first grounding finds unsafe variables
        with ProgramBuilder(ctl) as builder:
            add_statements(builder, statements)
        ctl.ground(BASE)
    except RuntimeError as e:
        where = str(files[0].parent) if files else "rules"
        errors = [m for m in messages if "error" in m] or messages or [str(e)]
        raise InvalidInput([Problem(where, f"the rules do not load: {m}") for m in errors]) from None
    return statements


_SHAPES: dict[Any, tuple[str, tuple[tuple[str, str, Any], ...]]] = {}


def _shape(term: Symbol) -> tuple[str, tuple[tuple[str, str, Any], ...]]:
    """An action term read once: its name and (field, kind, value) per argument, where values
    are still card and player numbers (and set terms, by symbol_key).  Action terms recur
    across queries (they hold numbers, not ids), so shapes are kept, up to a bound."""
    name, args = name_args(term)
    shape = (name, tuple((key, kind, symbol_key(arg) if kind == "ids" else value_of(arg))
                         for (key, kind), arg in zip(SIGNATURES[name], args)))
    if len(_SHAPES) < 100_000:
        _SHAPES[symbol_key(term)] = shape
    return shape


def predicates_read(statements: list) -> set[tuple[str, int]]:
    """Every predicate (name, arity) the rules mention: input facts of other predicates (a
    card's ATK, say, while no rule reads it) need not be given."""
    found: set[tuple[str, int]] = set()

    class Atoms(clingo.ast.Transformer):
        def visit_SymbolicAtom(self, node):
            sym = node.symbol
            for t in (sym.arguments if sym.ast_type == ASTType.Pool else [sym]):
                if t.ast_type == ASTType.UnaryOperation:        # -p(...), classical negation
                    t = t.argument
                if t.ast_type == ASTType.Function:
                    found.add((t.name, len(t.arguments)))
            return node

        def visit_ShowSignature(self, node):                      # #show p/N.
            found.add((node.name, node.arity))
            return node

    visit = Atoms()
    for stmt in statements:
        visit(stmt)
    return found


def ground_and_solve(statements: list, facts: Iterable[Symbol]) -> list[Symbol]:
    """The one solver call: a fresh Control with the parsed rules and the facts (through
    the backend, as symbols), grounded and solved; the shown atoms of the answer."""
    shown: list[Symbol] = []
    with CLINGO_LOCK:
        ctl = clingo.Control(CLINGO_ARGS)
        with ProgramBuilder(ctl) as builder:
            add_statements(builder, statements)
        with ctl.backend() as backend:
            add_facts(backend, facts)
        ctl.ground(BASE)
        ctl.solve(on_model=lambda model: shown.extend(model.symbols(shown=True)))
        del ctl
    return shown


def program_files(folder: Path) -> list[Path]:
    """The rule files of a query: every .lp under rules/ except the catalogue and search/."""
    return sorted(p for p in folder.rglob("*.lp") if not {"catalogue", "search"} & set(p.relative_to(folder).parts))


class Engine:
    """Judges snapshots.  Create one and reuse it: the rules are read and parsed once.

    >>> from pyrules import Engine
    >>> Engine().check({"snapshot": 1, "players": {"A": {}, "B": {}}}, "draw").permitted
    False
    """

    def __init__(self, rules: str | Path | None = None, cards: str | Path | CardDB | None = None,
                 *, extra_cards: bool = True):
        self.rules_dir = Path(rules) if rules is not None else rules_dir()
        self.config = {"rules": str(self.rules_dir),          # what a worker process needs
                       "cards": None if cards is None or isinstance(cards, CardDB) else str(cards),
                       "extra_cards": extra_cards}
        if not self.rules_dir.is_dir():
            raise InvalidInput(Problem(str(self.rules_dir), "no such rules folder"))
        try:
            with CLINGO_LOCK:
                self.catalogue = load_catalogue(self.rules_dir / "catalogue")
        except RuntimeError as e:
            raise InvalidInput(Problem(str(self.rules_dir / "catalogue"), f"the catalogue does not load: {e}")) from None
        self.cards = self._card_db(cards, extra_cards)
        self.names = NameTable(self.cards.by_name)
        self.files = program_files(self.rules_dir)
        self.program = "\n".join(p.read_text(encoding="utf-8") for p in self.files)
        self._check_program()
        self.reading_values = {n: list(r.values) for n, r in self.catalogue.readings.items()}
        self.reading_defaults = {n: r.default for n, r in self.catalogue.readings.items()}

    @staticmethod
    def _card_db(cards, extra: bool) -> CardDB:
        if isinstance(cards, CardDB):
            return cards
        db = CardDB.bundled()
        if cards is not None:
            from .importers import load_card_pool   # optional import paths (cdb, json, yaml)
            pool = load_card_pool(cards)
            if not extra:
                db = CardDB()
            db.by_name.update(pool.by_name)
        return db

    def _check_program(self) -> None:
        """Parse the rules once (InvalidInput with clingo's messages when they do not load);
        every query replays the parsed statements instead of parsing the text again."""
        with CLINGO_LOCK:
            self.statements = parse_program(self.files)
        self.names.reads = predicates_read(self.statements)

    # ---- the one solver call ------------------------------------------------
    def solve(self, facts: Iterable[Symbol]) -> list[Symbol]:
        """Ground the rules with these facts and return the shown atoms of the answer."""
        return ground_and_solve(self.statements, facts)

    def answer(self, facts: Iterable[Symbol]) -> "Answer":
        """solve(), with the shown atoms read once into an Answer."""
        return Answer.of(self.solve(facts))

    # ---- snapshots --------------------------------------------------------------
    def game(self, snapshot: Any, readings: dict[str, str] | None = None) -> Game:
        return parse_snapshot(snapshot, self.cards, self.reading_values, readings)

    def _facts(self, snapshot: Any, readings: dict[str, str] | None, query: Action | None = None,
               prefix: list[Symbol] | None = None, shared: set[str] | None = None,
               ) -> tuple[Encoding, list[Symbol], Symbol | None]:
        """Validate and encode one snapshot: its encoding, its facts and the query term (check).
        `prefix` (batch) goes before the arguments of every fact; `shared` (batch): see encode()."""
        game = parse_snapshot(snapshot, self.cards, self.reading_values, readings, collect=True)
        if game.problems:
            # the format is broken: also run the physical limits (validity.lp) on what could be
            # read, so that every problem is listed at once
            enc = encode(game, self.names, self.reading_defaults)
            raise InvalidInput(game.problems + self._invalid_problems(enc, self.answer(enc.facts)))
        enc = encode(game, self.names, self.reading_defaults, prefix, shared)
        facts = enc.facts
        qterm = None
        if query is None:
            facts.append(enc.fact("mode", "legal") if prefix else MODE_LEGAL)
        else:
            qterm = self._action_term(enc, query, facts)
            facts.append(enc.fact("query", qterm))
        return enc, facts, qterm

    def _invalid_problems(self, enc: Encoding, atoms: "Answer") -> list[Problem]:
        """The physical limits the snapshot breaks (invalid/2 atoms), with their field paths."""
        problems = {Problem(self._subject_path(enc, subject), self.catalogue.problems.get(pid.name, pid.name))
                    for pid, subject in atoms.get("invalid", 2)}
        return sorted(problems, key=lambda p: (p.path, p.message))

    def _raise_invalid(self, enc: Encoding, atoms: "Answer") -> None:
        problems = self._invalid_problems(enc, atoms)
        if problems:
            raise InvalidInput(problems)

    @staticmethod
    def _subject_path(enc: Encoding, subject: Symbol) -> str:
        a = subject.arguments
        if subject.name == "card":
            ident = enc.card_id.get(a[0].number)
            entry = enc.game.by_id.get(ident)
            return entry.path if entry else str(ident)
        if subject.name == "side":
            return f"players.{enc.player_key[a[0].number]}.{ZONE_KEYS.get(a[1].name, a[1].name)}"
        if subject.name == "snapshot":
            return a[0].name
        return str(subject)

    # ---- actions <-> terms ---------------------------------------------------
    def _action_term(self, enc: Encoding, action: Action, facts: list[Symbol]) -> Symbol:
        problems = [Problem(f"action.{key}", f"no card with id {ident!r} in the snapshot")
                    for key, ident in action.ids() if ident not in enc.card_no]
        if action.player is not None and action.player not in enc.player_no:
            problems.append(Problem("action.player", f"{action.player!r} is not one of the players"))
        if problems:
            raise InvalidInput(problems)
        args: list[Symbol] = []
        for key, kind in SIGNATURES[action.action]:
            value = getattr(action, key)
            if kind in ("id", "target"):
                args.append(enc.card(value))
            elif kind == "by":                # the enabling card, or none: any that works
                args.append(const("none") if value is None else enc.card(value))
            elif kind == "ids":
                for ident in value:
                    facts.append(enc.fact("member", const("q"), enc.card(ident)))
                args.append(const("q"))
            elif kind == "player":
                args.append(enc.player(value if value is not None else enc.game.turn_player))
            else:
                args.append(const(value))
        return Function(action.action, args) if args else const(action.action)

    def _decode(self, enc: Encoding, term: Symbol, members: dict[Any, list[str]]) -> Action:
        """The Action of an action term; `members` maps set terms (symbol_key) to card ids."""
        shape = _SHAPES.get(symbol_key(term))
        if shape is None:
            shape = _shape(term)
        name, fields = shape
        out: dict[str, Any] = {}
        for key, kind, v in fields:
            if kind == "ids":
                out[key] = tuple(sorted(members.get(v, ())))
            elif kind == "id" or (kind == "target" and v != "direct") or (kind == "by" and v != "none"):
                out[key] = enc.card_id[v]
            elif kind == "by":
                pass
            elif kind == "player":
                out[key] = enc.player_key[v]
            else:
                out[key] = v
        return Action.made(name, out)

    def _reasons(self, enc: Encoding, atoms: "Answer", term: Symbol) -> tuple[Reason, ...]:
        ids = sorted({a[1].name for a in atoms.get("forbidden", 2) if a[0] == term})
        out = []
        for rid in ids:
            ev = [a[2] for a in atoms.get("evidence", 3) if a[0] == term and a[1].name == rid]
            out.append(self.reason(enc, rid, ev))
        return tuple(out)

    def reason(self, enc: Encoding, rid: str, evidence: list[Symbol]) -> Reason:
        text, source = self.catalogue.reasons.get(rid, (rid.replace("_", " "), "pyrules: uncatalogued reason"))
        cards = [self.describe_card(enc, e.arguments[0].number) if e.name == "card" else
                 self.describe_effect(enc, e.arguments[0].number) for e in evidence if e.name in ("card", "effect")]
        needs = [str(e.arguments[-1]) for e in evidence if e.name in ("need", "sum")]
        sums = [str(e.arguments[0]) for e in evidence if e.name == "sum"]
        text = text.replace("{card}", cards[0] if cards else "a card").replace("{need}", needs[0] if needs else "?")
        text = text.replace("{sum}", sums[0] if sums else "?")
        names = [enc.names.name(e.arguments[0].number) for e in evidence if e.name == "name"]
        text = text.replace("{name}", names[0] if names else "?")
        return Reason(rid, text, source, tuple(self.describe_evidence(enc, e) for e in evidence))

    def describe_card(self, enc: Encoding, number: int) -> str:
        ident = enc.card_id.get(number, f"#{number}")
        entry = enc.game.by_id.get(ident)
        if entry is None:
            return f"card {ident} (gone)"
        return f"\"{entry.card['name']}\" ({entry.player}, id {ident})"

    def describe_effect(self, enc: Encoding, k: int) -> str:
        """The snapshot's applied effect k (from 1): effects[k-1], its kind and source."""
        eff = enc.game.effects[k - 1]
        source = f" from \"{eff['source']}\"" if eff.get("source") else ""
        return f"effects[{k - 1}]: {eff['effect']}{source}"

    def describe_evidence(self, enc: Encoding, e: Symbol) -> str:
        if e.name == "event" and e.arguments:
            k = e.arguments[0].number
            ev = enc.game.events[k - 1]
            what = ev["event"] + (f" of {ev['card']}" if "card" in ev else "")
            flags = [f for f in ("negated", "replay") if ev.get(f)]
            return f"event {k}: {what}" + (f" ({', '.join(flags)})" if flags else "")
        if e.name == "card" and e.arguments:
            return self.describe_card(enc, e.arguments[0].number)
        if e.name == "effect" and e.arguments:
            return self.describe_effect(enc, e.arguments[0].number)
        if e.name == "name" and e.arguments:
            return f"needs \"{enc.names.name(e.arguments[0].number)}\""
        if e.name == "need" and e.arguments:
            return f"needs {e.arguments[0]}"
        if e.name == "sum" and len(e.arguments) == 2:
            return f"adds up to {e.arguments[0]}, needs {e.arguments[1]}"
        return str(e)

    # ---- the public questions ----------------------------------------------
    def check(self, snapshot: Any, action: Any, readings: dict[str, str] | None = None) -> Verdict:
        """The verdict on one action, with reasons when it is forbidden."""
        act = parse_action(action)
        enc, facts, term = self._facts(snapshot, readings, act)
        return self._verdict(enc, self.answer(facts), act, term)

    def legal_many(self, snapshots: Iterable[Any], readings: dict[str, str] | None = None,
                   workers: int = 1) -> list["Legal | InvalidInput"]:
        """legal() of every snapshot, in order; a snapshot that cannot be judged gives its
        InvalidInput in its place (nothing is raised).  Snapshots are grounded together in
        chunks; workers > 1 uses that many processes (snapshots must then be plain data)."""
        from .batch import run
        return list(run(snapshots, engine=self, engine_config=self.config, readings=readings,
                        workers=workers))

    def _verdict(self, enc: Encoding, atoms: "Answer", act: Action, term: Symbol) -> Verdict:
        """The verdict on the queried action, read from the answer (raises InvalidInput)."""
        self._raise_invalid(enc, atoms)
        permitted = any(a[0] == term for a in atoms.get("permitted", 1))
        reasons = () if permitted else self._reasons(enc, atoms, term)
        notes = tuple(sorted((a[1].name, self._note_value(enc, a[2])) for a in atoms.get("note", 3)
                             if a[0] == term))
        if act.action == "special_summon" and act.player is None:     # the default, filled in
            act = replace(act, player=enc.game.turn_player)
        return Verdict(act, permitted, reasons, notes)

    def _note_value(self, enc: Encoding, value: Symbol) -> str:
        """A note's value: card(I) becomes the card's description, constants stay as they are."""
        if value.name == "card" and len(value.arguments) == 1:
            return self.describe_card(enc, value.arguments[0].number)
        return str(value)

    def legal(self, snapshot: Any, readings: dict[str, str] | None = None, *,
              include_forbidden: bool = False) -> Legal:
        """Every permitted action (and with include_forbidden, the forbidden candidates)."""
        enc, facts, _ = self._facts(snapshot, readings)
        if include_forbidden:
            facts.append(REPORT_FORBIDDEN)    # (legal() never has a prefix)
        return self._legal(enc, self.answer(facts), include_forbidden)

    @staticmethod
    def _members(enc: Encoding, atoms: "Answer") -> dict[Any, list[str]]:
        """The card ids of each card set of the answer (set_member atoms), by symbol_key."""
        members: dict[Any, list[str]] = {}
        for s, i in atoms.get("set_member", 2):
            members.setdefault(symbol_key(s), []).append(enc.card_id[value_of(i)])
        return members

    def _legal(self, enc: Encoding, atoms: "Answer", include_forbidden: bool = False) -> Legal:
        """Every permitted action, read from the answer (raises InvalidInput)."""
        self._raise_invalid(enc, atoms)
        members = self._members(enc, atoms)
        keyed: dict[tuple, Action] = {}
        for (t,) in atoms.get("permitted", 1):
            act = self._decode(enc, t, members)
            keyed[act.sort_key()] = act
        permitted = [keyed[k] for k in sorted(keyed)]
        replay = bool(atoms.get("replay_due", 0))
        forbidden: list[Verdict] = []
        if include_forbidden:
            for s in {a[0] for a in atoms.get("forbidden", 2)}:
                forbidden.append(Verdict(self._decode(enc, s, members), False, self._reasons(enc, atoms, s)))
            forbidden.sort(key=lambda v: v.action.sort_key())
        return Legal(tuple(permitted), replay, tuple(forbidden))
