"""`legal` lists exactly what `check` permits.

Legal mode tries each kind of action only where it can happen (attacks in the Battle Phase,
Summons, Sets and position changes in a Main Phase): the rules' own reasons forbid them
everywhere else.  These tests ask `check` about every such action, in every phase, and
compare: nothing `check` permits may be missing from `legal`, and nothing extra listed.
"""
from __future__ import annotations

import copy
import itertools
from pathlib import Path

import pytest

from pyrules.actions import Action
from pyrules.schema import PHASES
from boards import main_phase_board
from benchmarks.workload import snapshot

ROOT = Path(__file__).resolve().parents[1]


@pytest.fixture(scope="module")
def engine():
    from conftest import engine as shared
    return shared()


def _actions(snap: dict) -> list[Action]:
    """Every position change, Flip Summon, Normal Summon and Set (with 0-2 Tributes), attack
    declaration, phase move, discard of one or two hand cards, end of turn and draw on the
    snapshot's cards; every Spell/Trap Set and activation (effect 1) of a card of either player
    by the player with priority, and pass."""
    me, foe = snap["players"]["A"], snap["players"]["B"]
    mine = [m["id"] for m in me.get("monsters", [])]
    theirs = [m["id"] for m in foe.get("monsters", [])]
    out = [Action("enter_battle_phase"), Action("draw"), Action("pass"), Action("end_turn")]
    # the moves (the Battle Phase's is listed as enter_battle_phase: enter_phase(battle) is its other name)
    out += [Action("enter_phase", phase=ph) for ph in PHASES if ph != "battle"]
    hand = [c["id"] for c in me.get("hand", []) if isinstance(c, dict)]
    out += [Action("discard", cards=tuple(sorted(c))) for n in (1, 2) for c in itertools.combinations(hand, n)]
    for side in (me, foe):
        for key in ("hand", "spells_traps", "monsters", "graveyard"):
            for c in side.get(key, []):
                ident = c["id"] if isinstance(c, dict) else None
                if ident is not None:
                    out += [Action("set_spell_trap", card=ident), Action("activate", card=ident, effect=1)]
    for i in mine:
        out += [Action("change_position", card=i, to=to) for to in ("attack", "defense")]
        out.append(Action("flip_summon", card=i))
        out += [Action("declare_attack", card=i, target=t) for t in [*theirs, "direct"]]
    for h in me.get("hand", []):
        for n in range(min(len(mine), 4) + 1):
            for tributes in itertools.combinations(mine, n):
                out += [Action(kind, card=h["id"], tributes=tuple(sorted(tributes)))
                        for kind in ("normal_summon", "set", "normal_summon_defense")]
    return out


def _boards():
    """The benchmark's board and a small one with a face-down monster, in every phase."""
    for phase in PHASES:
        for base in (snapshot(0, per_side=3, events=2), main_phase_board()):
            snap = copy.deepcopy(base)
            snap["phase"] = phase
            yield pytest.param(snap, id=f"{phase}-{len(snap['players']['A'].get('monsters', []))}")


def _monster(name, level, attribute, *effects, **more):
    return {"name": name, "kind": "monster", "level": level, "attribute": attribute, "atk": 1000, "def": 1000,
            "effects": list(effects), **more}


def tribute_effects_board(phase: str) -> dict:
    """Monsters whose texts change the Tribute count or the Summon (rules/effects.yaml): Summoned or Set
    with other counts ("Gilford the Lightning", "Behemoth the King of All Animals", "Fusilier Dragon, the
    Dual-Mode Beast"), a LIGHT double Tribute ("Kaiser Sea Horse"), a monster that cannot be Tributed
    ("Fox Fire"), a Summon condition ("Cave Dragon") and a face-down only one ("Mystic Swordsman LV4")."""
    hand = [_monster("Gilford the Lightning", 8, "LIGHT", {"effect": "alternative_tributes", "count": 3, "play": "summon"}),
            _monster("Behemoth the King of All Animals", 7, "EARTH",
                     {"effect": "alternative_tributes", "count": 1, "play": "summon_and_set"}),
            _monster("Fusilier Dragon, the Dual-Mode Beast", 7, "DARK",
                     {"effect": "alternative_tributes", "count": 0, "play": "summon_and_set"}),
            _monster("Airknight Parshath", 5, "LIGHT"),
            _monster("Cave Dragon", 4, "WIND", {"effect": "cannot_normal_summon", "while": {"own_monsters_min": 1}}),
            _monster("Mystic Swordsman LV4", 4, "EARTH", {"effect": "cannot_normal_summon"})]
    field = [_monster("Kaiser Sea Horse", 4, "LIGHT", {"effect": "double_tribute", "attribute": "LIGHT"}),
             _monster("Fox Fire", 2, "FIRE", {"effect": "cannot_be_tributed"}), "Battle Ox", "Mystical Elf"]
    return {"snapshot": 1, "turn": 3, "turn_player": "A", "phase": phase,
            "players": {"A": {"hand": [{"id": f"h{i}", "card": c} for i, c in enumerate(hand)],
                              "monsters": [{"id": f"m{i}", "card": c, "position": "attack"} for i, c in enumerate(field)]},
                        "B": {}}}


def light_board(phase: str, face: str) -> dict:
    """The Tribute effects board under a "Light of Intervention" of the opponent: a Set becomes a Normal
    Summon in face-up Defense Position (normal_summon_defense), with the Set's Tribute count."""
    snap = tribute_effects_board(phase)
    snap["players"]["B"] = {"spells_traps": [{"id": "light", "card": "Light of Intervention", "face": face}]}
    return snap


def activation_board(phase: str, priority: str = "A", window: str = "open", chain: tuple = ()) -> dict:
    """Spells and Traps of every speed in the hand and Set on both sides (one Set this turn), with
    priority, window and chain as given (CONTRACT 8, 9)."""
    snap = main_phase_board({"event": "normal_summon", "card": "ox"}, {"event": "set_spell_trap", "card": "new"})
    snap["phase"], snap["priority"], snap["window"] = phase, priority, window
    if phase == "battle":
        snap["battle_step"] = "damage" if chain else "battle"
    snap["chain"] = list(chain)
    a, b = snap["players"]["A"], snap["players"]["B"]
    a["hand"] += [{"id": "pot", "card": "Pot of Greed"}, {"id": "mst", "card": "Mystical Space Typhoon"},
                  {"id": "hole", "card": "Trap Hole"}, {"id": "fissure", "card": "Fissure"}]
    a["spells_traps"] = [{"id": "mf", "card": "Mirror Force", "face": "down"},
                         {"id": "new", "card": "Magic Cylinder", "face": "down", "set_turn": 3},
                         {"id": "jam", "card": "Magic Jammer", "face": "up" if chain else "down"}]
    b["hand"] = [{"id": "bmst", "card": "Mystical Space Typhoon"}]
    b["spells_traps"] = [{"id": "sj", "card": "Solemn Judgment", "face": "down"},
                         {"id": "book", "card": "Book of Moon", "face": "down"}]
    return snap


_ACTIVATION_BOARDS = [pytest.param(activation_board(ph, pr, w, ch), id=f"activation-{ph}-{pr}-{w}-{len(ch)}")
                      for ph, pr, w, ch in (("main1", "A", "open", ()), ("main1", "B", "open", ()),
                                            ("main1", "A", "event", ()), ("main1", "B", "event", ()),
                                            ("battle", "B", "open", ()), ("battle", "B", "open", ("jam",)),
                                            ("main2", "B", "open", ("jam",)), ("end", "A", "open", ()))]


@pytest.mark.parametrize("snap", [*_boards(), *_ACTIVATION_BOARDS, *(pytest.param(tribute_effects_board(ph), id=f"tribute-effects-{ph}")
                                                for ph in ("main1", "battle")),
                                  *(pytest.param(light_board(ph, face), id=f"light-{face}-{ph}")
                                    for ph in ("main1", "battle") for face in ("up", "down"))])
def test_legal_lists_exactly_the_permitted_actions(engine, snap):
    permitted = {a for a in _actions(snap) if engine.check(snap, a).permitted}
    listed = {a for a in engine.legal(snap).permitted if a.action != "synchro_summon"}
    assert listed == permitted
    if snap["phase"] in ("main1", "battle"):
        assert permitted, "the board should allow something in this phase"


def test_legal_all_lists_the_forbidden_candidates_of_the_phase(engine):
    """`legal --all` lists the forbidden actions legal mode tries: no attack outside the
    Battle Phase, no Summon, Set or position change outside a Main Phase; draw always."""
    kinds = {}
    for phase in ("main1", "battle"):
        snap = main_phase_board({"event": "normal_summon", "card": "ox"})
        snap["phase"] = phase
        kinds[phase] = {v.action.action for v in engine.legal(snap, include_forbidden=True).forbidden}
    assert "declare_attack" not in kinds["main1"] and "normal_summon" in kinds["main1"]
    assert "normal_summon" not in kinds["battle"] and "change_position" not in kinds["battle"]
    assert "draw" in kinds["main1"] and "draw" in kinds["battle"]


# ---- Fusion, Ritual and procedure Summons (CONTRACT 7) --------------------------------------
SUMMONS_BOARD = {
    "snapshot": 1, "turn": 3, "turn_player": "A", "phase": "main1",
    "players": {
        "A": {"monsters": [{"id": "dm", "card": "Dark Magician", "position": "attack"},
                           {"id": "ox", "card": "Battle Ox", "position": "defense", "face": "down"}],
              "hand": [{"id": "bb", "card": "Buster Blader"}, {"id": "god", "card": "Goddess with the Third Eye"},
                       {"id": "bls", "card": "Black Luster Soldier"}, {"id": "cs", "card": "Chaos Sorcerer"},
                       {"id": "poly", "card": "Polymerization"}],
              "spells_traps": [{"id": "blr", "card": "Black Luster Ritual", "face": "down"}],
              "graveyard": [{"id": "elf", "card": "Mystical Elf"}, {"id": "delf", "card": "Dark Elf"},
                            {"id": "tom", "card": "Mystic Tomato"}],
              "extra_deck": [{"id": "dp", "card": "Dark Paladin"}, {"id": "xy", "card": "XY-Dragon Cannon"}]},
        "B": {"monsters": [{"id": "foe", "card": "Sangan", "position": "attack"}]},
    },
}


def _subsets(ids: list[str], most: int):
    for n in range(most + 1):
        yield from (tuple(sorted(c)) for c in itertools.combinations(ids, n))


def _summons(snap: dict) -> list[Action]:
    """Fusion Summons (each Fusion Monster, each set of up to 3 of the turn player's hand and
    field monsters and an opponent's monster, by the Polymerization), Ritual Summons (the same
    sets, the Ritual Monster and Chaos Sorcerer too, by the Ritual Spell), one of each by the
    other card, and procedure Summons (sets of up to 2 cards of both Graveyards and fields), in
    both positions."""
    usable = ["dm", "ox", "bb", "god", "foe"]
    costs = ["elf", "delf", "tom", "dm", "foe"]
    out = []
    for pos in ("attack", "defense"):
        for card in ("dp", "xy"):
            out += [Action("fusion_summon", card=card, materials=m, position=pos, by="poly") for m in _subsets(usable, 3)]
        out += [Action("ritual_summon", card="bls", tributes=t, position=pos, by="blr")
                for t in _subsets(usable + ["bls", "cs"], 3)]
        out += [Action("fusion_summon", card="dp", materials=("bb", "dm"), position=pos, by="blr"),   # not an enabler
                Action("ritual_summon", card="bls", tributes=("bb", "dm"), position=pos, by="poly")]
        for card in ("cs", "xy"):
            out += [Action("procedure_summon", card=card, costs=c, position=pos) for c in _subsets(costs, 2)]
    return out


@pytest.mark.parametrize("phase", ["main1", "end"])
def test_legal_lists_exactly_the_permitted_summons_by_other_cards(engine, phase):
    """Fusion, Ritual and procedure Summons: `legal` lists exactly the ones `check` permits
    (legal names the enabling card of each; asked with it, check agrees)."""
    snap = copy.deepcopy(SUMMONS_BOARD)
    snap["phase"] = phase
    kinds = ("fusion_summon", "ritual_summon", "procedure_summon")
    asked = _summons(snap) if phase == "main1" else _summons(snap)[::7]
    permitted = {a for a in asked if engine.check(snap, a).permitted}
    listed = {a for a in engine.legal(snap).permitted if a.action in kinds}
    assert listed == permitted
    if phase == "main1":
        assert {a.action for a in listed} == set(kinds)
        # without `by`, check permits exactly the Summons some enabling card permits
        some = sorted({a for a in asked if a.by in ("poly", "blr")}, key=Action.sort_key)
        for a in some[::5]:
            anyone = Action(a.action, card=a.card, materials=a.materials, tributes=a.tributes,
                            costs=a.costs, position=a.position)
            assert engine.check(snap, anyone).permitted == any(
                engine.check(snap, Action(a.action, card=a.card, materials=a.materials, tributes=a.tributes,
                                          costs=a.costs, position=a.position, by=b)).permitted
                for b in ("poly", "blr"))
    else:
        assert not listed


# ---- a Ritual Spell with more than one Level requirement (rules/ritual.lp) ----------------------------
TWO_REQUIREMENTS_RITUAL = {"name": "Two Requirements Ritual", "kind": "spell", "spell_type": "ritual",
                           "effects": [{"effect": "ritual_spell_for", "name": "Black Luster Soldier"},
                                       {"effect": "ritual_levels_at_least", "level": 6},
                                       {"effect": "ritual_levels_equal"}]}


def test_legal_lists_exactly_the_permitted_ritual_summons_of_a_spell_with_two_requirements(engine):
    """Legal mode builds each Tribute set for one requirement of its Ritual Spell; a spell that asks for two
    (a made-up card: Levels 6 or more, and exactly the monster's 8) has each set judged against both, as check
    judges it: `legal` lists exactly the Ritual Summons `check` permits: Levels 8 exactly, none superfluous for
    6 or more (4 + 4, not 7 + 1)."""
    snap = {"snapshot": 1, "turn": 3, "turn_player": "A", "phase": "main1",
            "players": {"A": {"hand": [{"id": "bls", "card": "Black Luster Soldier"},
                                       {"id": "witch", "card": "Witch of the Black Forest"}],
                              "monsters": [{"id": "dm", "card": "Dark Magician", "position": "attack"},
                                           {"id": "ox", "card": "Battle Ox", "position": "attack"},
                                           {"id": "tw", "card": "Time Wizard", "position": "attack"},
                                           {"id": "mokey", "card": "Mokey Mokey", "position": "attack"}],
                              "spells_traps": [{"id": "tr", "card": TWO_REQUIREMENTS_RITUAL, "face": "down"}]},
                        "B": {}}}
    asked = [Action("ritual_summon", card="bls", tributes=t, position=pos, by="tr")
             for t in _subsets(["dm", "ox", "tw", "mokey", "witch"], 3) for pos in ("attack", "defense")]
    permitted = {a for a in asked if engine.check(snap, a).permitted}
    listed = {a for a in engine.legal(snap).permitted if a.action == "ritual_summon"}
    assert listed == permitted
    assert {a.tributes for a in listed} == {("ox", "witch")}


# ---- procedures by kind, by Level, open and over turns (rules/procedure.lp) -------------------------
MORE_PROCEDURES_BOARD = {
    "snapshot": 1, "turn": 7, "turn_player": "A", "phase": "main1",
    "players": {
        "A": {"hand": [{"id": "sdm", "card": "Sorcerer of Dark Magic"}, {"id": "tss", "card": "Toon Summoned Skull"},
                       {"id": "tmer", "card": "Toon Mermaid"}, {"id": "opt", "card": "Gradius' Option"},
                       {"id": "mega", "card": "Megarock Dragon"}, {"id": "lm", "card": "Larvae Moth"},
                       {"id": "gm", "card": "Great Moth"}],
              "monsters": [{"id": "dm", "card": "Dark Magician", "position": "attack"},
                           {"id": "cs", "card": "Chaos Sorcerer", "position": "defense", "face": "down"},
                           {"id": "pm", "card": "Petit Moth", "position": "attack"},
                           {"id": "gr", "card": "Gradius", "position": "attack"}],
              "spells_traps": [{"id": "tw", "card": "Toon World", "face": "up"},
                               {"id": "coc", "card": "Cocoon of Evolution", "face": "up", "equipped_to": "pm",
                                "equipped_turn": 3}],
              "graveyard": [{"id": f"r{n}", "card": "Sand Stone"} for n in range(1, 4)] + [{"id": "ox", "card": "Battle Ox"}]},
        "B": {"monsters": [{"id": "foe", "card": "Dark Magician", "position": "attack"}],
              "graveyard": [{"id": "rb", "card": "Giant Soldier of Stone"}]},
    },
}


def test_legal_lists_exactly_the_permitted_procedures_by_kind_level_count_and_turns(engine):
    """Sorcerer of Dark Magic, a Toon under Toon World, Gradius' Option, Megarock Dragon and the Moths:
    every set of up to 2 of the cards they could name (Megarock Dragon: every set of up to 3 Graveyard
    cards, its 3 Rocks: every set listed), in both positions; `legal` lists exactly the ones
    `check` permits."""
    snap = MORE_PROCEDURES_BOARD
    usable = ["dm", "cs", "pm", "gr", "foe", "r1", "r2", "ox", "rb"]
    sets = {card: list(_subsets(usable, 2)) for card in ("sdm", "tss", "tmer", "opt", "lm", "gm")}
    sets["mega"] = list(_subsets(["r1", "r2", "r3", "ox", "rb", "dm"], 3))
    asked = [Action("procedure_summon", card=card, costs=c, position=pos)
             for card, cs in sets.items() for c in cs for pos in ("attack", "defense")]
    permitted = {a for a in asked if engine.check(snap, a).permitted}
    listed = {a for a in engine.legal(snap).permitted if a.action == "procedure_summon"}
    assert listed == permitted
    assert {a.card for a in listed} == {"sdm", "tss", "tmer", "opt", "mega", "lm"}    # Great Moth: 2 turns, not 4
    assert sum(a.card == "mega" for a in listed) == 2 * 7


# ---- a procedure to the opponent's side (Lava Golem, rules/procedure.lp) ------------------------------
LAVA_GOLEM_BOARD = {
    "snapshot": 1, "turn": 3, "turn_player": "A", "phase": "main1",
    "players": {
        "A": {"hand": [{"id": "lg", "card": "Lava Golem"}],
              "monsters": [{"id": "ox", "card": "Battle Ox", "position": "attack"},
                           {"id": "taken", "card": "Sangan", "position": "attack", "owner": "B"}]},
        "B": {"monsters": [{"id": "b1", "card": "Sangan", "position": "attack"},
                           {"id": "b2", "card": "Mystical Elf", "position": "defense", "face": "down"},
                           {"id": "b3", "card": "Battle Ox", "position": "attack"}]},
    },
}


@pytest.mark.parametrize("this_turn", [[], [{"event": "normal_summon", "card": "ox"}]])
def test_legal_lists_exactly_the_permitted_lava_golem_summons(engine, this_turn):
    """Lava Golem with every set of up to 3 of both sides' monsters, in both positions: `legal` lists
    exactly the ones `check` permits (the 3 pairs of the opponent's monsters; none after a Normal Summon)."""
    snap = copy.deepcopy(LAVA_GOLEM_BOARD)
    snap["this_turn"] = this_turn
    asked = [Action("procedure_summon", card="lg", costs=c, position=pos)
             for c in _subsets(["ox", "taken", "b1", "b2", "b3"], 3) for pos in ("attack", "defense")]
    permitted = {a for a in asked if engine.check(snap, a).permitted}
    listed = {a for a in engine.legal(snap).permitted if a.action == "procedure_summon"}
    assert listed == permitted
    assert len(listed) == (0 if this_turn else 2 * 3)


# ---- Fusion materials named more than once, three names, two substitutes (rules/fusion.lp) -----------
FUSION_COUNTS_BOARD = {
    "snapshot": 1, "turn": 3, "turn_player": "A", "phase": "main1",
    "players": {
        "A": {"monsters": [{"id": "m1", "card": "Mokey Mokey", "position": "attack"},
                           {"id": "og", "card": "Ojama Green", "position": "attack"}],
              "hand": [{"id": "m2", "card": "Mokey Mokey"}, {"id": "m3", "card": "Mokey Mokey"},
                       {"id": "oy", "card": "Ojama Yellow"}, {"id": "ob", "card": "Ojama Black"},
                       {"id": "god", "card": "Goddess with the Third Eye"}, {"id": "kos", "card": "King of the Swamp"}],
              "spells_traps": [{"id": "poly", "card": "Polymerization", "face": "down"}],
              "extra_deck": [{"id": "mkk", "card": "Mokey Mokey King"}, {"id": "ojk", "card": "Ojama King"},
                             {"id": "thtd", "card": "Twin-Headed Thunder Dragon"},
                             {"id": "balter", "card": "Dark Balter the Terrible"}]},
        "B": {},
    },
}


def test_legal_lists_exactly_the_permitted_fusions_of_repeated_names_and_substitutes(engine):
    """Legal mode builds only the material sets that fit (a weight per material name): "Mokey Mokey"
    x 3, three Ojamas, "Thunder Dragon" x 2 and a Fusion Monster that takes no substitute, with two
    substitutes in hand; every set of 2 or 3 of the 8 monsters, in Attack Position: `legal` lists
    exactly the ones `check` permits."""
    snap = FUSION_COUNTS_BOARD
    usable = ["m1", "og", "m2", "m3", "oy", "ob", "god", "kos"]
    asked = [Action("fusion_summon", card=card, materials=m, position="attack", by="poly")
             for card in ("mkk", "ojk", "thtd", "balter") for m in _subsets(usable, 3) if len(m) >= 2]
    permitted = {a for a in asked if engine.check(snap, a).permitted}
    listed = {a for a in engine.legal(snap).permitted if a.action == "fusion_summon" and a.position == "attack"}
    assert listed == permitted
    assert {a.card for a in listed} == {"mkk", "ojk"}       # no Thunder Dragon: two substitutes are one too many


# ---- procedures on a full side (rules/procedure.lp) ------------------------------------------------------
FULL_SIDE_BOARD = {
    "snapshot": 1, "turn": 3, "turn_player": "A", "phase": "main1",
    "players": {
        "A": {"monsters": [{"id": "sanga", "card": "Sanga of the Thunder", "position": "attack"},
                           {"id": "kaze", "card": "Kazejin", "position": "attack"},
                           {"id": "sui", "card": "Suijin", "position": "attack"},
                           {"id": "dm", "card": "Dark Magician", "position": "attack"},
                           {"id": "ox", "card": "Battle Ox", "position": "defense", "face": "down"}],
              "hand": [{"id": "gg", "card": "Gate Guardian"}, {"id": "lava", "card": "Lava Golem"},
                       {"id": "cs", "card": "Chaos Sorcerer"}, {"id": "sdm", "card": "Sorcerer of Dark Magic"}],
              "graveyard": [{"id": "tom", "card": "Mystic Tomato"}, {"id": "elf", "card": "Mystical Elf"},
                            {"id": "delf", "card": "Dark Elf"}]},
        "B": {"monsters": [{"id": "b1", "card": "Gemini Elf", "position": "attack"},
                           {"id": "b2", "card": "Mystical Elf", "position": "defense"}]},
    },
}


def test_legal_lists_exactly_the_permitted_procedures_on_a_full_side(engine):
    """On a full side legal mode leaves untried the procedures no cost could make room for (Chaos
    Sorcerer: Graveyard costs only); those that Tribute from the field, or to the opponent's side, are
    listed as check permits them, and legal --all still reports Chaos Sorcerer's forbidden sets."""
    snap = FULL_SIDE_BOARD
    cards = ["sanga", "kaze", "sui", "dm", "ox", "tom", "elf", "delf", "b1", "b2"]
    sets = {card: [c for c in _subsets(cards, 2) if c] for card in ("lava", "cs", "sdm")}
    sets["gg"] = list(_subsets(["sanga", "kaze", "sui", "dm", "ox"], 3))
    asked = [Action("procedure_summon", card=card, costs=c, position="attack") for card, cs in sets.items() for c in cs]
    permitted = {a for a in asked if engine.check(snap, a).permitted}
    listed = {a for a in engine.legal(snap).permitted if a.action == "procedure_summon" and a.position == "attack"}
    assert listed == permitted
    assert {a.card for a in listed} == {"gg", "lava", "sdm"}
    reported = engine.legal(snap, include_forbidden=True).forbidden
    assert any(v.action.card == "cs" and "no_free_monster_zone" in {r.rule for r in v.reasons} for v in reported)
