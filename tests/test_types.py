"""Every function of the services and selectors is annotated, and mypy with django-stubs
(pyproject.toml [tool.mypy]) finds no error in them: `make test`, and so CI, fails otherwise."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
#: mypy in a subprocess is not timing-sensitive: it runs beside the other tests (tests/conftest.py)
PARALLEL_SAFE = True
MYPY = Path(sys.executable).with_name("mypy")


def checked_files(root: Path = ROOT) -> list[str]:
    """The modules mypy holds to the strict rules: every app's services and selectors."""
    apps = root / "apps"
    files = [*apps.glob("*/services.py"), *apps.glob("*/services/*.py"), *apps.glob("*/selectors.py")]
    return sorted(str(f.relative_to(root)) for f in files)


def _mypy(files: list[str], root: Path = ROOT, cache: Path | None = None) -> subprocess.CompletedProcess:
    args = [str(MYPY), *(["--cache-dir", str(cache)] if cache else []), *files]
    return subprocess.run(args, cwd=root, capture_output=True, text=True, timeout=300)


@pytest.mark.timeout(320)
def test_services_and_selectors_are_annotated_and_type_check():
    files = checked_files()
    assert len(files) > 40 and "apps/wallet/services/ledger.py" in files
    result = _mypy(files)
    assert result.returncode == 0, result.stdout + result.stderr


@pytest.mark.timeout(320)
def test_an_unannotated_service_fails(tmp_path):
    """The check bites: a service function without annotations is named."""
    service = tmp_path / "apps" / "toy" / "services.py"
    service.parent.mkdir(parents=True)
    (tmp_path / "apps" / "__init__.py").write_text("")
    (service.parent / "__init__.py").write_text("")
    service.write_text("def toy_create(*, name):\n    return name\n")
    (tmp_path / "pyproject.toml").write_text(
        "[tool.mypy]\ndisallow_untyped_defs = true\ndisallow_incomplete_defs = true\n")
    result = _mypy(["apps/toy/services.py"], root=tmp_path, cache=tmp_path / "cache")
    assert result.returncode != 0 and "toy/services.py:1" in result.stdout and "no-untyped-def" in result.stdout
