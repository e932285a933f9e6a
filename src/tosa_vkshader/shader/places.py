"""Where an op's shader declares what a finding is about.

The rules that compare attributes with the shader point at the attribute key; the place
in the shader is the second half of the story: the line of the GLSL/HLSL declaration
(found in the op's own source text, see ``compile/declarations.py``), or for embedded
SPIR-V the instruction (``OpDecorate %dst Binding 1``, see ``spirv/assembly.py``).

Places of GLSL/HLSL are per op, not per :class:`Shader`: ops that compile to the same
module may still differ in their source (a comment, a blank line), and so in their line
numbers. Embedded SPIR-V has no source besides the module: its places depend on the
module alone, so every op that carries it shares one :class:`ShaderPlaces` (see
:func:`places_for`). Each place is worked out on first use, and once: a shader that the
attributes agree with costs nothing, and a web server that checks op after op with the
same embedded module renders each instruction it points at once.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import cached_property, lru_cache
from typing import TYPE_CHECKING

from ..diagnostics import InnerPosition, ShaderPlace
from .record import Shader

if TYPE_CHECKING:
    from typing import Any

    from ..compile.declarations import Declaration, Declarations
    from ..spirv.analysis import Place
    from ..spirv.assembly import Assembly
    from ..spirv.module import EntryPoint
    from ..spirv.records import DescriptorBinding


class ShaderPlaces:
    """The places in one op's shader."""

    def __init__(self, shader: Shader, source: str | None) -> None:
        self.shader = shader
        self.source = source if shader.language != "SPIR-V" else None
        self._found: dict[tuple, ShaderPlace | None] = {}  # see _once

    def _once(self, what: tuple, find: Callable[[], ShaderPlace | None]
              ) -> ShaderPlace | None:
        """The place ``what`` (the method and what it reads of its argument), found by
        ``find`` the first time it is asked for."""
        try:
            return self._found[what]
        except KeyError:
            place = self._found[what] = find()
            return place

    @cached_property
    def _declarations(self) -> Declarations | None:
        if self.source is None:
            return None
        from ..compile.declarations import declarations

        return declarations(self.source, self.shader.language)

    @cached_property
    def _assembly(self) -> Assembly | None:
        if self.shader.language != "SPIR-V":
            return None
        return _assembly_of(self.shader)

    @cached_property
    def _entry(self) -> EntryPoint | None:
        assembly, reflection = self._assembly, self.shader.reflection
        if assembly is None or reflection is None or reflection.entry_point is None:
            return None
        return assembly.module.entry_point(reflection.entry_point)

    def _place(self, declared: Declaration | None, instruction: str | None
               ) -> ShaderPlace | None:
        if declared is not None:
            return ShaderPlace(InnerPosition(declared.line, declared.column))
        return ShaderPlace(instruction=instruction) if instruction else None

    def _resource(self, kind: str, binding: DescriptorBinding, instruction: Any
                  ) -> ShaderPlace | None:
        def find() -> ShaderPlace | None:
            declarations = self._declarations
            declared = declarations.resource(binding.name, binding.set, binding.binding) \
                if declarations is not None else None
            assembly = self._assembly
            return self._place(declared, instruction(assembly) if assembly else None)

        return self._once((kind, binding.name, binding.set, binding.binding,
                           binding.variable_id), find)

    def binding(self, binding: DescriptorBinding) -> ShaderPlace | None:
        """A finding about where a resource is bound: its declaration, or ``OpDecorate
        %var Binding N``."""
        return self._resource("binding", binding,
                              lambda a: a.decoration(binding.variable_id, "Binding"))

    def descriptor_set(self, binding: DescriptorBinding) -> ShaderPlace | None:
        return self._resource("descriptor_set", binding,
                              lambda a: a.decoration(binding.variable_id, "DescriptorSet"))

    def variable(self, binding: DescriptorBinding) -> ShaderPlace | None:
        """A finding about a resource's type or storage class: its declaration, or
        ``%var = OpVariable %type StorageClass``."""
        return self._resource("variable", binding, lambda a: a.variable(binding.variable_id))

    def read_only(self, binding: DescriptorBinding) -> ShaderPlace | None:
        """Why a resource cannot be written: its declaration, or its NonWritable decoration
        (on the variable or on its block's members), else the variable itself."""
        def instruction(a: Assembly) -> str | None:
            pointer = a.module.types.get(a.module.variables[binding.variable_id].type_id) \
                if binding.variable_id in a.module.variables else None
            block = _block_of(a, pointer.element) if pointer is not None else None
            return (a.decoration(binding.variable_id, "NonWritable")
                    or (a.decoration(block, "NonWritable") if block is not None else None)
                    or a.variable(binding.variable_id))
        return self._resource("read_only", binding, instruction)

    def local_size(self) -> ShaderPlace | None:
        """The local size: `layout(local_size_x = ...) in;`, the entry point's
        `[numthreads]`, or the SPIR-V execution mode (or WorkgroupSize built-in)."""
        return self._once(("local_size",), self._local_size)

    def _local_size(self) -> ShaderPlace | None:
        declarations = self._declarations
        reflection = self.shader.reflection
        declared = declarations.local_size(reflection.entry_point if reflection else None) \
            if declarations is not None else None
        entry, assembly = self._entry, self._assembly
        return self._place(declared, assembly.local_size(entry)
                           if assembly is not None and entry is not None else None)

    def push_constants(self) -> ShaderPlace | None:
        """The push-constant block's declaration, or ``%pc = OpVariable ... PushConstant``."""
        return self._once(("push_constants",), self._push_constants)

    def _push_constants(self) -> ShaderPlace | None:
        block = self.shader.reflection.push_constants if self.shader.reflection else None
        if block is None:
            return None
        declarations, assembly = self._declarations, self._assembly
        declared = declarations.resource(block.name) if declarations is not None else None
        return self._place(declared, assembly.variable(block.variable_id)
                           if assembly is not None else None)

    def access(self, place: Place) -> ShaderPlace:
        """A read or write the index analysis found: its line in the op's own source
        (from the module's OpLine), else the instruction described."""
        if self.source is not None and place.line is not None and place.main_file:
            return ShaderPlace(InnerPosition(place.line, _first_column(self.source,
                                                                        place.line)))
        return ShaderPlace(instruction=place.describe())

    def entry_point(self) -> ShaderPlace | None:
        """``OpEntryPoint Model %main "main"`` of embedded SPIR-V."""
        return self._once(("entry_point",), self._entry_point)

    def _entry_point(self) -> ShaderPlace | None:
        entry, assembly = self._entry, self._assembly
        return self._place(None, assembly.entry_point(entry)
                           if assembly is not None and entry is not None else None)


def _first_column(source: str, line: int) -> int:
    """The column of the first character that is not blank on a 1-based line."""
    lines = source.split("\n")
    if not 0 < line <= len(lines):
        return 1
    text = lines[line - 1]
    return len(text) - len(text.lstrip()) + 1


def _block_of(assembly: Assembly, type_id: int) -> int | None:
    """The struct inside a (possibly arrayed) pointee type."""
    inner = assembly.module.without_arrays(type_id)
    return inner.id if inner is not None and inner.kind == "struct" else None


@lru_cache(maxsize=64)
def _assembly_of(shader: Shader) -> Assembly | None:
    """The module of embedded SPIR-V as the shader stage read it (a record built
    elsewhere, without it, is read again); one per shader, shared by the ops that carry
    it (its names are worked out once, not once an op)."""
    from ..spirv.assembly import Assembly

    module = shader.module
    if module is None:
        from ..spirv.reader import read_module

        module, _findings = read_module(shader.spirv, "")
    return Assembly(module) if module is not None else None


def places_for(shader: Shader, attributes: dict) -> ShaderPlaces:
    """The places in the shader of one op (its ``shader_code`` is the source to read);
    for embedded SPIR-V, the places of the module, shared by every op that carries it."""
    if shader.language == "SPIR-V":
        return _module_places(shader)
    code = attributes.get("shader_code")
    return ShaderPlaces(shader, code if isinstance(code, str) else None)


@lru_cache(maxsize=64)
def _module_places(shader: Shader) -> ShaderPlaces:
    """The places of embedded SPIR-V: one per shader (like :func:`_assembly_of`)."""
    return ShaderPlaces(shader, None)
