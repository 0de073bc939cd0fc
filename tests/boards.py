"""Small boards shared by the wrapper and CLI tests."""
from __future__ import annotations


def main_phase_board(*this_turn: dict) -> dict:
    """Turn 3, A's Main Phase 1: Summoned Skull in hand, Battle Ox and a face-down Man-Eater Bug
    on A's field, a Mystical Elf on B's; `this_turn` as given."""
    return {
        "snapshot": 1, "turn": 3, "turn_player": "A", "phase": "main1",
        "players": {
            "A": {"hand": [{"id": "skull", "card": "Summoned Skull"}],
                  "monsters": [{"id": "ox", "card": "Battle Ox", "position": "attack"},
                               {"id": "bug", "card": "Man-Eater Bug", "position": "defense", "face": "down"}]},
            "B": {"monsters": [{"id": "elf", "card": "Mystical Elf", "position": "defense"}]},
        },
        "this_turn": list(this_turn),
    }
