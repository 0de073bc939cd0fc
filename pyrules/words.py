"""The fixed words of the card schema (Attributes, Types, frame flags, archetypes), used by
schema.py, effects.py, encode.py and importers.py alike."""

ATTRIBUTES = ["EARTH", "WATER", "FIRE", "WIND", "LIGHT", "DARK", "DIVINE"]
RACES = ["Warrior", "Spellcaster", "Fairy", "Fiend", "Zombie", "Machine", "Aqua", "Pyro", "Rock",
         "Winged Beast", "Plant", "Insect", "Thunder", "Dragon", "Beast", "Beast-Warrior", "Dinosaur",
         "Fish", "Sea Serpent", "Reptile", "Psychic", "Divine-Beast"]
FRAME_FLAGS = ["normal", "effect", "fusion", "ritual", "synchro", "tuner", "token", "flip", "toon",
               "spirit", "special_summon_only", "trap_monster", "union", "gemini"]

SETCODE_ARCHETYPES = {0x4: "Amazoness", 0x18: "Cloudian", 0x28: "Batteryman", 0x22: "Jurrac", 0x2b: "Ninja", 0x2e: "Gravekeeper's",
                      0x41: "LV", 0x45: "Archfiend", 0x62: "Toon"}
"""The archetypes the Goat pool's texts name ("Amazoness" monsters, a "Cloudian" or "Jurrac" monster, Archfiend
Monster Cards, a "Ninja" monster, an "LV" monster: "Ninjitsu Art of Transformation", "Level Up!"; a "Batteryman" monster: "Battery Charger"; a "Toon" card: "Toon Table of Contents"), by the setcode goat-format-en.cdb gives the cards of each (its `setcode` column: up to four 16-bit
codes; the low 12 bits name the archetype, the high 4 a sub-archetype of it).  A setcode not listed gives no archetype.
The encoder numbers these names like the database's card names, so a card's facts that name one are made once."""
