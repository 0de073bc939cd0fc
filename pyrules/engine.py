"""The engine: snapshot -> facts -> clingo (rules prepared once) -> typed verdicts.

Python never decides a rule of the game here: it validates the format, turns the
snapshot into facts, asks clingo once per query and reads the answer atoms.
"""
from __future__ import annotations

import functools
from dataclasses import asdict, replace
from pathlib import Path
from typing import Any, Callable, Iterable, TypeVar

from clingo import Function, Symbol, SymbolType

from . import cache
from .actions import SIGNATURES, Action, parse_action
from .cards import CardDB
from .effects import EFFECT_READERS, use_rules
from .encode import Encoding, NameTable, const, encode
from .errors import InvalidInput, Problem
from .symbols import CLINGO_LOCK, name_args, symbol_key, value_of
from .limits import SETS_RANGE, Limits
from .model import ZONES, Game, parse_snapshot
from .paths import rules_dir
from .records import Record, record, set_field
from .rulebase import RuleBase
from .solver import (Answer, Statements, forget_at_exit, ground_and_solve, parse_rules, pruner,
                     split_parts)

ZONE_KEYS = {v: k for k, v in ZONES.items()}
MODE_LEGAL = Function("mode", [Function("legal")])
REPORT_FORBIDDEN = Function("report_forbidden")
T = TypeVar("T")


@record
class Evidence(Record):
    """What a reason rests on, as data (one evidence atom of the rules' answer):
    kind "event" (event: its number in this_turn, from 1; what: its kind; card: its card's
    id; flags: negated, replay), "card" (card: its id; name and player, or gone), "effect"
    (number: the snapshot's applied effect, from 1; what: its kind; name: its source card), "need"
    (number: the number a rule asks for), "sum" (number: the snapshot's number; needs: the
    one asked for), "name" (name: a card name a rule asks for), or another atom's name (term: the atom as clingo writes it)."""
    kind: str
    event: int | None = None
    card: str | None = None
    number: int | None = None
    needs: int | None = None
    what: str | None = None
    name: str | None = None
    player: str | None = None
    flags: tuple[str, ...] = ()
    gone: bool = False
    term: str | None = None

    def __init__(self, kind: str, event: int | None = None, card: str | None = None, number: int | None = None,
                 needs: int | None = None, what: str | None = None, name: str | None = None,
                 player: str | None = None, flags: tuple[str, ...] = (), gone: bool = False,
                 term: str | None = None) -> None:
        set_field(self, "kind", kind)
        set_field(self, "event", event)
        set_field(self, "card", card)
        set_field(self, "number", number)
        set_field(self, "needs", needs)
        set_field(self, "what", what)
        set_field(self, "name", name)
        set_field(self, "player", player)
        set_field(self, "flags", flags)
        set_field(self, "gone", gone)
        set_field(self, "term", term)

    def card_text(self) -> str:
        if self.gone or self.name is None:
            return f"card {self.card} (gone)"
        return f"\"{self.name}\" ({self.player}, id {self.card})"

    def text(self) -> str:
        """The evidence as the sentence fragment of Reason.evidence."""
        if self.kind == "event":
            what = f"{self.what}" + (f" of {self.card}" if self.card is not None else "")
            return f"event {self.event}: {what}" + (f" ({', '.join(self.flags)})" if self.flags else "")
        if self.kind == "card":
            return self.card_text()
        if self.kind == "effect":      # the snapshot's applied effect number (from 1)
            source = f" from \"{self.name}\"" if self.name else ""
            return f"effects[{(self.number or 1) - 1}]: {self.what}{source}"
        if self.kind == "need":
            return f"needs {self.number}"
        if self.kind == "name":
            return f"needs \"{self.name}\""
        if self.kind == "sum":
            return f"adds up to {self.number}, needs {self.needs}"
        return self.term or self.kind

    def to_json(self) -> dict[str, Any]:
        return {k: (list(v) if isinstance(v, tuple) else v) for k, v in self.__dict__.items()
                if v not in (None, (), False)}


@record
class Reason(Record):
    """Why an action is forbidden: a stable id, a sentence, a source citation, and evidence
    (as text: `evidence`, and as data: `grounds`, one Evidence per evidence atom)."""
    rule: str
    text: str
    source: str
    evidence: tuple[str, ...] = ()
    grounds: tuple[Evidence, ...] = ()

    def __init__(self, rule: str, text: str, source: str, evidence: tuple[str, ...] = (),
                 grounds: tuple[Evidence, ...] = ()) -> None:
        set_field(self, "rule", rule)
        set_field(self, "text", text)
        set_field(self, "source", source)
        set_field(self, "evidence", evidence)
        set_field(self, "grounds", grounds)

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"rule": self.rule, "text": self.text, "source": self.source}
        if self.evidence:
            out["evidence"] = list(self.evidence)
            out["grounds"] = [g.to_json() for g in self.grounds]
        return out


@record
class Unmodelled(Record):
    """A card of the snapshot whose text permits or forbids Summons, Tributes, attacks or battle
    positions in a way no effect models (the card's `unmodelled`): a verdict may miss it."""
    id: str
    name: str
    why: str

    def __init__(self, id: str, name: str, why: str) -> None:
        set_field(self, "id", id)
        set_field(self, "name", name)
        set_field(self, "why", why)

    def sentence(self) -> str:
        return f"{self.id} (\"{self.name}\"): {self.why}"


@record
class Verdict(Record):
    """The verdict on one action."""
    action: Action
    permitted: bool
    reasons: tuple[Reason, ...] = ()
    notes: tuple[tuple[str, str], ...] = ()   # derived facts about the action, e.g. materials_go_to
    unmodelled: tuple[Unmodelled, ...] = ()   # cards of the snapshot with rule-relevant text not modelled

    def __init__(self, action: Action, permitted: bool, reasons: tuple[Reason, ...] = (),
                 notes: tuple[tuple[str, str], ...] = (),
                 unmodelled: tuple[Unmodelled, ...] = ()) -> None:
        set_field(self, "action", action)
        set_field(self, "permitted", permitted)
        set_field(self, "reasons", reasons)
        set_field(self, "notes", notes)
        set_field(self, "unmodelled", unmodelled)

    def to_json(self) -> dict[str, Any]:
        out = {"action": self.action.to_json(), "permitted": self.permitted,
               "reasons": [r.to_json() for r in self.reasons]}
        if self.notes:
            out["notes"] = {k: v for k, v in self.notes}
        if self.unmodelled:
            out["unmodelled"] = [u.id for u in self.unmodelled]
        return out


@record
class Legal(Record):
    """Every permitted action of a snapshot (and, when asked, the forbidden candidates)."""
    permitted: tuple[Action, ...]
    replay: bool
    forbidden: tuple[Verdict, ...] = ()
    unmodelled: tuple[Unmodelled, ...] = ()   # cards of the snapshot with rule-relevant text not modelled

    def __init__(self, permitted: tuple[Action, ...], replay: bool, forbidden: tuple[Verdict, ...] = (),
                 unmodelled: tuple[Unmodelled, ...] = ()) -> None:
        set_field(self, "permitted", permitted)
        set_field(self, "replay", replay)
        set_field(self, "forbidden", forbidden)
        set_field(self, "unmodelled", unmodelled)

    def to_json(self, include_forbidden: bool = False) -> dict[str, Any]:
        out: dict[str, Any] = {"permitted": [a.to_json() for a in self.permitted], "replay": self.replay}
        if include_forbidden:
            out["forbidden"] = [v.to_json() for v in self.forbidden]
        if self.unmodelled:
            out["unmodelled"] = [u.id for u in self.unmodelled]
        return out


_SHAPES: dict[Any, tuple[str, tuple[tuple[str, str, Any], ...]]] = {}


def _set_value(term: Symbol) -> Any:
    """A card set term of an action: a list c(J,Rest) ending in nil (the sets legal mode builds,
    rules/summons.lp) as the tuple of its card numbers, read from the term itself; any other set
    (a mask m(P,M), the query's q) by symbol_key, its cards being its set_member atoms."""
    numbers: list[int] = []
    t = term
    while t.type is SymbolType.Function:
        name, args = name_args(t)
        if name == "nil" and not args:
            return tuple(numbers)
        if name != "c" or len(args) != 2 or args[0].type is not SymbolType.Number:
            break
        numbers.append(args[0].number)
        t = args[1]
    return symbol_key(term)


def _shape(term: Symbol) -> tuple[str, tuple[tuple[str, str, Any], ...]]:
    """An action term read once: its name and (field, kind, value) per argument, where values
    are still card and player numbers (and sets: _set_value).  Action terms recur across
    queries (they hold numbers, not ids), so shapes are kept, up to a bound."""
    name, args = name_args(term)
    shape = (name, tuple((key, kind, _set_value(arg) if kind == "ids" else value_of(arg))
                         for (key, kind), arg in zip(SIGNATURES[name], args)))
    if len(_SHAPES) < 100_000:
        _SHAPES[symbol_key(term)] = shape
    return shape


def unmodelled(game: Game) -> tuple[Unmodelled, ...]:
    """The snapshot's cards, in snapshot order, whose definition says `unmodelled`."""
    return tuple(Unmodelled(e.id, e.card["name"], e.card["unmodelled"]) for e in game.entries
                 if e.card.get("unmodelled"))


def _zone_entries(k: str, statements: Statements) -> object:
    """What the pruner's zone step reads of each statement (dependencies.zone_entries): kept
    apart from the rest of the rules' analysis (a one-shot query, which skips the zone step,
    does not load it), made from the parsed statements when none is kept under key k."""
    known = cache.load("zones", k)
    if isinstance(known, list) and len(known) == len(statements):
        return known
    from .dependencies import zone_entries
    made = zone_entries(statements.parsed)
    cache.store("zones", k, made)
    return made


def listed(items: list[str]) -> str:
    """Items in a sentence: "A", "A and B", "A, B and C" (each once, in their order)."""
    items = list(dict.fromkeys(items))
    return items[0] if len(items) == 1 else ", ".join(items[:-1]) + " and " + items[-1]


class Engine:
    """Judges snapshots.  Create one and reuse it: the rules are read and parsed once.

    >>> from pyrules import Engine
    >>> Engine().check({"snapshot": 1, "players": {"A": {}, "B": {}}}, "draw").permitted
    False
    """

    def __init__(self, rules: str | Path | None = None, cards: str | Path | CardDB | None = None,
                 *, extra_cards: bool = True, limits: Limits | dict | None = None):
        self.rules_dir = Path(rules) if rules is not None else rules_dir()
        self.config: dict[str, Any] = {"rules": str(self.rules_dir),          # what a worker process needs
                       "cards": None if cards is None or isinstance(cards, CardDB) else str(cards),
                       "extra_cards": extra_cards}
        # the caps on each input (pyrules/limits.py): given, or the defaults and PYRULES_MAX_*
        self.limits = Limits(**limits) if isinstance(limits, dict) else limits or Limits.from_env()
        if limits is not None:
            self.config["limits"] = asdict(self.limits)
        if not self.rules_dir.is_dir():
            raise InvalidInput(Problem(str(self.rules_dir), "no such rules folder"))
        use_rules(self.rules_dir)        # its rules/effects.yaml is the declaration read from now on
        self.rulebase = RuleBase(self.rules_dir)   # the one reader of the rules folder (pyrules/rulebase.py)
        try:
            with CLINGO_LOCK:
                self.catalogue = self.rulebase.catalogue()
        except RuntimeError as e:
            raise InvalidInput(Problem(str(self.rules_dir / "catalogue"), f"the catalogue does not load: {e}")) from None
        self.cards = self._card_db(cards, extra_cards)
        self.names = NameTable(self.cards.by_name)
        self.files = self.rulebase.files
        self._prepared: dict[str, Any] = {}
        self._check_program()
        self.reading_values = {n: list(r.values) for n, r in self.catalogue.readings.items()}
        self.reading_defaults = {n: r.default for n, r in self.catalogue.readings.items()}

    @functools.cached_property
    def program(self) -> str:
        """The text of the rule files (UTF-8, or InvalidInput), read when first asked for (the
        search transforms it; a query needs the parsed or kept statements only)."""
        return "\n".join(self.rulebase.text(p) for p in self.files)

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
            db.update(pool)
        return db

    def _check_program(self) -> None:
        """Parse the rules once (InvalidInput with clingo's messages when they do not load);
        every query replays the parsed statements instead of parsing the text again.  What
        depends only on the rule files is kept per rules version (pyrules/cache.py): that
        they ground (unsafe variables are found by grounding them once), the statements'
        texts (an Engine's first queries need not wait for the files to be parsed:
        solver.Statements), the predicates they read and what the pruner knows of them
        (pyrules/prune.py)."""
        k = cache.key(self.files)
        known = cache.load("rules", k)
        files = self.files
        with CLINGO_LOCK:
            try:
                if not isinstance(known, dict):
                    raise KeyError("rules")
                texts, analysis, card_texts, kinds = known["texts"], known["prune"], known["card_texts"], known["kinds"]
                if not all(isinstance(t, list) and all(isinstance(x, str) for x in t) for t in (texts, card_texts)):
                    raise TypeError("texts")
                if not (kinds is None or isinstance(kinds, list) and all(isinstance(x, str) for x in kinds)):
                    raise TypeError("kinds")
                self.statements = Statements(texts)
                made = pruner(self.statements, analysis)
                made.zones_loader = functools.partial(_zone_entries, k, self.statements)
            except (ValueError, KeyError, TypeError):         # none kept, or a malformed entry
                for p in files:                                 # UTF-8 text, or InvalidInput naming the file
                    self.rulebase.text(p)
                parsed, card = split_parts(parse_rules(files))
                card_texts = [str(s) for s in card]
                from .astwalk import effect_kinds_read      # (clingo.ast: loaded only to parse)
                kinds = effect_kinds_read(parsed, EFFECT_READERS)
                self.statements = Statements([str(s) for s in parsed], parsed)
                made = pruner(self.statements)
                cache.store("zones", k, made.analysis["zones"])
                cache.store("rules", k, {"prune": {key: v for key, v in made.analysis.items() if key != "zones"},
                                         "texts": self.statements.texts, "card_texts": card_texts, "kinds": kinds})
        self.card_part = Statements(card_texts)
        self.names.reads = made.predicates()
        self.names.effect_kinds = None if kinds is None else frozenset(kinds)
        self.names.derive = self.derive_card_facts if card_texts else None

    def derive_card_facts(self, facts: list[Symbol]) -> list[Symbol]:
        """What the card part of the rules (`#program card.`: rules that read only one card's own
        printed data) derives from these cards' facts: grounded once per database card, its
        answers are kept with the card's facts (encode.NameTable) and given to every query as
        facts, so no query grounds those rules.  A card is the first argument of each fact: an
        answer that does not name one of the given cards first (a rule lint would refuse) is
        dropped rather than given to some other card."""
        given = set(facts)
        cards = {f.arguments[0] for f in facts if f.arguments}
        return [a for a in ground_and_solve(self.card_part, facts, prune=False)
                if a not in given and a.arguments and a.arguments[0] in cards]

    def card_part_predicates(self) -> dict[str, int]:
        """The predicates (name -> arity) the card part defines: card facts as much as
        encode.CARD_PREDICATES (a batch shares them once per grounding)."""
        from .astwalk import head_body
        return {name: arity for s in self.card_part.parsed if s.ast_type.name == "Rule"
                for (name, arity), _ in head_body(s)[0]}

    # ---- the seam batch and search use: prepare, encode, solve, read ----------------
    def forget_parsed(self) -> None:
        """Drop the prepared programs (at exit: solver.forget_at_exit)."""
        self._prepared.clear()

    def prepared(self, key: str, make: Callable[[list], T], *, pruned: bool = True) -> T:
        """A program made once from the parsed rules (make(statements)) and kept with the
        Engine under `key`: the batch's shared-grounding rules, the search's rules.  A list
        of statements gets its pruner's analysis from the cache (pyrules/dependencies.py), unless
        pruned=False (a program always grounded whole, as the search's)."""
        with CLINGO_LOCK:
            if key not in self._prepared:
                forget_at_exit(self)
                made = self._prepared[key] = make(self.statements.parsed)
                if pruned and isinstance(made, list):   # statements: the pruner's analysis, kept per rules version
                    from .dependencies import analyse
                    try:
                        pruner(made, cache.cached(f"prune-{key}", cache.key(self.files), lambda: analyse(made)))
                    except (ValueError, KeyError, TypeError):   # a kept analysis of other statements
                        pruner(made)
            return self._prepared[key]

    def solve(self, facts: Iterable[Symbol], statements: list | None = None) -> list[Symbol]:
        """Ground the rules (or `statements`, a prepared program) with these facts and
        return the shown atoms of the answer."""
        return ground_and_solve(self.statements if statements is None else statements, facts)

    def answer(self, facts: Iterable[Symbol]) -> Answer:
        """solve(), with the shown atoms read once into an Answer."""
        return Answer.of(self.solve(facts))

    # ---- snapshots --------------------------------------------------------------
    def game(self, snapshot: Any, readings: dict[str, str] | None = None) -> Game:
        return parse_snapshot(snapshot, self.cards, self.reading_values, readings, limits=self.limits)

    def encode(self, snapshot: Any, readings: dict[str, str] | None = None, query: Action | None = None,
               *, prefix: list[Symbol] | None = None, shared: set[str] | None = None,
               ) -> tuple[Encoding, list[Symbol], Symbol | None]:
        """Validate and encode one snapshot: its encoding, its facts and the query term (check).
        `prefix` (batch) goes before the arguments of every fact; `shared` (batch): see encode()."""
        game = parse_snapshot(snapshot, self.cards, self.reading_values, readings, collect=True,
                              limits=self.limits)
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
            low, high = SETS_RANGE                                          # read by the set builder (summons.lp)
            facts.append(enc.fact("max_sets", min(max(self.limits.max_sets, low), high)))
        else:
            qterm = self._action_term(enc, query, facts)
            facts.append(enc.fact("query", qterm))
        return enc, facts, qterm

    def _invalid_problems(self, enc: Encoding, atoms: Answer) -> list[Problem]:
        """The physical limits the snapshot breaks (invalid/2 atoms), with their field paths."""
        problems = {Problem(self._subject_path(enc, subject), self.catalogue.problems.get(pid.name, pid.name))
                    for pid, subject in atoms.get("invalid", 2)}
        return sorted(problems, key=lambda p: (p.path, p.message))

    def _raise_invalid(self, enc: Encoding, atoms: Answer) -> None:
        problems = self._invalid_problems(enc, atoms)
        if problems:
            raise InvalidInput(problems)

    @staticmethod
    def _subject_path(enc: Encoding, subject: Symbol) -> str:
        a = subject.arguments
        if subject.name == "card":
            ident = enc.card_id.get(a[0].number, f"#{a[0].number}")
            entry = enc.game.by_id.get(ident)
            return entry.path if entry else str(ident)
        if subject.name == "side":
            return f"players.{enc.player_key[a[0].number]}.{ZONE_KEYS.get(a[1].name, a[1].name)}"
        if subject.name == "snapshot":
            return a[0].name
        if subject.name == "set_for" and a[0].arguments and a[0].arguments[0].type == SymbolType.Number:
            return Engine._subject_path(enc, Function("card", [a[0].arguments[0]]))   # a purpose names its card first
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

    def decode(self, enc: Encoding, term: Symbol, members: dict[Any, list[str]]) -> Action:
        """The Action of an action term; `members` maps the set terms that are not lists (symbol_key)
        to card ids."""
        shape = _SHAPES.get(symbol_key(term))
        if shape is None:
            shape = _shape(term)
        name, fields = shape
        out: dict[str, Any] = {}
        for key, kind, v in fields:
            if kind == "ids":
                ids = [enc.card_id[n] for n in v] if v.__class__ is tuple else members.get(v, ())
                out[key] = tuple(sorted(ids))
            elif kind == "id" or (kind == "target" and v != "direct") or (kind == "by" and v != "none"):
                out[key] = enc.card_id[v]
            elif kind == "by":
                pass
            elif kind == "player":
                out[key] = enc.player_key[v]
            else:
                out[key] = v
        return Action.made(name, out)

    def _reasons(self, enc: Encoding, atoms: Answer, term: Symbol) -> tuple[Reason, ...]:
        ids = sorted({a[1].name for a in atoms.get("forbidden", 2) if a[0] == term})
        out = []
        for rid in ids:
            ev = [a[2] for a in atoms.get("evidence", 3) if a[0] == term and a[1].name == rid]
            out.append(self.reason(enc, rid, ev))
        return tuple(out)

    def reason(self, enc: Encoding, rid: str, evidence: list[Symbol]) -> Reason:
        text, source = self.catalogue.reasons.get(rid, (rid.replace("_", " "), "pyrules: uncatalogued reason"))
        grounds = tuple(self.evidence_of(enc, e) for e in evidence)
        cards = [g.card_text() if g.kind == "card" else g.text() for g in grounds if g.kind in ("card", "effect")]
        needs = [str(g.number if g.kind == "need" else g.needs) for g in grounds if g.kind in ("need", "sum")]
        sums = [str(g.number) for g in grounds if g.kind == "sum"]
        text = text.replace("({card})", f"({listed(cards)})" if cards else "(a card)")     # what adds up: all of them
        if text.startswith("{card} ") and len(set(cards)) > 1:                       # a sentence true of each
            text = f"Each of {listed(cards)}{text[len('{card}'):]}"
        text = text.replace("{card}", cards[0] if cards else "a card").replace("{need}", needs[0] if needs else "?")
        text = text.replace("{sum}", sums[0] if sums else "?")
        names = [g.name or "?" for g in grounds if g.kind == "name"] or ["?"]
        text = text.replace('"{name}"', listed([f'"{n}"' for n in names])).replace("{name}", listed(names))
        return Reason(rid, text, source, tuple(g.text() for g in grounds), grounds)

    def describe_card(self, enc: Encoding, number: int) -> str:
        return self.card_evidence(enc, number).card_text()

    @staticmethod
    def card_evidence(enc: Encoding, number: int) -> Evidence:
        ident = enc.card_id.get(number, f"#{number}")
        entry = enc.game.by_id.get(ident)
        if entry is None:
            return Evidence("card", card=ident, gone=True)
        return Evidence("card", card=ident, name=entry.card["name"], player=entry.player)

    def evidence_of(self, enc: Encoding, e: Symbol) -> Evidence:
        """An evidence atom of the answer as data."""
        args = e.arguments
        numbers = [a.number if a.type == SymbolType.Number else None for a in args]
        if e.name == "event" and len(args) == 1 and numbers[0] is not None:
            k = numbers[0]
            ev = enc.game.events[k - 1]
            return Evidence("event", event=k, what=ev["event"], card=ev.get("card"),
                            flags=tuple(f for f in ("negated", "replay") if ev.get(f)))
        if e.name == "card" and len(args) == 1 and numbers[0] is not None:
            return self.card_evidence(enc, numbers[0])
        if e.name == "effect" and len(args) == 1 and numbers[0] is not None:
            eff = enc.game.effects[numbers[0] - 1]
            return Evidence("effect", number=numbers[0], what=eff["effect"], name=eff.get("source"))
        if e.name == "name" and len(args) == 1 and numbers[0] is not None:       # a card name (number)
            return Evidence("name", name=enc.names.name(numbers[0]))
        if e.name == "need" and len(args) == 1 and numbers[0] is not None:
            return Evidence("need", number=numbers[0])
        if e.name == "sum" and len(args) == 2 and None not in numbers:
            return Evidence("sum", number=numbers[0], needs=numbers[1])
        return Evidence(e.name, term=str(e))

    # ---- the public questions ----------------------------------------------
    def check(self, snapshot: Any, action: Any, readings: dict[str, str] | None = None) -> Verdict:
        """The verdict on one action, with reasons when it is forbidden."""
        act = parse_action(action)
        enc, facts, term = self.encode(snapshot, readings, act)
        assert term is not None                   # a query was given
        return self.read_verdict(enc, self.answer(facts), act, term)

    def legal_many(self, snapshots: Iterable[Any], readings: dict[str, str] | None = None,
                   workers: int = 1) -> list["Legal | InvalidInput"]:
        """legal() of every snapshot, in order; a snapshot that cannot be judged gives its
        InvalidInput in its place (nothing is raised).  Snapshots are grounded together in
        chunks; workers > 1 uses that many processes (snapshots must then be plain data).
        Each snapshot is what legal() takes: a dict, YAML/JSON text or a Path."""
        from .batch import run
        return list(run(snapshots, engine=self, engine_factory=type(self), engine_config=self.config,
                        readings=readings, workers=workers, lines=False))

    def read_verdict(self, enc: Encoding, atoms: Answer, act: Action, term: Symbol) -> Verdict:
        """The verdict on the queried action, read from the answer (raises InvalidInput)."""
        self._raise_invalid(enc, atoms)
        permitted = any(a[0] == term for a in atoms.get("permitted", 1))
        reasons = () if permitted else self._reasons(enc, atoms, term)
        notes = tuple(sorted((a[1].name, self._note_value(enc, a[2])) for a in atoms.get("note", 3)
                             if a[0] == term))
        if act.action == "special_summon" and act.player is None:     # the default, filled in
            act = replace(act, player=enc.game.turn_player)
        return Verdict(act, permitted, reasons, notes, unmodelled(enc.game))

    def _note_value(self, enc: Encoding, value: Symbol) -> str:
        """A note's value: card(I) becomes the card's description, constants stay as they are."""
        if value.name == "card" and len(value.arguments) == 1:
            return self.describe_card(enc, value.arguments[0].number)
        return str(value)

    def legal(self, snapshot: Any, readings: dict[str, str] | None = None, *,
              include_forbidden: bool = False) -> Legal:
        """Every permitted action (and with include_forbidden, the forbidden candidates)."""
        enc, facts, _ = self.encode(snapshot, readings)
        if include_forbidden:
            facts.append(REPORT_FORBIDDEN)    # (legal() never has a prefix)
        return self.read_legal(enc, self.answer(facts), include_forbidden)

    @staticmethod
    def _members(enc: Encoding, atoms: Answer) -> dict[Any, list[str]]:
        """The card ids of each card set of the answer (set_member atoms), by symbol_key."""
        members: dict[Any, list[str]] = {}
        for s, i in atoms.get("set_member", 2):
            members.setdefault(symbol_key(s), []).append(enc.card_id[value_of(i)])
        return members

    def read_legal(self, enc: Encoding, atoms: Answer, include_forbidden: bool = False) -> Legal:
        """Every permitted action, read from the answer (raises InvalidInput)."""
        self._raise_invalid(enc, atoms)
        members = self._members(enc, atoms)
        keyed: dict[tuple, Action] = {}
        for (t,) in atoms.get("permitted", 1):
            act = self.decode(enc, t, members)
            keyed[act.sort_key()] = act
        permitted = [keyed[k] for k in sorted(keyed)]
        replay = bool(atoms.get("replay_due", 0))
        forbidden: list[Verdict] = []
        if include_forbidden:
            for s in {a[0] for a in atoms.get("forbidden", 2)}:
                forbidden.append(Verdict(self.decode(enc, s, members), False, self._reasons(enc, atoms, s)))
            forbidden.sort(key=lambda v: v.action.sort_key())
        return Legal(tuple(permitted), replay, tuple(forbidden), unmodelled(enc.game))
