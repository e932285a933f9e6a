"""Reading Vulkan Profiles files as the format defines them (#28): capability blocks merged
member by member, profiles built on other profiles (in the same file, another file of
the folder, or a shipped profile), alternatives read as "any of", every profile of a file
addressable as FILE#PROFILE, cycles and missing profiles refused with VKS902.

The fixtures in ``fixtures/devices/profiles/`` are small profile files a user could have
written. ``TOSA_VKSHADER_VULKAN_PROFILES`` may point at a checkout of the Khronos
Vulkan-Profiles repository (its JSON files are not shipped here: their licence does not
clearly cover them); the tests marked below then read every profile file of it.
"""

from __future__ import annotations

import json
import os
import shutil
from pathlib import Path

import pytest

import tosa_vkshader
from tosa_vkshader.cli import main
from tosa_vkshader.devices import SHIPPED, ProfileError, load_target

from conftest import FIXTURES

DEVICES = FIXTURES / "devices"
PROFILES = DEVICES / "profiles"


def run(capsys, *argv):
    code = main([str(a) for a in argv])
    out, err = capsys.readouterr()
    return code, out, err


def device_codes(fixture: Path, target: str) -> list[str]:
    report = tosa_vkshader.check_file(fixture, target_device=target)
    return sorted(d.code for d in report.diagnostics if d.code.startswith("VKS7"))


# -- blocks: member by member --------------------------------------------------------

def test_blocks_merge_member_by_member_by_the_kind_of_each_limit():
    profile = load_target(str(PROFILES / "merged.json"))
    # max-type limits take the larger requirement, element by element for arrays
    assert profile.limit("maxComputeWorkGroupInvocations") == 256
    assert profile.limit("maxComputeWorkGroupSize") == [256, 128, 64]
    assert profile.limit("maxComputeSharedMemorySize") == 32768
    # a min-type limit (an alignment) takes the smaller one
    assert profile.limit("minStorageBufferOffsetAlignment") == 64
    # bit masks are OR-ed; features of both blocks are on
    assert profile.property("VkPhysicalDeviceVulkan11Properties",
                            "subgroupSupportedOperations") == [
        "VK_SUBGROUP_FEATURE_BASIC_BIT", "VK_SUBGROUP_FEATURE_VOTE_BIT",
        "VK_SUBGROUP_FEATURE_ARITHMETIC_BIT"]
    assert profile.feature("VkPhysicalDeviceFeatures", "shaderInt16")
    assert profile.feature("VkPhysicalDeviceVulkan12Features", "shaderFloat16")
    assert profile.extensions == {"VK_KHR_16bit_storage"}


def test_a_finding_names_the_block_that_set_the_limit(tmp_path):
    # shared memory: 16 KiB in the update, 32 KiB in the first block; the larger holds
    attrs = json.loads((DEVICES / "shared_memory.json").read_text())
    attrs["shader_code"] = attrs["shader_code"].replace("tile[8192]", "tile[10240]")
    report = tosa_vkshader.validate(attrs, target_device=str(PROFILES / "merged.json"))
    (found,) = [d for d in report.diagnostics if d.code == "VKS704"]
    assert "40960 bytes" in found.message and "allows 32768" in found.message
    assert (f"set by block `phone_2023` of VP_EXAMPLE_phone_2024 "
            f"({PROFILES / 'merged.json'})") in found.message


def test_the_shader_that_needs_the_merged_limits_is_clean():
    fixture = DEVICES / "subgroup_f16_256.json"
    assert device_codes(fixture, str(PROFILES / "merged.json")) == []


# -- alternatives: any of -------------------------------------------------------------

def test_alternatives_promise_only_what_every_one_of_them_promises():
    profile = load_target(str(PROFILES / "alternatives.json"))
    # 1024 with the big core, 256 with the small one: a shader can count on 256
    assert profile.limit("maxComputeWorkGroupInvocations") == 256
    # 64 KiB only with the big core: the required block's 16 KiB is what holds
    assert profile.limit("maxComputeSharedMemorySize") == 16384
    assert profile.feature("VkPhysicalDeviceVulkan12Features", "shaderFloat16")
    assert not profile.feature("VkPhysicalDeviceVulkan12Features", "storageBuffer8BitAccess")
    assert profile.extensions == {"VK_KHR_shader_float16_int8"}
    assert "any of blocks `big_core`, `small_core`" in profile.origin(
        "properties", "VkPhysicalDeviceProperties", "limits",
        "maxComputeWorkGroupInvocations")


def test_a_need_only_one_alternative_meets_is_flagged():
    alternatives = str(PROFILES / "alternatives.json")
    assert device_codes(DEVICES / "float16.json", alternatives) == []  # both have it
    assert device_codes(DEVICES / "storage8.json", alternatives) == ["VKS700"]  # big only


# -- profiles built on profiles ---------------------------------------------------------

def test_profiles_build_on_profiles_of_the_same_file_and_of_the_folder():
    third = load_target(f"{PROFILES / 'family' / 'generations.json'}#VP_EXAMPLE_third")
    assert third.name == "VP_EXAMPLE_third"
    assert third.api_version == (1, 3, 250)
    # from VP_EXAMPLE_base (another file): 256 wins over the second generation's 128
    assert third.limit("maxComputeWorkGroupInvocations") == 256
    assert third.limit("maxComputeSharedMemorySize") == 32768  # its own block
    assert third.feature("VkPhysicalDeviceFeatures", "shaderInt16")  # base
    assert third.feature("VkPhysicalDeviceVulkan12Features", "shaderFloat16")  # second
    assert third.feature("VkPhysicalDeviceVulkan12Features", "shaderInt8")  # third
    assert "block `base` of VP_EXAMPLE_base" in third.origin(
        "properties", "VkPhysicalDeviceProperties", "limits",
        "maxComputeWorkGroupInvocations")
    second = load_target(f"{PROFILES / 'family' / 'generations.json'}#VP_EXAMPLE_second")
    assert not second.feature("VkPhysicalDeviceVulkan12Features", "shaderInt8")


def test_a_profile_can_build_on_a_shipped_one_by_its_published_name():
    profile = load_target(f"{PROFILES / 'dependencies.json'}#VP_EXAMPLE_roadmap_user")
    assert profile.limit("maxComputeWorkGroupInvocations") == 256  # Roadmap 2022's
    assert profile.feature("VkPhysicalDeviceVulkan12Features", "shaderFloat16")  # 2024's
    assert profile.api_version == (1, 3, 276)  # the newest of the profiles it builds on


@pytest.mark.parametrize(("profile", "words"), [
    ("VP_EXAMPLE_chicken", "the profiles it builds on lead back to it: VP_EXAMPLE_chicken -> "
                           "VP_EXAMPLE_egg -> VP_EXAMPLE_chicken"),
    ("VP_EXAMPLE_orphan", "builds on 'VP_EXAMPLE_nowhere', which is in no file of"),
    ("VP_EXAMPLE_unknown", "no profile named 'VP_EXAMPLE_unknown'"),
])
def test_cycles_and_missing_profiles_are_usage_errors(capsys, profile, words):
    spec = f"{PROFILES / 'dependencies.json'}#{profile}"
    code, out, err = run(capsys, "check", "--target-device", spec, DEVICES / "int64.json")
    assert code == 2 and out == ""
    assert "error[VKS902]" in err and words in err and "Traceback" not in err
    with pytest.raises(ProfileError, match="dependencies.json") as raised:
        load_target(spec)
    assert [d.code for d in raised.value.diagnostics] == ["VKS902"]


def test_a_file_of_several_profiles_names_each(capsys):
    code, _, err = run(capsys, "devices", PROFILES / "family" / "generations.json")
    assert code == 2
    assert "holds 2 profiles (VP_EXAMPLE_second, VP_EXAMPLE_third): name one as" in err
    code, out, _ = run(capsys, "devices", "--format", "json",
                       f"{PROFILES / 'family' / 'generations.json'}#VP_EXAMPLE_second")
    (item,) = json.loads(out)["targets"]
    assert (code, item["profile"], item["api_version"]) == (0, "VP_EXAMPLE_second", "1.3")


def test_an_edited_dependency_is_read_again(tmp_path):
    family = tmp_path / "family"
    shutil.copytree(PROFILES / "family", family)
    spec = f"{family / 'generations.json'}#VP_EXAMPLE_second"
    assert load_target(spec).limit("maxComputeWorkGroupInvocations") == 256
    base = json.loads((family / "VP_EXAMPLE_base.json").read_text())
    limits = base["capabilities"]["base"]["properties"]["VkPhysicalDeviceProperties"]["limits"]
    limits["maxComputeWorkGroupInvocations"] = 1024
    (family / "VP_EXAMPLE_base.json").write_text(json.dumps(base, indent=1))
    assert load_target(spec).limit("maxComputeWorkGroupInvocations") == 1024


# -- the shipped targets ------------------------------------------------------------------

def test_shipped_profiles_and_limit_kinds_are_generated():
    from tosa_vkshader.devices import generate, generate_kinds

    for path, render in generate.files().items():
        assert path.read_text() == render(), \
            f"{path.name} is stale: run python -m tosa_vkshader.devices.generate"
    assert generate_kinds.KINDS_PATH.read_text() == generate_kinds.render(), \
        "run: python -m tosa_vkshader.devices.generate_kinds"


def test_each_shipped_target_is_a_profile_with_its_origin(capsys):
    code, out, _ = run(capsys, "devices")
    assert code == 0
    for name in SHIPPED:
        assert f"{name}  (shipped;" in out
    assert "origin: the Vulkan specification, appendix \"Roadmap Milestones\", section " \
           "\"Roadmap 2024\"" in out
    approximate = [name for name in SHIPPED if "approximate" in name]
    assert approximate == ["mali-valhall-approximate", "adreno-approximate",
                           "apple-approximate"]
    for name in approximate:
        assert load_target(name).description.startswith("APPROXIMATE")


def _at_least(newer, older) -> list[str]:
    """What ``older`` promises that ``newer`` does not (empty: newer includes older)."""
    from tosa_vkshader.devices.merge import property_kind

    missing = [f"extension {e}" for e in older.extensions - newer.extensions]
    missing += [f"feature {s}.{m}" for s, members in older.features.items()
                for m, on in members.items() if on is True and not newer.feature(s, m)]
    older_limits = older.properties.get("VkPhysicalDeviceProperties", {}).get("limits", {})
    for name, value in older_limits.items():
        kind = property_kind("VkPhysicalDeviceLimits", name)
        mine = newer.limit(name)
        pairs = list(zip(mine, value, strict=False)) if isinstance(value, list) and \
            isinstance(mine, list) else [(mine, value)]
        for have, need in pairs:
            if kind == "max" and not (isinstance(have, (int, float)) and have >= need) or \
                    kind == "min" and not (isinstance(have, (int, float)) and have <= need):
                missing.append(f"limit {name} {mine} vs {value}")
    return missing


@pytest.mark.parametrize(("newer", "older"), [
    ("android-16", "android-15"), ("android-15", "android-baseline-2022"),
    ("roadmap-2026", "roadmap-2024"), ("roadmap-2024", "roadmap-2022"),
    ("roadmap-2022", "baseline")])
def test_each_shipped_milestone_includes_the_one_before(newer, older):
    assert _at_least(load_target(newer), load_target(older)) == []


# -- the Khronos repository's own files (when a checkout is given) ---------------------

KHRONOS = os.environ.get("TOSA_VKSHADER_VULKAN_PROFILES")
needs_khronos = pytest.mark.skipif(
    not KHRONOS, reason="set TOSA_VKSHADER_VULKAN_PROFILES to a checkout of "
                        "KhronosGroup/Vulkan-Profiles (its JSON files are not shipped)")


def _khronos(relative: str) -> str:
    root = Path(KHRONOS or "")
    return str(root / relative if (root / relative.split("#")[0]).exists()
               else root / "profiles" / relative)


@needs_khronos
def test_every_profile_file_of_the_khronos_repository_loads():
    from tosa_vkshader.devices.profile import profile_names

    root = Path(KHRONOS or "")
    loaded, refused = 0, []
    for path in sorted(root.rglob("*.json")):
        try:
            names = profile_names(path)
        except ProfileError as exc:  # not a profiles document, or not JSON: said, not raised
            refused.append(str(exc))
            continue
        for name in names:
            load_target(f"{path}#{name}")  # every profile document loads whole
            loaded += 1
    assert loaded > 100
    assert all("not valid JSON" in r or "not a Vulkan Profiles document" in r
               for r in refused), refused


@needs_khronos
def test_khronos_profiles_merged_as_the_schema_defines(reference_glslc):
    roadmap = "Khronos/VP_KHR_roadmap.json"
    r2026 = load_target(_khronos(f"{roadmap}#VP_KHR_roadmap_2026"))
    assert r2026.limit("maxComputeWorkGroupInvocations") == 256  # from the 2022 block
    assert r2026.limit("maxComputeSharedMemorySize") == 32768
    android15 = load_target(_khronos("VP_ANDROID_15_minimums.json"))
    android16 = load_target(_khronos("VP_ANDROID_16_minimums.json"))
    assert len(android15.extensions) == 44
    assert android15.feature("VkPhysicalDeviceFeatures", "shaderInt16")
    assert android16.limit("maxComputeWorkGroupInvocations") == 256
    assert _at_least(android16, android15) == []
    fixture = DEVICES / "subgroup_f16_256.json"
    assert device_codes(fixture, _khronos(f"{roadmap}#VP_KHR_roadmap_2024")) == []
    matrix = DEVICES / "cooperative_matrix.json"
    assert device_codes(matrix, _khronos(f"{roadmap}#VP_KHR_roadmap_2024")) == [
        "VKS700", "VKS701"]
    assert device_codes(matrix, _khronos(f"{roadmap}#VP_KHR_roadmap_2026")) == []


SHIPPED_FROM = {"roadmap-2022": "Khronos/VP_KHR_roadmap.json#VP_KHR_roadmap_2022",
                "roadmap-2024": "Khronos/VP_KHR_roadmap.json#VP_KHR_roadmap_2024",
                "roadmap-2026": "Khronos/VP_KHR_roadmap.json#VP_KHR_roadmap_2026",
                "android-baseline-2022": "VP_ANDROID_baseline_2022.json",
                "android-15": "VP_ANDROID_15_minimums.json",
                "android-16": "VP_ANDROID_16_minimums.json",
                "desktop-baseline-2024":
                    "LunarG/VP_LUNARG_desktop_baseline.json#VP_LUNARG_desktop_baseline_2024",
                "desktop-baseline-2026":
                    "LunarG/VP_LUNARG_desktop_baseline.json#VP_LUNARG_desktop_baseline_2026"}


@needs_khronos
@pytest.mark.parametrize("name", sorted(SHIPPED_FROM))
def test_shipped_targets_state_what_the_published_profiles_require(name):
    """Every limit, property, feature and extension a shipped target lists is what the
    published profile requires, or (not listed there) the Vulkan minimum."""
    ours, theirs = load_target(name), load_target(_khronos(SHIPPED_FROM[name]))
    baseline = load_target("baseline")
    wrong = [f"extension {e}" for e in ours.extensions - theirs.extensions]
    # (a feature may be listed in the core struct or in its extension's: either counts)
    listed = {m for members in theirs.features.values() for m, on in members.items()
              if on is True}
    wrong += [f"feature {s}.{m}" for s, members in ours.features.items() for m in members
              if m not in listed and not baseline.feature(s, m)]
    for struct, members in ours.properties.items():
        for member, value in members.items():
            nested = value.items() if isinstance(value, dict) else [(None, value)]
            for inner, mine in nested:
                published = theirs.property(struct, member)
                if inner is not None:
                    published = (published or {}).get(inner)
                least = baseline.property(struct, member)
                least = (least or {}).get(inner) if inner is not None else least
                if published != mine and not (published is None and mine == least):
                    wrong.append(f"{struct}.{member}{'.' + inner if inner else ''}: "
                                 f"{mine} vs {published}")
    assert wrong == []
