"""Which Vulkan drivers `run` lets the loader open when no device is named: only lavapipe
when nothing else can have a device, else the loader's own choice."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tosa_vkshader.runtime.toolchain import default_driver_environment


def _manifest(folder: Path, name: str, library: str) -> Path:
    path = folder / f"{name}.json"
    path.write_text(json.dumps({"file_format_version": "1.0.0", "ICD": {
        "library_path": f"/usr/lib/x86_64-linux-gnu/{library}", "api_version": "1.3.0"}}))
    return path


@pytest.fixture
def machine(tmp_path):
    """Debian's Mesa drivers, and a /dev/dri without a render node."""
    icd = tmp_path / "icd.d"
    icd.mkdir()
    dri = tmp_path / "dri"
    dri.mkdir()
    manifests = [_manifest(icd, "intel_icd", "libvulkan_intel.so"),
                 _manifest(icd, "radeon_icd", "libvulkan_radeon.so"),
                 _manifest(icd, "lvp_icd", "libvulkan_lvp.so")]
    return manifests, dri


def test_without_a_render_node_only_lavapipe_is_opened(machine):
    manifests, dri = machine
    env = default_driver_environment({}, manifests, str(dri))
    assert env == {"VK_DRIVER_FILES": str(manifests[2]), "VK_ICD_FILENAMES": str(manifests[2])}
    # No /dev/dri at all is the same machine.
    assert default_driver_environment({}, manifests, str(dri / "absent")) == env


def test_a_render_node_leaves_the_choice_to_the_loader(machine):
    manifests, dri = machine
    (dri / "renderD128").touch()
    assert default_driver_environment({}, manifests, str(dri)) == {}


def test_a_driver_that_needs_no_render_node_leaves_the_choice_to_the_loader(machine, tmp_path):
    manifests, dri = machine
    nvidia = _manifest(tmp_path / "icd.d", "nvidia_icd", "libGLX_nvidia.so.0")
    assert default_driver_environment({}, [*manifests, nvidia], str(dri)) == {}
    broken = tmp_path / "icd.d" / "broken.json"
    broken.write_text("{")
    assert default_driver_environment({}, [*manifests, broken], str(dri)) == {}


def test_the_users_driver_choice_is_kept(machine):
    manifests, dri = machine
    for variable in ("VK_DRIVER_FILES", "VK_ICD_FILENAMES"):
        assert default_driver_environment({variable: str(manifests[0])}, manifests,
                                          str(dri)) == {}


def test_without_lavapipe_nothing_is_chosen(machine):
    manifests, dri = machine
    assert default_driver_environment({}, manifests[:2], str(dri)) == {}
