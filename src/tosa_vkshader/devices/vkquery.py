"""Ask the Vulkan loader (through ctypes) for feature and property structs that Debian's
``vulkaninfo`` (1.3.239) predates, such as ``VkPhysicalDeviceTensorFeaturesARM``.

Used only by the profile generator, in a child process whose environment selects the
driver and layers: ``python -m tosa_vkshader.devices.vkquery STRUCT...`` prints
``{"features": {...}, "properties": {...}}`` for the first physical device. The struct
layouts come from the Vulkan registry (``vulkan-object``), so nothing is hand-written.
"""

from __future__ import annotations

import ctypes
import json
import sys
from typing import Any

_SCALARS = {"VkBool32": ctypes.c_uint32, "uint32_t": ctypes.c_uint32,
            "int32_t": ctypes.c_int32, "uint64_t": ctypes.c_uint64,
            "int64_t": ctypes.c_int64, "VkDeviceSize": ctypes.c_uint64,
            "float": ctypes.c_float}
_FEATURES_2, _PROPERTIES_2 = 1000059000, 1000059001


class _AppInfo(ctypes.Structure):  # VkApplicationInfo
    _fields_ = [("sType", ctypes.c_int), ("pNext", ctypes.c_void_p),
                ("pApplicationName", ctypes.c_char_p), ("applicationVersion", ctypes.c_uint32),
                ("pEngineName", ctypes.c_char_p), ("engineVersion", ctypes.c_uint32),
                ("apiVersion", ctypes.c_uint32)]


class _InstanceInfo(ctypes.Structure):  # VkInstanceCreateInfo
    _fields_ = [("sType", ctypes.c_int), ("pNext", ctypes.c_void_p),
                ("flags", ctypes.c_uint32), ("pApplicationInfo", ctypes.POINTER(_AppInfo)),
                ("enabledLayerCount", ctypes.c_uint32), ("ppEnabledLayerNames", ctypes.c_void_p),
                ("enabledExtensionCount", ctypes.c_uint32),
                ("ppEnabledExtensionNames", ctypes.c_void_p)]


class _Chained(ctypes.Structure):
    _fields_ = [("sType", ctypes.c_int), ("pNext", ctypes.c_void_p),
                ("body", ctypes.c_ubyte * 4096)]  # VkPhysicalDevice{Features,Properties}


def _layout(vk, name: str):
    """A ctypes structure for a registry struct of scalars and flags."""
    struct = vk.structs[name]
    fields: list[tuple[str, Any]] = [("sType", ctypes.c_int), ("pNext", ctypes.c_void_p)]
    kinds = {}
    for member in struct.members[2:]:
        if member.type in _SCALARS and not member.fixedSizeArray:
            fields.append((member.name, _SCALARS[member.type]))
        elif member.type.endswith("Flags") and not member.fixedSizeArray:
            fields.append((member.name, ctypes.c_uint32))
            kinds[member.name] = member.type.replace("Flags", "FlagBits")
        else:
            raise ValueError(f"{name}.{member.name}: type {member.type} is not supported")
        kinds.setdefault(member.name, member.type)
    layout = type(name, (ctypes.Structure,), {"_fields_": fields})
    s_type = next(f.value for f in vk.enums["VkStructureType"].fields
                  if f.name == struct.sType)
    return layout, s_type, kinds


def _value(vk, kind: str, raw):
    if kind == "VkBool32":
        return bool(raw)
    if kind in vk.bitmasks:
        return [f.name for f in vk.bitmasks[kind].flags if f.value and raw & f.value == f.value
                and not f.multiBit]
    return raw


def query(names: list[str]) -> dict:
    from vulkan_object import get_vulkan_object

    vk = get_vulkan_object()
    lib = ctypes.CDLL("libvulkan.so.1")
    app = _AppInfo(sType=0, apiVersion=(1 << 22) | (3 << 12))  # Vulkan 1.3
    create = _InstanceInfo(sType=1, pApplicationInfo=ctypes.pointer(app))
    instance = ctypes.c_void_p()
    if lib.vkCreateInstance(ctypes.byref(create), None, ctypes.byref(instance)) != 0:
        raise RuntimeError("vkCreateInstance failed")
    count = ctypes.c_uint32(1)
    device = ctypes.c_void_p()
    lib.vkEnumeratePhysicalDevices(instance, ctypes.byref(count), ctypes.byref(device))
    result: dict = {"features": {}, "properties": {}}
    for name in names:
        layout, s_type, kinds = _layout(vk, name)
        item = layout(sType=s_type)
        is_features = "VkPhysicalDeviceFeatures2" in vk.structs[name].extends
        head = _Chained(sType=_FEATURES_2 if is_features else _PROPERTIES_2,
                        pNext=ctypes.addressof(item))
        call = lib.vkGetPhysicalDeviceFeatures2 if is_features \
            else lib.vkGetPhysicalDeviceProperties2
        call(device, ctypes.byref(head))
        values = {field: _value(vk, kinds[field], getattr(item, field))
                  for field, _ in layout._fields_[2:]}
        result["features" if is_features else "properties"][name] = values
    lib.vkDestroyInstance(instance, None)
    return result


if __name__ == "__main__":
    print(json.dumps(query(sys.argv[1:])))
