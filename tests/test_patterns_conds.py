"""What the activation survey (pyrules.patterns.read_activation) does not count as asking (wp-conds, issue 36): a
sentence that says what a card does after it resolves, or what its face-up effect costs, is no condition of its
activation; a sentence of the same shape that is one still is."""
import pytest

from pyrules.patterns import read_activation


@pytest.mark.parametrize("text, kind, icon", [
    # card text of "Meteorain": "During this turn, ..." is what it does for the rest of the turn
    ("During this turn, when your monsters attack with an ATK that is higher than the DEF of your opponent's Defense "
     "Position monster, inflict the difference as Battle Damage to your opponent's Life Points.", "trap", "normal"),
    # card text of "Royal Oppression": "Either player can pay ..." is the face-up Continuous Trap's own effect
    ("Either player can pay 800 Life Points to negate the Special Summon of a monster(s), and/or an effect that Special "
     "Summons a monster(s), and destroy those cards.", "trap", "continuous"),
    # card text of "Skull Lair": the banishment pays for the face-up card's effect each time it is used
    ("Remove from play any number of Monster Cards in your Graveyard to destroy 1 face-up monster on the field whose "
     "Level is equal to the number of the cards you removed from play.", "trap", "continuous"),
])
def test_what_a_card_does_after_it_resolves_asks_nothing(text, kind, icon):
    got = read_activation(text, kind, icon)
    assert got.says == [] and got.unread == []


@pytest.mark.parametrize("text, kind, icon, asks", [
    ("During your opponent's Battle Phase: Choose 2 Spell/Trap Cards from your Deck and 1 monster in your Main "
     "Monster Zone. Special Summon them as Normal Monsters.", "trap", "normal", "a condition"),
    ("During your Standby Phase: Pay 500 Life Points.", "trap", "normal", "a condition"),
    ("Pay 1000 Life Points to destroy 1 face-up monster on the field.", "trap", "normal", "a cost"),
    ("Either player can pay 800 Life Points to negate the Special Summon of a monster(s).", "trap", "normal", "a cost"),
    # card text of "Mega Ton Magical Cannon": Spell Counters removed to activate it are a cost no snapshot can show
    ("Remove 10 Spell Counters on your side of the field. Destroy all cards on your opponent's side of the field.",
     "spell", "normal", "a cost"),
])
def test_the_same_shapes_still_ask_where_they_are_conditions(text, kind, icon, asks):
    got = read_activation(text, kind, icon, patterns=[])
    assert asks in got.says
