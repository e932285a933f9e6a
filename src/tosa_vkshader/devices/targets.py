"""Which devices to check against: shipped profiles by name, or Vulkan Profiles files."""

from __future__ import annotations

from functools import cache
from pathlib import Path

from .profile import DeviceProfile, ProfileError, read_profile
from .shipped import PROFILES_DIR, shipped_targets

DEFAULT_TARGET = "baseline"
# name -> what it is; the files are in devices/profiles/, made by devices/generate.py
SHIPPED = {name: target.summary for name, target in shipped_targets().items()}


@cache
def shipped_profile(name: str) -> DeviceProfile:
    return read_profile(shipped_targets()[name].path, name=name)


# FILE[#PROFILE] -> (the stamps of the files it was read from, the profile)
_READ: dict[str, tuple[tuple[tuple[int, int], ...], DeviceProfile]] = {}


def _file_profile(spec: str) -> DeviceProfile:
    """A profile file's target, read again when it or a file of a profile it builds on
    has changed since."""
    known = _READ.get(spec)
    if known is not None and known[0] == _stamps(known[1].files):
        return known[1]
    profile = read_profile(spec)
    _READ[spec] = (_stamps(profile.files), profile)
    return profile


def _stamps(paths: tuple[Path, ...]) -> tuple[tuple[int, int], ...]:
    """The files' modification times and sizes."""
    found = []
    for path in paths:
        try:
            info = path.stat()
        except OSError:
            found.append((0, 0))  # gone: read again, and read_profile reports it
            continue
        found.append((info.st_mtime_ns, info.st_size))
    return tuple(found)


def load_target(spec: str) -> DeviceProfile:
    """A shipped profile's name (``baseline``, ``roadmap-2024``...) or a Vulkan Profiles
    JSON file (``FILE`` or ``FILE#PROFILE``). Raises :class:`ProfileError` when it is
    neither."""
    if spec in SHIPPED:
        return shipped_profile(spec)
    path = spec.partition("#")[0]
    if not Path(path).exists() and "/" not in spec and not spec.endswith(".json"):
        raise ProfileError(f"{spec!r} is neither a shipped target ({', '.join(SHIPPED)}) "
                           f"nor a file")
    return _file_profile(spec)


def load_targets(specs: tuple[str, ...]) -> tuple[DeviceProfile, ...]:
    """Every configured target, each read once per process. Two targets with the same
    name get the file they came from appended to the second."""
    profiles = [load_target(spec) for spec in specs]
    seen: set[str] = set()
    unique = []
    for profile in profiles:
        if profile.name in seen:
            from dataclasses import replace

            profile = replace(profile, name=f"{profile.name} ({profile.source})")
        seen.add(profile.name)
        unique.append(profile)
    return tuple(unique)


def baseline_limit(name: str):
    """A limit's Vulkan 1.3 minimum, for profiles that do not list it."""
    return shipped_profile(DEFAULT_TARGET).limit(name)


# core property structs -> the Vulkan version that requires them
_CORE_SINCE = {"VkPhysicalDeviceVulkan11Properties": (1, 1),
               "VkPhysicalDeviceVulkan12Properties": (1, 2),
               "VkPhysicalDeviceVulkan13Properties": (1, 3)}


def mandatory_feature(profile: DeviceProfile, struct: str, member: str) -> bool:
    """Whether a feature is one every device of the profile's Vulkan version has (the
    Vulkan 1.3 feature requirements, for a profile of 1.3 or later that does not list
    them: Android's requirement profiles build on a Vulkan 1.1 baseline)."""
    return profile.api_version[:2] >= (1, 3) and shipped_profile(DEFAULT_TARGET).feature(
        struct, member)


def minimum_property(profile: DeviceProfile, struct: str, member: str):
    """A core property's required minimum (``subgroupSupportedOperations`` has at least
    the basic bit on every Vulkan 1.1 device), for a profile of that version or later
    that does not list it; None otherwise."""
    since = _CORE_SINCE.get(struct)
    if since is None or profile.api_version[:2] < since:
        return None
    return shipped_profile(DEFAULT_TARGET).property(struct, member)


__all__ = ["DEFAULT_TARGET", "PROFILES_DIR", "SHIPPED", "DeviceProfile", "ProfileError",
           "baseline_limit", "load_target", "load_targets", "mandatory_feature",
           "minimum_property", "shipped_profile"]
