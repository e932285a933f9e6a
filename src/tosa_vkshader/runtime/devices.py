"""The Vulkan devices of this machine, one Vulkan driver (ICD manifest) at a time.

``vulkaninfo --summary`` (Debian's vulkan-tools) is asked once per driver manifest with
``VK_ICD_FILENAMES`` naming only that manifest, so every device is known together with the
manifest that selects it. Drivers for absent hardware (Intel, AMD on a CPU-only machine)
report no device and are left out. Without ``--device`` nothing is selected: the loader
and Mesa's device-select layer order real GPUs before lavapipe, so lavapipe runs when it
is the only device.
"""

from __future__ import annotations

import os
import re
from dataclasses import dataclass
from pathlib import Path

from .errors import RunError
from .toolchain import INSTALL_VULKAN, default_driver_environment, icd_manifests, no_device

_FIELD = re.compile(r"^\s*(deviceName|deviceType|driverName)\s*=\s*(.*?)\s*$", re.MULTILINE)


@dataclass(frozen=True, slots=True)
class Device:
    name: str  # e.g. "llvmpipe (LLVM 15.0.6, 256 bits)"
    type: str  # CPU, DISCRETE_GPU, INTEGRATED_GPU, VIRTUAL_GPU, OTHER
    driver: str  # e.g. "llvmpipe"
    icd: Path  # the manifest that selects it

    def matches(self, wanted: str) -> bool:
        text = wanted.strip().lower()
        if text == "lavapipe":
            text = "llvmpipe"
        return text in self.name.lower() or text == self.driver.lower() or \
            text in (str(self.icd).lower(), self.icd.name.lower(), self.icd.stem.lower())

    def environment(self) -> dict[str, str]:
        return {"VK_ICD_FILENAMES": str(self.icd), "VK_DRIVER_FILES": str(self.icd)}


def list_devices(timeout: float = 30.0) -> list[Device]:
    import shutil
    import subprocess

    vulkaninfo = shutil.which("vulkaninfo")
    if vulkaninfo is None:
        raise RunError([no_device(
            "`vulkaninfo` (Debian's vulkan-tools) is not installed, so the devices cannot "
            "be listed", hint="sudo apt-get install vulkan-tools")])
    devices = []
    for manifest in icd_manifests():
        env = {**os.environ, "VK_ICD_FILENAMES": str(manifest), "VK_DRIVER_FILES": str(manifest),
               "VK_LOADER_DEBUG": ""}
        env.pop("VK_INSTANCE_LAYERS", None)
        try:
            done = subprocess.run([vulkaninfo, "--summary"], env=env, capture_output=True,
                                  text=True, errors="replace", timeout=timeout, check=False)
        except (OSError, subprocess.TimeoutExpired):
            continue
        found = _FIELD.findall(done.stdout)
        current: dict[str, str] = {}
        for key, value in found:
            if key in current:
                devices.append(_device(current, manifest))
                current = {}
            current[key] = value
        if "deviceName" in current:
            devices.append(_device(current, manifest))
    return devices


def _device(fields: dict[str, str], manifest: Path) -> Device:
    kind = fields.get("deviceType", "").removeprefix("PHYSICAL_DEVICE_TYPE_") or "OTHER"
    return Device(fields.get("deviceName", "?"), kind, fields.get("driverName", ""), manifest)


def select_device(wanted: str) -> Device:
    """The device ``wanted`` names (a part of its name, its driver or its ICD manifest)."""
    devices = list_devices()
    if not devices:
        raise RunError([no_device("no Vulkan device was found")])
    for device in devices:
        if device.matches(wanted):
            return device
    names = ", ".join(f"`{d.name}`" for d in devices)
    from .rules import DEVICE_NOT_FOUND

    raise RunError([DEVICE_NOT_FOUND.at(
        "", f"no Vulkan device matches --device `{wanted}`; this machine has {names}",
        hint="list them with `tosa-vkshader run --list-devices`")])


def device_environment(device: str | None) -> dict[str, str]:
    """The variables that select ``device`` (None: the loader's own choice, narrowed to
    lavapipe when nothing else can have a device); :class:`RunError` when there is no
    Vulkan driver or no such device."""
    if device is None:
        if not icd_manifests():
            raise RunError([no_device("no Vulkan driver (ICD manifest) is installed")])
        return default_driver_environment()
    return select_device(device).environment()


__all__ = ["INSTALL_VULKAN", "Device", "device_environment", "list_devices", "select_device"]
