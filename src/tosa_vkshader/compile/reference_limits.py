"""What the reference runtime's GLSL compiler (the scenario runner's ``glslc``) cannot be
told: checked for every shader it would compile, cached or not, so this stays apart from
the code that runs it."""

from __future__ import annotations

from ..diagnostics import Diagnostic
from ..rule_registry import rule
from .job import Job
from .options import Macro

REFERENCE_UNSUPPORTED = rule(
    "VKS308",
    summary="A compile setting cannot be given to the reference runtime's GLSL compiler.",
    why="The scenario runner's glslc takes macros as one space-separated string and a "
        "single include directory; passing the setting anyway would compile a different "
        "shader than the one configured.",
    bad='[tool.tosa-vkshader]\nmacros = { SCALE = "2 * 3" }\n'
        'include-dirs = ["a", "b"]   # and the shader #includes',
    good='[tool.tosa-vkshader]\nmacros = { SCALE = "(2*3)" }\ninclude-dirs = ["shaders"]',
)


def refusals(job: Job, macros: tuple[Macro, ...], roots: list[str]) -> list[Diagnostic]:
    """Settings this compiler cannot carry for ``job``; each is a VKS308 error."""
    pointer = job.request.code_pointer
    found = []
    for name, value in macros:
        if value is not None and (not value or any(c.isspace() for c in value)):
            found.append(REFERENCE_UNSUPPORTED.at(
                pointer, f"macro `{name}` has the value {value!r}: the reference compiler "
                         "takes macros as one space-separated string, so a value must be "
                         "non-empty and without spaces",
                hint="write the value without spaces, e.g. `(2*3)`"))
    if job.includes.files and len(roots) > 1:
        found.append(REFERENCE_UNSUPPORTED.at(
            pointer, f"the shader includes files and {len(roots)} include directories are "
                     "configured; the reference compiler searches only one",
            hint="keep the shared shader headers in one `include-dirs` folder"))
    return found
