"""The activation survey on a card that stays face-up whose first sentence is its face-up effect's cost (wp-ritual,
issue 36; pyrules.patterns.activation_sentences): the survey reads nothing there as asked at activation."""
import pytest

from pyrules.patterns import activation_sentences, read_activation

# card text of "The Dragon's Bead" (a Continuous Trap): the discard pays for each negation of the face-up card
DRAGONS_BEAD = ("Discard 1 card from your hand. Negate the effect of a Trap Card that targets 1 face-up Dragon-Type "
                "monster and destroy the Trap Card.")


def test_the_dragons_bead_activation_asks_nothing():
    assert activation_sentences(DRAGONS_BEAD, "trap", "continuous") == []
    got = read_activation(DRAGONS_BEAD, "trap", "continuous")
    assert got.says == [] and got.unread == [] and got.effects == []


@pytest.mark.parametrize("text, kind, icon, asked", [
    # the same words on a card that leaves the field: the discard is its activation's cost
    (DRAGONS_BEAD, "trap", "normal", "a cost"),
    # a cost alone not followed by a negation stays the activation's ("Toon World": Pay 1000 Life Points to activate)
    ("Discard 1 card from your hand. Destroy 1 face-up monster on the field.", "trap", "continuous", "a cost"),
    # a filtered discard is another wording, left to the patterns
    ("Discard 1 Spell Card from your hand. Negate the activation of a Trap Card.", "trap", "continuous", "a cost"),
])
def test_near_misses_keep_their_cost(text, kind, icon, asked):
    got = read_activation(text, kind, icon, patterns=[])
    assert asked in got.says
