"""Every rule that gives a hint has a test that makes it give that hint.

The source side: every call in ``src/tosa_vkshader`` that passes ``hint=`` (not None) is
found in the syntax tree, and its rule resolved: ``RULE.at(...)``, ``R.RULE.at(...)``, a
helper called with the rule first (``self.problem(RULE, ...)``), or a rule imported
inside the function. The few calls whose rule is a variable are listed in ``INDIRECT``
with the codes they can give a hint for; a new one fails here until it is listed.

The test side: the codes given to ``hinted(...)``, ``printed(...)`` (a command's output)
and ``Case(...)`` in the hint tests (``tests/test_hints*.py``). ``hinted`` and ``printed``
fail unless the diagnostic carries a hint, and every ``Case`` goes through ``hinted``, so
a code counted here is a code whose hint a test saw.
"""

from __future__ import annotations

import ast
import importlib
import re
from pathlib import Path

import pytest

from tosa_vkshader.diagnostics import Rule
from tosa_vkshader.rule_registry import RULES

from conftest import ROOT

PACKAGE = ROOT / "src" / "tosa_vkshader"
HINT_TESTS = sorted((ROOT / "tests").glob("test_hints*.py"))
CODE = re.compile(r"VKS\d{3}")

# (file, function) -> the codes that call gives hints for. A call that passes on a hint
# made by a call counted elsewhere gives none of its own.
INDIRECT: dict[tuple[str, str], set[str]] = {
    ("compile/cache.py", "diagnostic"): set(),  # a cached compile diagnostic, restored
    ("compile/diagnose.py", "to_diagnostic"): {"VKS300"},  # compile errors (_HINTS)
    ("compile/includes.py", "visit"): {"VKS304"},  # self.reject: INCLUDE_REJECTED
    ("config_file.py", "options_from_table"): {"VKS901", "VKS933"},  # _BadOption's rule
    ("rules/restate.py", "_collisions"): {"VKS222"},  # restated with the shader's hint
    # (an extension is enabled by an extension, never by a feature: VKS701 has no hint)
    ("devices/checks.py", "_enables"): {"VKS700"},
    ("diagnostics.py", "at"): set(),  # Rule.at itself
    ("rules/__init__.py", "run_shader_rules_each"): {"VKS415"},  # the model/shader conflict
    ("rules/context.py", "check_context"): {"VKS510", "VKS511", "VKS512", "VKS513"},
    ("rules/key_names.py", "check_keys"): {"VKS111", "VKS112", "VKS113", "VKS114"},
    ("runtime/devices.py", "list_devices"): {"VKS951"},  # no_device
    ("runtime/tool_output.py", "tool_failure"): {"VKS955"},  # the runner's failure
    ("runtime/validation.py", "diagnostic"): {"VKS966"},  # an error's spec statement
    ("spirv/reader.py", "problem"): set(),  # the reader's helper: callers counted
}


def _modules() -> dict[Path, object]:
    found = {}
    for path in sorted(PACKAGE.rglob("*.py")):
        parts = path.relative_to(PACKAGE).with_suffix("").parts
        if parts[-1] == "__main__":
            continue
        name = ".".join(("tosa_vkshader", *parts)).removesuffix(".__init__")
        found[path] = importlib.import_module(name)
    return found


def _resolve(module: object, node: ast.expr, by_name: dict[str, set[str]]) -> str | None:
    value = _value(module, node)
    if isinstance(value, Rule):
        return value.code
    if isinstance(node, ast.Name) and len(by_name.get(node.id, ())) == 1:
        return next(iter(by_name[node.id]))  # imported inside a function
    return None


def _value(module: object, node: ast.expr) -> object:
    if isinstance(node, ast.Name):
        return getattr(module, node.id, None)
    if isinstance(node, ast.Attribute):
        return getattr(_value(module, node.value), node.attr, None)
    return None


def _enclosing_functions(tree: ast.AST) -> dict[int, str]:
    names: dict[int, str] = {}
    for function in ast.walk(tree):
        if isinstance(function, (ast.FunctionDef, ast.AsyncFunctionDef)):
            for node in ast.walk(function):
                names[id(node)] = function.name  # the innermost wins (walked last)
    return names


def source_codes() -> tuple[set[str], list[str]]:
    """The codes whose diagnostics the source gives a hint, and the unclassified calls."""
    modules = _modules()
    by_name: dict[str, set[str]] = {}
    for module in modules.values():
        for name, value in vars(module).items():
            if isinstance(value, Rule):
                by_name.setdefault(name, set()).add(value.code)
    codes: set[str] = set()
    unknown = []
    for path, module in modules.items():
        tree = ast.parse(path.read_text())
        functions = _enclosing_functions(tree)
        relative = path.relative_to(PACKAGE).as_posix()
        for node in ast.walk(tree):
            if not isinstance(node, ast.Call):
                continue
            hint = next((k.value for k in node.keywords if k.arg == "hint"), None)
            if hint is None or (isinstance(hint, ast.Constant) and hint.value is None):
                continue
            target = node.func.value if isinstance(node.func, ast.Attribute) \
                and node.func.attr == "at" else node.args[0] if node.args else None
            code = _resolve(module, target, by_name) if target is not None else None
            if code is not None:
                codes.add(code)
                continue
            where = (relative, functions.get(id(node), "<module>"))
            if where in INDIRECT:
                codes |= INDIRECT[where]
            else:
                unknown.append(f"{relative}:{node.lineno} in {where[1]}")
    return codes, unknown


def codes_under_test() -> set[str]:
    codes = set()
    for path in HINT_TESTS:
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) \
                    and node.func.id in ("hinted", "printed", "Case"):
                codes |= {arg.value for arg in node.args if isinstance(arg, ast.Constant)
                          and isinstance(arg.value, str) and CODE.fullmatch(arg.value)}
    return codes


@pytest.fixture(scope="module")
def hinting() -> tuple[set[str], list[str]]:
    """:func:`source_codes`, once for the module (it imports and parses every module)."""
    return source_codes()


def test_every_hint_giving_call_is_understood(hinting):
    _codes, unknown = hinting
    assert not unknown, ("calls passing hint= whose rule cannot be resolved: add them to "
                         f"INDIRECT with the codes they give hints for: {unknown}")


def test_every_rule_that_gives_hints_has_a_hint_test(hinting):
    codes, _unknown = hinting
    missing = sorted(codes - codes_under_test())
    assert not missing, (f"rules that give hints no test in tests/test_hints*.py checks "
                         f"(with hinted() or a Case): {missing}")


def test_the_indirect_table_names_real_rules():
    assert all(code in RULES for codes in INDIRECT.values() for code in codes)
