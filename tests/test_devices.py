"""Target devices (#13): ops checked against Vulkan Profiles JSON, through the CLI and API.

The device profiles are the shipped ones (``baseline``: the Vulkan 1.3 minimum;
``lavapipe``: this machine's Mesa lavapipe as ``vulkaninfo --json`` wrote it) and copies of
the lavapipe profile edited the way a user would edit one: a feature switched off, a limit
made smaller. Each fixture shader needs exactly one thing.
"""

from __future__ import annotations

import importlib.util
import json
import shutil
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import tosa_vkshader
from tosa_vkshader.cli import main
from tosa_vkshader.devices import SHIPPED, ProfileError
from tosa_vkshader.devices.generate import LAVAPIPE_PATH

from conftest import FIXTURES
from strategies import any_json

DEVICES = FIXTURES / "devices"
DEVICE_CODES = ("VKS7",)
# What the reference runtime does with these fixtures, whatever the device: their
# workgroup_sizes is the local size (note VKS430) and push constants are dropped (VKS250).
RUNTIME_TRUTH = ("VKS430", "VKS250")


def run(capsys, *argv):
    code = main([str(a) for a in argv])
    out, err = capsys.readouterr()
    return code, out, err


def edited_lavapipe(tmp_path: Path, name: str, *, drop_feature: str | None = None,
                    limit: tuple[str, int] | None = None, edit=None) -> Path:
    """A copy of the real lavapipe profile with one feature off or one limit lowered, as a
    user edits one by hand: the feature is switched off in every struct that reports it."""
    document = json.loads(LAVAPIPE_PATH.read_text())
    device = document["capabilities"]["device"]
    if drop_feature is not None:
        hits = [members for members in device["features"].values() if drop_feature in members]
        assert hits, f"lavapipe has no {drop_feature} to drop"
        for members in hits:
            members[drop_feature] = False
    if limit is not None:
        limits = device["properties"]["VkPhysicalDeviceProperties"]["limits"]
        assert limit[0] in limits
        limits[limit[0]] = limit[1]
    if edit is not None:
        edit(device)
    path = tmp_path / f"{name}.json"
    path.write_text(json.dumps(document, indent=1))
    return path


def device_findings(path: Path, target) -> list[tosa_vkshader.Diagnostic]:
    report = tosa_vkshader.check_file(path, target_device=target)
    other = [d for d in report.diagnostics
             if not d.code.startswith(DEVICE_CODES) and d.code not in RUNTIME_TRUTH]
    assert other == [], f"{path.name} should be clean apart from device findings: {other}"
    return [d for d in report.diagnostics if d.code.startswith(DEVICE_CODES)]


# fixture, what the edited profile lacks, the code, words the message must contain
NEEDS = [
    ("float64.json", {"drop_feature": "shaderFloat64"}, "VKS700",
     ["OpCapability Float64", "shaderFloat64 = false"]),
    ("int64.json", {"drop_feature": "shaderInt64"}, "VKS700",
     ["OpCapability Int64", "shaderInt64 = false"]),
    ("storage8.json", {"drop_feature": "storageBuffer8BitAccess"}, "VKS700",
     ["OpCapability StorageBuffer8BitAccess", "storageBuffer8BitAccess = false"]),
    ("float16.json", {"drop_feature": "shaderFloat16"}, "VKS700",
     ["OpCapability Float16", "shaderFloat16 = false"]),
    ("shared_memory.json", {"limit": ("maxComputeSharedMemorySize", 16384)}, "VKS704",
     ["32768 bytes", "allows 16384", "maxComputeSharedMemorySize"]),
    ("local_size.json", {"limit": ("maxComputeWorkGroupInvocations", 256)}, "VKS703",
     ["512 invocations", "at most 256", "maxComputeWorkGroupInvocations"]),
    ("push_constants.json", {"limit": ("maxPushConstantsSize", 64)}, "VKS705",
     ["128 bytes", "allows 64", "maxPushConstantsSize"]),
]


@pytest.mark.parametrize(("fixture", "edit", "code", "words"), NEEDS,
                         ids=[n[0].removesuffix(".json") for n in NEEDS])
def test_each_need_is_flagged_where_missing_and_clean_on_lavapipe(tmp_path, fixture, edit,
                                                                   code, words):
    path = DEVICES / fixture
    assert device_findings(path, "lavapipe") == []
    lacking = edited_lavapipe(tmp_path, "my-board", **edit)
    found = device_findings(path, str(lacking))
    assert [d.code for d in found] == [code]
    message = found[0].message
    for word in words:
        assert word in message
    assert "target `my-board`" in message and str(lacking) in message  # which profile said
    assert found[0].target == "my-board"
    assert found[0].pointer == "/shader_code" if code != "VKS705" else "/push_constants"


OPTIONAL = {"float64.json": "Float64", "int64.json": "Int64",
            "storage8.json": "StorageBuffer8BitAccess", "float16.json": "Float16"}


@pytest.mark.parametrize("fixture", sorted(OPTIONAL))
def test_baseline_flags_every_optional_feature(fixture):
    found = device_findings(DEVICES / fixture, "baseline")
    assert [(d.code, d.target) for d in found] == [("VKS700", "baseline")]
    assert f"OpCapability {OPTIONAL[fixture]}," in found[0].message
    assert "not listed" in found[0].message  # the baseline has no optional feature at all


def test_baseline_flags_the_limits_beyond_the_vulkan_minimum():
    codes = {fixture: sorted(d.code for d in device_findings(DEVICES / fixture, "baseline"))
             for fixture in ("shared_memory.json", "local_size.json", "push_constants.json")}
    # 32 KiB of shared memory > 16 KiB; 512 > 128 on x and in total; a 128-byte push block
    # is exactly what every device guarantees.
    assert codes == {"shared_memory.json": ["VKS704"], "local_size.json": ["VKS702", "VKS703"],
                     "push_constants.json": []}


def test_no_target_means_no_device_findings():
    report = tosa_vkshader.check_file(DEVICES / "float64.json")
    assert [d.code for d in report.diagnostics] == ["VKS430"]


def test_several_targets_report_per_target_in_json_and_sarif(capsys, tmp_path):
    small = edited_lavapipe(tmp_path, "small", limit=("maxComputeWorkGroupInvocations", 64))
    code, out, _ = run(capsys, "check", "--format", "json", "--target-device", "baseline",
                       "--target-device", "lavapipe", "--target-device", small,
                       DEVICES / "local_size.json")
    assert code == 1
    found = [(d["code"], d["target"]) for d in json.loads(out)["files"][0]["diagnostics"]
             if d["code"].startswith("VKS7")]
    assert sorted(found) == [("VKS702", "baseline"), ("VKS703", "baseline"),
                             ("VKS703", "small")]
    code, out, _ = run(capsys, "check", "--format", "sarif", "--target-device", "baseline",
                       "--target-device", small, DEVICES / "local_size.json")
    results = json.loads(out)["runs"][0]["results"]
    assert sorted((r["ruleId"], r["properties"]["targetDevice"]) for r in results
                  if r["ruleId"].startswith("VKS7")) == [
        ("VKS702", "baseline"), ("VKS703", "baseline"), ("VKS703", "small")]


def test_text_output_names_the_target_and_its_profile(capsys):
    code, out, _ = run(capsys, "check", "--target-device", "baseline", DEVICES / "int64.json")
    assert code == 1
    assert ("error[VKS700] the shader declares OpCapability Int64, which needs "
            "VkPhysicalDeviceFeatures.shaderInt64; target `baseline` (shipped profile "
            "baseline.json)") in out


def test_targets_summary_table(capsys, tmp_path):
    no_fp16 = edited_lavapipe(tmp_path, "no-fp16", drop_feature="shaderFloat16")
    code, out, _ = run(capsys, "check", "--targets-summary", "--target-device", "lavapipe",
                       "--target-device", no_fp16, DEVICES / "float16.json",
                       DEVICES / "int64.json")
    assert code == 1  # one op cannot run on one target
    rows = {line.split()[0]: line.split()[1:] for line in out.splitlines()
            if line.startswith(str(DEVICES))}
    assert rows == {f"{DEVICES / 'float16.json'}:1:1": ["yes", "no:", "VKS700"],
                    f"{DEVICES / 'int64.json'}:1:1": ["yes", "yes"]}
    assert out.splitlines()[0].split() == ["op", "lavapipe", "no-fp16"]
    assert "no-fp16: 1 of 2 op(s) can run" in out


def test_targets_summary_json_defaults_to_every_shipped_profile(capsys):
    code, out, _ = run(capsys, "check", "--targets-summary", "--format", "json",
                       DEVICES / "shared_memory.json")
    data = json.loads(out)
    assert [t["name"] for t in data["targets"]] == list(SHIPPED)
    verdicts = data["ops"][0]["targets"]
    assert verdicts["baseline"] == {"runs": False, "codes": ["VKS704"]}
    assert verdicts["lavapipe"] == {"runs": True, "codes": []}
    # 32 KiB of shared memory: Roadmap 2026 raised the limit to 32 KiB, 2024 did not
    assert verdicts["roadmap-2024"]["codes"] == ["VKS704"]
    assert verdicts["roadmap-2026"]["runs"] is True
    assert code == 1


def test_api_summary_in_a_model_names_each_op(tmp_path):
    targets, verdicts = tosa_vkshader.targets_summary([DEVICES / "big_buffer.op.json"],
                                                      target_device=["baseline"])
    assert [t.name for t in targets] == ["baseline"]
    assert [(v.name, v.runs_on("baseline"), v.blocked["baseline"]) for v in verdicts] == [
        ("scale_big", False, ("VKS707",))]


def test_storage_buffer_range_from_the_model_shapes(tmp_path):
    found = device_findings(DEVICES / "big_buffer.op.json", "lavapipe")
    assert [d.code for d in found] == ["VKS707"]
    assert "268435456 bytes (shape 8192x8192 of VK_FORMAT_R32_SFLOAT)" in found[0].message
    assert "134217728" in found[0].message
    assert found[0].pointer == "/input_0_binding"  # relative to implementation_attrs
    roomy = edited_lavapipe(tmp_path, "roomy", limit=("maxStorageBufferRange", 2 ** 30))
    assert device_findings(DEVICES / "big_buffer.op.json", str(roomy)) == []


def test_dispatch_count_against_max_work_group_count(tmp_path):
    attrs = json.loads((DEVICES / "int64.json").read_text())
    attrs["workgroup_sizes"] = [64, 1, 1]
    ok = tosa_vkshader.validate(attrs, target_device="lavapipe")
    assert [d.code for d in ok.diagnostics if d.code.startswith("VKS7")] == []
    attrs["workgroup_sizes"] = [64, 70000, 1]
    options = tosa_vkshader.Options(workgroup_semantics="dispatch")
    report = tosa_vkshader.validate(attrs, options, target_device="lavapipe")
    found = [d for d in report.diagnostics if d.code == "VKS706"]
    assert [(d.pointer, d.target) for d in found] == [("/workgroup_sizes/1", "lavapipe")]
    assert "70000" in found[0].message and "65535" in found[0].message


def test_format_features_when_the_profile_lists_formats(tmp_path):
    fixture = FIXTURES / "spirv" / "valid" / "storage_image_rgba8.json"
    assert device_findings(fixture, "lavapipe") == []

    def no_storage_rgba8(device):
        for props in device["formats"]["VK_FORMAT_R8G8B8A8_UNORM"].values():
            for kind, bits in props.items():
                if isinstance(bits, list):
                    props[kind] = [b for b in bits if "STORAGE_IMAGE" not in b]

    edited = edited_lavapipe(tmp_path, "no-storage-rgba8", edit=no_storage_rgba8)
    found = device_findings(fixture, str(edited))
    assert [d.code for d in found] == ["VKS708"]
    assert "VK_FORMAT_R8G8B8A8_UNORM" in found[0].message
    assert "VK_FORMAT_FEATURE_STORAGE_IMAGE_BIT" in found[0].message
    assert found[0].pointer.endswith("_vkformat")


def test_tensor_ops_need_vk_arm_tensors_and_fit_its_limits(tmp_path):
    fixture = FIXTURES / "spirv" / "valid" / "tensor_add_f32.json"
    # lavapipe as `run` uses it: the emulation layer provides VK_ARM_tensors
    assert device_findings(fixture, "lavapipe") == []
    found = device_findings(fixture, "baseline")
    assert sorted(d.code for d in found) == ["VKS700", "VKS701"]
    assert any("TensorsARM" in d.message and "shaderTensorAccess" in d.message for d in found)

    def with_tensors(rank, per_stage=16):
        def edit(device):
            device["extensions"]["VK_ARM_tensors"] = 1
            device["features"]["VkPhysicalDeviceTensorFeaturesARM"] = {
                "shaderTensorAccess": True, "tensors": True}
            device["properties"]["VkPhysicalDeviceTensorPropertiesARM"] = {
                "maxTensorDimensionCount": rank, "maxTensorElements": 2 ** 32,
                "maxPerDimensionTensorElements": 2 ** 16,
                "maxPerStageDescriptorSetStorageTensors": per_stage}
        return edit

    good = edited_lavapipe(tmp_path, "npu", edit=with_tensors(6))
    assert device_findings(fixture, str(good)) == []
    tiny = edited_lavapipe(tmp_path, "tiny-npu", edit=with_tensors(0))
    found = device_findings(fixture, str(tiny))
    assert found and {d.code for d in found} == {"VKS709"}
    assert all("maxTensorDimensionCount" in d.message for d in found)
    two_tensors = edited_lavapipe(tmp_path, "two-tensor-npu", edit=with_tensors(6, 2))
    found = device_findings(fixture, str(two_tensors))
    assert [d.code for d in found] == ["VKS710"]
    assert "3 tensor descriptors" in found[0].message and "allows 2" in found[0].message


def test_descriptor_limits(capsys):
    fixture = FIXTURES / "valid" / "multi-resource.json"
    found = device_findings(fixture, "baseline")
    assert [d.code for d in found] == ["VKS710"]
    assert "5 descriptors" in found[0].message
    assert "maxPerStageDescriptorStorageBuffers" in found[0].message
    assert device_findings(fixture, "lavapipe") == []


def test_config_target_device_resolves_against_the_pyproject(capsys, tmp_path, monkeypatch):
    edited_lavapipe(tmp_path, "board", drop_feature="shaderInt64")
    (tmp_path / "pyproject.toml").write_text(
        '[tool.tosa-vkshader]\ntarget-device = ["lavapipe", "board.json"]\n')
    shutil.copy(DEVICES / "int64.json", tmp_path / "op.json")
    sub = tmp_path / "sub"
    sub.mkdir()
    monkeypatch.chdir(sub)
    code, out, _ = run(capsys, "check", "--format", "json", "../op.json")
    found = [(d["code"], d["target"]) for d in json.loads(out)["files"][0]["diagnostics"]
             if d["code"] not in RUNTIME_TRUTH]
    assert (code, found) == (1, [("VKS700", "board")])
    # the command line replaces the configured targets
    code, out, _ = run(capsys, "check", "--target-device", "lavapipe", "../op.json")
    assert code == 0
    code, out, _ = run(capsys, "devices")
    assert code == 0
    assert "baseline  (shipped;" in out
    assert "lavapipe  (shipped, configured;" in out
    assert f"board  (configured; {tmp_path / 'board.json'})" in out


def test_devices_lists_the_shipped_profiles_with_their_limits(capsys):
    code, out, _ = run(capsys, "devices", "--format", "json")
    assert code == 0
    targets = {t["name"]: t for t in json.loads(out)["targets"]}
    assert list(targets) == list(SHIPPED)
    assert "Required Limits" in targets["baseline"]["origin"]
    assert "Roadmap 2024" in targets["roadmap-2024"]["origin"]
    assert targets["mali-valhall-approximate"]["approximate"] is True
    assert "IREE" in targets["mali-valhall-approximate"]["origin"]
    assert not targets["roadmap-2024"]["approximate"]
    base = targets["baseline"]
    assert base["limits"]["maxComputeWorkGroupInvocations"] == {"value": 128, "listed": True}
    assert not any(base["features"].values())
    assert targets["lavapipe"]["features"]["VkPhysicalDeviceFeatures.shaderFloat64"] is True
    assert targets["lavapipe"]["formats_listed"] is True


@pytest.mark.parametrize(("content", "words"), [
    ("not json", "not valid JSON"),
    ("[]", "not a Vulkan Profiles document"),
    ('{"capabilities": {}, "profiles": {}}', "not a Vulkan Profiles document"),
    ('{"capabilities": {"a": {}}, "profiles": {"p": {"capabilities": ["b"],'
     ' "api-version": "1.3.0"}}}', "capability block 'b' is not in `capabilities`"),
    ('{"capabilities": {"a": {}}, "profiles": {"p": {"capabilities": ["a"],'
     ' "api-version": "one"}}}', "api-version 'one' is not a version"),
    ('{"capabilities": {"a": {"features": []}}, "profiles": {"p": {"capabilities": ["a"],'
     ' "api-version": "1.3"}}}', "`features` must be an object"),
    ('{"capabilities": {"a": {}}, "profiles": {"p": {"capabilities": ["a"], '
     '"api-version": "1.3"}, "q": {"capabilities": ["a"], "api-version": "1.3"}}}',
     "holds 2 profiles (p, q): name one as"),
])
def test_unusable_profiles_are_usage_errors(capsys, tmp_path, content, words):
    bad = tmp_path / "bad.json"
    bad.write_text(content)
    out_file = tmp_path / "report.txt"
    code, out, err = run(capsys, "check", "--target-device", bad, "-o", out_file,
                         DEVICES / "int64.json")
    assert code == 2
    assert words in err and "Traceback" not in err
    assert not out_file.exists()  # nothing half written
    with pytest.raises(ProfileError, match="bad.json"):
        tosa_vkshader.validate({}, target_device=str(bad))


def test_unknown_target_name_and_missing_file(capsys, tmp_path):
    code, _, err = run(capsys, "check", "--target-device", "lavapipe2", DEVICES / "int64.json")
    assert code == 2 and "'lavapipe2' is neither a shipped target (baseline, lavapipe, " in err
    assert "error[VKS902]" in err
    code, _, err = run(capsys, "devices", tmp_path / "gone.json")
    assert code == 2 and "cannot read the target-device file" in err


def test_a_profile_is_picked_out_of_a_file_of_several(tmp_path):
    document = json.loads(LAVAPIPE_PATH.read_text())
    (profile,) = document["profiles"].values()
    blocks = document["capabilities"]
    blocks["no_int64"] = json.loads(json.dumps(blocks["device"]))
    blocks["no_int64"]["features"]["VkPhysicalDeviceFeatures"]["shaderInt64"] = False
    document["profiles"] = {"old": dict(profile, capabilities=["no_int64"]), "new": profile}
    path = tmp_path / "family.json"
    path.write_text(json.dumps(document))
    found = device_findings(DEVICES / "int64.json", f"{path}#old")
    assert [(d.code, d.target) for d in found] == [("VKS700", "old")]
    assert f"target `old` ({path})" in found[0].message
    assert device_findings(DEVICES / "int64.json", f"{path}#new") == []
    # an edited file is read again, not served from the previous read
    document["profiles"]["new"] = dict(profile, capabilities=["no_int64"])
    path.write_text(json.dumps(document) + " ")
    assert [d.code for d in device_findings(DEVICES / "int64.json", f"{path}#new")] == [
        "VKS700"]


def test_shipped_baseline_is_generated_from_the_spec_tables():
    from tosa_vkshader.devices import generate

    assert generate.BASELINE_PATH.read_text() == generate.render_baseline(), \
        "run: python -m tosa_vkshader.devices.generate"


@pytest.mark.skipif(shutil.which("vulkaninfo") is None
                    or not Path("/usr/share/vulkan/icd.d/lvp_icd.x86_64.json").exists()
                    or importlib.util.find_spec("emulation_layer") is None,
                    reason="needs Debian's vulkan-tools, Mesa's lavapipe and the run extra")
def test_shipped_lavapipe_profile_is_what_this_machine_exports(capsys, tmp_path):
    code, out, err = run(capsys, "devices", "--export", tmp_path / "here.json")
    assert code == 0, err
    live = json.loads((tmp_path / "here.json").read_text())
    shipped = json.loads(LAVAPIPE_PATH.read_text())
    assert live["capabilities"] == shipped["capabilities"], \
        f"run: tosa-vkshader devices --export {LAVAPIPE_PATH}"
    # the export is a target like any other
    assert device_findings(DEVICES / "float64.json", str(tmp_path / "here.json")) == []


def test_web_api_checks_against_a_shipped_target(tmp_path):
    from web_helpers import running_server

    attrs = json.loads((DEVICES / "float64.json").read_text())
    with running_server("--workers", "1", cwd=tmp_path,
                        env={"TOSA_VKSHADER_CACHE_DIR": str(tmp_path / "cache")}) as server:
        with server.client() as client:
            plain = client.post("/v1/check", json={"attributes": attrs}).json()
            assert [d["code"] for d in plain["files"][0]["diagnostics"]] == ["VKS430"]
            result = client.post("/v1/check", json={
                "attributes": attrs, "options": {"target_device": ["baseline", "lavapipe"]}})
            found = [(d["code"], d["target"]) for d in result.json()["files"][0]["diagnostics"]
                     if d["code"] not in RUNTIME_TRUTH]
            assert found == [("VKS700", "baseline")]
            refused = client.post("/v1/check", json={
                "attributes": attrs, "options": {"target_device": "/etc/passwd"}})
            assert refused.status_code == 422
            assert "options.target_device" in refused.text
            spec = client.get("/openapi.json").json()
            options = spec["components"]["schemas"]["CheckOptions"]["properties"]
            assert options["target_device"]["oneOf"][0]["enum"] == list(SHIPPED)


DOCUMENTS = [json.loads(path.read_text())
             for path in (LAVAPIPE_PATH.parent / "baseline.json", LAVAPIPE_PATH,
                          DEVICES / "profiles" / "merged.json",
                          DEVICES / "profiles" / "alternatives.json")]


def _paths(node, prefix=()):
    """Every (path, value) inside a JSON document."""
    yield prefix
    if isinstance(node, dict):
        for key, value in node.items():
            yield from _paths(value, (*prefix, key))
    elif isinstance(node, list):
        for index, value in enumerate(node):
            yield from _paths(value, (*prefix, index))


def _holds(node, step) -> bool:
    """Whether ``node[step]`` is there: a key of an object, an index of a list."""
    if isinstance(node, dict):
        return isinstance(step, str) and step in node
    return isinstance(node, list) and isinstance(step, int) and step < len(node)


_PROFILE_PATHS = [list(_paths(document))[1:] for document in DOCUMENTS]
_EXAMPLES = iter(range(10 ** 9))


@given(which=st.sampled_from(range(len(DOCUMENTS))), data=st.data())
@settings(max_examples=60, deadline=None)
def test_any_edit_of_a_profile_is_read_or_refused_never_a_crash(tmp_path_factory, which,
                                                                 data):
    """The shipped profiles with a few values replaced by any JSON: the check either runs
    or refuses the file with ProfileError naming it."""
    edits = data.draw(st.lists(st.tuples(st.sampled_from(_PROFILE_PATHS[which]),
                                         any_json(6)), min_size=1, max_size=4))
    document = json.loads(json.dumps(DOCUMENTS[which]))
    for path, value in edits:
        node = document
        for step in path[:-1]:
            if not _holds(node, step):  # an earlier edit replaced what the path went through
                break
            node = node[step]
        else:
            if isinstance(node, dict) and isinstance(path[-1], str) or _holds(node, path[-1]):
                node[path[-1]] = value
    folder = tmp_path_factory.mktemp("profiles")
    profile = folder / f"edited-{next(_EXAMPLES)}.json"
    profile.write_text(json.dumps(document))
    attrs = json.loads((FIXTURES / "spirv" / "valid" / "storage_image_rgba8.json").read_text())
    try:
        report = tosa_vkshader.validate(attrs, target_device=str(profile))
    except ProfileError as exc:
        assert str(profile) in str(exc)
        return
    assert all(d.target == profile.stem for d in report.diagnostics
               if d.code.startswith("VKS7"))
