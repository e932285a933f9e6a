"""The SPIR-V stage of the pipeline: read, validate, reflect, cross-check."""

from __future__ import annotations

from collections.abc import Iterator

from ..diagnostics import Diagnostic
from ..view import AttributeView
from .reader import NOT_SPIRV, read_module
from .reflect import reflect
from .validate import validate


def analyse_spirv(data: bytes, view: AttributeView, code_pointer: str) -> list[Diagnostic]:
    """Every diagnostic about a SPIR-V module and its agreement with the attributes.

    Diagnostics about the module itself point at ``code_pointer`` (the ``shader_code``
    key); cross-check diagnostics point at the attribute that disagrees. A module without
    a usable header or a truncated one stops after the reader's diagnostic (spirv-val is
    skipped whenever the reader already rejected the header: it would repeat it);
    anything else runs every stage, so an invalid module still gets its bindings checked.

    The pipeline's own shader_code checks (base64, length, magic: VKS206-VKS208) run
    first; call this only when they passed, or VKS400 repeats them.
    """
    from ..crosscheck import crosscheck  # crosscheck imports spirv.records

    module, diagnostics = read_module(data, code_pointer)
    if module is None:
        return diagnostics
    if not module.complete:
        # spirv-val would only repeat the reader's message, and bindings after the break
        # are unknown, so cross-checking them would only add noise.
        return diagnostics
    if not any(d.code == NOT_SPIRV.code for d in diagnostics):
        diagnostics += validate(data, code_pointer, view.options.target_env,
                                use_disk_cache=view.options.cache)
    entry = view.attrs.get("entry_point")
    reflection = reflect(module, entry if isinstance(entry, str) and entry else None)
    diagnostics += crosscheck(view, reflection)
    from ..rules.context import check_context_against_shader

    diagnostics += check_context_against_shader(view, reflection)
    from ..devices import check_targets

    diagnostics += check_targets(view, module, reflection, code_pointer)
    return diagnostics


def check_spirv(view: AttributeView) -> Iterator[Diagnostic]:
    """The pipeline's SPIR-V check: runs when ``shader_code`` holds a SPIR-V blob that the
    shader-field rules accepted (strict base64, whole words, magic number: VKS206-VKS208)."""
    from ..rules.shader_fields import SPIRV_MAGIC, decode_spirv

    code = view.attrs.get("shader_code")
    if view.attrs.get("shader_language") != "SPIR-V" or not isinstance(code, str) or not code:
        return
    data = decode_spirv(code)
    if data is None or len(data) % 4 or len(data) < 20:
        return
    if SPIRV_MAGIC not in (int.from_bytes(data[:4], "little"), int.from_bytes(data[:4], "big")):
        return
    yield from analyse_spirv(data, view, view.pointer("shader_code"))
