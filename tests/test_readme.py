"""The README is the front door: it opens with the two commands that work on a fresh machine
(CI runs the second), its Python example runs, and its links and the docs' links lead
somewhere."""
from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
README = ROOT / "README.md"
DOCS = ROOT / "docs"



def blocks(text: str, lang: str) -> list[str]:
    return re.findall(rf"^```{lang}\n(.*?)^```", text, flags=re.S | re.M)


def test_readme_opens_with_the_two_commands_ci_runs():
    first = blocks(README.read_text(encoding="utf-8"), "sh")[0].splitlines()
    assert first == ["pip install . && pyrules legal facts/examples/main_phase.yaml",
                     'pip install ".[test]" && python -m pytest']
    assert first[1] in (ROOT / ".ci" / "run").read_text(encoding="utf-8").splitlines()


def test_readme_python_example_runs():
    code = blocks(README.read_text(encoding="utf-8"), "python")[0]
    out = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True)
    assert out.returncode == 0, out.stderr
    lines = out.stdout.splitlines()
    assert "change_position(faith,attack)" in lines and "False" in lines
    assert any(line.startswith("too_many_tributes ") for line in lines)


def slug(heading: str) -> str:
    """GitHub's anchor for a heading: lower case, punctuation dropped, spaces as hyphens."""
    text = re.sub(r"[`*]", "", heading.strip().lower())
    return re.sub(r"[^\w\- ]", "", text).replace(" ", "-")


def anchors(path: Path) -> set[str]:
    text = re.sub(r"^```.*?^```", "", path.read_text(encoding="utf-8"), flags=re.S | re.M)
    return {slug(h) for h in re.findall(r"^#+ (.+)$", text, flags=re.M)}


def test_links_of_the_readme_and_the_docs_lead_somewhere():
    broken = []
    for page in [README, *sorted(DOCS.glob("*.md"))]:
        text = re.sub(r"^```.*?^```", "", page.read_text(encoding="utf-8"), flags=re.S | re.M)
        for target in re.findall(r"\]\(([^)\s]+)\)", text):
            if re.match(r"[a-z]+:", target):
                continue
            file, _, anchor = target.partition("#")
            dest = (page.parent / file).resolve() if file else page
            if not dest.exists():
                broken.append(f"{page.name}: {target}")
                continue
            if anchor and dest.suffix == ".md" and anchor not in anchors(dest):
                broken.append(f"{page.name}: {target} (no such heading)")
    assert not broken, broken


def test_no_dates_or_commits_in_the_docs_prose():
    found = []
    for page in [README, *sorted(DOCS.glob("*.md"))]:
        for n, line in enumerate(page.read_text(encoding="utf-8").splitlines(), 1):
            if re.search(r"\b20\d\d-\d\d-\d\d\b", line) or re.search(r"\b(?:commit|at) [0-9a-f]{7,40}\b", line):
                found.append(f"{page.name}:{n}: {line.strip()}")
    assert not found, found
