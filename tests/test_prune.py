"""Leaving out the rules that cannot fire (pyrules/prune.py) changes no answer: for every
ruling case, the shown atoms of legal() (with the forbidden candidates and their reasons)
and of each check are the same with the whole program and with the rules kept (legal()'s
also with the kept statements given to clingo as text, as a new Engine's first queries do)."""
from __future__ import annotations

from pathlib import Path

import pytest
from clingo import Function, parse_term

from pyrules import Engine
from pyrules.actions import parse_action
from pyrules.cases import DEFAULTS, _readings, load_cases, merge
from pyrules.errors import InvalidInput
from pyrules.dependencies import analyse
from pyrules.prune import Pruner
from pyrules.solver import Statements, ground_and_solve, parse_text, pruner

CASES = sorted((Path(__file__).parent / "cases").glob("*.yaml"))
_ENGINE: list[Engine] = []


def _pruner(statements):
    """A Pruner with its analysis made now (pyrules/dependencies.py)."""
    return Pruner(statements, analyse(statements))


def engine() -> Engine:
    if not _ENGINE:
        _ENGINE.append(Engine())
    return _ENGINE[0]


_AS_TEXT: list[Statements] = []


def as_text(eng: Engine) -> Statements:
    """The engine's rules, always given to clingo as the statements' texts (never parsed)."""
    if not _AS_TEXT:
        got = Statements(eng.statements.texts)
        got.TEXT_QUERIES = 10 ** 9
        pruner(got, pruner(eng.statements).analysis)
        _AS_TEXT.append(got)
    return _AS_TEXT[0]


def queries(case: dict):
    """(readings, action or None) of the legal() query and of each check of a case."""
    base = _readings(case.get("readings"))
    yield base, None
    for chk in case.get("checks") or []:
        yield {**base, **_readings(chk.get("readings"))}, chk["action"]


def _same(eng: Engine, facts: list, label: str, text_too: bool = False) -> list[str]:
    list(eng.statements)                        # (parsed: the AST statements are replayed)
    whole = sorted(map(str, ground_and_solve(eng.statements, facts, prune=False)))
    kept = sorted(map(str, ground_and_solve(eng.statements, facts)))
    assert kept == whole, label
    if text_too:        # (the texts are the statements: test_the_statements_texts_parse_back...)
        as_texts = sorted(map(str, ground_and_solve(as_text(eng), facts)))
        assert as_texts == whole, f"{label} (the kept statements as text)"
    return whole


def _candidates(shown: list[str]) -> set[str]:
    """The action terms legal judged (permitted, or forbidden with a reason), as text."""
    out = set()
    for atom in shown:
        term = parse_term(atom)
        if term.name in ("permitted", "forbidden") and term.arguments:
            out.add(str(term.arguments[0]))
    return out


@pytest.mark.parametrize("path", CASES, ids=[p.stem for p in CASES])
def test_the_rules_kept_give_the_same_answers(path):
    """legal() with every candidate's reasons, for each case; and each check whose action
    legal() did not judge with the same readings (a check of an action legal() judged
    gets legal()'s verdict: tests/test_legal_complete.py)."""
    eng = engine()
    compared = 0
    for case in load_cases(path):
        if case.get("invalid") or "invalid_action" in case:
            continue
        snap = merge(DEFAULTS, case.get("snapshot"))
        judged: set[str] = set()
        for readings, action in queries(case):
            try:
                _, facts, term = eng.encode(snap, readings, None if action is None else parse_action(action))
            except InvalidInput:
                continue
            if action is None:
                facts.append(Function("report_forbidden"))
                judged = _candidates(_same(eng, facts, case["name"], text_too=True))
            elif readings != _readings(case.get("readings")) or str(term) not in judged:
                _same(eng, facts, f"{case['name']}: {action}")
            compared += 1
    assert compared > 0


def test_a_rule_that_needs_what_nothing_gives_is_left_out():
    rules = parse_text("a(1). b(X) :- a(X), c(X). d(X) :- a(X), not c(X). e(X) :- kind(X, spell). "
                       "f :- b(_). g(X) :- kind(X, K).")
    kept = [str(s) for s in _pruner(rules).kept([parse_term("kind(1,monster)")])]
    assert "b(X) :- a(X); c(X)." not in kept and "f :- b(_)." not in kept   # c/1 never holds
    assert "e(X) :- kind(X,spell)." not in kept                           # no kind(_, spell)
    assert "d(X) :- a(X); not c(X)." in kept and "g(X) :- kind(X,K)." in kept
    kept = [str(s) for s in _pruner(rules).kept([parse_term("kind(1,spell)")])]
    assert "e(X) :- kind(X,spell)." in kept


def test_with_show_a_rule_whose_head_nothing_reads_is_left_out():
    """With #show, only what a #show, a constraint or a kept rule's body reads is needed;
    without #show every atom is answered, so every rule that can fire is kept."""
    text = ("a(1). b(X) :- a(X). c(X) :- b(X). d(X) :- a(X). e(X) :- d(X), not c(X). "
            ":- a(X), h(X). h(X) :- a(X), X > 1. {k(X)} :- a(X).")
    kept = [str(s) for s in _pruner(parse_text(text + " #show e/1.")).kept([])]
    assert "b(X) :- a(X)." in kept and "c(X) :- b(X)." in kept            # read by e's body, under not
    assert "d(X) :- a(X)." in kept and "e(X) :- d(X); not c(X)." in kept
    assert "h(X) :- a(X); X > 1." in kept and any(s.startswith("{ k(X) }") for s in kept)  # a constraint reads h; a choice stays
    kept = [str(s) for s in _pruner(parse_text(text + " #show d/1.")).kept([])]
    assert "e(X) :- d(X); not c(X)." not in kept and "c(X) :- b(X)." not in kept and "b(X) :- a(X)." not in kept
    assert "d(X) :- a(X)." in kept
    kept = [str(s) for s in _pruner(parse_text(text)).kept([])]
    assert "c(X) :- b(X)." in kept and "e(X) :- d(X); not c(X)." in kept


def test_a_comparison_of_a_variable_needs_its_functor_at_the_variables_places():
    rules = parse_text("h(A) :- p(A,T), T = (t(_); u). g(A) :- p(A,T), T = v(1). k(A) :- p(A,T), v(_) = T. "
                       "m(A) :- p(A,T), T = X + 1, q(X). n(A) :- p(A,T), not T = v(1).")
    kept = [str(s) for s in _pruner(rules).kept([parse_term("p(1,t(2))"), parse_term("q(1)")])]
    assert "h(A) :- p(A,T); T = (t(_);u)." in kept                        # one element of the pool is there
    assert "g(A) :- p(A,T); T = v(1)." not in kept and "k(A) :- p(A,T); v(_) = T." not in kept
    assert "m(A) :- p(A,T); T = (X+1); q(X)." in kept and "n(A) :- p(A,T); not T = v(1)." in kept
    kept = [str(s) for s in _pruner(rules).kept([parse_term("p(1,v(1))")])]
    assert "g(A) :- p(A,T); T = v(1)." in kept and "h(A) :- p(A,T); T = (t(_);u)." not in kept


def test_what_is_written_inside_a_given_predicates_compound_arguments_is_needed():
    """Inside the compound arguments of a predicate only facts give, a written constant must be
    in some fact at that place; inside those of a derived predicate nothing is needed (its rules
    do not say what they put there)."""
    rules = parse_text("ign(C) :- eff(C,m(ignition,_,field)). trig(C) :- eff(C,m(trigger,_,_)). "
                       "any(C) :- eff(C,m(_,_,_)). two(C) :- eff(C,m(_,n(b),_)). "
                       "on(C,E) :- eff(C,E). d(C) :- on(C,m(ignition,_,_)).")
    kept = [str(s) for s in _pruner(rules).kept([parse_term("eff(1,m(trigger,n(a),hand))")])]
    assert "trig(C) :- eff(C,m(trigger,_,_))." in kept and "any(C) :- eff(C,m(_,_,_))." in kept
    assert "ign(C) :- eff(C,m(ignition,_,field))." not in kept          # no m(ignition,...,...)
    assert "two(C) :- eff(C,m(_,n(b),_))." not in kept                  # two levels in: n(a) only
    assert "d(C) :- on(C,m(ignition,_,_))." in kept                     # on/2 is derived: not looked into
    kept = [str(s) for s in _pruner(rules).kept([parse_term("eff(1,m(ignition,n(b),hand))")])]
    assert "two(C) :- eff(C,m(_,n(b),_))." in kept and "ign(C) :- eff(C,m(ignition,_,field))." not in kept
    rules = parse_text("eff(2,m(ignition,n(2),field)). ign(C) :- eff(C,m(ignition,_,field)).")
    assert any(str(s).startswith("ign(C)") for s in _pruner(rules).kept([]))   # eff/2 given by a rule too


def test_a_card_placed_in_a_zone_by_the_rule_needs_a_fact_of_a_card_there():
    """A literal over a predicate only facts give, whose card a `zone(C,P,Z)` literal of the same rule
    places in zone Z, needs such a fact of a card that is in Z: the facts of cards elsewhere do not
    count (unless zone/3 is derived, when the zones are not the facts')."""
    rules = parse_text("f(C) :- eff(C,m(field)), zone(C,P,monster_zone). h(C) :- eff(C,m(hand)), zone(C,P,hand). "
                       "a(C) :- eff(C,m(_)), zone(C,_,Z).")
    facts = [parse_term(f) for f in ("eff(1,m(field))", "zone(1,1,hand)", "eff(2,m(hand))", "zone(2,1,monster_zone)")]
    kept = [str(s) for s in _pruner(rules).kept(facts)]
    assert "f(C) :- eff(C,m(field)); zone(C,P,monster_zone)." not in kept    # the field entry's card is in hand
    assert "h(C) :- eff(C,m(hand)); zone(C,P,hand)." not in kept            # and the hand entry's on the field
    assert "a(C) :- eff(C,m(_)); zone(C,_,Z)." in kept
    facts[1] = parse_term("zone(1,1,monster_zone)")
    kept = [str(s) for s in _pruner(rules).kept(facts)]
    assert "f(C) :- eff(C,m(field)); zone(C,P,monster_zone)." in kept
    named = [parse_term(f) for f in ("eff(a,m(field))", "zone(a,1,monster_zone)")]      # (cards that are no number)
    assert "f(C) :- eff(C,m(field)); zone(C,P,monster_zone)." in [str(s) for s in _pruner(rules).kept(named)]
    derived = parse_text("zone(3,1,hand) :- eff(3,_). h(C) :- eff(C,m(hand)), zone(C,P,hand).")
    kept = [str(s) for s in _pruner(derived).kept(facts)]
    assert "h(C) :- eff(C,m(hand)); zone(C,P,hand)." in kept


def test_const_names_and_external_atoms_keep_rules():
    rules = parse_text("#const t = spell. e(X) :- kind(X, t).")
    assert any("e(X)" in str(s) for s in _pruner(rules).kept([parse_term("kind(1,spell)")]))
    rules = parse_text("#external c(1). b :- c(1).")
    assert any(str(s) == "b :- c(1)." for s in _pruner(rules).kept([]))


def test_what_a_variable_carries_into_a_head_is_followed():
    rules = parse_text("on(E,I) :- effect(I,E). locked(I) :- on(cannot_attack,I). "
                       "fused(I) :- on(material(N,C),I). any(I) :- on(E,I).")
    kept = [str(s) for s in _pruner(rules).kept([parse_term("effect(1,cannot_attack)")])]
    assert "locked(I) :- on(cannot_attack,I)." in kept and "any(I) :- on(E,I)." in kept
    assert "fused(I) :- on(material(N,C),I)." not in kept       # no material/2 effect anywhere
    kept = [str(s) for s in _pruner(rules).kept([parse_term('effect(1,material("A",1))')])]
    assert "fused(I) :- on(material(N,C),I)." in kept and "locked(I) :- on(cannot_attack,I)." not in kept


def test_the_statements_texts_parse_back_to_the_same_statements():
    """An Engine's first queries give clingo the kept statements as text (solver.Statements):
    clingo's rendering of each parsed statement parses back to the same statement."""
    eng = engine()
    texts = eng.statements.texts
    back = [str(s) for s in parse_text("\n".join(texts))]
    assert back[0] == "#program base." and back[1:] == texts
    assert texts == [str(s) for s in eng.statements]


def test_an_engine_parses_its_rules_after_its_first_queries(tmp_path, monkeypatch):
    """With the rules' texts kept in the cache, a new Engine answers its first queries
    without parsing the rule files, and parses them once when asked more often."""
    monkeypatch.setenv("PYRULES_CACHE_DIR", str(tmp_path))
    Engine()                                    # fills the cache
    eng = Engine()
    snap = {"snapshot": 1, "players": {"A": {}, "B": {}}}
    first = eng.legal(snap)
    assert not eng.statements.is_parsed
    for _ in range(Statements.TEXT_QUERIES):
        assert eng.legal(snap) == first
    assert eng.statements.is_parsed
    assert eng.legal(snap) == first


def test_a_rule_on_a_cycle_through_not_is_kept_though_nothing_reads_it():
    """`p :- not p, a.` takes every answer away: the relevance step keeps it; and term shows
    alone hide no atom, so they do not make the relevance step apply."""
    for text in ("a. #show a/0. p :- not p, a.", "a. #show a/0. p :- a, #count { 1: p } = 0.",
                 "a. #show a/0. p :- a, not q. q :- p, not r. r :- a."):
        rules = parse_text(text)
        assert sorted(map(str, ground_and_solve(rules, [], prune=False))) == \
            sorted(map(str, ground_and_solve(rules, []))), text
    rules = parse_text("a. b :- a. #show c : a.")
    assert sorted(map(str, ground_and_solve(rules, []))) == ["a", "b", "c"]


def test_a_kept_analysis_naming_statements_that_do_not_exist_is_refused():
    rules = parse_text("a. b :- a.")
    bad = {**_pruner(rules).analysis}
    bad["always"] = [*bad["always"], 10 ** 6]
    with pytest.raises(ValueError):
        Pruner(rules, bad)


def test_the_visiting_order_and_predicates_kept_with_the_analysis_change_nothing():
    """An analysis without them (an older cache entry) or with a garbled order gives the same
    kept statements and predicates; predicates that are not name/arity are refused."""
    engine = Engine()
    made = pruner(engine.statements)
    facts = engine.encode(Path(__file__).parent.parent / "facts" / "examples" / "main_phase.yaml")[1]
    older = {k: v for k, v in made.analysis.items() if k not in ("order", "predicates")}
    garbled = {**made.analysis, "order": [0] * len(made.rules)}
    for analysis in (older, garbled):
        other = Pruner(engine.statements, analysis)
        assert other.select(facts) == made.select(facts) and other.predicates() == made.predicates()
    assert made.analysis["order"] != list(range(len(made.rules)))      # (it does reorder)
    with pytest.raises(ValueError):
        Pruner(engine.statements, {**made.analysis, "predicates": ["no_arity"]})


# ---- the zone step: facts of cards in zones no reading matches (prune.py, "Facts by zone") ----

def _facts(text: str) -> list:
    return [parse_term(t) for t in text.split()]


def _given(rules_text: str, facts: str) -> set[str]:
    """The facts the pruner gives clingo (with the zone step)."""
    return {str(f) for f in _pruner(parse_text(rules_text)).program(_facts(facts))[1]}


PLACES = "zone(1,1,monster_zone) zone(2,1,hand) zone(3,1,graveyard)"


def test_the_zone_step_leaves_out_the_facts_of_cards_no_reading_can_match():
    rules = "a(I) :- zone(I,P,monster_zone), slot(I,S). #show a/1."
    got = _given(rules, PLACES + " slot(1,0) slot(2,0) slot(3,1)")
    assert got == {"zone(1,1,monster_zone)", "slot(1,0)"}       # (the other zones' zone facts too)
    # through a derived predicate, and through a zone written as a variable
    rules = ("on_field(I) :- zone(I,P,Z), field(Z). field(monster_zone). b(I,L) :- on_field(I), level(I,L). "
             "c(I) :- zone(I,P,hand), not kind(I,monster). #show b/2. #show c/1.")
    got = _given(rules, PLACES + " level(1,4) level(2,4) level(3,4) kind(1,monster) kind(2,spell) kind(3,monster)")
    assert {"level(1,4)", "kind(2,spell)"} <= got
    assert not {"level(2,4)", "level(3,4)", "kind(1,monster)", "kind(3,monster)"} & got


def test_the_zone_step_follows_a_plain_rules_head_to_its_readers():
    """current(I,L) copies every card's Level, but only the Graveyard's are read."""
    rules = "current(I,L) :- level(I,L). d(L) :- zone(I,P,graveyard), current(I,L). #show d/1."
    got = _given(rules, PLACES + " level(1,4) level(2,5) level(3,6)")
    assert "level(3,6)" in got and not {"level(1,4)", "level(2,5)"} & got
    # read under #show p/n (or by a constraint, a choice...) the copy matters everywhere
    got = _given(rules + " #show current/2.", PLACES + " level(1,4) level(2,5) level(3,6)")
    assert {"level(1,4)", "level(2,5)", "level(3,6)"} <= got


def test_the_zone_step_keeps_what_it_cannot_place():
    facts = PLACES + " level(1,4) level(2,5) level(9,6)"
    reads_any = "e(L) :- level(I,L). f(I) :- zone(I,P,hand), level(I,_). #show e/1. #show f/1."
    assert {"level(1,4)", "level(2,5)", "level(9,6)"} <= _given(reads_any, facts)       # e reads every card
    hand = "f(I) :- zone(I,P,hand), level(I,_). #show f/1."
    assert {"level(2,5)", "level(9,6)"} <= _given(hand, facts)           # 9: no zone fact places it
    assert "level(1,4)" not in _given(hand, facts)
    assert "level(1,4)" in _given("f(I) :- zone(I,P,hand), level(I,_).", facts)          # no #show: all answered
    derived = hand + " zone(I,1,hand) :- moved(I)."
    assert "level(1,4)" in _given(derived, facts + " moved(1)")          # zone/3 derived: every fact kept
    aggregate = "g(N) :- N = #count { I: level(I,_), zone(I,P,hand) }. #show g/1."
    assert "level(1,4)" not in _given(aggregate, facts) and "level(2,5)" in _given(aggregate, facts)


def test_the_zone_step_changes_no_answer_on_the_issue_13_board():
    """The benchmark board of issue 13 (benchmarks/summons_board.yaml): fewer facts, the same
    shown atoms as the whole program with every fact."""
    import yaml
    eng = engine()
    snap = yaml.safe_load((Path(__file__).parent.parent / "benchmarks" / "summons_board.yaml").read_text())
    _, facts, _ = eng.encode(snap)
    facts.append(Function("report_forbidden"))
    list(eng.statements)
    p = pruner(eng.statements)
    _, by_zone = p.program(facts)
    _, by_predicate = p.select(facts)
    assert len(by_zone) < len(by_predicate) - 50
    assert sorted(map(str, ground_and_solve(eng.statements, facts))) == \
        sorted(map(str, ground_and_solve(eng.statements, facts, prune=False)))


def test_an_engine_loads_the_zone_entries_when_it_first_needs_them(tmp_path, monkeypatch):
    """The zone step's entries are kept apart from the rest of the analysis: a new Engine's
    first queries (statements given as text) skip the step and do not load them; once it
    replays parsed statements it loads them (or makes them again when the kept entry is
    damaged), and its answers do not change."""
    monkeypatch.setenv("PYRULES_CACHE_DIR", str(tmp_path))
    Engine()                                    # fills the cache
    for damaged in (False, True):
        if damaged:
            for f in tmp_path.rglob("zones-*.json"):
                f.write_text("[1, 2]", encoding="utf-8")
        eng = Engine()
        made = pruner(eng.statements)
        snap = Path(__file__).parent.parent / "facts" / "examples" / "main_phase.yaml"
        first = eng.legal(snap)
        assert made.zones is None and made.zones_loader is not None
        for _ in range(Statements.TEXT_QUERIES):
            assert eng.legal(snap) == first
        assert made.zones is not None and len(made.zones) == len(eng.statements)


def test_the_zone_step_follows_cards_inside_compound_terms():
    """A card inside an action term (`candidate(normal_summon(I,S))`) keeps the zones of the
    rule that wrote the term; a place some rule fills with a whole term from elsewhere
    (`candidate(A) :- query(A)`) may hold anything inside."""
    rules = ("candidate(summon(I,S)) :- zone(I,P,hand), size(S). play(I) :- candidate(summon(I,_)). "
             "e(I) :- play(I), not kind(I,monster). #show e/1.")
    facts = PLACES + " size(0) kind(1,monster) kind(2,spell) kind(3,monster)"
    got = _given(rules, facts)
    assert "kind(2,spell)" in got and not {"kind(1,monster)", "kind(3,monster)"} & got
    got = _given(rules + " candidate(A) :- query(A).", facts + " query(summon(3,0))")
    assert {"kind(1,monster)", "kind(3,monster)"} <= got


def test_classical_negation_keeps_the_program_and_the_facts_whole():
    """clingo forbids p(c) and -p(c) together by a constraint no statement shows (found by a
    review of the zone step: both programs lost that constraint and got an answer)."""
    places = "zone(3,1,graveyard) zone(4,1,hand)"
    for rules, facts in (("h(I) :- zone(I,_,hand), p(I). #show h/1.", places + " p(4) p(3) -p(3)"),
                         ("-p(I) :- level(I,_). h(I) :- zone(I,_,hand), p(I). #show h/1.",
                          places + " p(4) p(3) level(3,1)"),
                         ("a :- b. b. #show a/0.", "q(3) -q(3)")):
        statements, given = parse_text(rules), _facts(facts)
        whole = sorted(map(str, ground_and_solve(statements, given, prune=False)))
        assert whole == [] and sorted(map(str, ground_and_solve(statements, given))) == whole, rules
    assert "level(3,1)" in _given("-p(I) :- level(I,_). h(I) :- zone(I,_,hand), p(I). #show h/1.",
                                  places + " level(3,1)")
