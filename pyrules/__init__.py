"""pyrules: the Yu-Gi-Oh! TCG rules as Answer Set Programming.

    from pyrules import Engine
    engine = Engine()
    engine.legal(snapshot)            # every permitted action
    engine.check(snapshot, action)    # verdict with reasons

The names below are imported when first used (PEP 562), so that `pyrules --help` and the
commands that need no solver do not load clingo.
"""
from __future__ import annotations

from typing import TYPE_CHECKING, Any

from .errors import InvalidInput, Problem

__version__ = "0.1.0"
__all__ = ["Engine", "Action", "Verdict", "Legal", "Reason", "Evidence", "Unmodelled", "Successor", "InvalidInput",
           "Problem", "parse_action", "__version__"]

_LAZY = {"Action": "actions", "parse_action": "actions", "Engine": "engine", "Evidence": "results",
         "Legal": "results", "Reason": "results", "Unmodelled": "results", "Verdict": "results",
         "Successor": "results"}

if TYPE_CHECKING:
    from .actions import Action, parse_action
    from .engine import Engine
    from .results import Evidence, Legal, Reason, Successor, Unmodelled, Verdict


def __getattr__(name: str) -> Any:
    module = _LAZY.get(name)
    if module is None:
        raise AttributeError(f"module 'pyrules' has no attribute {name!r}")
    import importlib
    value = getattr(importlib.import_module(f".{module}", __name__), name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted(set(globals()) | set(_LAZY))
