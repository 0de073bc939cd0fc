"""The text patterns of facts/patterns/: each matches the real texts of its `matches` cards in the
Goat pool and none of its `near_misses`; the sentences they read; what they fill in."""
from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest

from conftest import GOAT, shared_absent     # ../shared/data/goat-format-en.cdb, or under PYRULES_SHARED
from pyrules.errors import InvalidInput
from pyrules.patterns import (ACTIVATION_TOPIC, activation_sentences, bundled_patterns, derive, load_patterns,
                              read_activation, relevant, sentences)

ROOT = Path(__file__).resolve().parent.parent
PATTERNS = bundled_patterns()


@pytest.fixture(scope="module")
def texts() -> dict[str, list[str]]:
    if not GOAT.is_file():
        pytest.skip(shared_absent(GOAT))
    con = sqlite3.connect(f"file:{GOAT}?mode=ro", uri=True)
    out: dict[str, list[str]] = {}
    for name, desc in con.execute("SELECT name, desc FROM texts ORDER BY id"):
        out.setdefault(name, []).append(desc or "")
    con.close()
    return out


@pytest.mark.parametrize("pattern", PATTERNS, ids=lambda p: p.id)
def test_pattern_matches_its_cards(pattern, texts):
    assert pattern.matches, f"{pattern.id}: name the Goat cards it reads"
    for name in pattern.matches:
        assert name in texts, f"{pattern.id}: no card {name!r} in the Goat pool"
        hits = [s for t in texts[name] for s in sentences(t) if pattern.regex.search(s)]
        assert hits, f"{pattern.id} reads no sentence of {name!r}"
        assert derive(texts[name][0]).problems == []


@pytest.mark.parametrize("pattern", PATTERNS, ids=lambda p: p.id)
def test_pattern_misses_its_near_misses(pattern):
    assert pattern.near_misses, f"{pattern.id}: give the wordings it must not read"
    for sentence in pattern.near_misses:
        assert not pattern.regex.search(sentence), (pattern.id, sentence)


@pytest.fixture(scope="module")
def spells_traps() -> dict[str, tuple[str, str, str]]:
    """The Goat pool's Spells and Traps: name -> (text, kind, icon), as the importer reads them."""
    if not GOAT.is_file():
        pytest.skip(shared_absent(GOAT))
    icons = [(0x10000, "quickplay"), (0x20000, "continuous"), (0x40000, "equip"), (0x80000, "field"),
             (0x100000, "counter"), (0x80, "ritual")]
    con = sqlite3.connect(f"file:{GOAT}?mode=ro", uri=True)
    out: dict[str, tuple[str, str, str]] = {}
    for name, desc, t in con.execute("SELECT t.name, t.desc, d.type FROM datas d JOIN texts t ON d.id = t.id"):
        if not t & 0x1 and t & 0x6:
            out.setdefault(name, (desc or "", "spell" if t & 0x2 else "trap", next((n for b, n in icons if t & b),
                                                                                 "normal")))
    con.close()
    return out


def test_every_card_the_pool_names_in_matches_is_listed(texts, spells_traps):
    """Each pattern's `matches` is complete: the Goat cards it fires on are exactly those listed
    (so the hand check recorded in the pattern file covers every card it reads); an activation pattern
    is read in the activation sentences of Spells and Traps only (pyrules.patterns.read_activation)."""
    for p in PATTERNS:
        if p.topic == ACTIVATION_TOPIC:
            fired = {name for name, (t, k, i) in spells_traps.items() for s in activation_sentences(t, k, i)
                     if p.regex.search(s)}
            assert fired == set(p.matches), p.id
            continue
        fired = {name for name, ts in texts.items() for t in ts for s in sentences(t) if p.regex.search(s)}
        if p.id == "cannot_be_normal_summoned_or_set":
            assert set(p.matches) <= fired and len(fired) > 30     # sampled: see its `checked`
        else:
            assert fired == set(p.matches), p.id


def test_no_pattern_fills_a_wrong_entry(texts):
    for name, ts in texts.items():
        for t in ts:
            assert derive(t).problems == [], name


def test_sentences():
    text = ('(This card is always treated as a "Toon" card.)\r\nCannot be Normal Summoned/Set. Must first be '
            'Special Summoned (from your hand) by Tributing 2 monsters (normally 2). "Mr. Volcano" is a name. '
            'The end')
    assert sentences(text) == [
        '(This card is always treated as a "Toon" card.)', "Cannot be Normal Summoned/Set.",
        "Must first be Special Summoned (from your hand) by Tributing 2 monsters (normally 2).",
        '"Mr. Volcano" is a name.', "The end"]
    assert sentences("") == [] and sentences(None) == []


def test_derive_fills_groups_and_reports_unread_sentences():
    got = derive("Level 4 or higher monsters cannot attack. This card must attack if able.")
    assert got.effects == [{"effect": "cannot_attack", "to": {"side": "both", "level_min": 4}}]
    assert got.read == [("level_or_higher_cannot_attack", "Level 4 or higher monsters cannot attack.")]
    assert got.unread == ["This card must attack if able."]
    scape = derive('Special Summon 4 "Sheep Tokens" in Defense Position. They cannot be Tributed for a Tribute '
                   'Summon. You cannot Summon other monsters the turn you activate this card (but you can Normal Set).')
    assert scape.effects == [{"effect": "activation_condition", "what": "summons_this_turn_at_most", "count": 0}]
    assert scape.leaves == [{"effect": "cannot_summon"}] and scape.unread == []
    assert derive("Cannot be Normal Summoned/Set.").frames == ["special_summon_only"]


@pytest.mark.parametrize("sentence, expected", [
    ("This card cannot attack the turn it is Special Summoned.", True),
    ("When this card is Normal Summoned: Draw 1 card.", False),
    ("When this card is Summoned: Your opponent cannot declare an attack this turn.", True),
    ("(You cannot activate this effect the turn this card is Normal Summoned, Special Summoned, or flipped face-up.)",
     False),
    ("Increase the ATK of all monsters by 300 points.", False),
    ("Other monsters on the field cannot change their battle positions or attack.", True),
    ("While you control another Fiend-Type monster, this card cannot be attacked.", True),
    ("You must pay 500 Life Points to declare an attack with this monster.", True),
    ("Your opponent cannot select a face-down Defense Position monster as an attack target.", True),
    ("This turn, the original DEF of those monsters becomes 0, also their battle positions cannot be changed.", True),
    ("If you Normal Summon this card, you must place it in face-down Defense Position.", True),
    ("Activate only when your opponent declares an attack.", False),
    ("If the equipped monster attacks a face-down Defense Position monster, it gains 1500 ATK.", False),
])
def test_relevant(sentence, expected):
    assert relevant(sentence) is expected


@pytest.mark.parametrize("text, message", [
    ("- {id: x, regex: '(', effects: [{effect: cannot_attack}]}", "not a regular expression"),
    ("- {id: x, regex: 'a', effects: [{effect: no_such_kind}]}", "unknown effect"),
    ("- {id: x, regex: 'a', effects: []}", "says what models its sentence"),
    ("- {id: x, regex: 'a', effects: [], covered_by: y, colour: red}", "unknown key"),
    ("{id: x}", "a list of patterns"),
])
def test_bad_pattern_files(tmp_path, text, message):
    (tmp_path / "p.yaml").write_text(text)
    with pytest.raises(InvalidInput, match=message):
        load_patterns(tmp_path)


def test_no_two_patterns_give_one_sentence_the_same_kind(texts):
    """One pattern per wording: two patterns may read one sentence for different kinds (its
    Summon procedure and its revival restriction), never for the same kind (a copy, or a
    contradiction).  Activation patterns read parts of a sentence (the event, the cost, the negation that
    follows): two of them may share one, for different kinds.
    A fallback pattern reads a sentence only when no other does, and only the first
    fallback that fires reads it: the fallbacks are checked against none."""
    kinds = {p.id: {e["effect"] for e in (*p.effects, *p.leaves)} | ({p.frame} if p.frame else set())
             for p in PATTERNS}
    parts = {p.id for p in PATTERNS if p.topic == ACTIVATION_TOPIC}
    # an activation pattern without entries that says which entries cover its sentence (covered_by: a Ritual or
    # Fusion Spell's Summon, whose own patterns give them) reads it beside those patterns
    covering = {p.id for p in PATTERNS if p.topic == ACTIVATION_TOPIC and not p.effects and p.covered_by}
    clashes = {}
    for name, ts in texts.items():
        for t in ts:
            for s in sentences(t):
                ids = [p.id for p in PATTERNS if not p.fallback and p.regex.search(s)]
                for i, a in enumerate(ids):
                    for b in ids[i + 1:]:
                        if kinds[a] & kinds[b] or not (kinds[a] and kinds[b] or {a, b} <= parts or {a, b} & covering):
                            clashes.setdefault((a, b), set()).add(name)
    assert clashes == {}, {k: sorted(v) for k, v in clashes.items()}


def test_read_activation_reads_parts_and_reports_what_is_left():
    """An activation pattern reads the part of a sentence it matches; what is left must ask nothing (a target
    left unread keeps the sentence unread); a card that stays face-up is read in its activation sentences only."""
    jam = read_activation("When a Spell Card is activated: Discard 1 card; negate the activation, and if you do, "
                          "destroy it.", "trap", "counter")
    assert jam.effects == [{"effect": "activation_cost", "what": "discard", "count": 1},
                           {"effect": "answers_activation", "what": "spell", "by": "any"}]
    assert jam.unread == [] and "a negation" in jam.says
    left = read_activation("Pay 1000 LP; target 1 monster on the field; destroy it.", "trap", "normal")
    assert left.effects == [{"effect": "activation_cost", "what": "life_points", "count": 1000}]
    assert left.unread_says == ["targets"]
    mummy = read_activation("Once per turn: You can Special Summon 1 Zombie-Type monster from your hand. You must "
                            "control no monsters to activate and to resolve this effect.", "spell", "continuous")
    assert mummy.says == [] and mummy.unread == []
    assert read_activation("Pay 1000 Life Points.", "monster", "normal").effects == []
    assert derive("Pay 1000 Life Points.").effects == []      # never read outside a Spell or Trap's activation


def test_activated_effects_are_numbered_in_text_order_and_fallbacks_give_their_type():
    """`numbered` patterns count a card's activated effects in text order ("{number}"); a fallback reads a
    sentence no other pattern reads (its type only, `further: unread`); `cards: monster` keeps monster
    patterns off a Spell's text."""
    breaker = derive("If this card is Normal Summoned: Place 1 Spell Counter on it (max. 1). Gains 300 ATK for each "
                     "Spell Counter on it. You can remove 1 Spell Counter from this card, then target 1 Spell/Trap on "
                     "the field; destroy that target.", kind="monster")
    got = [(e["type"], e["number"], e["event"], e["further"]) for e in breaker.effects if e["effect"] == "monster_effect"]
    assert got == [("trigger", 1, "normal_summoned", "none"), ("ignition", 2, "none", "none")]
    # the same text with a target no precise pattern reads: the fallback gives its type only
    other = derive("If this card is Normal Summoned: Place 1 Spell Counter on it (max. 1). Gains 300 ATK for each "
                   "Spell Counter on it. You can remove 1 Spell Counter from this card, then target 1 monster on "
                   "the field; destroy that target.", kind="monster")
    got = [(e["type"], e["number"], e["event"], e["further"]) for e in other.effects if e["effect"] == "monster_effect"]
    assert got == [("trigger", 1, "normal_summoned", "none"), ("ignition", 2, "none", "unread")]
    bug = derive("FLIP: Select and destroy 1 monster on the field.", kind="monster")
    assert [e for e in bug.effects if e["effect"] == "monster_effect"] == [
        {"effect": "monster_effect", "type": "flip", "number": 1, "event": "flipped", "wording": "mandatory",
         "zone": "field", "further": "none"}]
    assert {"effect": "destroys_monsters"} in bug.effects     # read aside (facts/patterns/destroys_monsters.yaml)
    assert derive("When this card is sent from the field to the Graveyard: You can draw 1 card.", kind="spell").effects == []
    assert derive("Once per turn: You can discard 1 card.", kind="monster").unread_activated == []
    assert [e["effect"] for e in derive("You can only control 1 \"Gravekeeper's Guard\".", kind="monster").effects] == \
        ["only_one_controlled"]           # a limit, no activated effect


def test_an_aside_pattern_reads_beside_the_others_and_keeps_fallbacks_and_numbers():
    """An `aside` pattern (facts/patterns/damage.yaml) adds its entry to a sentence another pattern reads, and a
    sentence it alone matches is still read by the fallbacks (its activated effect's type and number)."""
    got = derive("You can Tribute 1 monster to inflict 500 damage to your opponent.", kind="monster")
    kinds = [e["effect"] for e in got.effects]
    assert "inflicts_effect_damage" in kinds and "monster_effect" in kinds
    assert [e["number"] for e in got.effects if e["effect"] == "monster_effect"] == [1]
    assert derive("Inflict 800 damage to your opponent.").effects == [{"effect": "inflicts_effect_damage", "whom": "opponent"}]
    piercing = derive("If this card attacks a Defense Position monster, inflict piercing battle damage to your opponent.")
    assert all(e["effect"] != "inflicts_effect_damage" for e in piercing.effects)
