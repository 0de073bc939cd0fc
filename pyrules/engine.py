"""The engine: snapshot -> facts -> clingo (rules prepared once) -> typed verdicts.

Python never decides a rule of the game here: it validates the format, turns the
snapshot into facts, asks clingo once per query and reads the answer atoms.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Iterable

import clingo
from clingo import Function, Number, Symbol, SymbolType

from .actions import SIGNATURES, Action, parse_action
from .cards import CardDB
from .encode import Encoding, NameTable, const, encode
from .errors import InvalidInput, Problem
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
        self.catalogue = load_catalogue(self.rules_dir / "catalogue")
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
        ctl = clingo.Control(["--warn=none"])
        ctl.add("base", [], self.program)    # raises RuntimeError with clingo's message on a syntax error

    # ---- the one solver call ------------------------------------------------
    def solve(self, facts: Iterable[Symbol]) -> list[Symbol]:
        """Ground the rules with these facts and return the shown atoms of the answer."""
        ctl = clingo.Control(["--warn=none"])
        ctl.add("base", [], self.program)
        with ctl.backend() as backend:
            for sym in facts:
                backend.add_rule([backend.add_atom(sym)])
        ctl.ground([("base", [])])
        shown: list[Symbol] = []
        with ctl.solve(yield_=True) as handle:
            for model in handle:
                shown = model.symbols(shown=True)
                break
        return shown

    # ---- snapshots --------------------------------------------------------------
    def game(self, snapshot: Any, readings: dict[str, str] | None = None) -> Game:
        return parse_snapshot(snapshot, self.cards, self.reading_values, readings)

    def _run(self, snapshot: Any, readings: dict[str, str] | None, extra: list[Symbol],
             query: Action | None = None) -> tuple[Encoding, list[Symbol], Symbol | None]:
        game = self.game(snapshot, readings)
        enc = encode(game, self.names, self.reading_defaults)
        facts = enc.facts + extra
        qterm = None
        if query is not None:
            qterm = self._action_term(enc, query, facts)
            facts.append(Function("query", [qterm]))
        atoms = self.solve(facts)
        self._raise_invalid(enc, atoms)
        return enc, atoms, qterm

    def _raise_invalid(self, enc: Encoding, atoms: list[Symbol]) -> None:
        problems = []
        for s in atoms:
            if s.name == "invalid" and len(s.arguments) == 2:
                pid, subject = s.arguments
                problems.append(Problem(self._subject_path(enc, subject),
                                        self.catalogue.problems.get(pid.name, pid.name)))
        if problems:
            raise InvalidInput(sorted(set(problems), key=lambda p: (p.path, p.message)))

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
            elif kind == "ids":
                for ident in value:
                    facts.append(Function("member", [const("q"), enc.card(ident)]))
                args.append(const("q"))
            elif kind == "player":
                args.append(enc.player(value if value is not None else enc.game.turn_player))
            else:
                args.append(const(value))
        return Function(action.action, args) if args else const(action.action)

    def _decode(self, enc: Encoding, term: Symbol, members: dict[Symbol, list[str]]) -> Action:
        name = term.name
        fields: dict[str, Any] = {}
        for (key, kind), arg in zip(SIGNATURES[name], term.arguments):
            if kind == "id":
                fields[key] = enc.card_id[arg.number]
            elif kind == "target":
                fields[key] = "direct" if arg.type == SymbolType.Function else enc.card_id[arg.number]
            elif kind == "ids":
                fields[key] = tuple(sorted(members.get(arg, [])))
            elif kind == "player":
                fields[key] = enc.player_key[arg.number]
            else:
                fields[key] = arg.name
        return Action(action=name, **fields)

    def _reasons(self, enc: Encoding, atoms: list[Symbol], term: Symbol) -> tuple[Reason, ...]:
        ids = sorted({s.arguments[1].name for s in atoms
                      if s.name == "forbidden" and len(s.arguments) == 2 and s.arguments[0] == term})
        out = []
        for rid in ids:
            ev = [s.arguments[2] for s in atoms
                  if s.name == "evidence" and s.arguments[0] == term and s.arguments[1].name == rid]
            out.append(self.reason(enc, rid, ev))
        return tuple(out)

    def reason(self, enc: Encoding, rid: str, evidence: list[Symbol]) -> Reason:
        text, source = self.catalogue.reasons.get(rid, (rid.replace("_", " "), "pyrules: uncatalogued reason"))
        cards = [self.describe_card(enc, e.arguments[0].number) for e in evidence if e.name == "card"]
        needs = [str(e.arguments[0]) for e in evidence if e.name == "need"]
        text = text.replace("{card}", cards[0] if cards else "a card").replace("{need}", needs[0] if needs else "?")
        return Reason(rid, text, source, tuple(self.describe_evidence(enc, e) for e in evidence))

    def describe_card(self, enc: Encoding, number: int) -> str:
        ident = enc.card_id.get(number, f"#{number}")
        entry = enc.game.by_id.get(ident)
        if entry is None:
            return f"card {ident} (gone)"
        return f"\"{entry.card['name']}\" ({entry.player}, id {ident})"

    def describe_evidence(self, enc: Encoding, e: Symbol) -> str:
        if e.name == "event" and e.arguments:
            k = e.arguments[0].number
            ev = enc.game.events[k - 1]
            what = ev["event"] + (f" of {ev['card']}" if "card" in ev else "")
            flags = [f for f in ("negated", "replay") if ev.get(f)]
            return f"event {k}: {what}" + (f" ({', '.join(flags)})" if flags else "")
        if e.name == "card" and e.arguments:
            return self.describe_card(enc, e.arguments[0].number)
        if e.name == "need" and e.arguments:
            return f"needs {e.arguments[0]}"
        return str(e)

    # ---- the public questions ----------------------------------------------
    def check(self, snapshot: Any, action: Any, readings: dict[str, str] | None = None) -> Verdict:
        """The verdict on one action, with reasons when it is forbidden."""
        act = parse_action(action)
        enc, atoms, term = self._run(snapshot, readings, [], query=act)
        permitted = any(s.name == "permitted" and s.arguments[0] == term for s in atoms)
        reasons = () if permitted else self._reasons(enc, atoms, term)
        notes = tuple(sorted((s.arguments[1].name, self._note_value(enc, s.arguments[2])) for s in atoms
                             if s.name == "note" and len(s.arguments) == 3 and s.arguments[0] == term))
        return Verdict(act, permitted, reasons, notes)

    def _note_value(self, enc: Encoding, value: Symbol) -> str:
        """A note's value: card(I) becomes the card's description, constants stay as they are."""
        if value.name == "card" and len(value.arguments) == 1:
            return self.describe_card(enc, value.arguments[0].number)
        return str(value)

    def legal(self, snapshot: Any, readings: dict[str, str] | None = None, *,
              include_forbidden: bool = False) -> Legal:
        """Every permitted action (and with include_forbidden, the forbidden candidates)."""
        enc, atoms, _ = self._run(snapshot, readings, [Function("mode", [const("legal")])])
        members: dict[Symbol, list[str]] = {}
        for s in atoms:
            if s.name == "set_member":
                members.setdefault(s.arguments[0], []).append(enc.card_id[s.arguments[1].number])
        permitted_terms = [s.arguments[0] for s in atoms if s.name == "permitted"]
        permitted = sorted({self._decode(enc, t, members) for t in permitted_terms}, key=Action.sort_key)
        replay = any(s.name == "replay_due" for s in atoms)
        forbidden: list[Verdict] = []
        if include_forbidden:
            for s in {s.arguments[0] for s in atoms if s.name == "forbidden" and len(s.arguments) == 2}:
                forbidden.append(Verdict(self._decode(enc, s, members), False, self._reasons(enc, atoms, s)))
            forbidden.sort(key=lambda v: v.action.sort_key())
        return Legal(tuple(permitted), replay, tuple(forbidden))
