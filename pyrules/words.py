"""The fixed words of the card schema (Attributes, Types, frame flags), used by schema.py and
effects.py alike."""

ATTRIBUTES = ["EARTH", "WATER", "FIRE", "WIND", "LIGHT", "DARK", "DIVINE"]
RACES = ["Warrior", "Spellcaster", "Fairy", "Fiend", "Zombie", "Machine", "Aqua", "Pyro", "Rock",
         "Winged Beast", "Plant", "Insect", "Thunder", "Dragon", "Beast", "Beast-Warrior", "Dinosaur",
         "Fish", "Sea Serpent", "Reptile", "Psychic", "Divine-Beast"]
FRAME_FLAGS = ["normal", "effect", "fusion", "ritual", "synchro", "tuner", "token", "flip", "toon",
               "spirit", "special_summon_only", "trap_monster", "union", "gemini"]
