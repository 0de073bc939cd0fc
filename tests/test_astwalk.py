"""pyrules/astwalk.py: the one AST walker sees every atom (pools, classical negation,
aggregate elements and conditions, #show) and rewrites every atom of a pool."""
from __future__ import annotations

from clingo import ast

from pyrules.astwalk import AtomRewriter, atoms, head_body, predicates_read, signatures, with_first_argument
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
