"""pyrules: the Yu-Gi-Oh! TCG rules as Answer Set Programming.

    from pyrules import Engine
    engine = Engine()
    engine.legal(snapshot)            # every permitted action
    engine.check(snapshot, action)    # verdict with reasons
"""
from .actions import Action, parse_action
from .engine import Engine, Evidence, Legal, Reason, Verdict
from .errors import InvalidInput, Problem

__version__ = "0.1.0"
__all__ = ["Engine", "Action", "Verdict", "Legal", "Reason", "Evidence", "InvalidInput", "Problem", "parse_action", "__version__"]
