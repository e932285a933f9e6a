"""Go to definition: from a resource key of an op to the shader's declaration of that
binding, found by the shader stage as the cross-check's findings find it
(``shader.places``): the op's own ``shader_code`` (the place inside the string, through
its escapes), or the shader file whose sidecar the op is (see ``shaders.py``)."""

from __future__ import annotations

import os
from typing import TYPE_CHECKING

from ..diagnostics import Location
from ..keys import KeyKind, classify, resource_key
from .cursor import locate
from .documents import SHADER_LANGUAGES

if TYPE_CHECKING:
    from ..config import Options
    from .cursor import KeyPlace


def declaration(place: KeyPlace, options: Options,
                shader_file: tuple[str, str] | None) -> Location | None:
    """Where the shader declares the resource whose key (or value) ``place`` is on.
    ``shader_file`` is (path, text) of the shader file the op is the sidecar of, for an
    op without shader code of its own."""
    info = classify(place.key)
    if info.kind is not KeyKind.RESOURCE or info.direction is None or info.index is None:
        return None
    attributes = place.op.attributes
    binding = attributes.get(resource_key(info.direction, info.index, "binding"))
    set_ = attributes.get(resource_key(info.direction, info.index, "descriptorset"), 0)
    if type(binding) is not int or type(set_) is not int:
        return None
    code = attributes.get("shader_code")
    if isinstance(code, str) and code and attributes.get("shader_language") in ("GLSL", "HLSL"):
        shader_attributes, in_file = attributes, None
    elif shader_file is not None:
        path, text = shader_file
        language = SHADER_LANGUAGES[os.path.splitext(path)[1].lower()]
        shader_attributes = {**attributes, "shader_code": text, "shader_language": language}
        in_file = path
    else:
        return None  # (embedded SPIR-V has no source line to go to)
    from ..shader import build_shader, request_for
    from ..shader.places import places_for

    request = request_for(shader_attributes)
    shader = build_shader(request, options).shader if request is not None else None
    if shader is None or shader.reflection is None:
        return None
    declared = shader.reflection.binding(set_, binding)
    found = places_for(shader, shader_attributes).binding(declared) \
        if declared is not None else None
    if found is None or found.position is None:
        return None
    if in_file is not None:
        return Location(in_file, found.position.line, found.position.column)
    return locate(place.op, "shader_code", inner=found.position)
