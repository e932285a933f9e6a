"""Single instructions of a module written as SPIR-V assembly, for messages.

A finding about embedded SPIR-V has no source line to show; the instruction it comes from
is the next best thing: ``OpDecorate %dst Binding 1``, ``OpExecutionMode %main LocalSize
8 8 1``; constant operands given by id get their values in a comment (``; 64 1 1``).
An id is written by its OpName as spirv-dis writes it (``%dst``; ``%Out_0`` for a second
id named ``Out``), else as ``%<id>`` (where spirv-dis would make up a name for a type or
a constant; ``spirv-dis --raw-id`` shows that number too).
"""

from __future__ import annotations

import re
from functools import cached_property

from .grammar import enum_name, enum_value
from .module import EntryPoint, Module

_NOT_NAME = re.compile(r"[^A-Za-z0-9_]")
_LOCAL_SIZE = enum_value("ExecutionMode", "LocalSize")
_LOCAL_SIZE_ID = enum_value("ExecutionMode", "LocalSizeId")
_BUILTIN = enum_value("Decoration", "BuiltIn")
_WORKGROUP_SIZE = enum_value("BuiltIn", "WorkgroupSize")


class Assembly:
    """Writes instructions of one module."""

    def __init__(self, module: Module) -> None:
        self.module = module

    @cached_property
    def _names(self) -> dict[int, str]:
        """spirv-dis's names for the ids the module names: OpName order, characters other
        than letters, digits and `_` made `_`, a later id with a name already taken
        getting `_0`, `_1`... (debug names come before any type, so no generated type
        name can take one of these first)."""
        taken: set[str] = set()
        names: dict[int, str] = {}
        for target, text in self.module.names.items():
            name = _NOT_NAME.sub("_", text) or "_"
            if name in taken:
                index = 0
                while f"{name}_{index}" in taken:
                    index += 1
                name = f"{name}_{index}"
            taken.add(name)
            names[target] = name
        return names

    def id(self, value: int) -> str:
        return f"%{self._names.get(value, value)}"

    def decoration(self, target: int, decoration: str) -> str | None:
        """``OpDecorate %target Decoration operands``, or the member decoration on every
        member of a struct (``OpMemberDecorate %Block 0 NonWritable``) when the id itself
        is not decorated; None when neither is there."""
        number = enum_value("Decoration", decoration)
        operands = self.module.decoration(target, number)
        if operands is not None:
            return " ".join(["OpDecorate", self.id(target), decoration,
                             *map(str, operands)])
        members = self.module.member_decorations.get(target, {})
        for index in sorted(members):
            if number in members[index]:
                return " ".join(["OpMemberDecorate", self.id(target), str(index), decoration,
                                 *map(str, members[index][number])])
        return None

    def variable(self, variable_id: int) -> str | None:
        """``%dst = OpVariable %type StorageClass``."""
        var = self.module.variables.get(variable_id)
        if var is None:
            return None
        return (f"{self.id(var.id)} = OpVariable {self.id(var.type_id)} "
                f"{enum_name('StorageClass', var.storage_class)}")

    def _constant(self, constant_id: int) -> int | None:
        constant = self.module.constants.get(constant_id)
        return constant.value if constant is not None and type(constant.value) is int \
            else None

    def entry_point(self, entry: EntryPoint) -> str:
        model = enum_name("ExecutionModel", entry.execution_model)
        return f'OpEntryPoint {model} {self.id(entry.function_id)} "{entry.name}"'

    def local_size(self, entry: EntryPoint) -> str | None:
        """What sets the entry point's local size, as reflection reads it: the WorkgroupSize
        built-in when there is one, else the LocalSize / LocalSizeId execution mode."""
        for constant in self.module.constants.values():
            builtin = self.module.decoration(constant.id, _BUILTIN)
            if builtin and builtin[0] == _WORKGROUP_SIZE and len(constant.parts) == 3:
                return f"OpDecorate {self.id(constant.id)} BuiltIn WorkgroupSize"
        for mode in self.module.execution_modes.get(entry.function_id, ()):
            if mode.mode == _LOCAL_SIZE and len(mode.operands) >= 3 and not mode.ids:
                sizes = " ".join(map(str, mode.operands[:3]))
                return f"OpExecutionMode {self.id(entry.function_id)} LocalSize {sizes}"
            if mode.mode == _LOCAL_SIZE_ID and len(mode.operands) >= 3:
                ids = " ".join(self.id(i) for i in mode.operands[:3])
                values = [self._constant(i) for i in mode.operands[:3]]
                known = "" if None in values else f" ; {' '.join(map(str, values))}"
                return (f"OpExecutionModeId {self.id(entry.function_id)} LocalSizeId "
                        f"{ids}{known}")
        return None
