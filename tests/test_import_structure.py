"""The package's imports form layers without cycles, and no long chains
(docs/architecture.md).

Every import counts, also those inside functions and under ``TYPE_CHECKING``: a lazy
import that climbs a layer is still an arrow back up the pipeline. The benchmarks
(``bench/``) count as one more name, above the package they measure.
"""

from __future__ import annotations

import ast
import functools
import re
from dataclasses import dataclass
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
PACKAGE = ROOT / "src" / "tosa_vkshader"
BENCH = ROOT / "bench"
ARCHITECTURE = ROOT / "docs" / "architecture.md"
LAYER_LINE = re.compile(r"^(\d+) [^:]+: (.+)$")
# The longest chain of names (each importing the next) the house may have.
MAX_CHAIN = 12


@dataclass(frozen=True)
class Import:
    importer: str  # dotted module name
    imported: str
    where: str  # path:line


def read_layers(doc: Path) -> dict[str, int]:
    """The layer of each name, from the fenced block after the layers marker."""
    text = doc.read_text(encoding="utf-8")
    marker = text.index("<!-- layers:")
    block = text[text.index("```text", marker) + len("```text"):]
    block = block[:block.index("```")]
    layers: dict[str, int] = {}
    for line in block.strip().splitlines():
        match = LAYER_LINE.match(line.strip())
        assert match, f"unreadable layer line in {doc.name}: {line!r}"
        for name in match.group(2).split():
            assert name not in layers, f"{name} is in two layers"
            layers[name] = int(match.group(1))
    return layers


def package_modules(package: Path) -> dict[str, tuple[Path, bool]]:
    """Dotted name -> (file, is a package ``__init__``)."""
    modules = {}
    for path in sorted(package.rglob("*.py")):
        parts = list(path.relative_to(package.parent).with_suffix("").parts)
        is_package = parts[-1] == "__init__"
        if is_package:
            parts.pop()
        modules[".".join(parts)] = (path, is_package)
    return modules


def package_imports(package: Path, scripts: Path | None = None) -> list[Import]:
    """Every import of ``package`` by its own modules, and by the scripts in the folder
    ``scripts`` (named ``<folder>.<script>``), if given."""
    top = package.name
    modules = package_modules(package)
    found = []
    importers = {name: (path, is_package) for name, (path, is_package) in modules.items()}
    if scripts is not None:
        importers.update({f"{scripts.name}.{path.stem}": (path, False)
                          for path in sorted(scripts.glob("*.py"))})
    for name, (path, is_package) in importers.items():
        here = name if is_package else name.rsplit(".", 1)[0]
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            targets: list[str] = []
            if isinstance(node, ast.ImportFrom):
                if node.level:
                    parts = here.split(".")
                    base = parts[:len(parts) - node.level + 1]
                    module = ".".join(base + ([node.module] if node.module else []))
                else:
                    module = node.module or ""
                for alias in node.names:  # `from . import registry` imports a module
                    sub = f"{module}.{alias.name}"
                    targets.append(sub if sub in modules else module)
            elif isinstance(node, ast.Import):
                targets = [alias.name for alias in node.names]
            for target in targets:
                if (target == top or target.startswith(top + ".")) and target != name:
                    found.append(Import(name, target, f"{path.name}:{node.lineno}"
                                        if path.parent == scripts else
                                        f"{path.relative_to(package.parent)}:{node.lineno}"))
    return found


@functools.cache
def our_imports() -> list[Import]:
    return package_imports(PACKAGE, BENCH)


def layer_name(module: str, top: str = PACKAGE.name) -> str:
    """The name a module counts under: the package's own (``tosa_vkshader``), a
    subpackage or top-level module below it, or the folder of a script (``bench``)."""
    parts = module.split(".")
    return parts[1] if len(parts) > 1 and parts[0] == top else parts[0]


def upward_imports(imports: list[Import], layers: dict[str, int],
                   top: str = PACKAGE.name) -> list[str]:
    def layer(module: str) -> int | None:
        return layers.get(layer_name(module, top))

    return [f"{i.where}: {i.importer} (layer {layer(i.importer)}) imports "
            f"{i.imported} (layer {layer(i.imported)})"
            for i in imports  # names without a layer fail the test above instead
            if (low := layer(i.importer)) is not None and (high := layer(i.imported))
            is not None and high > low]


def cycles(imports: list[Import]) -> list[list[str]]:
    """Strongly connected components of more than one module (Tarjan)."""
    graph: dict[str, set[str]] = {}
    for i in imports:
        graph.setdefault(i.importer, set()).add(i.imported)
        graph.setdefault(i.imported, set())
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []

    def visit(node: str) -> None:
        index[node] = low[node] = len(index)
        stack.append(node)
        on_stack.add(node)
        for nxt in sorted(graph[node]):
            if nxt not in index:
                visit(nxt)
                low[node] = min(low[node], low[nxt])
            elif nxt in on_stack:
                low[node] = min(low[node], index[nxt])
        if low[node] == index[node]:
            component = []
            while True:
                member = stack.pop()
                on_stack.discard(member)
                component.append(member)
                if member == node:
                    break
            if len(component) > 1:
                found.append(sorted(component))

    for node in sorted(graph):
        if node not in index:
            visit(node)
    return found


def longest_chain(imports: list[Import], top: str = PACKAGE.name) -> list[str]:
    """The longest path of names (a subpackage, a top-level module, ``tosa_vkshader``,
    ``bench``), each importing the next; the graph of names has no cycle (tested)."""
    graph: dict[str, set[str]] = {}
    for i in imports:
        importer, imported = layer_name(i.importer, top), layer_name(i.imported, top)
        graph.setdefault(imported, set())
        if importer != imported:
            graph.setdefault(importer, set()).add(imported)

    @functools.cache
    def from_here(name: str) -> tuple[str, ...]:
        below = [from_here(lower) for lower in sorted(graph[name])]
        return (name, *max(below, key=len, default=()))

    return list(max((from_here(name) for name in sorted(graph)), key=len, default=()))


def test_every_module_has_a_layer_and_every_layer_name_exists():
    layers = read_layers(ARCHITECTURE)
    names = {layer_name(m) for m in package_modules(PACKAGE)} | {BENCH.name}
    assert sorted(names - set(layers)) == [], "add them to the layers in docs/architecture.md"
    assert sorted(set(layers) - names) == [], "stale names in docs/architecture.md"


def test_no_module_imports_from_a_higher_layer():
    assert upward_imports(our_imports(), read_layers(ARCHITECTURE)) == []


def test_no_import_cycles():
    assert cycles(our_imports()) == []


def test_no_chain_of_imports_is_longer_than_the_house_allows():
    """Each layer may use everything below it, but a chain of names each importing the
    next is what a reader follows (and what a change ripples up through)."""
    chain = longest_chain(our_imports())
    assert len(chain) <= MAX_CHAIN, " -> ".join(chain)


def test_no_import_cycles_between_layer_names():
    """Coarser: two subpackages or modules must not import each other either."""
    coarse = [Import(layer_name(i.importer), layer_name(i.imported), i.where)
              for i in our_imports()
              if layer_name(i.importer) != layer_name(i.imported)]
    assert cycles(coarse) == []


def test_the_shader_tools_never_reach_up_into_the_rules():
    """The issue's acceptance in so many words: nothing in spirv/, compile/ or the shader
    stage imports rules/ (the cross-check included) or check."""
    above = ("rules", "check")
    bad = [f"{i.where}: {i.imported}" for i in our_imports()
           if layer_name(i.importer) in ("spirv", "compile", "shader")
           and layer_name(i.imported) in above]
    assert bad == []


# -- the checker itself catches what it is there to catch ------------------------------


def write_package(root: Path, files: dict[str, str]) -> Path:
    package = root / "pkg"
    for name, text in files.items():
        path = package / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
    return package


@pytest.fixture
def toy(tmp_path):
    package = write_package(tmp_path, {
        "__init__.py": "",
        "low.py": "def helper():\n    from .high import thing  # lazy, still counts\n",
        "high.py": "from . import low\nthing = 1\n",
        "tools/__init__.py": "",
        "tools/a.py": "from .b import x\n",
        "tools/b.py": "from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n"
                      "    from .a import y\nx = 1\n",
    })
    doc = tmp_path / "architecture.md"
    doc.write_text("<!-- layers: -->\n```text\n1 top: high\n0 bottom: low tools pkg\n```\n")
    return package, read_layers(doc)


def test_checker_reports_a_lazy_upward_import(toy):
    package, layers = toy
    assert upward_imports(package_imports(package), layers, "pkg") == [
        "pkg/low.py:2: pkg.low (layer 0) imports pkg.high (layer 1)"]


def test_checker_reports_cycles_through_functions_and_type_checking(toy):
    package, _ = toy
    assert cycles(package_imports(package)) == [["pkg.high", "pkg.low"],
                                                ["pkg.tools.a", "pkg.tools.b"]]


def test_checker_measures_the_longest_chain_and_counts_scripts(tmp_path):
    package = write_package(tmp_path, {
        "__init__.py": "",
        "a.py": "from . import b\nfrom .tools import c\n",
        "b.py": "from .tools import c\n",
        "tools/__init__.py": "",
        "tools/c.py": "from .d import x\n",  # (inside one name: not a step)
        "tools/d.py": "x = 1\n",
    })
    scripts = tmp_path / "bench"
    scripts.mkdir()
    (scripts / "run.py").write_text("import pkg.a\n")
    assert longest_chain(package_imports(package), "pkg") == ["a", "b", "tools"]
    assert longest_chain(package_imports(package, scripts), "pkg") == ["bench", "a", "b",
                                                                      "tools"]

