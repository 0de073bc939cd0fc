"""pyrules/astwalk.py: the one AST walker sees every atom (pools, classical negation,
aggregate elements and conditions, #show) and rewrites every atom of a pool."""
from __future__ import annotations

from clingo import ast

from pyrules.astwalk import (AtomRewriter, atoms, children, head_body, name_anonymous, predicates_read, signatures,
                             unpooled, with_first_argument)
from pyrules.solver import parse_text


def _rules(text: str) -> list:
    return [s for s in parse_text(text) if s.ast_type == ast.ASTType.Rule]


def test_every_atom_of_a_pool_and_of_a_negation_is_seen():
    (rule,) = _rules("a(1;2) ; b(X) :- c(X;Y), -d(Y), not e(X).")
    defined, body = head_body(rule)
    assert sorted(sig for sig, _ in defined) == [("a", 1), ("a", 1), ("b", 1)]
    assert body == {("c", 1), ("d", 1), ("e", 1)}
    (rule,) = _rules("forbidden(A,r1,none; A,r2,none) :- q(A).")
    defined, _ = head_body(rule)
    assert [str(fn.arguments[1]) for _, fn in defined] == ["r1", "r2"]


def test_aggregates_define_their_elements_and_use_their_conditions():
    (rule,) = _rules("{ pick(X) : cand(X) } = N :- n(N).")
    defined, body = head_body(rule)
    assert [sig for sig, _ in defined] == [("pick", 1)] and body == {("cand", 1), ("n", 1)}
    (rule,) = _rules("#count { X : p(X) : q(X) } :- r.")
    defined, body = head_body(rule)
    assert [sig for sig, _ in defined] == [("p", 1)] and body == {("q", 1), ("r", 0)}
    assert signatures(list(_rules(":- #count { X : s(X), t(X) } > 1.")[0].body)) == {("s", 1), ("t", 1)}


def test_predicates_read_counts_show_signatures():
    assert predicates_read(parse_text("#show atk/2. p :- -race(X,d), level(X,L).")) >= {
        ("atk", 2), ("race", 2), ("level", 2), ("p", 0)}


def test_a_rewrite_reaches_every_atom_of_a_pool():
    class Mark(AtomRewriter):
        def atom(self, sig, term):
            return with_first_argument(term, ast.Variable(term.location, "W")) if sig == ("p", 1) else term

    (rule,) = _rules("p(1;2) :- q(3), -p(4).")
    assert str(Mark()(rule)) == "p(W,1;W,2) :- q(3); -p(W,4)."
    assert [sig for sig, _ in atoms(Mark()(rule))] == [("p", 2), ("p", 2), ("q", 1), ("p", 2)]


def test_the_anonymous_variables_of_positive_body_literals_get_names_of_their_own():
    (rule,) = _rules("a(X) :- b(X,_), not c(X,_), d(_,Any1), #count { Z : r(Z,_) } > 0, X = (1;_).")
    assert str(name_anonymous(rule)) == (
        "a(X) :- b(X,Any2); not c(X,_); d(Any3,Any1); 0 < #count { Z: r(Z,_) }; X = (1;_).")
    (fact,) = _rules("t(1).")
    assert name_anonymous(fact) is fact


def test_a_rule_with_pools_is_spread_into_one_rule_per_element():
    (rule,) = _rules("f(A,n(N)) :- p(A,T), T = (t(N,_);b(N,_)). ")
    assert [str(r) for r in unpooled(rule)] == ["f(A,n(N)) :- p(A,T); T = t(N,_).", "f(A,n(N)) :- p(A,T); T = b(N,_)."]
    assert [str(r) for r in unpooled(_rules("k(a;b).")[0])] == ["k(a).", "k(b)."]


def _anonymous_in_positive_literals(stmt) -> int:
    """How many `_` a rule's positive body literals hold."""
    def count(node) -> int:
        return int(node.ast_type == ast.ASTType.Variable and node.name == "_") + sum(map(count, children(node)))
    if stmt.ast_type != ast.ASTType.Rule:
        return 0
    return sum(count(lit) for lit in stmt.body if lit.ast_type == ast.ASTType.Literal
               and lit.sign == ast.Sign.NoSign and lit.atom.ast_type == ast.ASTType.SymbolicAtom)


def test_the_rules_with_named_anonymous_variables_give_the_same_answers(monkeypatch):
    """The rule files parsed as written (every `_` left to clingo's projection, the pools
    to clingo) and as the engine replays them give the same shown atoms, on the benchmark's boards and on every
    example snapshot."""
    from pathlib import Path

    import pyrules.astwalk as astwalk
    import pyrules.solver as solver
    from pyrules import Engine
    from pyrules.cards import load_yaml

    from benchmarks.workload import summons_board, synchro_board, typical

    eng = Engine()
    monkeypatch.setattr(astwalk, "name_anonymous", lambda s: s)
    monkeypatch.setattr(astwalk, "unpooled", lambda s: [s])
    as_written = solver.parse_rules(eng.files, ground_check=False)
    assert sum(map(_anonymous_in_positive_literals, as_written)) > 100
    assert sum(map(_anonymous_in_positive_literals, eng.statements.parsed)) == 0
    examples = sorted((Path(__file__).parents[1] / "facts" / "examples").glob("*.yaml"))
    snapshots = [summons_board(1), typical(1), synchro_board(1)] + [load_yaml(p.read_text()) for p in examples]
    assert len(snapshots) > 3
    for snap in snapshots:
        _, facts, _ = eng.encode(snap)
        named = sorted(map(str, solver.ground_and_solve(eng.statements.parsed, facts, prune=False)))
        written = sorted(map(str, solver.ground_and_solve(as_written, facts, prune=False)))
        assert named == written and any(a.startswith("permitted(") for a in named)


def test_the_effect_kinds_the_rules_read_by_name():
    from pyrules.astwalk import effect_kinds_read
    from pyrules.effects import EFFECT_READERS
    rules = _rules("""
        applies(E,C) :- effect_on(E,C,_).
        effect_on(E,C,card(C,X)) :- card_effect(C,X,E,card,_), printed_active(C,X).
        printed_active(C,X) :- card_effect(C,X,_,_,anywhere).
        stop(C) :- applies(cannot_attack,C).
        cost(C,N) :- applies(attack_cost(N),C).""")
    assert effect_kinds_read(rules, EFFECT_READERS) == ["attack_cost", "cannot_attack"]
    # a rule that reads any kind and keeps it elsewhere than an effect position: every kind is read
    assert effect_kinds_read(rules + _rules("kind_of(C,E) :- applies(E,C)."), EFFECT_READERS) is None
