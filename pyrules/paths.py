"""Where the shipped rules and facts are: inside the installed package, or in the checkout."""
from pathlib import Path

_HERE = Path(__file__).resolve().parent


def _find(name: str) -> Path:
    for candidate in (_HERE / name, _HERE.parent / name):
        if candidate.is_dir():
            return candidate
    raise FileNotFoundError(f"pyrules cannot find its {name}/ folder next to {_HERE}")


def rules_dir() -> Path:
    return _find("rules")


def facts_dir() -> Path:
    return _find("facts")
