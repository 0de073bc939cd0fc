"""A reason that rests on a card's text cites that card, the one in play (issue 38): the catalogue's
reason_text_card/2 declarations, the citation of a verdict, and every ruling case's forbidden verdicts."""
from __future__ import annotations

from pathlib import Path

import pytest

from pyrules import Engine
from pyrules.cases import CITED_CARD, DEFAULTS, _readings, load_cases, merge
from pyrules.errors import InvalidInput
from pyrules.results import Evidence, citations, cited_source

CASES = Path(__file__).parent / "cases"


@pytest.fixture(scope="module")
def engine():
    return Engine()


def test_declarations_name_catalogued_reasons(engine):
    cat = engine.catalogue
    assert cat.text_cards, "reason_text_card/2 facts are read from rules/catalogue/reasons.lp"
    assert set(cat.text_cards) <= set(cat.reasons)
    assert set(cat.text_cards.values()) <= {"evidence", "action"}
    for rid in ("cannot_be_special_summoned", "attack_lock", "must_attack_frame", "no_attack_to_answer"):
        assert rid in cat.text_cards


def test_citations_split_at_top_level_only():
    src = 'card text of "A; B" (when; here); faq-basic-gameplay: WHAT IS A REPLAY?'
    assert citations(src) == ['card text of "A; B" (when; here)', "faq-basic-gameplay: WHAT IS A REPLAY?"]


def test_cited_source_replaces_the_examples_and_keeps_the_rulings():
    src = 'card text of "Dark Elf"; faq-basic-gameplay: WHAT IS A REPLAY?'
    card = Evidence("card", card="x", name="Toon Mermaid", player="A")
    assert cited_source(src, (card, Evidence("need", number=500)), None) == \
        'card text of "Toon Mermaid"; faq-basic-gameplay: WHAT IS A REPLAY?'
    listed = Evidence("effect", number=1, what="attack_cost")          # an applied effect naming no card
    assert cited_source(src, (listed,), None).startswith("CONTRACT 6, 3. applied")
    assert cited_source(src, (), None) == src                           # nothing to cite: the catalogue's


def _forbidden_checks():
    for path in sorted(CASES.glob("*.yaml")):
        for case in load_cases(path):
            if case.get("invalid"):
                continue
            for chk in case.get("checks") or []:
                if chk.get("permitted") is False:
                    yield path.name, case, chk


def test_every_case_cites_only_cards_in_play(engine):
    """Over every forbidden check of the ruling cases: a reason that rests on a card's text cites
    only cards of the snapshot (never the catalogue's examples), and cites one when it rests on a card."""
    seen = 0
    for name, case, chk in _forbidden_checks():
        snap = merge(DEFAULTS, case.get("snapshot"))
        readings = _readings(case.get("readings"), chk.get("readings"))
        try:
            game = engine.game(snap, readings)
            v = engine.check(snap, chk["action"], readings)
        except InvalidInput:
            continue
        in_play = {e.card["name"] for e in game.entries} | {e.get("source") for e in game.effects}
        for r in v.reasons:
            if r.rule not in engine.catalogue.text_cards:
                continue
            cited = set(CITED_CARD.findall(r.source))
            assert cited <= in_play, (name, case["name"], r.rule, r.source)
            rests_on_card = engine.catalogue.text_cards[r.rule] == "action" or any(
                g.kind == "card" or (g.kind == "effect" and g.name) for g in r.grounds)
            assert cited or not rests_on_card, (name, case["name"], r.rule, r.source)   # (an event: the catalogue's)
            seen += 1
    assert seen > 50
