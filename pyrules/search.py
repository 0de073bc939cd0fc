"""Counterexample search and bounded property checks (`pyrules diff`, `pyrules verify`).

Python decides no rule of the game here either.  It assembles one clingo program out of

* the engine's own rule files (Engine.files: the same rules/*.lp a query runs),
* rules/search/generator.lp: choice rules that produce the input facts of a snapshot
  (the vocabulary pyrules/encode.py emits), restricted by ":- invalid(_,_)" of
  rules/validity.lp, with #minimize for smallest-first,
* the card facts of a pool of real cards, made by pyrules.encode.card_facts,
* rules/search/diff.lp (two readings side by side) or rules/search/verify.lp with the
  property files (rules/search/properties/*.lp and the user's),

solves it, and turns each answer back into a snapshot (a dict in the contract's format)
that `Engine.check` then judges again: the round trip proves that what is printed is
what pyrules answers.

Two readings in one solve: `worldify` rewrites the rules with clingo.ast so that every
predicate that depends on a reading (and the verdict predicates) takes a first argument
W, the world; the snapshot's facts stay shared and `reading` is fixed per world.

Several actions (`diff --depth N`): pyrules/steps.py rewrites the rules once more, a step argument on
every predicate that depends on the state, and rules/search/diff_depth.lp chooses the actions done.
"""
from __future__ import annotations

import threading
import time
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any, Callable, Iterable, cast

import clingo.ast as ast
from clingo import Function, Number, Symbol, SymbolType

from .actions import TERM_SIGNATURES, Action
from . import cache, steps
from .astwalk import AtomRewriter, head_body, with_first_argument
from .effects import applied_term, generated_entries
from .encode import Encoding, card_facts, const, term_symbol
from .errors import InvalidInput, Problem
from .symbols import symbol_key
from .readback import PLAYER_KEYS, AnswerReader
from .terms import decode_action
from .limits import read_file
from .model import Game
from .sentences import applied_words, entry_line, event_line, reason_lines
from .schema import BATTLE_STEPS, EVENTS, PHASE_NAMES, PHASES, SPECIAL_SUMMON_METHODS
from .solver import Program, atoms_of, parse_text

SEARCH_DIR = "search"
DEFAULT_MONSTERS = ("Battle Ox", "Man-Eater Bug", "Summoned Skull", "Blue-Eyes White Dragon", "Dark Necrofear",
                    "The Legendary Fisherman")                          # cannot be attacked while "Umi" is there
DEFAULT_SPELLS_TRAPS = ("Umi", "Gravity Bind", "Ekibyo Drakmord", "Shooting Star Bow - Ceal",  # a Field Spell, a lock,
                        "Level Limit - Area B")   # equips; keeps Level 4+ in Defense (reading level_limit_change)
DEFAULT_POOL = DEFAULT_MONSTERS + DEFAULT_SPELLS_TRAPS    # (tests/test_search.py checks each card's kind)
WORLD_VAR = "W__"
MAX_DEPTH = 3           # pyrules diff --depth: the longest action sequence searched
# predicates that always take the world argument in a two-reading search
WORLD_SEEDS = {("selected_reading", 2), ("permitted", 1), ("forbidden", 2), ("forbidden", 3),
               ("evidence", 3), ("note", 3)}


# ---- scope ----------------------------------------------------------------------
@dataclass(frozen=True)
class Scope:
    """How large the searched snapshots may be."""
    monsters: int = 2     # monsters per side
    hand: int = 1         # cards in the turn player's hand
    graveyard: int = 1    # cards in the turn player's Graveyard
    events: int = 3       # events this turn
    extra: int = 0        # cards in the turn player's Extra Deck
    banished: int = 0     # the turn player's banished cards
    chain: int = 1        # cards with an effect on the chain
    attack: int = 1       # attacks in progress (0 or 1)
    spells: int = 1       # Spell and Trap Cards per side (Spell & Trap Zone)
    field: int = 1        # Field Spells per side (0 or 1)
    effects: int = 0      # applied effects in the snapshot's effects: (kinds from rules/effects.yaml)

    KEYS = ("monsters", "hand", "graveyard", "events", "extra", "banished", "chain", "attack", "spells", "field",
            "effects")
    _FAR = "far above any ruling's example: a larger scope grounds for ever"
    LIMITS = {"monsters": (5, "the Monster Zone holds five"), "spells": (5, "the Spell & Trap Zone holds five"),
              "field": (1, "the Field Zone holds one"), "extra": (15, "the Extra Deck holds fifteen"),
              "attack": (1, "one attack is in progress at most"), "hand": (10, _FAR), "graveyard": (10, _FAR),
              "banished": (10, _FAR), "events": (30, _FAR), "chain": (5, _FAR), "effects": (3, _FAR)}

    def __str__(self) -> str:
        return ",".join(f"{k}={getattr(self, k)}" for k in self.KEYS)

    def words(self) -> str:
        """What the scope covers, in words."""
        return (f"up to {self.monsters} monsters, {self.spells} Spell/Trap and {self.field} Field Spell a side; "
                f"the turn player's hand {self.hand}, Graveyard {self.graveyard}, Extra Deck {self.extra}, "
                f"banished {self.banished}; up to {self.events} events, {self.chain} on the chain, "
                f"{min(self.attack, 1)} attack in progress" +
                (f", up to {self.effects} applied effects" if self.effects else ""))

    def to_json(self) -> dict[str, int]:
        return {k: getattr(self, k) for k in self.KEYS}

    def with_(self, **kw: int) -> "Scope":
        return replace(self, **kw)

    @classmethod
    def parse(cls, text: str | None, base: "Scope | None" = None) -> "Scope":
        """'monsters=2,events=3' over `base` (default: the default scope)."""
        scope = base or cls()
        if not text:
            return scope
        values: dict[str, int] = {}
        problems = []
        for part in text.split(","):
            part = part.strip()
            if not part:
                continue
            key, _, value = part.partition("=")
            key = key.strip()
            if key not in cls.KEYS:
                problems.append(Problem("--scope", f"unknown key {key!r} (known: {', '.join(cls.KEYS)})"))
            elif not value.strip().isdigit():
                problems.append(Problem("--scope", f"{key} needs a whole number, got {value.strip()!r}"))
            else:
                values[key] = int(value)
        problems += [Problem("--scope", f"{key} is at most {most} ({why})") for key, (most, why) in cls.LIMITS.items()
                     if values.get(key, 0) > most]
        if problems:
            raise InvalidInput(problems)
        return scope.with_(**values)


# the default scope of `diff --depth N` (N > 1): each step grounds the rules again over every state the steps before
# may reach, and the card sets asked (masks over a side's monsters) grow with the monsters a step may bring
# (docs/counterexamples.md, "Several actions")
DEPTH_SCOPE = Scope(monsters=1, hand=1, graveyard=0, events=2, chain=0, attack=0, spells=1, field=0)


def scope_help() -> str:
    """The --scope option's help: the default scope, from Scope itself."""
    return (f"Search bounds (default {str(Scope()).replace(',', ', ')}; spells: Spell and Trap Cards a side, field: a Field Spell a side, "
            "effects: applied effects in the snapshot's effects:).")


def pool_help() -> str:
    """The --cards option's help: the default pool the generator draws from, from DEFAULT_POOL itself."""
    return (f"Comma-separated card names the snapshots draw from (default: {len(DEFAULT_MONSTERS)} monsters, "
            f"{', '.join(DEFAULT_MONSTERS)}; {len(DEFAULT_SPELLS_TRAPS)} Spells/Traps, "
            f"{', '.join(DEFAULT_SPELLS_TRAPS)}; a reading or a property may name its own pool).")


# ---- results --------------------------------------------------------------------
@dataclass
class Counterexample:
    """One snapshot found by the search, with the action it is about."""
    snapshot: dict
    action: Action | None
    cards: int
    events: int
    worlds: dict[str, dict]          # label -> {"readings": {...}, "model": (permitted, reasons), "verdict": Verdict}
    reproduced: bool
    core: tuple[str, ...] = ()       # what makes the readings part (diff_core/1 of rules/search/diff.lp)
    optimal: bool = False
    before: tuple[Action, ...] = ()  # diff --depth: the actions done first, each permitted under both values

    def to_json(self) -> dict[str, Any]:
        return {
            "snapshot": self.snapshot,
            "action": self.action.to_json() if self.action else None,
            "cards": self.cards, "events": self.events, "minimal": self.optimal,
            "reproduced": self.reproduced,
            **({"before": [a.to_json() for a in self.before]} if self.before else {}),
            "verdicts": {label: {"readings": w["readings"], **w["verdict"].to_json()} if w.get("verdict")
                         else {"readings": w["readings"], "permitted": w["model"][0], "reasons": list(w["model"][1])}
                         for label, w in self.worlds.items()},
        }


@dataclass
class SearchResult:
    """The outcome of one search: what it found and whether it looked everywhere."""
    found: list[Counterexample]
    exhausted: bool          # the scope holds no further counterexample (searched to the end)
    scope: Scope
    seconds: float
    pool: tuple[str, ...]
    label: str = ""
    timed_out: bool = False  # stopped by --timeout
    cards: str = ""          # the pool by kind, in words (Searcher.pool_words)
    depth: int = 1           # diff --depth: sequences of up to this many actions

    def covered(self) -> str:
        """What the search covered: the scope and the pool, in words."""
        return (f"covered: {self.scope.words()}; cards: {self.cards or ', '.join(self.pool)}"
                + (f"; sequences of up to {self.depth} actions" if self.depth > 1 else ""))

    def to_json(self) -> dict[str, Any]:
        return {"found": [c.to_json() for c in self.found], "exhausted": self.exhausted,
                "timed_out": self.timed_out, "scope": self.scope.to_json(),
                "seconds": round(self.seconds, 3), "pool": list(self.pool), "covered": self.covered(),
                "summary": self.summary()}

    def summary(self) -> str:
        n = len(self.found)
        where = f"within scope {self.scope} ({self.covered()})"
        if self.timed_out:
            return (f"time limit reached after {self.seconds:.1f}s with {n} found; the scope was not exhausted"
                    + ("" if all(c.optimal for c in self.found) else " (the last one may not be minimal)"))
        if n == 0:
            return f"none {where}: the scope was exhausted"
        if self.exhausted:
            return f"{n} found {where}; no other distinct one exists there (scope exhausted)"
        return f"{n} found {where} in {self.seconds:.1f}s; stopped at the requested count, more may exist"


@dataclass(frozen=True)
class PropertyInfo:
    name: str
    text: str
    file: str
    scope: dict[str, int] = field(default_factory=dict)
    cards: tuple[str, ...] = ()          # property_cards(Name, "Card"): its own card pool


@dataclass
class PropertyResult:
    prop: PropertyInfo
    result: SearchResult

    @property
    def holds(self) -> bool | None:
        if self.result.found:
            return False
        return True if self.result.exhausted else None

    def summary(self) -> str:
        r = self.result
        if self.holds:
            return f"holds within scope {r.scope} ({r.covered()}; {r.seconds:.2f}s)"
        if self.holds is None:
            return (f"unknown: the time limit was reached ({r.seconds:.1f}s on this property), "
                    f"scope {r.scope} not exhausted")
        return f"COUNTEREXAMPLE within scope {r.scope} ({r.covered()}; {r.seconds:.2f}s)"

    def to_json(self) -> dict[str, Any]:
        out = {"property": self.prop.name, "text": self.prop.text, "holds": self.holds,
               **self.result.to_json(), "summary": self.summary()}
        out["counterexample"] = out.pop("found")[0] if self.result.found else None
        return out


# ---- the world rewrite --------------------------------------------------------
def _loc() -> ast.Location:
    pos = ast.Position("<search>", 1, 1)
    return ast.Location(pos, pos)


class _AddWorld(AtomRewriter):
    def __init__(self, indexed):
        self.indexed, self.hit = indexed, False

    def atom(self, sig, term):
        if sig is None or sig not in self.indexed:
            return term
        self.hit = True
        return with_first_argument(term, ast.Variable(term.location, WORLD_VAR))


def worldify(statements: list, seeds: set[tuple[str, int]]) -> tuple[list, set[tuple[str, int]]]:
    """Give every predicate that depends on a seed predicate a first argument W (the world).

    A predicate is indexed when it is a seed or the head of a rule whose body or head uses
    an indexed predicate; every rule that mentions one gets `world(W)` in its body.
    Returns the rewritten statements and the indexed signatures.
    """
    if not seeds:
        return list(statements), set()
    indexed = _indexed(statements, seeds)
    world = ast.Literal(_loc(), ast.Sign.NoSign,
                        ast.SymbolicAtom(ast.Function(_loc(), "world", [ast.Variable(_loc(), WORLD_VAR)], 0)))
    return [_with_world(s, indexed, world) for s in statements], indexed


def _indexed(statements: list, seeds: set[tuple[str, int]]) -> set[tuple[str, int]]:
    """The seeds, and the heads of every rule that mentions an indexed predicate (a fixpoint:
    steps.dependents, which the step rewrite of diff --depth shares)."""
    return steps.dependents(statements, seeds)


def _with_world(s: Any, indexed: set[tuple[str, int]], world: Any) -> Any:
    """One statement with W on its indexed atoms (and world(W) in its body when it got one)."""
    t = s.ast_type
    if t in (ast.ASTType.Defined, ast.ASTType.ShowSignature):
        return s.update(arity=s.arity + 1) if (s.name, s.arity) in indexed else s
    if t in (ast.ASTType.Rule, ast.ASTType.Minimize, ast.ASTType.ShowTerm):
        tr = _AddWorld(indexed)
        s = tr(s)
        return s.update(body=list(s.body) + [world]) if tr.hit else s
    return s


def without_show(statements: Iterable) -> list:
    """The statements without their #show directives (the search shows its own atoms)."""
    return [s for s in statements if s.ast_type not in (ast.ASTType.ShowSignature, ast.ASTType.ShowTerm)]


def parse_program(text: str, drop_show: bool = False) -> list:
    stms = parse_text(text)
    return without_show(stms) if drop_show else stms


# ---- the searcher ---------------------------------------------------------------
def fits(zone: str, card: dict) -> bool:
    """Whether a pool card is tried in a zone of the generated snapshots: monsters in the
    Monster Zone, hand, Graveyard, Extra Deck and banished; Spells and Traps (and Union
    monsters, as Equip Cards) in the Spell & Trap Zone, Field Spells in the Field Zone.
    (Where the game lets a card be is still validity.lp's to say: this only keeps the
    search from trying cards that cannot matter.)"""
    field_spell = card.get("spell_type") == "field"
    if zone == "spell_trap_zone":
        return card["kind"] in ("spell", "trap") and not field_spell or bool(card.get("union"))
    if zone == "field_zone":
        return field_spell
    return card["kind"] == "monster"


class Searcher:
    """Searches snapshots with the engine's rules.  Create one per Engine and reuse it."""

    def __init__(self, engine=None, pool: Iterable[str] | None = None):
        if engine is None:
            from .engine import Engine
            engine = Engine()
        self.engine = engine
        names = tuple(pool) if pool else DEFAULT_POOL
        unknown = [n for n in names if n not in engine.cards]
        if unknown:
            raise InvalidInput([Problem("--cards", f"unknown card name {n!r}") for n in unknown])
        self.pool = names
        by_kind: dict[str, list[str]] = {}
        for n in names:
            by_kind.setdefault("monsters" if engine.cards[n]["kind"] == "monster" else "spells/traps", []).append(n)
        self.pool_words = "; ".join(f"{k}: {', '.join(v)}" for k, v in by_kind.items())
        self.search_dir = engine.rules_dir / SEARCH_DIR
        generator = self.search_dir / "generator.lp"
        # the engine's parsed rules (their #show apart), their card part (the search's cards are
        # chosen in ASP, so it derives their facts there) and the generator, parsed once per Engine
        # (grounded whole, never pruned: no pruner's analysis)
        self._rules = engine.prepared("search", lambda rules: without_show(rules) + list(engine.card_part.parsed)
                                      + parse_text(generator.read_text(encoding="utf-8")), pruned=False)

    # ---- program assembly ------------------------------------------------------
    def _slots(self, scope: Scope) -> list[tuple[int, int, str, int]]:
        out: list[tuple[int, int, str, int]] = []
        layout = [(1, "monster_zone", scope.monsters), (2, "monster_zone", scope.monsters),
                  (1, "hand", scope.hand), (1, "graveyard", scope.graveyard),
                  (1, "extra_deck", scope.extra), (1, "banished", scope.banished),
                  (1, "spell_trap_zone", scope.spells), (2, "spell_trap_zone", scope.spells),
                  (1, "field_zone", min(scope.field, 1)), (2, "field_zone", min(scope.field, 1))]
        for player, zone, n in layout:
            for s in range(n):
                out.append((len(out) + 1, player, zone, s))
        return out

    def _facts(self, scope: Scope, names) -> tuple[list[Symbol], list[tuple[Symbol, Symbol]]]:
        """Scope facts, and (head, guard) pairs for the card facts of each slot/pool card."""
        facts: list[Symbol] = []
        guarded: list[tuple[Symbol, Symbol]] = []
        for i, p, z, s in self._slots(scope):
            facts.append(Function("gen_slot", [Number(i), Number(p), const(z), Number(s)]))
            for x, name in enumerate(self.pool, start=1):
                if not fits(z, self.engine.cards[name]):
                    continue
                facts.append(Function("gen_card_choice", [Number(i), Number(x)]))
                guard = Function("gen_card", [Number(i), Number(x)])
                out: list[Symbol] = []
                card_facts(out, Number(i), self.engine.cards[name], names)
                guarded += [(f, guard) for f in out]
        facts += [Function("gen_event_slot", [Number(k)]) for k in range(1, scope.events + 1)]
        facts += [Function("gen_event_kind", [const(e)]) for e in EVENTS]
        facts += [Function("gen_method", [const(m)]) for m in SPECIAL_SUMMON_METHODS]
        facts += [Function("gen_turn", [Number(t)]) for t in (1, 2, 3)]
        facts += [Function("gen_phase", [const(p)]) for p in PHASES]
        facts += [Function("gen_step", [const(s)]) for s in BATTLE_STEPS]
        facts += [Function("gen_chain", [Number(scope.chain)]), Function("gen_attack", [Number(min(scope.attack, 1))])]
        if scope.effects:
            facts += [Function("gen_effect_slot", [Number(k)]) for k in range(1, scope.effects + 1)]
            facts += [Function("gen_effect_kind", [term, const(about)]) for term, (_, about) in
                      self._applied_choices(names).items()]
        for n, value in self.engine.reading_defaults.items():
            facts.append(Function("reading_default", [const(n), const(value)]))
        return facts, guarded

    @staticmethod
    def _applied_choices(names) -> dict[Symbol, tuple[dict, str]]:
        """Effect term -> (entry, card|player) for each applied entry the search may generate (the
        kinds of the engine's vocabulary, which its NameTable holds)."""
        voc = names.table.voc
        return {term_symbol(applied_term(e, names.number, voc)): (e, voc.kinds[e["effect"]].about)
                for e in generated_entries(voc)}

    @staticmethod
    def _action_names() -> str:
        lines = []
        for name, sig in TERM_SIGNATURES.items():
            args = ",".join(f"X{i}" for i in range(len(sig)))
            term = f"{name}({args})" if sig else name
            lines.append(f"gen_action_name({term},{name}) :- pick({term}).")
            if sig and sig[0][1] == "id":
                lines.append(f"gen_action_card({term},X0) :- pick({term}).")
        return "\n".join(lines)

    def _program(self, scope: Scope, seeds: set, extra_text: str, extra_facts: list[Symbol]):
        """The search program: the (world-indexed) rules and generator, the extra text, the
        scope's facts and the pool's card facts, grounded."""
        names = self.engine.names.scope()
        key = "search-worlds:" + ",".join(sorted(f"{n}/{a}" for n, a in seeds))
        stms, indexed = self.engine.prepared(key, lambda _: worldify(self._rules, seeds))
        program = Program(stms)
        program.add(extra_text + "\n" + self._action_names() + "\n#show.\n" + _SHOWN)
        facts, guarded = self._facts(scope, names)
        program.add_facts(facts + extra_facts)
        program.add_guarded(guarded)
        program.ground()
        return program, names, indexed

    # ---- solving -----------------------------------------------------------------
    @staticmethod
    def _solve(program: Program, deadline: float | None, progress, label: str, started: float):
        """Optimal model (symbols) of the current program, and whether the search finished."""
        shown = [started]

        def tick(found: bool) -> None:
            now = time.monotonic()
            if progress is not None and now - started > 1 and now - shown[0] >= 0.5:
                shown[0] = now
                progress(f"{label}: searching, {now - started:.1f}s" +
                         (", a candidate found, proving it minimal" if found else ""))
        return program.optimum(deadline, tick)

    def _search(self, scope: Scope, seeds: set, extra_text: str, extra_facts: list[Symbol], count: int,
                timeout: float | None, progress, label: str, worlds: dict[int, tuple[str, dict]]) -> SearchResult:
        started = time.monotonic()
        deadline = None if timeout is None else started + timeout
        program, names, _ = self._program(scope, seeds, extra_text, extra_facts)
        found: list[Counterexample] = []
        exhausted = timed_out = False
        for n in range(count):
            symbols, finished, optimal = self._solve(program, deadline, progress, label, started)
            timed_out = not finished
            if symbols is None:
                exhausted = finished
                break
            found.append(self._counterexample(symbols, names, worlds, optimal))
            if timed_out:
                break
            if n + 1 < count:
                exclusion = self._exclusion(symbols)
                if exclusion is None:
                    break
                part = f"exclude_{n}"
                program.add(exclusion, part)
                program.ground(part)
        return SearchResult(found, exhausted, scope, time.monotonic() - started, self.pool, label, timed_out,
                            self.pool_words)

    # ---- several actions (diff --depth) -------------------------------------------------
    def _deep_rules(self) -> tuple[list[str], set[steps.Sig], set[steps.Sig]]:
        """The rules and the generator rewritten by steps (pyrules/steps.py), as clingo's texts, with the state facts
        and the facts a successor gives (for the rules joining the steps): made once per rules version and kept
        in the cache folder (pyrules/cache.py: a new key when a rule file, the generator or pyrules changes)."""
        generator = self.search_dir / "generator.lp"

        def rewrite() -> dict[str, Any]:
            base = without_show(self.engine.statements.parsed) + list(self.engine.card_part.parsed)
            state = steps.state_facts(base)
            heads = {sig for s in base if s.ast_type == ast.ASTType.Rule for sig, _ in head_body(s)[0]}
            snapshot_part, stepped_part = steps.split_generator(parse_text(generator.read_text(encoding="utf-8")),
                                                                state, heads)
            stms, worlds, stepped = steps.stepify(base + stepped_part, WORLD_SEEDS, state | steps.FOCUS)
            stms = steps.projected(stms, steps.rewritten(worlds, stepped))
            return {"texts": [str(s) for s in stms + snapshot_part], "state": sorted(state),
                    "targets": sorted(steps.next_targets(base))}

        def read(got: Any) -> tuple[list[str], set[steps.Sig], set[steps.Sig]]:
            texts, state, targets = got["texts"], got["state"], got["targets"]
            if not all(isinstance(t, str) for t in texts):
                raise TypeError("texts")
            return texts, {(n, a) for n, a in state}, {(n, a) for n, a in targets}

        def to_json(made: tuple[list[str], set[steps.Sig], set[steps.Sig]]) -> dict[str, Any]:
            return {"texts": made[0], "state": sorted(made[1]), "targets": sorted(made[2])}

        def make(_: list) -> tuple[list[str], set[steps.Sig], set[steps.Sig]]:
            k = cache.key([*self.engine.files, generator], "search-steps")
            return cache.cached("search-steps", k, lambda: read(rewrite()), to_json, read)
        return self.engine.prepared("search-steps", make, pruned=False)

    def _deep_search(self, scope: Scope, depth: int, extra_facts: list[Symbol], timeout: float | None, progress,
                     label: str, worlds: dict[int, tuple[str, dict]]) -> SearchResult:
        """Sequences of 1 to `depth` actions (iterative deepening): the smallest start snapshot (the
        generator's #minimize) wins, and among equal ones the shortest sequence.  So each depth after the
        first asks only for an answer strictly smaller than the best one yet (clingo's optimisation bound),
        which is all it could add."""
        started = time.monotonic()
        deadline = None if timeout is None else started + timeout
        texts, state, targets = self._deep_rules()
        own = [str(s) for s in parse_text((self.search_dir / "diff_depth.lp").read_text(encoding="utf-8"))]
        best: tuple[list[int], list[Symbol], bool, Any] | None = None
        finished = True
        for d in range(1, depth + 1):
            names = self.engine.names.scope()
            program = Program()
            program.add("\n".join(steps.unrolled([*texts, *own], d - 1)) + "\n" + steps.bridges(state, targets, d - 1)
                        + "\n#show.\n" + _SHOWN)
            facts, guarded = self._facts(scope, names)
            program.add_facts(facts + extra_facts + [Function("depth_last", [Number(d - 1)])])
            program.add_guarded(guarded)
            program.ground()
            if best is not None:
                program.bound_below(best[0])
            symbols, done, optimal, cost = _optimum(program, deadline, progress, f"{label} --depth {d}", started)
            finished = finished and done
            if symbols is not None and (best is None or cost < best[0]):
                best = (cost, list(symbols), optimal, names)
            if not done:
                break
        found = [] if best is None else [self._deep_counterexample(best[1], best[3], worlds, best[2] and finished)]
        return SearchResult(found, finished and not found, scope, time.monotonic() - started, self.pool, label,
                            not finished, self.pool_words, depth)

    def _deep_counterexample(self, symbols: list[Symbol], names, worlds: dict[int, tuple[str, dict]],
                             optimal: bool) -> Counterexample:
        """The start snapshot, the actions done (depth_do/2) and the action whose verdicts differ; each world
        replayed by Engine.next and judged by Engine.check (`reproduced`: they agree with the search)."""
        snap, card_id = self.snapshot_of(symbols, names)
        enc = Encoding(game=cast(Game, None), names=names, card_id=card_id, player_key=dict(PLAYER_KEYS))
        members: dict[int, dict[Any, list[str]]] = {}        # step -> set term (symbol_key) -> card ids
        for s in symbols:
            if s.name == "depth_member":
                step, term, card = s.arguments
                members.setdefault(step.number, {}).setdefault(symbol_key(term), []).append(card_id[card.number])
        done = sorted((s.arguments[0].number, s.arguments[1]) for s in symbols if s.name == "depth_do")
        before = tuple(decode_action(enc, a, members.get(step, {})) for step, a in done)
        pick = next(s.arguments[0] for s in symbols if s.name == "pick")
        action = decode_action(enc, pick, members.get(len(before), {}))
        out_worlds = {label: self._deep_world(symbols, snap, before, action, w, readings)
                      for w, (label, readings) in worlds.items()}
        reproduced = all([entry.pop("reproduced") for entry in out_worlds.values()])
        n_cards = sum(1 for s in symbols if s.name == "gen_card")
        n_events = sum(1 for s in symbols if s.name == "event")
        return Counterexample(snap, action, n_cards, n_events, out_worlds, reproduced, (), optimal, before)

    def _deep_world(self, symbols: list[Symbol], snap: dict, before: tuple[Action, ...], action: Action, w: int,
                    readings: dict) -> dict[str, Any]:
        """One world's verdict in the model, and the engine's: the actions done one by one with Engine.next
        (each must be permitted), then Engine.check on the last snapshot."""
        entry = self._world(symbols, None, None, w, readings)      # the model's verdict (no engine call)
        current = snap
        try:
            for act in before:
                successor = self.engine.next(current, act, readings or None)
                if successor.snapshot is None:
                    entry["reproduced"] = False
                    entry["invalid"] = [f"{act.term()} is forbidden: " + ", ".join(r.rule for r in successor.verdict.reasons)]
                    return entry
                current = successor.snapshot
            v = self.engine.check(current, action, readings or None)
        except RuntimeError as e:                   # a successor the rules refuse: the search and next disagree
            entry["invalid"] = [str(e)]
            entry["reproduced"] = False
            return entry
        except InvalidInput as e:
            entry["invalid"] = [str(p) for p in e.problems]
            entry["reproduced"] = False
            return entry
        permitted, reasons = entry["model"]
        entry["verdict"] = v
        entry["reproduced"] = v.permitted == permitted and tuple(sorted(r.rule for r in v.reasons)) == reasons
        return entry

    @staticmethod
    def _core(symbols: list[Symbol]) -> tuple[Symbol, ...]:
        """What makes the readings part in this answer: its diff_core/1 atoms (rules/search/diff.lp:
        the action's kind, each world's verdict, reasons and what they cite), in order."""
        return tuple(sorted((s.arguments[0] for s in symbols if s.name == "diff_core" and len(s.arguments) == 1),
                            key=symbol_key))

    def _exclusion(self, symbols: list[Symbol]) -> str | None:
        """A constraint ruling out every later answer whose core holds this one's core: a further
        counterexample differs in what makes the readings part, not by padding (an event or a card
        beside them); None when the answer has no core (a property's counterexample)."""
        core = self._core(symbols)
        if not core:
            return None
        return ":- " + ", ".join(f"diff_core({x})" for x in core) + "."

    # ---- model -> snapshot ------------------------------------------------------------
    def _counterexample(self, symbols: list[Symbol], names, worlds: dict[int, tuple[str, dict]],
                        optimal: bool) -> Counterexample:
        snap, card_id = self.snapshot_of(symbols, names)
        action = self._action(symbols, names, card_id)
        readings_in = {s.arguments[0].name: s.arguments[1].name for s in symbols
                       if s.name == "selected_reading" and len(s.arguments) == 2}
        if readings_in:
            snap["readings"] = dict(sorted(readings_in.items()))
        out_worlds = {label: self._world(symbols, snap, action, w, readings) for w, (label, readings) in worlds.items()}
        reproduced = all([entry.pop("reproduced") for entry in out_worlds.values()])
        n_cards = sum(1 for s in symbols if s.name == "gen_card")
        n_events = sum(1 for s in symbols if s.name == "event")
        core = tuple(str(x) for x in self._core(symbols))
        return Counterexample(snap, action, n_cards, n_events, out_worlds, reproduced, core, optimal)

    def _action(self, symbols: list[Symbol], names, card_id: dict[int, str]) -> Action | None:
        """The action a counterexample is about (pick/1), with its card sets; None for none."""
        # decoding needs only the maps back to ids, not a Game
        enc = Encoding(game=cast(Game, None), names=names, card_id=card_id, player_key=dict(PLAYER_KEYS))
        members: dict[Any, list[str]] = {}          # set term (symbol_key) -> card ids
        for s in symbols:
            a = s.arguments
            if s.name == "member" and (len(a) == 2 or a[0] == Number(1)):
                members.setdefault(symbol_key(a[-2]), []).append(card_id[a[-1].number])
        pick = next(s.arguments[0] for s in symbols if s.name == "pick")
        if pick.type == SymbolType.Function and pick.name == "none" and not pick.arguments:
            return None
        return decode_action(enc, pick, members)

    def _world(self, symbols: list[Symbol], snap: dict | None, action: Action | None, w: int,
               readings: dict) -> dict[str, Any]:
        """One world's verdict in the model, and Engine.check's on the printed snapshot
        (`reproduced`: whether they agree)."""
        verdicts = [s.arguments[2].name for s in symbols if s.name == "verdict" and s.arguments[0].number == w]
        permitted = "permitted" in verdicts
        reasons = tuple(sorted(r for r in verdicts if r != "permitted"))
        entry: dict[str, Any] = {"readings": dict(readings), "model": (permitted, reasons), "reproduced": True}
        if snap is None:                        # the model's verdict only (diff --depth replays it itself)
            return entry
        try:
            if action is None:
                self.engine.legal(snap)
                return entry
            v = self.engine.check(snap, action, readings or None)
        except InvalidInput as e:
            entry["invalid"] = [str(p) for p in e.problems]
            entry["reproduced"] = False
            return entry
        entry["verdict"] = v
        entry["reproduced"] = v.permitted == permitted and tuple(sorted(r.rule for r in v.reasons)) == reasons
        return entry

    def snapshot_of(self, symbols: list[Symbol], names) -> tuple[dict, dict[int, str]]:
        """The snapshot (contract format) an answer describes, and card number -> id."""
        r = AnswerReader.generated(symbols, self.pool)
        snap = r.snapshot()
        applied = r.applied(self._applied_choices(names)) if "applied" in r.by else []
        if applied:
            attack = snap.pop("attack", None)
            snap["effects"] = applied
            if attack is not None:
                snap["attack"] = attack
        return snap, r.card_id

    # ---- the two questions ----------------------------------------------------------
    def diff(self, reading: str, values: tuple[str, str] | None = None, scope: Scope | None = None,
             count: int = 1, timeout: float | None = None,
             progress: Callable[[str], None] | None = None, depth: int = 1) -> SearchResult:
        """Smallest snapshots where some action's verdict differs between two values of a reading.

        depth N > 1: the smallest snapshot and sequence of up to N actions, each before the last permitted
        under both values, after which the last one's verdicts differ (bounded model checking over the
        rules of rules/next/: pyrules/steps.py); its scope defaults to DEPTH_SCOPE."""
        if not 1 <= depth <= MAX_DEPTH:
            raise InvalidInput(Problem("--depth", f"give a depth from 1 to {MAX_DEPTH}, got {depth}"))
        if depth > 1 and count != 1:
            raise InvalidInput(Problem("--count", "with --depth above 1 the search gives one counterexample"))
        readings = self.engine.catalogue.readings
        if reading not in readings:
            raise InvalidInput(Problem("READING", f"unknown reading {reading!r} (known: {', '.join(sorted(readings))})"))
        known = list(readings[reading].values)
        if values is None:
            default = readings[reading].default
            values = tuple([default] + [v for v in known if v != default])[:2]
        problems = [Problem("--values", f"unknown value {v!r} of {reading} (one of: {', '.join(known)})")
                    for v in values if v not in known]
        if len(values) != 2 or len(set(values)) != 2:
            problems.append(Problem("--values", "give two different values, e.g. --values A,B"))
        if problems:
            raise InvalidInput(problems)
        facts = [Function("diff_value", [Number(w), const(reading), const(v)]) for w, v in enumerate(values, 1)]
        text = (self.search_dir / "diff.lp").read_text(encoding="utf-8")
        worlds = {w: (v, {reading: v}) for w, v in enumerate(values, 1)}
        # a reading may name its own card pool (search/readings.lp); a pool chosen with --cards wins
        own = self.reading_cards().get(reading)
        searcher = Searcher(self.engine, own) if own and self.pool == DEFAULT_POOL else self
        if depth > 1:
            return searcher._deep_search(scope or DEPTH_SCOPE, depth, facts, timeout, progress, f"diff {reading}",
                                         worlds)
        return searcher._search(scope or Scope(), WORLD_SEEDS, text, facts, count, timeout, progress,
                                f"diff {reading}", worlds)

    def reading_cards(self) -> dict[str, tuple[str, ...]]:
        """reading_cards(Name, "Card") of search/readings.lp: the card pool a reading's diff searches."""
        path = self.search_dir / "readings.lp"
        cards: dict[str, list[str]] = {}
        if path.is_file():
            for s in atoms_of(text=read_file(path, None, str(path))):
                if s.name == "reading_cards" and len(s.arguments) == 2 and s.arguments[1].type == SymbolType.String:
                    cards.setdefault(s.arguments[0].name, []).append(s.arguments[1].string)
        return {k: tuple(v) for k, v in cards.items()}

    def property_files(self, extra: Iterable[str | Path] = ()) -> list[Path]:
        files = sorted((self.search_dir / "properties").glob("*.lp"))
        for f in extra:
            p = Path(f)
            if not p.is_file():
                raise InvalidInput(Problem(str(f), "no such rules file"))
            files.append(p)
        return files

    def properties(self, extra: Iterable[str | Path] = ()) -> dict[str, PropertyInfo]:
        """The declared properties: property(Name, Text) and property_scope(Name, Key, N) facts."""
        out: dict[str, PropertyInfo] = {}
        for path in self.property_files(extra):
            try:
                atoms = atoms_of(text=read_file(path, None, str(path)))
            except RuntimeError as e:
                raise InvalidInput(Problem(str(path), f"not a valid clingo program: {e}")) from None
            scopes: dict[str, dict[str, int]] = {}
            cards: dict[str, list[str]] = {}
            for s in atoms:
                if s.name == "property_scope" and len(s.arguments) == 3:
                    scopes.setdefault(s.arguments[0].name, {})[s.arguments[1].name] = s.arguments[2].number
                if s.name == "property_cards" and len(s.arguments) == 2 and s.arguments[1].type == SymbolType.String:
                    cards.setdefault(s.arguments[0].name, []).append(s.arguments[1].string)
            for s in atoms:
                if s.name == "property" and len(s.arguments) == 2:
                    name = s.arguments[0].name
                    text = s.arguments[1].string if s.arguments[1].type == SymbolType.String else str(s.arguments[1])
                    out[name] = PropertyInfo(name, text, str(path), scopes.get(name, {}),
                                             tuple(sorted(cards.get(name, ()))))
        return out

    def verify(self, names: Iterable[str] = (), files: Iterable[str | Path] = (), scope: Scope | str | None = None,
               timeout: float | None = None, progress: Callable[[str], None] | None = None) -> list[PropertyResult]:
        """Check each property: holds within its scope, or its minimal counterexample.

        scope: a Scope used as it is for every property, or the text of --scope
        ('monsters=3'), whose keys go over each property's own scope (property_scope/3) and
        the defaults.  timeout: seconds for the whole run; a property reached after it is
        reported as unknown without being searched."""
        started = time.monotonic()
        if isinstance(scope, str):
            Scope.parse(scope)                 # a bad --scope is reported before any search
        files = list(files)
        props = self.properties(files)
        names = list(names) or sorted(props)
        unknown = [n for n in names if n not in props]
        if unknown:
            raise InvalidInput([Problem("NAME", f"unknown property {n!r} (known: {', '.join(sorted(props))})")
                                for n in unknown])
        text = "\n".join([(self.search_dir / "verify.lp").read_text(encoding="utf-8"),
                          (self.engine.rules_dir / "catalogue" / "reasons.lp").read_text(encoding="utf-8")] +
                         [read_file(p, None, str(p)) for p in self.property_files(files)])
        catalogue = self.engine.catalogue.readings
        reading_facts = [Function("verify_reading", [const(n), const(v)])
                         for n, r in catalogue.items() for v in r.values if v != r.default]
        out = []
        for name in names:
            prop = props[name]
            own = Scope().with_(**{k: v for k, v in prop.scope.items() if k in Scope.KEYS})
            sc = scope if isinstance(scope, Scope) else Scope.parse(scope, own)
            facts = reading_facts + [Function("verify_target", [const(name)])]
            # a property may name its own card pool; a pool chosen with --cards wins
            searcher = Searcher(self.engine, prop.cards) if prop.cards and self.pool == DEFAULT_POOL else self
            left = None if timeout is None else timeout - (time.monotonic() - started)
            if left is not None and left <= 0:
                res = SearchResult([], False, sc, 0.0, searcher.pool, f"verify {name}", timed_out=True,
                                   cards=searcher.pool_words)
            else:
                res = searcher._search(sc, set(), text, facts, 1, left, progress, f"verify {name}",
                                       {1: ("counterexample", {})})
            out.append(PropertyResult(prop, res))
        return out


def _optimum(program: Program, deadline: float | None, progress, label: str, started: float):
    """The optimal model of a grounded program: (its shown atoms or None, finished, proved optimal, its cost),
    as Program.optimum, with the cost that compares answers of several programs (diff --depth)."""
    best: list = [None, []]
    shown = [started]

    def on_model(m) -> None:
        best[0], best[1] = m.symbols(shown=True), list(m.cost)

    with program.ctl.solve(on_model=on_model, async_=True) as handle:
        while True:
            remaining = None if deadline is None else deadline - time.monotonic()
            if remaining is not None and remaining <= 0:
                handle.cancel()
                return best[0], False, False, best[1]
            if handle.wait(0.25 if remaining is None else min(0.25, remaining)):
                break
            now = time.monotonic()
            if progress is not None and now - started > 1 and now - shown[0] >= 0.5:
                shown[0] = now
                progress(f"{label}: searching, {now - started:.1f}s")
        res = handle.get()
    return best[0], True, bool(res.exhausted) and best[0] is not None, best[1]


_SHOWN = "\n".join(f"#show {p}/{n}." for p, n in [
    ("gen_card", 2), ("zone", 3), ("slot", 2), ("owner", 2), ("position", 2), ("face", 2),
    ("properly_summoned", 1), ("chain_link", 4), ("priority", 1), ("window", 1), ("passed", 0),
    ("moving_to", 1), ("winner", 1),
    ("event_summoning", 1), ("event_phase", 2), ("turn", 1), ("phase", 1), ("battle_step", 1),
    ("deck_size", 2), ("event", 2), ("event_card", 2), ("event_player", 2), ("event_how", 2),
    ("event_target", 2), ("event_negated", 1), ("event_replay", 1), ("event_method", 2), ("event_to", 2),
    ("event_tribute", 2), ("attack_attacker", 1), ("attack_target", 1), ("target_at_declaration", 1),
    ("member", 2), ("member", 3), ("equipped_to", 2), ("applied", 2), ("applied_card", 2), ("applied_player", 2)])


def case_of(cx: Counterexample, name: str, source: str) -> dict:
    """A ruling case (pyrules/cases.py format) that pins each world's verdict on the action."""
    assert cx.action is not None, "a case needs the action the counterexample is about"
    checks = []
    for label, w in cx.worlds.items():
        v = w.get("verdict")
        chk: dict[str, Any] = {"action": cx.action.term(), "permitted": bool(v.permitted if v else w["model"][0])}
        reasons = [r.rule for r in v.reasons] if v else list(w["model"][1])
        if reasons and not chk["permitted"]:
            chk["reasons"] = reasons
        if w["readings"]:
            chk["readings"] = dict(w["readings"])
        checks.append(chk)
    snap = {k: v for k, v in cx.snapshot.items()}
    return {"name": name, "source": source, "snapshot": snap, "checks": checks}


class Progress:
    """Progress lines on a terminal (stderr), rewritten in place; silent elsewhere."""

    def __init__(self, stream):
        self.stream = stream
        self.active = hasattr(stream, "isatty") and stream.isatty()
        self.shown = False
        self.lock = threading.Lock()

    def __call__(self, message: str) -> None:
        if not self.active:
            return
        with self.lock:
            self.stream.write("\r\x1b[K" + message)
            self.stream.flush()
            self.shown = True

    def clear(self) -> None:
        if self.shown:
            self.clear_line()

    def clear_line(self) -> None:
        """Rubs out the terminal's current line (one another process may have drawn)."""
        if self.active:
            self.stream.write("\r\x1b[K")
            self.stream.flush()
            self.shown = False


# ---- readable output ----------------------------------------------------------------
ZONE_WORDS = [("monsters", "monsters"), ("spells_traps", "spells/traps"), ("field_spell", "field spell"),
              ("hand", "hand"), ("extra_deck", "Extra Deck"), ("graveyard", "Graveyard"), ("banished", "banished")]


def _side_lines(key: str, side: dict) -> list[str]:
    """One player's cards: a line per zone."""
    parts = []
    for zkey, word in ZONE_WORDS:
        items = side.get(zkey)
        if isinstance(items, dict):                 # field_spell: one entry
            items = [items]
        if items:
            parts.append(f"{word}: " + "; ".join(entry_line(e) for e in items))
    if "deck" in side:
        parts.append(f'Deck: {side["deck"]} cards')
    if not parts:
        return [f"{key}  (no cards)"]
    return [f"{key if n == 0 else ' '}  {p}" for n, p in enumerate(parts)]


def board_lines(snap: dict) -> list[str]:
    """A snapshot as a few lines of plain text."""
    step = f', {snap["battle_step"]} step' if "battle_step" in snap else ""
    links = [c if isinstance(c, str) else f'{c["card"]} (by {c.get("player", "?")})' for c in snap.get("chain") or ()]
    who = (f'; {snap["priority"]} has priority' if "priority" in snap else "") + \
        ("; the last event's window is open" if snap.get("window") == "event" else "") + \
        ("; the other player has just passed" if snap.get("passed") else "")
    out = [f'Turn {snap.get("turn", 3)}, {snap.get("turn_player", "A")}\'s {PHASE_NAMES[snap.get("phase", "main1")]}{step}'
           + (f'; on the chain: {", ".join(links)}' if links else "; no chain") + who]
    for key, side in snap.get("players", {}).items():
        out += _side_lines(key, side)
    events = snap.get("this_turn") or []
    out.append("This turn:" if events else "This turn: nothing yet")
    out += [f"  {k}. {event_line(ev)}" for k, ev in enumerate(events, 1)]
    if snap.get("attack"):
        a = snap["attack"]
        out.append(f'Attack in progress: {a["attacker"]} on {a["target"]} (targets at declaration: '
                   f'{", ".join(a["targets_at_declaration"]) or "none"})')
    out += [f"Applied effect: {applied_words(e)}" for e in snap.get("effects") or ()]
    if snap.get("readings"):
        out.append("Readings: " + ", ".join(f"{k}={v}" for k, v in snap["readings"].items()))
    return out


def format_counterexample(cx: Counterexample, n: int | None = None) -> str:
    head = "Counterexample" + (f" {n}" if n is not None else "")
    size = f'{cx.cards} card{"s" * (cx.cards != 1)}, {cx.events} event{"s" * (cx.events != 1)}'
    lines = [f"{head} ({size}{', minimal' if cx.optimal else ''})"]
    lines += ["  " + line for line in board_lines(cx.snapshot)]
    if cx.before:
        lines.append("  Actions, each permitted under both values:")
        lines += [f"    {k}. {a.term()}" for k, a in enumerate(cx.before, 1)]
    if cx.action is not None:
        lines.append(f"  {'Then' if cx.before else 'Action'}: {cx.action.term()}")
        width = max(len(_world_label(w)) for w in cx.worlds.values())
        for w in cx.worlds.values():
            v = w.get("verdict")
            permitted = v.permitted if v else w["model"][0]
            lines.append(f"    {_world_label(w).ljust(width)}  {'PERMITTED' if permitted else 'FORBIDDEN'}")
            lines += [f"      {line}" for r in (v.reasons if v else ()) for line in reason_lines(r)]
    lines.append(f"  Reproduced by pyrules {'next and check' if cx.before else 'check'}: " + ("yes" if cx.reproduced else "NO (please report: the search "
                                                                             "and the engine disagree)"))
    return "\n".join(lines)


def _world_label(w: dict) -> str:
    return ", ".join(f"{k}={v}" for k, v in w["readings"].items()) or "verdict"


def parse_card_names(text: str | None, known) -> tuple[str, ...] | None:
    """'Battle Ox,Gaia Knight, the Force of Earth' -> names; commas inside a known name are kept."""
    if not text:
        return None
    parts = [p.strip() for p in text.split(",")]
    out, i = [], 0
    while i < len(parts):
        for j in range(len(parts), i, -1):
            name = ", ".join(parts[i:j])
            if name in known:
                out.append(name)
                i = j
                break
        else:
            if parts[i]:
                raise InvalidInput(Problem("--cards", f"unknown card name {parts[i]!r}"))
            i += 1
    return tuple(dict.fromkeys(out))
