"""The activation survey's words (pyrules.patterns.ACTIVATION_SAYS) read by wp-rest (issue 36): what a sentence asks
that the survey must count, and what it must not."""
import pytest

from pyrules.patterns import read_activation

CREATURE_SWAP = ("Each player chooses 1 monster they control and switches control of those monsters with each other. "
                 "Those monsters cannot change their battle positions for the rest of this turn.")


@pytest.mark.parametrize("text", [
    # card text of "Creature Swap" in the Goat database ("chooses"; other printings say "selects")
    CREATURE_SWAP,
    CREATURE_SWAP.replace("chooses", "selects"),
    # card text of "Arsenal Robber": the cards the opponent selects
    "Your opponent selects 1 Equip Spell Card from his/her Deck and sends it to the Graveyard.",
])
def test_a_player_choosing_or_selecting_cards_asks_targets(text):
    got = read_activation(text, "spell", "normal", patterns=[])
    assert "targets" in got.says and got.unread


def test_creature_swap_is_read_whole():
    got = read_activation(CREATURE_SWAP, "spell", "normal")
    assert got.unread == []
    assert {"effect": "needs_cards", "zone": "monster_zone", "side": "own", "count": 1, "what": "monster"} in got.effects
    assert {"effect": "needs_cards", "zone": "monster_zone", "side": "opponent", "count": 1,
            "what": "monster"} in got.effects
