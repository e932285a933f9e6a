"""The committed .spv fixtures are what their sources compile to."""

from __future__ import annotations

import runpy

from spirv_helpers import SHADERS

BUILD = runpy.run_path(str(SHADERS / "build.py"))


def test_spv_files_match_their_sources():
    # scripts/bootstrap.sh installs both tools; a missing one is a broken set-up, not a skip.
    assert BUILD["missing_tools"]() == []
    assert BUILD["stale"]() == [], "run: python fixtures/shaders/build.py"


def test_every_source_has_a_module_and_back():
    sources = {p.stem for p in BUILD["sources"]()}
    modules = {p.stem for p in SHADERS.glob("*.spv")}
    assert sources == modules and len(sources) >= 30


def test_fixtures_cover_every_descriptor_type_and_origin():
    from spirv_helpers import module_bytes

    from tosa_vkshader.spirv import read_module, reflect

    seen = set()
    for name in sorted(p.stem for p in SHADERS.glob("*.spv")):
        module, _ = read_module(module_bytes(name))
        for entry in module.entry_points:
            seen |= {b.descriptor_type for b in reflect(module, entry.name).bindings}
    assert {t.removeprefix("VK_DESCRIPTOR_TYPE_") for t in seen} == {
        "STORAGE_BUFFER", "UNIFORM_BUFFER", "STORAGE_IMAGE", "SAMPLED_IMAGE", "SAMPLER",
        "COMBINED_IMAGE_SAMPLER", "UNIFORM_TEXEL_BUFFER", "STORAGE_TEXEL_BUFFER",
        "INPUT_ATTACHMENT", "ACCELERATION_STRUCTURE_KHR", "TENSOR_ARM"}
    suffixes = {p.suffix for p in SHADERS.iterdir()}
    assert {".comp", ".hlsl", ".spvasm"} <= suffixes
