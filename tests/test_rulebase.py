"""pyrules.rulebase: the one reader of a rules folder (program files, statements, predicate
documentation beside the rules, the catalogue, reason sites)."""
from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from pyrules.lint import check_docs, lint
from pyrules.paths import rules_dir
from pyrules.rulebase import (Catalogue, PredicateDoc, RuleBase, catalogue_of, doc_blocks, load_catalogue,
                              program_files)
from pyrules.solver import atoms_of


@pytest.fixture(scope="module")
def shipped() -> RuleBase:
    return RuleBase(rules_dir())


def _copy(tmp_path: Path) -> Path:
    rules = tmp_path / "rules"
    shutil.copytree(rules_dir(), rules)
    return rules


def _edit(path: Path, old: str, new: str) -> None:
    text = path.read_text(encoding="utf-8")
    assert old in text, old
    path.write_text(text.replace(old, new, 1), encoding="utf-8")


# ---- predicate documentation -------------------------------------------------------------
def test_every_predicate_of_the_shipped_rules_is_documented_beside_its_rules(shipped):
    docs = shipped.predicates()
    prog = shipped.program()
    everything = set(prog.shows) | set(prog.declared) | set(prog.used) | set(prog.defined)
    assert everything <= set(docs)
    for sig, doc in docs.items():
        assert isinstance(doc, PredicateDoc) and doc.sig == sig and doc.text
        assert shipped.text(doc.file).splitlines()[doc.line - 1].startswith("%*! ")
        assert sig in prog.mentions[doc.file], doc          # in a file that defines, uses or declares it
    opponent = docs[("opponent", 2)]
    assert (opponent.signature, opponent.text, opponent.indicator) == ("opponent(P,Q)", "Q is P's opponent.",
                                                                       "opponent/2")
    assert opponent.file in {r.file for r in prog.rules if ("opponent", 2) in [s for s, _ in r.heads]}
    assert not (rules_dir() / "vocabulary.lp").exists()


def test_the_input_is_documented_in_input_lp_and_roles_say_which_is_which(shipped):
    docs = shipped.predicates()
    assert docs[("zone", 3)].file == shipped.input_file == rules_dir() / "input.lp"
    assert docs[("zone", 3)].text.startswith("card I is in player P's zone Z: hand, extra_deck,")
    assert {shipped.role(s) for s in [("zone", 3), ("query", 1), ("card_effect", 5)]} == {"input"}
    assert shipped.role(("permitted", 1)) == shipped.role(("set_member", 2)) == "output"
    assert shipped.role(("opponent", 2)) == "derived"
    # one block may name several predicates that share a text
    assert docs[("level", 2)].text == docs[("def", 2)].text == "printed Level, ATK and DEF."
    assert docs[("level", 2)].line == docs[("def", 2)].line


def test_doc_blocks_are_read_as_mkdoclingo_writes_them():
    text = "\n".join([
        "%*! p(X,f(Y,Z)), q",
        "what p and q mean,",
        "  on two lines.",
        "",
        "A second paragraph.",
        "*%",
        "p(1,f(2,3)). q.",
        "% not a block: %*! r(X)",
        "%*! broken header here",
        "*%",
        "%*! never_closed(A)",
        "text"])
    docs, problems = doc_blocks(Path("x.lp"), text)
    assert [(d.indicator, d.signature, d.line) for d in docs] == [("p/2", "p(X,f(Y,Z))", 1), ("q/0", "q", 1),
                                                                  ("never_closed/1", "never_closed(A)", 11)]
    assert docs[0].text == "what p and q mean, on two lines.\n\nA second paragraph."
    assert [line for line, _ in problems] == [9, 11]
    assert "must name its predicates" in problems[0][1] and "without its closing" in problems[1][1]


@pytest.mark.parametrize("edit, expect", [
    (lambda r: _edit(r / "turn.lp", "%*! main_phase\n", "%*! main_phase_renamed\n"),
     ["main_phase/0 is not documented", "main_phase_renamed/0 is documented here, but no rule of this file"]),
    (lambda r: _edit(r / "history.lp", "% Source:", "%*! opponent(P,Q)\nagain.\n*%\n% Source:"),
     ["opponent/2 is documented 2 times"]),
    (lambda r: _edit(r / "turn.lp", "%*! main_phase\n", "%*! main_phase!\n"),
     ["a `%*!` block must name its predicates", "main_phase/0 is not documented"]),
])
def test_lint_checks_the_doc_blocks(tmp_path, edit, expect):
    rules = _copy(tmp_path)
    edit(rules)
    rb = RuleBase(rules)
    found = [str(f) for f in check_docs(rb.program(), rb)]
    for e in expect:
        assert any(e in f for f in found), (e, found)
    assert all("[vocabulary]" in f for f in found)


def test_a_block_that_is_never_closed_is_a_parse_finding(tmp_path):
    rules = _copy(tmp_path)
    _edit(rules / "turn.lp", "%*! main_phase\n", "%*! main_phase\nnot closed\n% *\n")
    text = (rules / "turn.lp").read_text(encoding="utf-8")
    (rules / "turn.lp").write_text(text.replace("*%\n", "", 1), encoding="utf-8")
    findings = [str(f) for f in lint(rules)]
    assert findings and all("[parse]" in f or "[vocabulary]" in f for f in findings), findings


# ---- the catalogue, read one way ------------------------------------------------------
def test_the_catalogue_is_read_one_way_and_agrees_with_clingo(shipped):
    cat = shipped.catalogue()
    assert isinstance(cat, Catalogue) and cat == catalogue_of(shipped.catalogue_facts())
    assert cat == load_catalogue(rules_dir() / "catalogue")
    grounded = atoms_of(files=shipped.catalogue_files)
    assert {s.arguments[0].name: (s.arguments[1].string, s.arguments[2].string)
            for s in grounded if s.name == "reason"} == cat.reasons
    assert {s.arguments[0].name: s.arguments[1].string for s in grounded if s.name == "problem"} == cat.problems
    assert {s.arguments[0].string: s.arguments[1].string for s in grounded if s.name == "source_document"} \
        == cat.sources
    first = cat.readings["first_turn_draw"]
    assert (first.default, list(first.values)) == ("false", ["false", "true"])
    fact = shipped.catalogue_facts("reason", 3)[0]
    assert fact.file.name == "reasons.lp" and fact.line > 1 and fact.args[0] in cat.reasons
    assert Catalogue.to_json(cat)["sources"] == cat.sources


def test_a_catalogue_that_does_not_parse(tmp_path):
    rules = _copy(tmp_path)
    _edit(rules / "catalogue" / "reasons.lp", "reason(already_drew,", "reason(already_drew")
    rb = RuleBase(rules)
    assert [p.file.name for p in rb.catalogue_problems()] == ["reasons.lp"]
    assert all(f.file.name != "reasons.lp" for f in rb.catalogue_facts())
    with pytest.raises(RuntimeError):
        rb.catalogue()


# ---- program files, statements, reason sites ----------------------------------------------
def test_program_files_and_statements(shipped):
    assert shipped.files == program_files(rules_dir())
    assert rules_dir() / "input.lp" in shipped.files
    assert not any({"catalogue", "search"} & set(p.relative_to(rules_dir()).parts) for p in shipped.files)
    prog = shipped.program()
    assert set(prog.statements) == set(shipped.files) and not prog.problems
    assert prog.defined[("main_phase", 0)][0].name == "turn.lp"


def test_reason_sites_name_the_rules_that_give_each_reason(shipped):
    sites = shipped.reason_sites()
    assert set(sites) == set(shipped.catalogue().reasons)
    draw = [s for s in sites["not_draw_phase"] if s.relay is None]      # its own forbidden/3 head
    assert [s.rule.file.name for s in draw] == ["turn.lp"]
    assert draw[0].rule.source and draw[0].rule.source.startswith("rulebook-turn-and-summons: A. Draw Phase")
    relayed = [s for s in sites["needs_tributes"] if s.relay is not None]
    assert relayed and all(s.rule.file.name == "summons.lp" and s.action is None for s in relayed)


def test_a_rule_base_is_shared_per_folder_until_a_file_changes(tmp_path):
    rules = _copy(tmp_path)
    first = RuleBase.of(rules)
    assert RuleBase.of(rules) is first
    before = first.predicates()[("main_phase", 0)].text
    _edit(rules / "turn.lp", "the phase is Main Phase 1 or 2.", "the phase is one of the Main Phases.")
    again = RuleBase.of(rules)
    assert again is not first and again.predicates()[("main_phase", 0)].text == "the phase is one of the Main Phases."
    assert first.predicates()[("main_phase", 0)].text == before        # an instance keeps what it read
