"""Problems of reading custom ops out of models and op objects (VKS500-VKS502, VKS505,
VKS930).

Declared here, beside the readers that report them, so that ``sources/`` never imports
the rules stage above it.
"""

from __future__ import annotations

from ..rule_registry import rule

MLIR_SYNTAX = rule(
    "VKS500",
    summary="A `tosa.custom` op in an MLIR file cannot be read: its attribute dictionary, "
            "a string escape or its type signature is malformed.",
    why="What cannot be read cannot be checked; tosa-opt and the converter would refuse the "
        "file as well. The location is where reading stopped.",
    bad='%0 = tosa.custom %a {implementation_attrs = "{\\q}", ...} : (...) -> ...',
    good='%0 = tosa.custom %a {implementation_attrs = "{\\22entry_point\\22: ...}", ...} '
         ': (...) -> ...',
)
TOSA_FILE = rule(
    "VKS501",
    summary="A `.tosa` file is not a TOSA flatbuffer, or its tables are damaged.",
    why="The converter reads the same flatbuffer; a truncated or foreign file fails there "
        "too, and none of its custom ops can be checked.",
    bad="model.tosa: a PNG renamed, or a file cut short by a failed copy",
    good="model.tosa written by tosa-opt --tosa-serialize",
)
MISSING_ATTRS = rule(
    "VKS502",
    summary="A Vulkan shader custom op has no `implementation_attrs`, or it is not a string "
            "(MLIR, .tosa) or a string or object (op-level JSON).",
    why="The shader, its entry point and its resource bindings all live in "
        "implementation_attrs; without them the converter has nothing to build.",
    bad='tosa.custom %a {domain_name = "com.arm.VulkanCustomShader", operator_name = "k"}',
    good='tosa.custom %a {domain_name = "com.arm.VulkanCustomShader", operator_name = "k", '
         'implementation_attrs = "{...}"}',
)
MALFORMED_OP_OBJECT = rule(
    "VKS505",
    summary="A field of an op-level JSON object has the wrong type (`domain_name` or "
            "`operator_name` not a string, `inputs`/`outputs` not a list of tensor types).",
    why="The op object is read like the model it stands for; a field of the wrong type "
        "cannot be compared with the attributes.",
    bad='{"operator_name": 7, "implementation_attrs": {...}}',
    good='{"operator_name": "k", "inputs": ["tensor<1x8xf32>"], "implementation_attrs": '
         '{...}}',
)
READER_MISSING = rule(
    "VKS930",
    summary="A `.tosa` file was given but the TOSA flatbuffer reader (the `tosa` package of "
            "tosa-tools) is not installed.",
    why="The file cannot be checked without it, and passing it silently would let a broken "
        "model through a pre-commit hook.",
    bad="pip install .   # then: tosa-vkshader check model.tosa",
    good="pip install '.[tosa]'   (or pip install tosa-tools; pre-commit: "
         "additional_dependencies: [tosa-tools])",
)
