"""Which devices to check against: shipped profiles by name, or Vulkan Profiles files."""

from __future__ import annotations

from functools import cache
from pathlib import Path

from .profile import DeviceProfile, ProfileError, read_profile

PROFILES_DIR = Path(__file__).with_name("profiles")
DEFAULT_TARGET = "baseline"
# name -> what it is; the files are in devices/profiles/, made by devices/generate.py
SHIPPED = {
    "baseline": "Vulkan 1.3 minimum: required limits, no optional feature, no extension",
    "lavapipe": "Mesa lavapipe (Vulkan 1.3 on the CPU) with the ML emulation layers, as "
                "run uses it",
}


@cache
def shipped_profile(name: str) -> DeviceProfile:
    from dataclasses import replace

    profile = read_profile(PROFILES_DIR / f"{name}.json", name=name)
    return replace(profile, source=f"shipped profile {name}.json")


@cache
def _file_profile(spec: str, stamp: tuple[int, int]) -> DeviceProfile:
    return read_profile(spec)


def _stamp(path: str) -> tuple[int, int]:
    """The file's modification time and size: an edited profile is read again."""
    try:
        info = Path(path).stat()
    except OSError:
        return (0, 0)  # read_profile reports it
    return info.st_mtime_ns, info.st_size


def load_target(spec: str) -> DeviceProfile:
    """A shipped profile's name (``baseline``, ``lavapipe``) or a Vulkan Profiles JSON file
    (``FILE`` or ``FILE#PROFILE``). Raises :class:`ProfileError` when it is neither."""
    if spec in SHIPPED:
        return shipped_profile(spec)
    path = spec.partition("#")[0]
    if not Path(path).exists() and "/" not in spec and not spec.endswith(".json"):
        raise ProfileError(f"{spec!r} is neither a shipped target ({', '.join(SHIPPED)}) "
                           f"nor a file")
    return _file_profile(spec, _stamp(path))


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


__all__ = ["DEFAULT_TARGET", "SHIPPED", "DeviceProfile", "ProfileError", "baseline_limit",
           "load_target", "load_targets", "shipped_profile"]
