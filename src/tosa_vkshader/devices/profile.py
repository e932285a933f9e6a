"""Reading a target device from a Vulkan Profiles JSON document.

Two producers write this format: ``vulkaninfo --json`` (one profile describing the
device it ran on) and the Khronos Vulkan-Profiles project (named profiles such as a
platform's minimum). Both put what a device offers under ``capabilities``: blocks of
``extensions``, ``features`` (feature structs by name, ``{member: true}``),
``properties`` (property structs; the core limits under
``VkPhysicalDeviceProperties.limits``) and ``formats``. A profile under ``profiles``
lists the blocks it requires (a nested list ``[a, b]``: any one of them), the profiles it
builds on (``"profiles": [...]``, found in the same file, a file of the same folder, or
among the shipped profiles) and its ``api-version``. How blocks and profiles combine is
:mod:`tosa_vkshader.devices.merge`.

What a profile does not list, it does not promise: a feature or extension that is
absent counts as unsupported, and a limit that is absent counts as the Vulkan 1.3
minimum (the shipped ``baseline``).
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path
from typing import Any

from .merge import Capabilities, any_of, of_block, property_kind, require
from .shipped import PROFILES_DIR, shipped_file_of


class ProfileError(ValueError):
    """A target-device file that cannot be used: the CLI reports it as a usage error
    (``diagnostics``: one VKS902 finding with the same message)."""

    def __init__(self, message: str) -> None:
        from .rules import UNUSABLE_PROFILE

        super().__init__(message)
        self.diagnostics = [UNUSABLE_PROFILE.at("", message)]


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
    profile: str = ""  # the profile's name in its file (VP_KHR_roadmap_2024)
    description: str = ""
    # VkCooperativeMatrixPropertiesKHR entries; None when the profile lists none
    cooperative_matrices: tuple[dict[str, Any], ...] | None = None
    # ("features", struct, member), ("properties", struct, member[, limit]),
    # ("extensions", name) -> the block that set it: "block `b` of PROFILE (FILE)"
    origins: dict[tuple[str, ...], str] = field(default_factory=dict)
    # every file it was read from: its own, then those of the profiles it builds on
    files: tuple[Path, ...] = ()

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

    def origin(self, *path: str) -> str | None:
        """Which block set a member: ``origin("properties", "VkPhysicalDeviceProperties",
        "limits", "maxComputeSharedMemorySize")``."""
        return self.origins.get(path)

    def strongest(self, members: tuple[tuple[str, str], ...]) -> tuple[Any, str, str] | None:
        """The strongest value any of several equivalent property members holds (a core
        struct repeats the members of the extension structs it absorbed:
        ``VkPhysicalDeviceVulkan11Properties.subgroupSupportedOperations`` is
        ``VkPhysicalDeviceSubgroupProperties.supportedOperations``): (value, struct,
        member), or None when none is listed."""
        best = None
        for struct, member in members:
            value = self.property(struct, member)
            if value is None:
                continue
            if best is None or _stronger_than(property_kind(struct, member), value, best[0]):
                best = (value, struct, member)
        return best

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


def _stronger_than(kind: str, value: Any, than: Any) -> bool:
    if kind == "bitmask" and isinstance(value, list) and isinstance(than, list):
        return len(set(map(str, value))) > len(set(map(str, than)))
    if isinstance(value, (int, float)) and isinstance(than, (int, float)):
        return value > than if kind == "max" else value < than if kind == "min" else False
    return False


def _version(text: Any, where: str) -> tuple[int, int, int]:
    if isinstance(text, int) and not isinstance(text, bool):  # VK_MAKE_API_VERSION value
        return (text >> 22) & 0x7F, (text >> 12) & 0x3FF, text & 0xFFF
    parts = str(text).split(".")
    if not 2 <= len(parts) <= 4 or not all(p.isdigit() for p in parts):
        raise ProfileError(f"{where}: api-version {text!r} is not a version like \"1.3.230\"")
    numbers = [int(p) for p in parts[-3:]] if len(parts) == 4 else [int(p) for p in parts]
    return (numbers + [0, 0])[0], (numbers + [0, 0])[1], (numbers + [0, 0, 0])[2]


# -- documents ----------------------------------------------------------------------------

def shown_path(path: Path | str) -> str:
    """How messages name a profile file: shipped ones by their name."""
    path = Path(path)
    return f"shipped profile {path.name}" if path.parent == PROFILES_DIR else str(path)


def _stamp(path: Path) -> tuple[int, int]:
    try:
        info = path.stat()
    except OSError:
        return (0, 0)
    return info.st_mtime_ns, info.st_size


@lru_cache(maxsize=64)
def _parsed(path: Path, stamp: tuple[int, int]) -> Any:
    try:
        raw = path.read_bytes()
    except OSError as exc:
        raise ProfileError(f"{path}: cannot read the target-device file: "
                           f"{exc.strerror or exc}") from None
    try:
        return json.loads(raw)
    except (UnicodeDecodeError, json.JSONDecodeError, RecursionError) as exc:
        raise ProfileError(f"{path}: not valid JSON: {exc}") from None


def read_document(path: Path) -> Any:
    """The JSON of a profile file, parsed once while it is unchanged."""
    return _parsed(path, _stamp(path))


def _profiles_of(document: Any, source: str) -> dict[str, Any]:
    if not isinstance(document, dict):
        raise ProfileError(f"{source}: not a Vulkan Profiles document (expected a JSON "
                           f"object with `capabilities` and `profiles`)")
    capabilities = document.get("capabilities")
    profiles = document.get("profiles")
    if isinstance(profiles, list):
        raise ProfileError(f"{source}: not a Vulkan Profiles document: `profiles` is a list "
                           f"(a draft of the format before its schema 0.8); profiles must "
                           f"be an object of named profiles")
    if not isinstance(capabilities, dict) or not isinstance(profiles, dict) or not profiles:
        raise ProfileError(f"{source}: not a Vulkan Profiles document: it needs the objects "
                           f"`capabilities` and `profiles` (what `vulkaninfo --json` writes)")
    return profiles


# -- capability blocks ------------------------------------------------------------------

def _structs(block: dict[str, Any], key: str, where: str) -> dict[str, dict[str, Any]]:
    value = block.get(key)
    if value is None:
        return {}
    if not isinstance(value, dict):
        raise ProfileError(f"{where}: `{key}` must be an object of structs, got "
                           f"{type(value).__name__}")
    for struct, members in value.items():
        if not isinstance(members, dict):
            raise ProfileError(f"{where}: `{key}/{struct}` must be an object, got "
                               f"{type(members).__name__}")
    return value


def _block(document: dict[str, Any], name: str, profile: str, source: str,
           where: str) -> Capabilities:
    block = document["capabilities"].get(name)
    if not isinstance(block, dict):
        raise ProfileError(f"{where}: capability block {name!r} is not in `capabilities`")
    at = f"{where}, block {name!r}"
    extensions = block.get("extensions", {})
    if not isinstance(extensions, dict):
        raise ProfileError(f"{at}: `extensions` must be an object")
    formats = block.get("formats")
    if formats is not None:
        formats = _structs(block, "formats", at)
        for vkformat, structs in formats.items():
            _structs(formats, vkformat, f"{at}, formats")
            for struct, members in structs.items():
                if not isinstance(members, dict):
                    raise ProfileError(f"{at}: `formats/{vkformat}/{struct}` must be an "
                                       f"object, got {type(members).__name__}")
    matrices = block.get("cooperativeMatrixProperties")
    if matrices is not None and not (isinstance(matrices, list)
                                     and all(isinstance(m, dict) for m in matrices)):
        raise ProfileError(f"{at}: `cooperativeMatrixProperties` must be a list of objects "
                           f"(VkCooperativeMatrixPropertiesKHR members)")
    return of_block(extensions, _structs(block, "features", at),
                    _structs(block, "properties", at), formats, matrices,
                    f"block `{name}` of {profile} ({source})")


# -- profiles ---------------------------------------------------------------------------

@dataclass(slots=True)
class _Resolved:
    capabilities: Capabilities
    api_version: tuple[int, int, int]


class _Resolver:
    """Resolves profiles with the profiles they build on, each once, cycles refused."""

    def __init__(self) -> None:
        self.done: dict[tuple[Path, str], _Resolved] = {}
        self.stack: list[tuple[Path, str]] = []

    def resolve(self, path: Path, document: dict[str, Any], name: str) -> _Resolved:
        key = (path, name)
        if key in self.done:
            return self.done[key]
        source = shown_path(path)
        if key in self.stack:
            chain = [*self.stack[self.stack.index(key):], key]
            raise ProfileError(f"{source}#{name}: the profiles it builds on lead back to it: "
                               + " -> ".join(f"{p}#{n}" if p != path else n
                                             for p, n in chain))
        self.stack.append(key)
        try:
            resolved = self._resolve(path, source, document, name)
        finally:
            self.stack.pop()
        self.done[key] = resolved
        return resolved

    def _resolve(self, path: Path, source: str, document: dict[str, Any],
                 name: str) -> _Resolved:
        where = f"{source}#{name}"
        profile = document["profiles"][name]
        if not isinstance(profile, dict):
            raise ProfileError(f"{where}: a profile must be an object")
        if "api-version" not in profile:
            raise ProfileError(f"{where}: the profile has no `api-version`")
        api_version = _version(profile["api-version"], where)
        capabilities = Capabilities()
        needed = profile.get("profiles", [])
        if not isinstance(needed, list) or not all(isinstance(n, str) for n in needed):
            raise ProfileError(f"{where}: `profiles` must be a list of profile names")
        for dependency in needed:
            found = _locate(dependency, path, document)
            if found is None:
                raise ProfileError(
                    f"{where} builds on {dependency!r}, which is in no file of "
                    f"{path.parent} and is not a shipped profile")
            base = self.resolve(*found, dependency)
            require(capabilities, base.capabilities)
            api_version = max(api_version, base.api_version)
        entries = profile.get("capabilities", [])
        if not isinstance(entries, list):
            raise ProfileError(f"{where}: a profile's `capabilities` must be a list of names")
        for entry in entries:
            if isinstance(entry, str):
                require(capabilities, _block(document, entry, name, source, where))
            elif isinstance(entry, list) and entry and all(isinstance(e, str) for e in entry):
                blocks = [_block(document, e, name, source, where) for e in entry]
                require(capabilities, any_of(blocks, "any of blocks " + ", ".join(
                    f"`{e}`" for e in entry) + f" of {name} ({source})"))
            else:
                raise ProfileError(f"{where}: capability entry {entry!r} is not a name or "
                                   f"a list of names")
        return _Resolved(capabilities, api_version)


def _holds(path: Path, name: str) -> dict[str, Any] | None:
    """The document at ``path`` when it is a profiles document holding ``name``."""
    try:
        document = read_document(path)
    except ProfileError:
        return None
    if isinstance(document, dict) and isinstance(document.get("profiles"), dict) \
            and name in document["profiles"] and isinstance(document.get("capabilities"),
                                                             dict):
        return document
    return None


_SIBLING_LIMIT = 8 * 2 ** 20  # bytes: larger JSON files of the folder are not profiles


def _locate(name: str, path: Path, document: dict[str, Any],
            ) -> tuple[Path, dict[str, Any]] | None:
    """Where the profile ``name`` that ``path`` builds on is: the same file, the file
    NAME.json of the same folder, a shipped profile, or another file of the folder."""
    if name in document["profiles"]:
        return path, document
    candidates = [path.parent / f"{name}.json", shipped_file_of(name)]
    for candidate in candidates:
        if candidate is not None and candidate != path and candidate.is_file():
            found = _holds(candidate, name)
            if found is not None:
                return candidate, found
    needle = json.dumps(name).encode()
    for sibling in sorted(path.parent.glob("*.json")):
        if sibling == path or sibling in candidates:
            continue
        try:
            if sibling.stat().st_size > _SIBLING_LIMIT or needle not in sibling.read_bytes():
                continue
        except OSError:
            continue
        found = _holds(sibling, name)
        if found is not None:
            return sibling, found
    return None


def profile_from_document(document: Any, path: Path | str, *, name: str | None = None,
                          select: str | None = None) -> DeviceProfile:
    """The profile ``select`` (or the only one) of the Vulkan Profiles document read from
    ``path``, with the profiles it builds on."""
    path = Path(path)
    source = shown_path(path)
    profiles = _profiles_of(document, source)
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
    resolver = _Resolver()
    resolved = resolver.resolve(path, document, select)
    found = resolved.capabilities
    return DeviceProfile(
        name=name or select, source=source, api_version=resolved.api_version,
        extensions=frozenset(found.extensions), features=found.features,
        properties=found.properties, formats=found.formats,
        label=str(profile.get("label", "")), profile=select,
        description=str(profile.get("description", "")),
        cooperative_matrices=tuple(found.cooperative_matrices)
        if found.cooperative_matrices is not None else None,
        origins=found.origins, files=tuple(dict.fromkeys(p for p, _ in resolver.done)))


def profile_names(path: str | Path) -> list[str]:
    """The profiles a file holds (each can be named as ``FILE#PROFILE``)."""
    path = Path(path)
    return list(_profiles_of(read_document(path), shown_path(path)))


def read_profile(path: str | Path, *, name: str | None = None) -> DeviceProfile:
    """Read ``path`` (``path#PROFILE`` picks one of several profiles in the file)."""
    text_path, _, select = str(path).partition("#")
    file = Path(text_path)
    # A file's target is called by its stem (what the user typed), or by the profile
    # picked out of it with #PROFILE.
    return profile_from_document(read_document(file), file,
                                 name=name or select or file.stem, select=select or None)
