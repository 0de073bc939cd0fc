"""`pyrules diff READING --depth N`: the step rewrite (pyrules/steps.py) and the search over action
sequences, on a small scope and pool so that it stays quick (docs/counterexamples.md has the times of
the default scope)."""
from __future__ import annotations

import clingo.ast as ast
import pytest
from click.testing import CliRunner

from pyrules import steps
from pyrules.cli import main
from pyrules.errors import InvalidInput
from pyrules.search import DEPTH_SCOPE, Scope, Searcher
from pyrules.solver import Program, parse_text

POOL = ("Penguin Soldier",)                   # a Flip monster whose optional trigger misses the timing
SCOPE = DEPTH_SCOPE.with_(events=1)             # one event: what follows the Flip Summon can only come from a step
# (summon_priority's "a Summon, then a speed-1 Spell in its window" is now four actions from an empty turn: a Summon
# is first performed, in the window where only its negation answers, and both players pass before it succeeds)


def test_stepify_indexes_what_depends_on_the_state():
    rules = parse_text("q(X) :- p(X), c(X). r(X) :- c(X). s(X) :- q(X), sel(V). #defined p/1.")
    out, worlds, stepped = steps.stepify(rules, {("sel", 1)}, {("p", 1)})
    assert stepped == {("p", 1), ("q", 1), ("s", 1)}           # r reads only card data: unindexed
    assert ("r", 1) not in worlds and ("s", 1) in worlds
    text = "\n".join(str(s) for s in out)
    assert "q(W__,S__,X) :- p(W__,S__,X); c(X); world(W__); depth_step(S__)." in text
    assert "r(X) :- c(X)." in text
    assert "#defined p/3." in text


def test_bridges_join_the_steps():
    text = steps.bridges({("zone", 3), ("on_chain", 1)}, {("zone", 3)}, 2)
    assert "zone(W,0,X0,X1,X2) :- zone(X0,X1,X2), world(W)." in text
    assert "zone(W,1,X0,X1,X2) :- next(W,0,zone(X0,X1,X2))." in text
    assert "zone(W,2,X0,X1,X2) :- next(W,1,zone(X0,X1,X2))." in text
    assert "zone(W,3," not in text                               # no step after the last
    assert "on_chain(W,1" not in text                            # derived at later steps by diff_depth.lp
    assert "next(" not in steps.bridges({("zone", 3)}, {("zone", 3)}, 0)


def test_unrolled_writes_a_statement_per_step():
    """A statement naming the step variable is written once per step, the step a number (strings untouched)."""
    texts = ['p(W__,S__,X) :- q(W__,S__,X); r(X); depth_step(S__).', 'r(1).', 's(S__,"S__ S__") :- depth_step(S__).']
    out = steps.unrolled(texts, 1)
    assert out == ['p(W__,0,X) :- q(W__,0,X); r(X); depth_step(0).', 'p(W__,1,X) :- q(W__,1,X); r(X); depth_step(1).',
                   'r(1).', 's(0,"S__ S__") :- depth_step(0).', 's(1,"S__ S__") :- depth_step(1).']
    assert steps.unrolled(texts, 0) == [out[0], 'r(1).', out[3]]


def test_projected_gives_anonymous_variables_back():
    """A variable used once, in a positive atom of an indexed predicate, is `_` again; elsewhere it stays."""
    rules = parse_text("s(W,S,N) :- q(W,S,Any1), g(W,S,N,Any2), c(Any3). t(X) :- q(1,2,X), not g(1,2,X,Y), c(Y)."
                       "u(A) :- q(A,1,Any1), c(A).")
    out = [str(s) for s in steps.projected(rules, {("q", 3), ("g", 4)})]
    assert "s(W,S,N) :- q(W,S,_); g(W,S,N,_); c(Any3)." in out                 # c/1: a card fact, left named
    assert "t(X) :- q(1,2,X); not g(1,2,X,Y); c(Y)." in out                    # one positive indexed atom
    assert "u(A) :- q(A,1,Any1); c(A)." in out                                 # the same: a projection already


def test_generator_split():
    searcher = Searcher()
    generator = parse_text((searcher.search_dir / "generator.lp").read_text(encoding="utf-8"))
    rules = [s for s in generator if s.ast_type == ast.ASTType.Rule]
    state = steps.state_facts(searcher.engine.statements.parsed)
    kept, stepped = steps.split_generator(generator, state, set())
    assert len(kept) + len(stepped) == len(generator)
    kept_text = {str(s) for s in kept}
    assert "zone(I,P,Z) :- gen_used(I); gen_slot(I,P,Z,_)." in kept_text            # the snapshot: step 0
    assert not any(str(s).startswith("query(") for s in kept)                     # the actions: every step
    assert any("invalid(" in str(s) for s in stepped)                             # valid at every step
    assert rules


def test_the_rewrite_is_kept_in_the_cache(tmp_path, monkeypatch):
    """The step rewrite is made once per rules version: a new Engine reads it from the cache folder."""
    monkeypatch.setenv("PYRULES_CACHE_DIR", str(tmp_path))
    made = Searcher(pool=POOL)._deep_rules()
    assert len(list(tmp_path.glob("search-steps-*.json"))) == 1
    monkeypatch.setattr(steps, "stepify", lambda *a: pytest.fail("the rules were rewritten again"))
    assert Searcher(pool=POOL)._deep_rules() == made


@pytest.fixture(scope="module")
def found():
    return Searcher(pool=POOL).diff("missing_timing", scope=SCOPE, depth=2)


def test_depth_two_finds_the_missed_timing(found):
    """missing_timing parts only once something follows the Flip Summon: an attack, then the Flip effect."""
    assert len(found.found) == 1 and found.depth == 2
    cx = found.found[0]
    assert [a.action for a in cx.before] == ["declare_attack"]
    assert cx.action is not None and cx.action.action == "activate"
    permitted = {label: w["verdict"].permitted for label, w in cx.worlds.items()}
    assert permitted == {"by_wording": True, "all_optional": False}
    assert [r.rule for r in cx.worlds["all_optional"]["verdict"].reasons] == ["missed_the_timing"]
    assert cx.reproduced and cx.events == 1


def test_replayed_by_next_and_check(found):
    """The printed sequence is what next and check answer, independently of the search's own replay."""
    cx = found.found[0]
    engine = Searcher(pool=POOL).engine
    for label, w in cx.worlds.items():
        snap = cx.snapshot
        for act in cx.before:
            nxt = engine.next(snap, act, w["readings"])
            assert nxt.verdict.permitted and nxt.snapshot is not None
            snap = nxt.snapshot
        assert engine.check(snap, cx.action, w["readings"]).permitted == (label == "by_wording")


def test_depth_one_finds_none_there():
    """The same scope without the step: no snapshot of it parts the readings (the timing is missed only once an
    event follows the Flip Summon, a second event)."""
    r = Searcher(pool=POOL).diff("missing_timing", scope=SCOPE)
    assert r.found == [] and r.exhausted


def test_depth_checked():
    searcher = Searcher(pool=POOL)
    with pytest.raises(InvalidInput):
        searcher.diff("summon_priority", depth=4)
    with pytest.raises(InvalidInput):
        searcher.diff("summon_priority", depth=2, count=2)


def test_cli_depth():
    args = ["diff", "missing_timing", "--depth", "2", "--cards", ",".join(POOL), "--scope", "events=1"]
    r = CliRunner().invoke(main, args)
    assert r.exit_code == 0, r.output
    assert "Actions, each permitted under both values:\n    1. declare_attack(penguin_soldier,direct)" in r.output
    assert "Then: activate(penguin_soldier,1,A)" in r.output
    assert "Reproduced by pyrules next and check: yes" in r.output
    assert "sequences of up to 2 actions" in r.output
    assert CliRunner().invoke(main, args + ["--out", "x"]).exit_code == 2


def test_json_lists_the_actions_before(found):
    out = found.to_json()
    assert [a["action"] for a in out["found"][0]["before"]] == ["declare_attack"]
    assert out["scope"] == SCOPE.to_json()
    assert Scope.parse("events=1", DEPTH_SCOPE) == SCOPE


ALL = [("a", [2, 5]), ("b", [1, 9]), ("c", [2, 3]), ("d", [1, 0])]


@pytest.mark.parametrize("best, below", [
    ([2, 9], "bcd"),        # the last priority one less: [2, 8] and below
    ([2, 3], "bd"),         # [2, 3] itself is not below it
    ([1, 1], "d"),
    ([2, 0], "bd"),         # a last priority at 0: the one before one less, the last free
    ([1, 0], ""),
    ([0, 0], "abcd"),       # nothing is below all 0: no bound
])
def test_bound_below_asks_only_for_smaller_answers(best, below):
    """Each depth after the first asks only for answers strictly below the best one yet (clingo's bound)."""
    program = Program()
    program.add("1 { a; b; c; d } 1. #minimize { 2@2: a; 1@2: b; 2@2: c; 1@2: d }. "
                "#minimize { 5@1: a; 9@1: b; 3@1: c; 0@1: d }.")
    program.ground()
    program.bound_below(best)
    models: list = []
    program.ctl.solve(on_model=lambda m: models.append((str(m), list(m.cost))))
    assert all(m in ALL and m[0] in below for m in models)
    assert models[-1:] == ([("d", [1, 0])] if below else [])       # the optimum, when one is below
