"""`tosa-vkshader devices [FILE|NAME...]`: the target devices, shipped and configured."""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from ..config import ConfigError, load_options
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
                  ("VkPhysicalDeviceTensorFeaturesARM", "shaderTensorAccess"))


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
    parser.set_defaults(run=run)


def _describe(profile) -> dict:
    from ..devices.targets import baseline_limit

    limits = {}
    for name in SHOWN_LIMITS:
        value = profile.limit(name)
        limits[name] = {"value": value if value is not None else baseline_limit(name),
                        "listed": value is not None}
    # Core-version structs repeat the members of the extension structs they absorbed:
    # a member set in either counts.
    features = {f"{s}.{m}": any(members.get(m) is True for members in profile.features.values())
                for s, m in SHOWN_FEATURES}
    return {"name": profile.name, "source": profile.source, "label": profile.label,
            "api_version": profile.version_text, "extensions": len(profile.extensions),
            "formats_listed": profile.formats is not None,
            "limits": limits, "features": features}


def run(args: argparse.Namespace) -> int:
    from ..devices import SHIPPED, ProfileError, load_target

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
            print(f"tosa-vkshader devices: {exc}", file=sys.stderr)
            return 2
        described.append({"kind": kind, **_describe(profile)})
    if args.format == "json":
        sys.stdout.write(json.dumps({"targets": described}, indent=2) + "\n")
        return 0
    for item in described:
        print(f"{item['name']}  ({item['kind']}; {item['source']})")
        if item["label"]:
            print(f"    {item['label']}")
        print(f"    Vulkan {item['api_version']}, {item['extensions']} extension(s)"
              f"{', format features listed' if item['formats_listed'] else ''}")
        for name, limit in item["limits"].items():
            note = "" if limit["listed"] else "  (not listed: Vulkan 1.3 minimum)"
            print(f"    {name} = {limit['value']}{note}")
        have = [f.split(".")[1] for f, on in item["features"].items() if on]
        print(f"    features: {', '.join(have) if have else 'none of the optional ones'}")
    if not args.targets and not options.target_device:
        print("\nno target configured: add `target-device = [\"baseline\"]` to "
              "[tool.tosa-vkshader], or pass --target-device to check")
    return 0
