"""The house's floors (pyproject.toml [tool.importlinter]) hold: `make test`, and so CI, fails otherwise."""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
LINT_IMPORTS = Path(sys.executable).with_name("lint-imports")


def _lint(root: Path = ROOT) -> subprocess.CompletedProcess:
    return subprocess.run([str(LINT_IMPORTS), "--no-cache"], cwd=root, capture_output=True, text=True,
                          timeout=120)


def test_import_contracts_are_kept():
    result = _lint()
    assert result.returncode == 0, result.stdout + result.stderr
    assert "0 broken" in result.stdout


def test_a_broken_floor_fails(tmp_path):
    """The contracts bite: on a copy of the tree where the wallet reads compliance again (the
    old upward import), lint-imports fails and names it."""
    for name in ("apps", "config"):
        shutil.copytree(ROOT / name, tmp_path / name, ignore=shutil.ignore_patterns("__pycache__"))
    shutil.copy(ROOT / "pyproject.toml", tmp_path / "pyproject.toml")
    (tmp_path / "apps" / "wallet" / "probe.py").write_text("from apps.compliance import selectors  # noqa\n")
    result = _lint(tmp_path)
    assert result.returncode != 0
    assert "apps.wallet is not allowed to import apps.compliance" in result.stdout
