"""The engine: snapshot -> facts -> clingo (rules prepared once) -> typed verdicts.

Python never decides a rule of the game here: it validates the format, turns the
snapshot into facts, asks clingo once per query and reads the answer atoms.
"""
from __future__ import annotations

import functools
import os
from dataclasses import asdict, replace
from pathlib import Path
from typing import Any, Callable, Iterable, TypeVar

from clingo import Function, Number, Symbol

from . import cache
from .actions import Action, parse_action
from .cards import CardDB
from .effects import EFFECT_READERS, Vocabulary, vocabulary
from .encode import Encoding, NameTable, encode
from .errors import InvalidInput, Problem
from .symbols import CLINGO_LOCK
from .limits import SETS_RANGE, Limits
from .model import Game, parse_snapshot
from .paths import rules_dir
from .rulebase import RuleBase
from .readback import AnswerReader
from .results import Legal, Successor, Verdict, note_value, reasons_of, unmodelled
from .terms import action_term, decode_action, members as answer_members, subject_path
from .solver import (Answer, Statements, forget_at_exit, ground_and_solve, parse_rules, pruner,
                     split_parts)

MODE_LEGAL = Function("mode", [Function("legal")])
MODE_NEXT = Function("mode", [Function("next")])
REPORT_FORBIDDEN = Function("report_forbidden")
T = TypeVar("T")




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


def _path_text(path: str | os.PathLike) -> str:
    """A path given as a str or any os.PathLike (not only pathlib.Path), as text."""
    return os.fsdecode(os.fspath(path))


class Engine:
    """Judges snapshots.  Create one and reuse it: the rules are read and parsed once.

    >>> from pyrules import Engine
    >>> Engine().check({"snapshot": 1, "players": {"A": {}, "B": {}}}, "draw").permitted
    False
    """

    def __init__(self, rules: str | os.PathLike | None = None, cards: str | os.PathLike | CardDB | None = None,
                 *, extra_cards: bool = True, limits: Limits | dict | None = None):
        self.rules_dir = Path(_path_text(rules)) if rules is not None else rules_dir()
        self.config: dict[str, Any] = {"rules": str(self.rules_dir),          # what a worker process needs
                       "cards": None if cards is None or isinstance(cards, CardDB) else _path_text(cards),
                       "extra_cards": extra_cards}
        # the caps on each input (pyrules/limits.py): given, or the defaults and PYRULES_MAX_*
        self.limits = Limits(**limits) if isinstance(limits, dict) else limits or Limits.from_env()
        if limits is not None:
            self.config["limits"] = asdict(self.limits)
        if not self.rules_dir.is_dir():
            raise InvalidInput(Problem(str(self.rules_dir), "no such rules folder"))
        # its effects.yaml (or the shipped one): what validation, the encoder and the card pools read
        self.vocabulary = vocabulary(self.rules_dir)
        self.rulebase = RuleBase(self.rules_dir)   # the one reader of the rules folder (pyrules/rulebase.py)
        try:
            with CLINGO_LOCK:
                self.catalogue = self.rulebase.catalogue()
        except RuntimeError as e:
            raise InvalidInput(Problem(str(self.rules_dir / "catalogue"), f"the catalogue does not load: {e}")) from None
        self.cards = self._card_db(cards, extra_cards, self.vocabulary)
        self.names = NameTable(self.cards.by_name, self.vocabulary)
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
    def _card_db(cards, extra: bool, voc: Vocabulary) -> CardDB:
        if isinstance(cards, CardDB):
            return cards
        db = CardDB.bundled()
        if cards is not None:
            from .importers import load_card_pool   # optional import paths (cdb, json, yaml)
            pool = load_card_pool(_path_text(cards), voc)
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
        return parse_snapshot(snapshot, self.cards, self.reading_values, readings, limits=self.limits,
                              voc=self.vocabulary)

    def encode(self, snapshot: Any, readings: dict[str, str] | None = None, query: Action | None = None,
               *, prefix: list[Symbol] | None = None, shared: set[str] | None = None,
               ) -> tuple[Encoding, list[Symbol], Symbol | None]:
        """Validate and encode one snapshot: its encoding, its facts and the query term (check).
        `prefix` (batch) goes before the arguments of every fact; `shared` (batch): see encode()."""
        game = parse_snapshot(snapshot, self.cards, self.reading_values, readings, collect=True,
                              limits=self.limits, voc=self.vocabulary)
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
            qterm = action_term(enc, query, facts)
            facts.append(enc.fact("query", qterm))
        return enc, facts, qterm

    def _invalid_problems(self, enc: Encoding, atoms: Answer) -> list[Problem]:
        """The physical limits the snapshot breaks (invalid/2 atoms), with their field paths."""
        problems = {Problem(subject_path(enc, subject), self.catalogue.problems.get(pid.name, pid.name))
                    for pid, subject in atoms.get("invalid", 2)}
        return sorted(problems, key=lambda p: (p.path, p.message))

    def _raise_invalid(self, enc: Encoding, atoms: Answer) -> None:
        problems = self._invalid_problems(enc, atoms)
        if problems:
            raise InvalidInput(problems)

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
        Each snapshot is what legal() takes: a dict, YAML/JSON text or a path (os.PathLike)."""
        from .batch import run
        return list(run(snapshots, engine=self, engine_factory=type(self), engine_config=self.config,
                        readings=readings, workers=workers, lines=False))

    def read_verdict(self, enc: Encoding, atoms: Answer, act: Action, term: Symbol) -> Verdict:
        """The verdict on the queried action, read from the answer (raises InvalidInput)."""
        self._raise_invalid(enc, atoms)
        permitted = any(a[0] == term for a in atoms.get("permitted", 1))
        reasons = () if permitted else reasons_of(enc, atoms, term, self.catalogue.reasons, self.catalogue.text_cards)
        notes = tuple(sorted((a[1].name, note_value(enc, a[2])) for a in atoms.get("note", 3)
                             if a[0] == term))
        if act.action == "special_summon" and act.player is None:     # the default, filled in
            act = replace(act, player=enc.game.turn_player)
        if act.action == "activate" and act.player is None:           # the player with priority (CONTRACT 9)
            act = replace(act, player=enc.game.priority)
        activated = (act.card,) if act.action == "activate" and act.card is not None else ()
        return Verdict(act, permitted, reasons, notes, unmodelled(enc.game, activated))

    def legal(self, snapshot: Any, readings: dict[str, str] | None = None, *,
              include_forbidden: bool = False) -> Legal:
        """Every permitted action (and with include_forbidden, the forbidden candidates)."""
        enc, facts, _ = self.encode(snapshot, readings)
        if include_forbidden:
            facts.append(REPORT_FORBIDDEN)    # (legal() never has a prefix)
        return self.read_legal(enc, self.answer(facts), include_forbidden)

    def read_legal(self, enc: Encoding, atoms: Answer, include_forbidden: bool = False) -> Legal:
        """Every permitted action, read from the answer (raises InvalidInput)."""
        self._raise_invalid(enc, atoms)
        members = answer_members(enc, atoms)
        keyed: dict[tuple, Action] = {}
        for (t,) in atoms.get("permitted", 1):
            act = _listed(decode_action(enc, t, members))
            keyed[act.sort_key()] = act
        permitted = [keyed[k] for k in sorted(keyed)]
        replay = bool(atoms.get("replay_due", 0))
        forbidden: list[Verdict] = []
        if include_forbidden:
            for s in {a[0] for a in atoms.get("forbidden", 2)}:
                forbidden.append(Verdict(_listed(decode_action(enc, s, members)), False,
                                         reasons_of(enc, atoms, s, self.catalogue.reasons, self.catalogue.text_cards)))
            forbidden.sort(key=lambda v: v.action.sort_key())
        activated = [a.card for a in permitted if a.action == "activate" and a.card is not None]
        return Legal(tuple(permitted), replay, tuple(forbidden), unmodelled(enc.game, activated))


    def next(self, snapshot: Any, action: Any, readings: dict[str, str] | None = None) -> Successor:
        """The snapshot right after a permitted action (CONTRACT 11), as the rules of rules/next/
        give it (their next/1 atoms, read back by pyrules/readback.py) and checked valid by the
        rules' own validator; a forbidden action gives its verdict, with reasons, and no snapshot."""
        act = parse_action(action)
        enc, facts, term = self.encode(snapshot, readings, act)
        assert term is not None                   # a query was given
        facts.append(MODE_NEXT)
        new = max(enc.card_id, default=0) + 1       # the number of a card the action may bring (a draw)
        facts.append(Function("new_card", [Number(1), Number(new)]))
        atoms = self.answer(facts)
        verdict = self.read_verdict(enc, atoms, act, term)
        if not verdict.permitted:
            return Successor(verdict)
        needs = [Problem(f"action.{a[0].name}", "is needed for this action's successor (docs/cli.md#the-next-snapshot)")
                 for a in atoms.get("successor_needs", 1)]
        if needs:
            raise InvalidInput(needs)
        if atoms.get("successor_missing", 0):
            raise InvalidInput(Problem("action", f"pyrules next does not give the successor of {act.action} yet "
                                                 "(docs/cli.md#next lists the actions it covers)"))
        snap = self.read_successor(enc, atoms, new)
        self._check_successor(snap, action)
        in_battle = {enc.card_id[a[0].number] for a in atoms.get("battle_unmodelled", 1)}
        unresolved = tuple(sorted(enc.card_id[a[0].number] for a in atoms.get("unresolved", 1)))
        return Successor(verdict, snap, tuple(u for u in unmodelled(enc.game) if u.id in in_battle), unresolved)

    def read_successor(self, enc: Encoding, atoms: Answer, new: int) -> dict[str, Any]:
        """The successor snapshot the answer's next/1 atoms describe: cards keep their ids and their
        definitions as the snapshot gave them (a database name, or the inline card); a new card (number
        `new`, a card drawn) gets the id <player>.drawn.<turn> and the name the rules give it."""
        game = enc.game
        card_of: dict[int, Any] = {}
        for e in game.entries:
            name = e.card["name"]
            card_of[enc.card_no[e.id]] = name if self.cards.get(name) is e.card else e.card
        shown = [a[0] for a in atoms.get("next", 1)]
        _one_place_each(shown, enc.card_id)
        card_id = dict(enc.card_id)
        for f in shown:
            if f.name == "name" and f.arguments[0].number == new:
                card_of[new] = enc.names.name(f.arguments[1].number)
                ident = f"{game.turn_player}.drawn.{game.turn}"
                while ident in enc.card_no:
                    ident += "_"
                card_id[new] = ident
        reader = AnswerReader(shown, card_of, card_id, enc.player_key, enc.names.name)
        snap = reader.snapshot()
        kept = sorted({a[0].number for a in reader.all("applied")})
        effects = [dict(game.effects[k - 1]) for k in kept]
        for k, eff in zip(kept, effects):
            if "cards" in eff:
                eff["cards"] = sorted(reader.card_id[a[1].number] for a in reader.all("applied_card") if a[0].number == k)
        if effects:
            snap["effects"] = effects
        if game.readings and isinstance(game.raw.get("readings"), dict):
            snap["readings"] = dict(game.raw["readings"])
        return snap

    def _check_successor(self, snap: dict[str, Any], action: Any) -> None:
        """The successor is valid input (format and validity.lp), or a RuntimeError: a rule of
        rules/next/ made a snapshot the rules themselves refuse."""
        game = parse_snapshot(snap, self.cards, self.reading_values, None, collect=True,
                              limits=self.limits, voc=self.vocabulary)
        problems = list(game.problems)
        if not problems:
            enc = encode(game, self.names, self.reading_defaults)
            problems = self._invalid_problems(enc, self.answer(enc.facts))
        if problems:
            raise RuntimeError(f"the successor of {action!r} is not a valid snapshot (a bug of rules/next/): "
                               + "; ".join(f"{p.path}: {p.message}" for p in problems))


def _one_place_each(shown: list[Symbol], card_id: dict[int, str]) -> None:
    """A RuntimeError when the successor's next(zone(I,P,Z)) atoms put a card in two places, or its
    next(deck_card(P,K,N)) atoms do not number a listed Deck 1, 2, ... from the top (a bug of rules/next/;
    CONTRACT 1): the reader would keep one place, or renumber the Deck, silently."""
    places: dict[int, set] = {}
    for f in shown:
        if f.name == "zone":
            places.setdefault(f.arguments[0].number, set()).add(tuple(f.arguments[1:]))
    twice = sorted(card_id.get(i, str(i)) for i, ps in places.items() if len(ps) > 1)
    if twice:
        raise RuntimeError(f"the successor puts {', '.join(twice)} in two zones (a bug of rules/next/)")
    decks: dict[Any, list[int]] = {}
    for f in shown:
        if f.name == "deck_card":
            decks.setdefault(f.arguments[0], []).append(f.arguments[1].number)
    for player, places_in_deck in decks.items():
        if sorted(places_in_deck) != list(range(1, len(places_in_deck) + 1)):
            raise RuntimeError(f"the successor's listed Deck of player {player} is not numbered 1 to "
                               f"{len(places_in_deck)} from the top (a bug of rules/next/)")


def _listed(act: Action) -> Action:
    """An action as `legal` lists it: an activation without its player, who is always the player with
    priority (CONTRACT 9: `player` defaults to that player), as the contract writes activate(mf)."""
    return replace(act, player=None) if act.action == "activate" else act
