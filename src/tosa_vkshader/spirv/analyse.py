"""The SPIR-V stage of the pipeline: read, validate, reflect, cross-check."""

from __future__ import annotations

from ..diagnostics import Diagnostic
from ..view import AttributeView
from .reader import read_module
from .reflect import reflect
from .validate import validate


def analyse_spirv(data: bytes, view: AttributeView, code_pointer: str) -> list[Diagnostic]:
    """Every diagnostic about a SPIR-V module and its agreement with the attributes.

    Diagnostics about the module itself point at ``code_pointer`` (the ``shader_code``
    key); cross-check diagnostics point at the attribute that disagrees. A module without
    a usable header stops after the reader's diagnostic, a truncated one after spirv-val;
    anything else runs every stage, so an invalid module still gets its bindings checked.
    """
    from ..crosscheck import crosscheck  # crosscheck imports spirv.records

    module, diagnostics = read_module(data, code_pointer)
    if module is None:
        return diagnostics
    diagnostics += validate(data, code_pointer, view.options.target_env)
    if not module.complete:
        return diagnostics  # bindings after the break are unknown: no cross-check
    entry = view.attrs.get("entry_point")
    reflection = reflect(module, entry if isinstance(entry, str) and entry else None)
    diagnostics += crosscheck(view, reflection)
    return diagnostics
