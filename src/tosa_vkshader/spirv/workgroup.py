"""How many bytes of ``Workgroup`` (shared) storage an entry point declares.

Workgroup variables have no explicit layout, and drivers lay them out as they like, so
this is the least any driver needs: each variable's natural size (scalars at their width,
``bool`` as 4 bytes, vectors, matrices and arrays packed, struct members summed), all
variables added up. A shader over the device's ``maxComputeSharedMemorySize`` by this
count is over on every device.
"""

from __future__ import annotations

from .grammar import enum_value
from .module import Module

_WORKGROUP = enum_value("StorageClass", "Workgroup")
_MAX_DEPTH = 64


def _natural_size(module: Module, type_id: int, memo: dict[int, int], depth: int = 0) -> int:
    if type_id in memo:
        return memo[type_id]
    t = module.types.get(type_id)
    size = 0
    if t is None or depth > _MAX_DEPTH:
        return 0
    if t.kind in ("int", "float"):
        size = t.width // 8
    elif t.kind == "bool":
        size = 4
    elif t.kind in ("vector", "matrix"):
        size = t.count * _natural_size(module, t.element, memo, depth + 1)
    elif t.kind == "array":
        length = module.constants.get(t.length_id)
        count = length.value if length is not None and type(length.value) is int else 0
        size = max(count, 0) * _natural_size(module, t.element, memo, depth + 1)
    elif t.kind == "struct":
        size = sum(_natural_size(module, m, memo, depth + 1) for m in t.members)
    memo[type_id] = size
    return size


def natural_size(module: Module, type_id: int) -> int:
    """Bytes of a value of ``type_id`` laid out without padding (as above)."""
    return _natural_size(module, type_id, {})


def workgroup_memory_bytes(module: Module, entry_point: str | None = None) -> int:
    """Total natural size of the ``Workgroup`` variables the entry point can reach (all of
    the module's before SPIR-V 1.4, whose interfaces do not list them)."""
    ep = module.entry_point(entry_point)
    interface = frozenset(ep.interface) if ep is not None and module.version >= (1, 4) \
        else None
    memo: dict[int, int] = {}
    total = 0
    for var in module.variables.values():
        if var.storage_class != _WORKGROUP:
            continue
        if interface is not None and var.id not in interface:
            continue
        pointer = module.types.get(var.type_id)
        if pointer is not None and pointer.kind == "pointer":
            total += _natural_size(module, pointer.element, memo)
    return total
