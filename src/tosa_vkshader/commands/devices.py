"""`tosa-vkshader devices [FILE|NAME...]`: the target devices, shipped and configured."""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from ..config_file import ConfigError, load_options
from ._common import print_usage_diagnostics

# What `devices` shows of each target: the limits a compute shader runs into first.
SHOWN_LIMITS = ("maxComputeWorkGroupInvocations", "maxComputeWorkGroupSize",
                "maxComputeSharedMemorySize", "maxPushConstantsSize",
                "maxStorageBufferRange")
SHOWN_FEATURES = (("VkPhysicalDeviceFeatures", "shaderFloat64"),
                  ("VkPhysicalDeviceFeatures", "shaderInt64"),
                  ("VkPhysicalDeviceFeatures", "shaderInt16"),
                  ("VkPhysicalDeviceVulkan12Features", "shaderFloat16"),
                  ("VkPhysicalDeviceVulkan12Features", "shaderInt8"),
                  ("VkPhysicalDeviceVulkan12Features", "storageBuffer8BitAccess"),
                  ("VkPhysicalDeviceVulkan11Features", "storageBuffer16BitAccess"),
                  ("VkPhysicalDeviceCooperativeMatrixFeaturesKHR", "cooperativeMatrix"),
                  ("VkPhysicalDeviceShaderBfloat16FeaturesKHR", "shaderBFloat16Type"),
                  ("VkPhysicalDeviceTensorFeaturesARM", "shaderTensorAccess"))
SUBGROUPS = (("VkPhysicalDeviceVulkan11Properties", "subgroupSize"),
             ("VkPhysicalDeviceVulkan11Properties", "subgroupSupportedOperations"))


def register(subparsers) -> None:
    parser = subparsers.add_parser(
        "devices", help="list the target devices: shipped profiles and configured ones",
        description="List the target devices `check --target-device` accepts by name, and "
                    "those configured with `target-device` in pyproject.toml; given FILEs "
                    "or NAMEs, describe those. Exit 2 when one cannot be read.")
    parser.add_argument("targets", nargs="*", metavar="FILE|NAME",
                        help="Vulkan Profiles JSON files or shipped names to describe")
    parser.add_argument("--config", type=Path, metavar="PYPROJECT",
                        help="read [tool.tosa-vkshader] from this file instead of the "
                             "nearest pyproject.toml")
    parser.add_argument("--format", choices=("text", "json"), default="text")
    parser.add_argument("--export", type=Path, metavar="FILE",
                        help="write the Vulkan Profiles JSON of a device of this machine as "
                             "`run` uses it (its driver and the ML emulation layers), to use "
                             "as a target elsewhere")
    parser.add_argument("--device", metavar="NAME", default="lavapipe",
                        help="with --export: the device, as `run --device` names it "
                             "(default: lavapipe)")
    parser.set_defaults(run=run)


def _describe(profile, origin: str) -> dict:
    from ..devices.targets import baseline_limit, minimum_property

    limits = {}
    for name in SHOWN_LIMITS:
        value = profile.limit(name)
        limits[name] = {"value": value if value is not None else baseline_limit(name),
                        "listed": value is not None}
    # Core-version structs repeat the members of the extension structs they absorbed:
    # a member set in either counts.
    features = {f"{s}.{m}": any(members.get(m) is True for members in profile.features.values())
                for s, m in SHOWN_FEATURES}
    subgroups = {}
    for struct, member in SUBGROUPS:
        value = profile.property(struct, member)
        subgroups[member] = value if value is not None else minimum_property(
            profile, struct, member)
    return {"name": profile.name, "source": profile.source, "profile": profile.profile,
            "label": profile.label, "origin": origin,
            "approximate": "APPROXIMATE" in profile.description,
            "api_version": profile.version_text, "extensions": len(profile.extensions),
            "formats_listed": profile.formats is not None,
            "limits": limits, "subgroups": subgroups, "features": features}


# Structs Debian's vulkaninfo (1.3.239) predates: asked of the loader directly.
ARM_STRUCTS = ("VkPhysicalDeviceTensorFeaturesARM", "VkPhysicalDeviceTensorPropertiesARM")


def export_profile(device_name: str) -> str:
    """The profile of a device as ``run`` sees it: ``vulkaninfo --json`` under the same
    driver and emulation layers, plus the VK_ARM_tensors structs from
    :mod:`tosa_vkshader.devices.vkquery`. Raises RunError when the device or the run
    toolchain is missing, OSError/CalledProcessError when vulkaninfo fails."""
    import os
    import subprocess
    import tempfile

    from ..runtime.devices import select_device
    from ..runtime.toolchain import find_toolchain

    device = select_device(device_name)
    with tempfile.TemporaryDirectory() as folder:
        env = {**os.environ, **device.environment(),
               **find_toolchain().layer_environment(Path(folder))}
        env.setdefault("XDG_RUNTIME_DIR", folder)
        out = Path(folder) / "out"
        out.mkdir()
        subprocess.run(["vulkaninfo", "--json"], cwd=out, env=env, check=True,
                       stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, timeout=120)
        written = sorted(out.glob("*.json"))
        if len(written) != 1:
            raise OSError(f"vulkaninfo --json wrote {len(written)} files, expected 1")
        document = json.loads(written[0].read_text(encoding="utf-8"))
        queried = subprocess.run([sys.executable, "-m", "tosa_vkshader.devices.vkquery",
                                  *ARM_STRUCTS], env=env, check=True, capture_output=True,
                                 text=True, timeout=120)
    arm = json.loads(queried.stdout)
    for block in document["capabilities"].values():
        block.setdefault("features", {}).update(arm["features"])
        block.setdefault("properties", {}).update(arm["properties"])
    for profile in document["profiles"].values():
        profile["description"] = (
            f"{device.name} with the Arm ML SDK emulation layers, as tosa-vkshader run uses "
            f"it: vulkaninfo --json (Debian vulkan-tools) with VK_ICD_FILENAMES={device.icd}; "
            + ", ".join(ARM_STRUCTS) + " asked of the same loader by "
            "tosa_vkshader.devices.vkquery. GENERATED by tosa-vkshader devices --export.")
        for entry in profile.get("history", []):
            entry["date"] = ""
    return json.dumps(document, indent=2) + "\n"


def _export(args: argparse.Namespace) -> int:
    import subprocess

    from ..fsutil import write_atomic
    from ..runtime.errors import RunError

    try:
        text = export_profile(args.device)
    except RunError as exc:
        print_usage_diagnostics(exc.diagnostics)
        return 2
    except (OSError, subprocess.SubprocessError) as exc:
        print(f"tosa-vkshader devices: cannot export the profile: {exc}", file=sys.stderr)
        return 2
    write_atomic(args.export, text.encode("utf-8"))
    print(f"wrote {args.export}")
    return 0


def run(args: argparse.Namespace) -> int:
    from ..devices import SHIPPED, ProfileError, load_target
    from ..devices.shipped import shipped_targets

    if args.export is not None:
        return _export(args)

    try:
        options = load_options(Path.cwd(), args.config)
    except ConfigError as exc:
        print_usage_diagnostics(exc.diagnostics)
        return 2
    entries: list[tuple[str, str]] = []  # (where it comes from, spec)
    if args.targets:
        entries = [("given", spec) for spec in args.targets]
    else:
        entries = [("shipped, configured" if name in options.target_device else "shipped",
                    name) for name in SHIPPED]
        entries += [("configured", spec) for spec in options.target_device
                    if spec not in SHIPPED]
    described = []
    for kind, spec in entries:
        try:
            profile = load_target(spec)
        except ProfileError as exc:
            print_usage_diagnostics(exc.diagnostics)
            return 2
        shipped = shipped_targets().get(spec)
        origin = shipped.origin if shipped is not None else f"the file {profile.source}"
        described.append({"kind": kind, **_describe(profile, origin)})
    if args.format == "json":
        sys.stdout.write(json.dumps({"targets": described}, indent=2) + "\n")
        return 0
    for item in described:
        print(f"{item['name']}  ({item['kind']}; {item['source']})")
        if item["label"]:
            print(f"    {item['label']}")
        print(f"    origin: {item['origin']}")
        print(f"    Vulkan {item['api_version']}, {item['extensions']} extension(s)"
              f"{', format features listed' if item['formats_listed'] else ''}")
        for name, limit in item["limits"].items():
            note = "" if limit["listed"] else "  (not listed: Vulkan 1.3 minimum)"
            print(f"    {name} = {limit['value']}{note}")
        sizes, operations = item["subgroups"].values()
        names = ", ".join(o.removeprefix("VK_SUBGROUP_FEATURE_").removesuffix("_BIT").lower()
                          for o in operations or () if isinstance(o, str))
        print(f"    subgroups: size {sizes if sizes is not None else 'not listed'}; "
              f"operations {names or 'not listed'}")
        have = [f.split(".")[1] for f, on in item["features"].items() if on]
        print(f"    features: {', '.join(have) if have else 'none of the optional ones'}")
    if not args.targets and not options.target_device:
        print("\nno target configured: add `target-device = [\"baseline\"]` to "
              "[tool.tosa-vkshader], or pass --target-device to check")
    return 0
