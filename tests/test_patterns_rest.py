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


@pytest.mark.parametrize("text, kind, icon", [
    # card text of "Pharaoh's Treasure": what is done with it after it resolved, and its own trigger when drawn later
    ("After activation, put this card face-up in your Deck and shuffle it. When you draw this card, send it to the "
     "Graveyard and add 1 card in your Graveyard (except this card) to your hand.", "trap", "normal"),
    # card text of "Super Rejuvenation": a delayed effect, counted at the End Phase (none need be there at activation)
    ("During the End Phase of the turn this card was activated, draw a number of cards equal to the combined number of "
     "Dragon-Type monsters you discarded or Tributed from your hand or your side of the field this turn.", "spell",
     "quickplay"),
    # card text of "Statue of the Wicked": the Set card's own trigger when destroyed, before any activation
    ("When this face-down card is destroyed and sent to the Graveyard, Special Summon 1 \"Wicked Token\" "
     "(Fiend-Type/DARK/Level 4 /ATK 1000/DEF 1000) on your side of the field.", "trap", "normal"),
    # card text of "Dark Coffin": the same trigger, with the bullets that continue its sentence
    ("When this face-down card is destroyed and sent to the Graveyard, your opponent selects and executes 1 of the "
     "following effects:\n● Discard 1 random card in their hand.\n● Select 1 monster on their side of the field and "
     "destroy it.", "trap", "normal"),
    # card text of "Spirit Elimination": a replacement it applies for the rest of the turn, each time the event happens
    ("When monsters in the Graveyard are removed from play, remove monsters on your side of the field from play as "
     "substitutes. This card remains active until the end of the turn that it is activated. The substitutes remain "
     "removed from play.", "spell", "normal"),
    # card text of "Question": how its effect is carried out, not when it may be activated
    ("When activating this card, your opponent cannot check cards in the Graveyard.", "spell", "normal"),
])
def test_sentences_of_another_moment_than_the_activation_ask_nothing(text, kind, icon):
    got = read_activation(text, kind, icon, patterns=[])
    assert got.says == [] and got.unread == []


@pytest.mark.parametrize("text, kind, icon, asks", [
    # the same openings where they do state when the card is activated, or a later sentence that asks
    ("When this card is destroyed: Special Summon 1 monster from your Deck.", "trap", "normal", "a condition"),
    ("When monsters in the Graveyard are removed from play: Special Summon 1 monster from your hand.", "trap",
     "normal", "cards it needs"),
    ("During the End Phase: Draw 1 card.", "spell", "quickplay", "a condition"),
    ("After activation, put this card face-up in your Deck. Target 1 monster on the field; destroy it.", "trap",
     "normal", "targets"),
    ("When this face-down card is destroyed, draw 1 card.\nDiscard 1 card; destroy 1 monster.", "trap", "normal",
     "a cost"),
])
def test_the_same_openings_still_ask_where_they_state_the_activation(text, kind, icon, asks):
    got = read_activation(text, kind, icon, patterns=[])
    assert asks in got.says
