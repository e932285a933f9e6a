"""The shipped target devices: ``profiles/index.json`` names each one, its file, the
Vulkan Profiles profile it holds and where its figures come from (written by
:mod:`tosa_vkshader.devices.generate`)."""

from __future__ import annotations

import json
from dataclasses import dataclass
from functools import cache
from pathlib import Path

PROFILES_DIR = Path(__file__).with_name("profiles")
INDEX_PATH = PROFILES_DIR / "index.json"


@dataclass(frozen=True, slots=True)
class ShippedTarget:
    name: str  # what --target-device takes: roadmap-2024
    file: str  # in profiles/: roadmap-2024.json
    profile: str  # the profile it holds: VP_KHR_roadmap_2024
    summary: str  # one line
    origin: str  # where its figures come from
    approximate: bool  # figures of a vendor class, not a published requirement

    @property
    def path(self) -> Path:
        return PROFILES_DIR / self.file


@cache
def shipped_targets() -> dict[str, ShippedTarget]:
    index = json.loads(INDEX_PATH.read_text(encoding="utf-8"))
    return {name: ShippedTarget(name=name, **entry) for name, entry in index.items()}


def shipped_file_of(profile_name: str) -> Path | None:
    """The shipped file that holds the profile ``profile_name`` (VP_KHR_roadmap_2022)."""
    for target in shipped_targets().values():
        if target.profile == profile_name:
            return target.path
    return None
