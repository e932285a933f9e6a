"""What can go wrong when an op is run for real (VKS950-VKS969).

The model's own problems are reported by ``check`` before anything runs; these rules
cover the run itself: the toolchain and the Vulkan device, the inputs the user gives,
and what the reference converter and scenario runner say about the model.
"""

from __future__ import annotations

from ..rule_registry import rule

RUN_EXTRA_MISSING = rule(
    "VKS950",
    summary="The reference toolchain (Arm ML SDK wheels) or numpy is not installed.",
    why="`run` converts and executes the model with the real model-converter, VGF library, "
        "scenario runner and emulation layers; without them there is nothing to run on.",
    bad="pip install tosa-vkshader && tosa-vkshader run model.mlir -i x.npy -o out",
    good="pip install 'tosa-vkshader[run]' && tosa-vkshader run model.mlir -i x.npy -o out",
)
NO_VULKAN_DEVICE = rule(
    "VKS951",
    summary="No Vulkan driver (ICD) or loader is installed, so there is no device to run on.",
    why="The scenario runner needs the Vulkan loader (libvulkan1) and at least one driver; "
        "Mesa's lavapipe runs compute shaders on the CPU of any machine.",
    bad="(a machine without libvulkan1 or mesa-vulkan-drivers)",
    good="sudo apt-get install libvulkan1 mesa-vulkan-drivers",
)
DEVICE_NOT_FOUND = rule(
    "VKS952",
    summary="`--device` names no Vulkan device of this machine.",
    why="Running on another device than the one asked for would report numbers for the "
        "wrong hardware.",
    bad="tosa-vkshader run model.mlir --device mali ...    # no Mali here",
    good="tosa-vkshader run --list-devices    # then --device llvmpipe",
)
INPUT_MISMATCH = rule(
    "VKS953",
    summary="The inputs do not match the arguments of the model's entry function "
            "(count, element type or shape).",
    why="The runtime copies raw bytes: an input of the wrong type or size would be "
        "reinterpreted silently, or refused by the runner with a vague size mismatch.",
    bad="func.func @main(%arg0: tensor<64xf32>)   # given -i x.npy holding int32[64]",
    good="np.save('x.npy', np.arange(64, dtype=np.float32))",
)
CONVERTER_FAILED = rule(
    "VKS954",
    summary="The reference model-converter refused the model (TOSA MLIR to VGF).",
    why="What the converter refuses cannot run anywhere; its own message is shown.",
    bad='%0 = tosa.custom %arg0 {domain_name = "com.arm.VulkanCustomShaders", ...}',
    good='%0 = tosa.custom %arg0 {domain_name = "com.arm.VulkanCustomShader", ...}',
)
RUNNER_FAILED = rule(
    "VKS955",
    summary="The scenario runner failed on the model (for example its shader compiler "
            "refused the shader, or it crashed).",
    why="The op does not run on the reference runtime; the runner's own error lines are "
        "shown so that the cause is visible.",
    bad="(a GLSL shader that the runtime's glslang refuses)",
    good="(a shader that compiles and runs; try `tosa-vkshader check` first)",
)
RUNNER_TIMEOUT = rule(
    "VKS956",
    summary="The scenario runner did not finish within the time limit and was stopped.",
    why="A huge dispatch shape or a shader that never ends would hang the command; "
        "`run` stops the runner after `--timeout` seconds (60 by default).",
    bad='"workgroup_sizes": [65535, 65535, 1]   # billions of invocations on a CPU device',
    good='"workgroup_sizes": [64, 1, 1]',
)
PUSH_CONSTANTS_MISMATCH = rule(
    "VKS957",
    summary="`--push-constants` is missing, not needed, or not the size of the shader's "
            "push-constant block.",
    why="The converter drops `push_constants` from the VGF, so the run must supply the "
        "bytes; without them the shader silently reads zeros, and a wrong size shifts "
        "every member.",
    bad="layout(push_constant) uniform P { float scale; float bias; };  # 4-byte file",
    good="np.array([2.0, 0.5], np.float32).tofile('pc.bin')   # 8 bytes",
)
HLSL_EMBEDDED = rule(
    "VKS958",
    summary="An HLSL shader was compiled by tosa-vkshader and embedded as SPIR-V before "
            "converting.",
    why="The reference runtime cannot compile HLSL (\"HLSL shaders are not supported on "
        "this platform\"); `run` compiles it as `fix --embed spirv` does, so what runs is "
        "that SPIR-V, not the runtime's own compilation.",
    bad='"shader_language": "HLSL"     # runs only because tosa-vkshader compiled it',
    good='"shader_language": "SPIR-V"   # tosa-vkshader fix op.json --embed spirv',
)
UNSUPPORTED_INTERFACE = rule(
    "VKS959",
    summary="The model has an input or output that `run` cannot feed or read back "
            "(element type without a numpy dtype, dynamic shape, a descriptor type or "
            "format the runtime cannot bind).",
    why="Inputs are written in the VGF's exact layout; a resource whose layout is unknown "
        "would be guessed, and a guessed layout gives plausible wrong numbers.",
    bad="func.func @main(%arg0: tensor<?x64xf32>)   # dynamic dimension",
    good="func.func @main(%arg0: tensor<1x64xf32>)",
)
RESULT_MISMATCH = rule(
    "VKS960",
    summary="A result differs from the expected array given with `--expect`.",
    why="The op is clean but computes something else: integers must match exactly, "
        "floats within rtol/atol. The first mismatching index and the largest errors are "
        "shown.",
    bad="tosa-vkshader run relu.mlir -i x.npy -o out --expect wrong.npy",
    good="tosa-vkshader run relu.mlir -i x.npy -o out --expect np_reference.npy",
)
BAD_RUN_MODEL = rule(
    "VKS961",
    summary="The model has no entry function that `run` can read (a `func.func` with "
            "tensor arguments and results).",
    why="Inputs are matched to the entry function's arguments and results are written in "
        "its order; without a signature there is nothing to match them to.",
    bad='module { }',
    good="module { func.func @main(%arg0: tensor<64xf32>) -> tensor<64xf32> { ... } }",
)
