"""Reading a target device from a Vulkan Profiles JSON document.

Two producers write this format: ``vulkaninfo --json`` (one profile describing the
device it ran on) and the Khronos Vulkan-Profiles project (named profiles such as a
platform's minimum). Both put what a device offers under ``capabilities``: blocks of
``extensions``, ``features`` (feature structs by name, ``{member: true}``),
``properties`` (property structs; the core limits under
``VkPhysicalDeviceProperties.limits``) and ``formats``; a profile under ``profiles``
lists the blocks it guarantees and its ``api-version``.

What a profile does not list, it does not promise: a feature or extension that is
absent counts as unsupported, and a limit that is absent counts as the Vulkan 1.3
minimum (see :mod:`tosa_vkshader.devices.baseline`).
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any


class ProfileError(ValueError):
    """A target-device file that cannot be used; the CLI reports it as a usage error."""


@dataclass(frozen=True, slots=True)
class DeviceProfile:
    """One target device: what it supports, and where that was read from."""

    name: str  # what findings call it: a shipped name, else the profile's name
    source: str  # the file it came from (for shipped profiles, the shipped file's name)
    api_version: tuple[int, int, int]
    extensions: frozenset[str]
    features: dict[str, dict[str, Any]] = field(default_factory=dict)
    properties: dict[str, dict[str, Any]] = field(default_factory=dict)
    # VK_FORMAT_* -> {"VkFormatProperties": {...}, ...}; None when the profile lists none
    formats: dict[str, dict[str, Any]] | None = None
    label: str = ""  # the profile's own label, e.g. the device name

    def __str__(self) -> str:
        return self.name

    @property
    def version_text(self) -> str:
        return ".".join(str(v) for v in self.api_version[:2])

    def has_version(self, version: str) -> bool:
        """``version`` like "1.2": whether the profile's API version is at least that."""
        major, _, minor = version.partition(".")
        return self.api_version[:2] >= (int(major), int(minor or 0))

    def feature(self, struct: str, member: str) -> bool:
        value = self.features.get(struct, {}).get(member)
        return value is True

    def property(self, struct: str, member: str) -> Any:
        return self.properties.get(struct, {}).get(member)

    def limit(self, name: str) -> Any:
        """A ``VkPhysicalDeviceLimits`` member, or None when the profile does not say."""
        limits = self.properties.get("VkPhysicalDeviceProperties", {}).get("limits", {})
        return limits.get(name) if isinstance(limits, dict) else None

    def format_features(self, vkformat: str, kind: str) -> frozenset[str] | None:
        """The ``VK_FORMAT_FEATURE_*`` bits of ``kind`` (optimalTilingFeatures,
        bufferFeatures, ...) for a format; None when the profile lists no formats."""
        if self.formats is None:
            return None
        entry = self.formats.get(vkformat, {})
        bits: set[str] = set()
        for struct in ("VkFormatProperties", "VkFormatProperties3", "VkFormatProperties2"):
            values = entry.get(struct, {})
            if isinstance(values, dict) and isinstance(values.get(kind), list):
                bits.update(b.replace("VK_FORMAT_FEATURE_2_", "VK_FORMAT_FEATURE_")
                            for b in values[kind] if isinstance(b, str))
        return frozenset(bits)


def _version(text: Any, where: str) -> tuple[int, int, int]:
    if isinstance(text, int):  # a packed VK_MAKE_API_VERSION value
        return (text >> 22) & 0x7F, (text >> 12) & 0x3FF, text & 0xFFF
    parts = str(text).split(".")
    if not 2 <= len(parts) <= 4 or not all(p.isdigit() for p in parts):
        raise ProfileError(f"{where}: api-version {text!r} is not a version like \"1.3.230\"")
    numbers = [int(p) for p in parts[-3:]] if len(parts) == 4 else [int(p) for p in parts]
    return (numbers + [0, 0])[0], (numbers + [0, 0])[1], (numbers + [0, 0, 0])[2]


def _merge(into: dict[str, dict[str, Any]], block: Any, key: str, where: str) -> None:
    if block is None:
        return
    if not isinstance(block, dict):
        raise ProfileError(f"{where}: `{key}` must be an object of structs, got "
                           f"{type(block).__name__}")
    for struct, members in block.items():
        if not isinstance(members, dict):
            raise ProfileError(f"{where}: `{key}/{struct}` must be an object, got "
                               f"{type(members).__name__}")
        into.setdefault(struct, {}).update(members)


def _capability_names(entries: Any, where: str) -> list[str]:
    """The capability blocks a profile requires. A nested list offers alternatives (the
    device has one of them); only the first is taken, which is what a shader can count on
    when the first is the weakest, as profiles order them."""
    if not isinstance(entries, list):
        raise ProfileError(f"{where}: a profile's `capabilities` must be a list of names")
    names = []
    for entry in entries:
        if isinstance(entry, list) and entry and isinstance(entry[0], str):
            names.append(entry[0])
        elif isinstance(entry, str):
            names.append(entry)
        else:
            raise ProfileError(f"{where}: capability entry {entry!r} is not a name")
    return names


def profile_from_document(document: Any, source: str, *, name: str | None = None,
                          select: str | None = None) -> DeviceProfile:
    """The profile ``select`` (or the only one) of a Vulkan Profiles JSON document."""
    if not isinstance(document, dict):
        raise ProfileError(f"{source}: not a Vulkan Profiles document (expected a JSON "
                           f"object with `capabilities` and `profiles`)")
    capabilities = document.get("capabilities")
    profiles = document.get("profiles")
    if not isinstance(capabilities, dict) or not isinstance(profiles, dict) or not profiles:
        raise ProfileError(f"{source}: not a Vulkan Profiles document: it needs the objects "
                           f"`capabilities` and `profiles` (what `vulkaninfo --json` writes)")
    if select is None:
        if len(profiles) > 1:
            raise ProfileError(f"{source} holds {len(profiles)} profiles "
                               f"({', '.join(sorted(profiles))}): name one as "
                               f"{source}#PROFILE")
        select = next(iter(profiles))
    profile = profiles.get(select)
    if not isinstance(profile, dict):
        raise ProfileError(f"{source}: no profile named {select!r} (it has "
                           f"{', '.join(sorted(profiles))})")
    where = f"{source}#{select}"
    extensions: set[str] = set()
    features: dict[str, dict[str, Any]] = {}
    properties: dict[str, dict[str, Any]] = {}
    formats: dict[str, dict[str, Any]] | None = None
    for block_name in _capability_names(profile.get("capabilities", []), where):
        block = capabilities.get(block_name)
        if not isinstance(block, dict):
            raise ProfileError(f"{where}: capability block {block_name!r} is not in "
                               f"`capabilities`")
        exts = block.get("extensions", {})
        if not isinstance(exts, dict):
            raise ProfileError(f"{where}: `extensions` of {block_name!r} must be an object")
        extensions.update(exts)
        _merge(features, block.get("features"), "features", where)
        _merge(properties, block.get("properties"), "properties", where)
        if block.get("formats") is not None:
            formats = formats or {}
            _merge(formats, block.get("formats"), "formats", where)
    if "api-version" not in profile:
        raise ProfileError(f"{where}: the profile has no `api-version`")
    return DeviceProfile(
        name=name or select, source=source,
        api_version=_version(profile["api-version"], where),
        extensions=frozenset(extensions), features=features, properties=properties,
        formats=formats, label=str(profile.get("label", "")))


def read_profile(path: str | Path, *, name: str | None = None) -> DeviceProfile:
    """Read ``path`` (``path#PROFILE`` picks one of several profiles in the file)."""
    text_path, _, select = str(path).partition("#")
    try:
        raw = Path(text_path).read_bytes()
    except OSError as exc:
        raise ProfileError(f"{text_path}: cannot read the target-device file: "
                           f"{exc.strerror or exc}") from None
    try:
        document = json.loads(raw)
    except (UnicodeDecodeError, json.JSONDecodeError) as exc:
        raise ProfileError(f"{text_path}: not valid JSON: {exc}") from None
    # A file's target is called by its stem (what the user typed), or by the profile
    # picked out of it with #PROFILE.
    return profile_from_document(document, text_path,
                                 name=name or select or Path(text_path).stem,
                                 select=select or None)
