"""Semantic rules on one attribute object. Each check yields pointer-only diagnostics.

Two kinds: :data:`CHECKS` read the attributes alone; :func:`run_shader_rules` compares
them with the op's :class:`~tosa_vkshader.shader.Shader` once the shader stage has built
it (cross-check, tensors of the model against the shader)."""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import TYPE_CHECKING

from ..diagnostics import Diagnostic
from ..view import AttributeView
from .context import check_context
from .key_names import check_keys
from .push_constants import check_push_constants
from .resources import check_resources
from .runtime_support import check_runtime
from .shader_fields import check_entry_point, check_language_and_code, check_workgroup_sizes
from .value_types import check_value_types

if TYPE_CHECKING:
    from ..shader import Shader

Check = Callable[[AttributeView], Iterable[Diagnostic]]


# The checks that read the attributes alone: ops with the same attributes get the same
# findings (check.py rules a repeated op once).
ATTRIBUTE_CHECKS: tuple[Check, ...] = (
    check_keys,
    check_value_types,
    check_entry_point,
    check_workgroup_sizes,
    check_language_and_code,
    check_push_constants,
    check_resources,
    check_runtime,
)
# The checks that read the op's model context too (its operands, results, wiring, names).
CONTEXT_CHECKS: tuple[Check, ...] = (
    # The shader stage runs after these rules: where it shows that the model and the
    # shader disagree on a tensor's element type, it restates VKS514/VKS515 with the hint
    # that fits, and the later diagnostic replaces this one (check.finish).
    check_context,
)
CHECKS = ATTRIBUTE_CHECKS + CONTEXT_CHECKS


def run_rules_each(views: list[AttributeView], checks: tuple[Check, ...] = CHECKS,
                   ) -> list[list[Diagnostic]]:
    """The findings of ``checks`` for each view, in the order of the checks. Run check by
    check: a batch of ops runs one check's code for all of them in a row, which keeps the
    interpreter in one place (about a third faster for many small ops)."""
    found: list[list[Diagnostic]] = [[] for _ in views]
    for check in checks:
        for diagnostics, view in zip(found, views, strict=True):
            diagnostics.extend(check(view))
    return found


def run_shader_rules(view: AttributeView, shader: Shader) -> list[Diagnostic]:
    """The attributes against the shader's reflection (see :func:`run_shader_rules_each`)."""
    return run_shader_rules_each([(view, shader)])[0]


def run_shader_rules_each(pairs: list[tuple[AttributeView, Shader]]
                          ) -> list[list[Diagnostic]]:
    """The attributes against the shader's reflection, for each (view, shader) pair. Like
    :func:`run_rules_each`, check by check over all the pairs: a web server checking a
    batch of edited ops with a known shader runs each check's code for all of them in a
    row (about a sixth faster than op by op). Imported on first use: runs without a
    shader never load the SPIR-V records these rules read. (The shader against each
    target device, VKS7xx, is devices/: check.py runs it beside these.)"""
    from dataclasses import replace

    from ..shader.places import places_for
    from .context import check_context_against_shader, element_conflicts, packed_buffers
    from .coverage import check_races
    from .crosscheck import BUFFER_ELEMENT_MISMATCH, FORMAT_MISMATCH, compare
    from .restate import restated
    from .shader_fields import check_local_size_limits
    from .specialization import check_spec_id_defaults

    # Where the model and the shader disagree on a tensor's element type, no vkformat fits
    # both: VKS415's "use <the shader's format>" would only trade it for VKS514.
    conflicts = [element_conflicts(view, shader) for view, shader in pairs]
    comparisons = [compare(view, shader) for view, shader in pairs]
    # Where vkformat is the model's tensor and the shader packs its elements into integer
    # words, VKS416's "use <the word's format>" would trade it for VKS514 likewise.
    packed = [packed_buffers(view, shader) for view, shader in pairs]
    found = [[replace(d, hint=conflict[d.pointer])
              if d.code == FORMAT_MISMATCH.code and d.pointer in conflict else
              replace(d, message=d.message + packing[d.pointer], hint=None)
              if d.code == BUFFER_ELEMENT_MISMATCH.code and d.pointer in packing else d
              for d in comparison.findings]
             for conflict, packing, comparison in zip(conflicts, packed, comparisons,
                                                      strict=True)]
    for diagnostics, (view, shader), comparison in zip(found, pairs, comparisons,
                                                       strict=True):
        diagnostics.extend(restated(view, shader, comparison.moves))
    for diagnostics, (view, shader) in zip(found, pairs, strict=True):
        diagnostics.extend(check_context_against_shader(view, shader))
    for diagnostics, (view, shader) in zip(found, pairs, strict=True):
        diagnostics.extend(check_races(view, shader, places_for(shader, view.attrs)))
    for diagnostics, (view, shader) in zip(found, pairs, strict=True):
        diagnostics.extend(check_local_size_limits(view, shader))
        diagnostics.extend(check_spec_id_defaults(view, shader))
    return found
