"""Semantic rules on one attribute object. Each check yields pointer-only diagnostics."""

from __future__ import annotations

from collections.abc import Callable, Iterable

from ..diagnostics import Diagnostic
from ..view import AttributeView
from .context import check_context
from .key_names import check_keys
from .push_constants import check_push_constants
from .resources import check_resources
from .shader_fields import check_entry_point, check_language_and_code, check_workgroup_sizes
from .value_types import check_value_types

Check = Callable[[AttributeView], Iterable[Diagnostic]]


def check_spirv(view: AttributeView) -> Iterable[Diagnostic]:
    """Embedded SPIR-V: read, validate, reflect, cross-check (see spirv/analyse.py).
    The SPIR-V machinery is imported only for ops that carry SPIR-V."""
    if view.attrs.get("shader_language") != "SPIR-V":
        return ()
    from ..spirv.analyse import check_spirv as analyse

    return analyse(view)

CHECKS: tuple[Check, ...] = (
    check_keys,
    check_value_types,
    check_entry_point,
    check_workgroup_sizes,
    check_language_and_code,
    check_push_constants,
    check_resources,
    # Before the shader stage: where the shader shows that the model and the shader
    # disagree on a tensor's element type, the shader stage restates VKS514/VKS515 with
    # the hint that fits, and the later diagnostic replaces the earlier (check.finish).
    check_context,
    check_spirv,
)


def run_rules(view: AttributeView) -> list[Diagnostic]:
    found: list[Diagnostic] = []
    for check in CHECKS:
        found.extend(check(view))
    return found
