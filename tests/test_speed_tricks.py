"""benchmarks/tricks.py weighs each speed trick by replacing it with plain code in a copy of the
package (docs/performance.md): every replacement must still find the code it replaces."""
import importlib.util
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
_SPEC = importlib.util.spec_from_file_location("tricks", ROOT / "benchmarks" / "tricks.py")
assert _SPEC is not None and _SPEC.loader is not None
tricks = importlib.util.module_from_spec(_SPEC)
_SPEC.loader.exec_module(tricks)


@pytest.mark.parametrize("name", sorted(tricks.VARIANTS))
def test_each_variant_finds_the_code_it_replaces(name, tmp_path):
    tree = tricks.variant_tree(name, tmp_path)
    changed = [p.name for p in sorted((tree / "pyrules").glob("*.py"))
               if p.read_text() != (ROOT / "pyrules" / p.name).read_text()]
    assert changed
