"""The `pyrules` command's process: the console script and `python -m pyrules` start here.

A command runs in a process of its own that ends with it, and most of its start-up makes
objects that live until the end: the modules imported, the rules and cards an Engine reads.
Python's cyclic garbage collector would walk them again and again while they are made
(about 5 ms of a `pyrules check`: benchmarks/bench.py, start-up row), so it is paused from
the first line: pyrules/cli.py resumes it once the Engine is made, after freezing what was
made so far out of its sight (gc.freeze).  Objects are still freed as soon as nothing
refers to them; only reference cycles wait for the collector.  The commands that make no
Engine (schema, effects, lint, cards) are short and run with it paused; `batch` resumes it
before reading its input, and its worker processes run with it.  Code that imports pyrules
as a library is not touched.
"""
import gc


def run() -> None:
    """The `pyrules` command: pyrules.cli.run() with the collector paused until it resumes it."""
    gc.disable()
    from .cli import run as cli_run
    cli_run()
