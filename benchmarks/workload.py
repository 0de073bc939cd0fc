"""Snapshots for the benchmark: a typical board, and boards that grow one way at a time."""
from __future__ import annotations

import copy
from functools import lru_cache
from pathlib import Path

import yaml

MONSTERS = ["Battle Ox", "Celtic Guardian", "Mystical Elf", "Gemini Elf", "Beaver Warrior",
            "Giant Soldier of Stone", "Neo the Magic Swordsman", "Mokey Mokey"]
HAND = ["Summoned Skull", "Dark Necrofear", "Blue-Eyes White Dragon", "Man-Eater Bug", "Dark Magician"]
BACKROW = ["Mirror Force", "Trap Hole", "Monster Reborn", "Dark Hole", "Book of Moon"]
SYNCHROS = ["Junk Warrior", "Gaia Knight, the Force of Earth", "Colossal Fighter", "Avenging Knight Parshath"]


def _monsters(side: str, n: int, start: int = 0) -> list[dict]:
    out = []
    for k in range(n):
        out.append({"id": f"{side}m{k}", "card": MONSTERS[(k + start) % len(MONSTERS)],
                    "position": "attack" if k % 2 == 0 else "defense"})
    return out


def _events(n: int, side_monsters: list[dict]) -> list[dict]:
    """n events of this turn: a draw, then position changes and attacks of the turn player's monsters."""
    out: list[dict] = []
    for k in range(n):
        if k == 0:
            out.append({"event": "draw"})
        elif side_monsters:
            m = side_monsters[k % len(side_monsters)]["id"]
            out.append({"event": "position_change", "card": m, "how": "effect"})
        else:
            out.append({"event": "draw"})
    return out


def snapshot(n: int = 0, per_side: int = 3, backrow: int = 2, hand: int = 5, events: int = 5,
             synchros: int = 0, phase: str = "main1") -> dict:
    """A snapshot: `per_side` monsters and `backrow` Spells/Traps a side, `hand` cards in A's hand,
    `events` events this turn and `synchros` Synchro Monsters in A's Extra Deck."""
    a_mon, b_mon = _monsters("a", per_side), _monsters("b", per_side, start=3)
    a_side: dict = {"hand": [{"id": f"h{k}", "card": HAND[k % len(HAND)]} for k in range(hand)],
                    "monsters": a_mon,
                    "spells_traps": [{"id": f"as{k}", "card": BACKROW[k % len(BACKROW)], "face": "down"}
                                     for k in range(backrow)]}
    if synchros:
        a_side["extra_deck"] = [{"id": f"x{k}", "card": SYNCHROS[k % len(SYNCHROS)]} for k in range(synchros)]
    b_side = {"monsters": b_mon,
              "spells_traps": [{"id": f"bs{k}", "card": BACKROW[(k + 2) % len(BACKROW)], "face": "down"}
                               for k in range(backrow)]}
    snap = {"snapshot": 1, "turn": 3, "turn_player": "A", "phase": phase,
            "players": {"A": a_side, "B": b_side}, "this_turn": _events(events, a_mon)}
    return uniquify(snap, n) if n else snap


def uniquify(snap: dict, n: int) -> dict:
    """The same snapshot with every card id suffixed by n (ids unique across a run)."""
    def ren(x):
        return f"{x}_{n}" if x != "direct" else x
    for side in snap["players"].values():
        for key, items in side.items():
            for item in items:
                item["id"] = ren(item["id"])
    for ev in snap.get("this_turn", []):
        for k in ("card", "target"):
            if k in ev:
                ev[k] = ren(ev[k])
    for link in snap.get("chain", []):
        link["card"] = ren(link["card"])
    return snap


def typical(n: int = 0) -> dict:
    """About 10 cards on the field, 5 in hand, 5 events."""
    return snapshot(n)


def synchro_board(n: int = 0, synchros: int = 15) -> dict:
    """A Tuner and 4 other face-up monsters (5 materials) and `synchros` Synchro Monsters in the Extra Deck."""
    snap = snapshot(n, per_side=0, backrow=0, hand=0, events=1, synchros=synchros)
    mats = ["Junk Synchron", "Man-Eater Bug", "Hane-Hane", "Cyber Jar", "Mokey Mokey"]   # Tuner 3; 2, 2, 3, 1
    snap["players"]["A"]["monsters"] = [{"id": f"mat{k}_{n}", "card": c, "position": "attack"}
                                        for k, c in enumerate(mats)]
    return snap


@lru_cache(maxsize=None)
def _summons_fixture() -> dict:
    return yaml.safe_load((Path(__file__).with_name("summons_board.yaml")).read_text(encoding="utf-8"))


def summons_board(n: int = 0) -> dict:
    """The board of issue 13 (benchmarks/summons_board.yaml): 5 monsters, 6 cards in hand, 10 in the
    Graveyard, "Polymerization", a Set Ritual Spell and 15 Fusion Monsters in the Extra Deck."""
    snap = copy.deepcopy(_summons_fixture())
    return uniquify(snap, n) if n else snap


SPELLS_TRAPS_HAND = ["Pot of Greed", "Mystical Space Typhoon", "Book of Moon", "Dark Hole", "Raigeki"]
SPELLS_TRAPS_SET = ["Mirror Force", "Trap Hole", "Sakuretsu Armor", "Torrential Tribute", "Magic Cylinder"]


def spell_trap_board(n: int = 0) -> dict:
    """The activation board of issue 36: the typical monsters, ten Spells and Traps (five in A's hand,
    five Set on B's field) and a three-link chain (A's "Monster Reborn", B's "Mystical Space Typhoon",
    A's "Book of Moon"), B to answer it with spell speed 2 or more."""
    snap = snapshot(0, backrow=0, hand=0)
    a_side, b_side = snap["players"]["A"], snap["players"]["B"]
    a_side["hand"] = [{"id": f"h{k}", "card": c} for k, c in enumerate(SPELLS_TRAPS_HAND)]
    a_side["graveyard"] = [{"id": "ag0", "card": "Summoned Skull"}]
    a_side["spells_traps"] = [{"id": "as0", "card": "Monster Reborn", "face": "up"},
                              {"id": "as1", "card": "Book of Moon", "face": "up"}]
    b_side["spells_traps"] = [{"id": "bs9", "card": "Mystical Space Typhoon", "face": "up"}]
    b_side["spells_traps"] += [{"id": f"bs{k}", "card": c, "face": "down"} for k, c in enumerate(SPELLS_TRAPS_SET[:4])]
    b_side["hand"] = [{"id": "bh0", "card": SPELLS_TRAPS_SET[4]}]
    snap["chain"] = [{"card": "as0", "player": "A"}, {"card": "bs9", "player": "B"}, {"card": "as1", "player": "A"}]
    snap["priority"] = "B"
    return uniquify(snap, n) if n else snap


def typical_no_spells_traps(n: int = 0) -> dict:
    """The typical snapshot with no Spell or Trap Card anywhere (issue 36: such a query within 1.1x of its
    cost before activations were judged)."""
    return snapshot(n, backrow=0)


KINDS = {"typical": typical, "typical, no Spell/Trap": typical_no_spells_traps, "board (issue 13)": summons_board,
         "activation board (36)": spell_trap_board}
"""The snapshot kinds benchmarks/instructions.py counts, by the name its table prints."""
