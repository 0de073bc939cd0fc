"""The one exception pyrules raises for bad input."""
from __future__ import annotations

from .records import Record, record, set_field


@record
class Problem(Record):
    """One thing wrong with the input: the field path and what is wrong there."""
    path: str
    message: str

    def __init__(self, path: str, message: str) -> None:
        set_field(self, "path", path)
        set_field(self, "message", message)

    def __str__(self) -> str:
        return f"{self.path}: {self.message}" if self.path else self.message


class InvalidInput(ValueError):
    """Raised for a snapshot, action, reading or card file that cannot be judged.

    `problems` lists every problem found, each with its field path; `str()` of the
    exception lists them one per line.
    """

    def __init__(self, problems: list[Problem] | Problem):
        self.problems = [problems] if isinstance(problems, Problem) else list(problems)
        super().__init__("\n".join(str(p) for p in self.problems))

    def __reduce__(self):
        # pickled (worker processes) from its problems: the default would rebuild it from
        # str(self), one problem per character
        return (self.__class__, (self.problems,))
