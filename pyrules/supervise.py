"""A search command (diff, verify) run in a forked child, so that its --timeout holds even while
clingo grounds (which nothing can interrupt from inside): the child's output, exit status or
invalid input come back to the parent through a pipe, and a child still at work past the
timeout is ended.  The command line (pyrules/cli.py) wraps its search commands with
hard_timeout; the searches themselves are in pyrules/search.py.
"""
from __future__ import annotations

import functools
import io
import json
import os
import sys
from contextlib import redirect_stderr, redirect_stdout
from typing import Any

import click

from .errors import InvalidInput, Problem

OK = 0                # the exit statuses of pyrules/cli.py this module ends a run with
FAILED = 1

GRACE = 5.0           # seconds a search may run past --timeout (it stops solving on time itself) before it is stopped


def hard_timeout(command):
    """A search command whose --timeout holds even while clingo grounds, which nothing can interrupt
    from inside: with a timeout (and where processes fork), the command runs in a child process whose
    output, exit status or invalid input come back through a pipe; a child still at work GRACE seconds
    (and a quarter of the timeout) after the timeout is ended, and the run ends as unknown (exit 1)."""
    @functools.wraps(command)
    def run(*args, **kwargs):
        timeout = kwargs.get("timeout")
        if timeout is None or not hasattr(os, "fork"):
            return command(*args, **kwargs)
        sys.stdout.flush()
        sys.stderr.flush()
        read_end, write_end = os.pipe()
        parent = os.getpid()
        pid = os.fork()
        if pid == 0:                                  # the child: runs the command, sends what it said
            code = FAILED
            try:
                os.close(read_end)
                die_with(parent)
                code = child_run(write_end, lambda: command(*args, **kwargs))
            finally:
                os._exit(code)                        # never the parent's code (click's, a test runner's)
        os.close(write_end)
        try:
            parent_wait(pid, read_end, timeout + GRACE + timeout / 4, bool(kwargs.get("as_json")))
        finally:                                      # Ctrl-C, or any error here: the child ends too
            end_child(pid)
    return run


def die_with(parent: int) -> None:
    """The child ends when its parent does (Linux: the kernel sends it SIGKILL; elsewhere the
    parent's own exits end it), and at once if the parent is already gone."""
    try:
        import ctypes
        libc = ctypes.CDLL(None, use_errno=True)
        libc.prctl(1, 9)                              # PR_SET_PDEATHSIG, SIGKILL
    except (OSError, AttributeError):
        pass
    if os.getppid() != parent:
        os._exit(FAILED)


def end_child(pid: int) -> None:
    """Kills the child if it still runs, and reaps it."""
    import signal
    try:
        if os.waitpid(pid, os.WNOHANG) == (0, 0):
            os.kill(pid, signal.SIGKILL)
            os.waitpid(pid, 0)
    except ChildProcessError:
        pass


_LIVE_STDERR: list = []   # in a forked search: the stderr its progress lines go to while the rest is kept


def progress_stream():
    """Where a search's progress lines go: stderr, or in a forked search (child_run) the stderr
    it had before its output was kept, so that a terminal still sees them as they come."""
    return _LIVE_STDERR[-1] if _LIVE_STDERR else sys.stderr


def child_run(write_end: int, work) -> int:
    """Runs work() with its output kept (progress lines apart: progress_stream), then writes
    {"code", "out", "err", "problems"} as JSON."""
    out, err = io.StringIO(), io.StringIO()
    reply: dict[str, Any] = {"code": OK}
    _LIVE_STDERR.append(sys.stderr)
    try:
        with redirect_stdout(out), redirect_stderr(err):
            work()
    except SystemExit as e:
        reply["code"] = OK if e.code is None else e.code if isinstance(e.code, int) else FAILED     # as sys.exit reads it
    except InvalidInput as e:
        reply["problems"] = [[p.path, p.message] for p in e.problems]
    except BaseException as e:                        # noqa: BLE001 (reported by the parent as a failure)
        reply["code"] = FAILED
        err.write(f"the search failed: {type(e).__name__}: {e}\n")
    finally:
        _LIVE_STDERR.pop()
    reply["out"], reply["err"] = out.getvalue(), err.getvalue()
    try:
        with os.fdopen(write_end, "wb") as f:
            f.write(json.dumps(reply).encode("utf-8"))
    except OSError:                                   # the parent is gone: nobody to tell
        return FAILED
    return 0


def parent_wait(pid: int, read_end: int, limit: float, as_json: bool) -> None:
    """Reads the child's reply until it ends or `limit` seconds pass (then ends the child), and
    finishes the command as the child did."""
    import select
    import time

    from .search import Progress
    deadline, chunks = time.monotonic() + limit, []
    with os.fdopen(read_end, "rb") as f:
        while True:
            left = deadline - time.monotonic()
            if left <= 0 or not select.select([f], [], [], left)[0]:
                end_child(pid)
                Progress(sys.stderr).clear_line()     # the child's last progress line, on a terminal
                why = (f"the search was still at work {limit:.0f}s after it started, past --timeout, and was stopped "
                       "(clingo cannot interrupt its grounding): narrow --scope or --cards")
                if as_json:
                    click.echo(json.dumps({"unknown": why}))
                click.echo(f"unknown: {why}", err=True)
                sys.exit(FAILED)
            chunk = os.read(f.fileno(), 1 << 16)
            if not chunk:
                break
            chunks.append(chunk)
    _, status = os.waitpid(pid, 0)
    Progress(sys.stderr).clear_line()
    try:
        reply = json.loads(b"".join(chunks))
    except ValueError:                                # none, or cut short: the child died while it wrote
        died = f" (ended by signal {os.WTERMSIG(status)})" if os.WIFSIGNALED(status) else ""
        reply = {"code": FAILED, "out": "", "err": f"the search ended without a whole reply{died}\n"}
    if reply.get("problems"):
        raise InvalidInput([Problem(path, message) for path, message in reply["problems"]])
    click.echo(reply["out"], nl=False)
    click.echo(reply["err"], nl=False, err=True)
    sys.exit(reply["code"])
