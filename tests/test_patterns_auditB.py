"""The activation survey's words (pyrules.patterns) read by wp-auditB (issue 36, second audit round, list B): the
permission wording of an event a card answers counts as a condition, and the sentences that state what a card does
once it has resolved (a lasting effect of the face-up card, an effect applied only if a state then holds) ask nothing
of its activation."""
import pytest

from pyrules.patterns import read_activation

SWORDS = ("After this card's activation, it remains on the field, but you must destroy it during the End Phase of your "
          "opponent's 3rd turn. When this card is activated: If your opponent controls a face-down monster, flip all "
          "monsters they control face-up. While this card is face-up on the field, your opponent's monsters cannot "
          "declare an attack.")


@pytest.mark.parametrize("text", [
    # card text of "Major Riot", "Gust", "Forced Requisition": the event the card answers, worded as a permission
    "You can activate this card when 1 or more of your monsters are returned from the field to your hand by your "
    "opponent's card effect.",
    "You can activate this card when you discard from your hand.",
])
def test_you_can_activate_this_card_when_asks_a_condition(text):
    got = read_activation(text, "trap", "normal", patterns=[])
    assert "a condition" in got.says and got.unread == [text]


@pytest.mark.parametrize("text, kind, icon", [
    # card text of "Swords of Revealing Light": how long it stays, a flip only if a face-down monster is there when it
    # resolves, and what it does while face-up: it is activated whatever the opponent controls
    (SWORDS, "spell", "normal"),
    # card text of "Last Will": a Special Summon it allows once during the turn, when a monster of the player's has been
    # or is later sent to the Graveyard this turn (the reference engine's script activates it at any time)
    ("If a monster on your side of the field was sent to your Graveyard this turn, you can Special Summon 1 monster "
     "with an ATK of 1500 points or less from your Deck once during this turn. Then shuffle your Deck.", "spell",
     "normal"),
    # card text of "Level Limit - Area B", "Stumbling": a Continuous Spell's lasting effect on the monsters there or
    # Summoned later, applied while it is face-up (none need be there when it is activated)
    ("Change all face-up Level 4 or higher monsters to Defense Position.", "spell", "continuous"),
    ("Any monster that is Normal Summoned, Flip Summoned or Special Summoned is changed to Defense Position.", "spell",
     "continuous"),
])
def test_what_a_card_does_once_resolved_asks_nothing(text, kind, icon):
    got = read_activation(text, kind, icon, patterns=[])
    assert got.says == [] and got.unread == []


@pytest.mark.parametrize("text, kind, icon, asks", [
    # the same words where they do state what the activation needs: a Normal Spell's "Change all ..." (Curse of Anubis),
    # a "When this card is activated:" with no "If", a condition before "while"
    ("Change all face-up Level 4 or higher monsters to Defense Position.", "spell", "normal", "cards it needs"),
    ("When this card is activated: Destroy all monsters your opponent controls.", "spell", "normal", "cards it needs"),
    ("If a monster on your side of the field was sent to your Graveyard this turn, Special Summon 1 monster from your "
     "Deck.", "spell", "normal", "a condition"),
    ("You can only activate this card while there is a face-up \"Sealmaster Meisei\" on your side of the field.",
     "spell", "continuous", "a condition"),
])
def test_the_same_words_still_ask_where_they_state_the_activation(text, kind, icon, asks):
    got = read_activation(text, kind, icon, patterns=[])
    assert asks in got.says
