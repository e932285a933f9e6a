from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
FIXTURES = ROOT / "fixtures"
# The reference converter's schema lives in the team's shared folder beside the clone
# (it is not ours to copy into the repository).
REFERENCE_SCHEMA = Path(os.environ.get(
    "TOSA_VKSHADER_REFERENCE_SCHEMA",
    ROOT.parent / "shared" / "reference" / "arm-model-converter-vkshader-attributes.schema.json"))

# Keep Hypothesis fast and deterministic on the 2-core machine: the same examples on every
# run and in every xdist worker (no example database), no deadline to race.
# HYPOTHESIS_PROFILE=explore runs more, random examples while developing.
from hypothesis import HealthCheck, settings  # noqa: E402

settings.register_profile("ci", max_examples=150, deadline=None, derandomize=True,
                          database=None, suppress_health_check=[HealthCheck.too_slow])
settings.register_profile("explore", max_examples=1000, deadline=None)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "ci"))


def expected_fixtures() -> list[tuple[Path, list[str]]]:
    cases = []
    for expected in sorted(FIXTURES.rglob("expected.json")):
        for name, codes in json.loads(expected.read_text()).items():
            cases.append((expected.parent / name, codes))
    return cases


@pytest.fixture(autouse=True)
def _private_compile_cache(tmp_path_factory, monkeypatch):
    """Tests never write into the user's ~/.cache (and never see its entries)."""
    monkeypatch.setenv("TOSA_VKSHADER_CACHE_DIR",
                       str(tmp_path_factory.getbasetemp() / "compile-cache"))


@pytest.fixture(autouse=True, scope="session")
def _shaderc_glslc_unless_asked():
    """The suite's GLSL expectations are written for shaderc's glslc (batched, fast); the
    reference runtime's compiler (the scenario runner's glslc, chosen by default when it
    is installed) is tested in tests/test_compile_reference.py, which asks for it with
    the ``reference_glslc`` fixture. Session-wide, so module fixtures see it too."""
    patch = pytest.MonkeyPatch()
    patch.setenv("TOSA_VKSHADER_REFERENCE_GLSLC", "")
    yield
    patch.undo()


@pytest.fixture
def valid_attrs() -> dict:
    return json.loads((FIXTURES / "valid" / "multi-resource.json").read_text())


@pytest.fixture
def reference_glslc(monkeypatch) -> str:
    """Use the reference compiler from the installed scenario-runner wheel (the session
    turns it off by default, see above)."""
    from tosa_vkshader.compile.compiler import REFERENCE_ENV, locate_reference

    monkeypatch.delenv(REFERENCE_ENV)
    found = locate_reference()
    if found is None:
        pytest.skip("the scenario-runner wheel (with its glslc) is not installed")
    return found
