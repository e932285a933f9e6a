"""What can go wrong when an op is run for real, and what the device showed (VKS950-VKS969, VKS973).

The model's own problems are reported by ``check`` before anything runs; these rules
cover the run itself: the toolchain and the Vulkan device, the inputs the user gives,
what the reference converter and scenario runner say about the model, and the run-time
findings: elements a result never received, writes past a result, results that depend
on the output's initial contents, and what the Khronos validation layer reports. The
findings have codes of their own, so no configuration of a static rule (VKS518 lowered
to a warning, say) can silence what the device showed.
"""

from __future__ import annotations

from ..rule_registry import rule

RUN_EXTRA_MISSING = rule(
    "VKS950",
    summary="The reference toolchain (Arm ML SDK wheels) or numpy is not installed.",
    why="`run` converts and executes the model with the real model-converter, VGF library, "
        "scenario runner and emulation layers; without them there is nothing to run on.",
    bad="pip install . && tosa-vkshader run model.mlir -i x.npy -o out   # in a checkout",
    good="pip install '.[run]' && tosa-vkshader run model.mlir -i x.npy -o out   "
         "# in a checkout; or pip install 'tosa_vkshader-*.whl[run]'",
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
            "push-constant block (or one file for ops whose blocks differ).",
    why="The converter drops `push_constants` from the VGF, so the run must supply the "
        "bytes; without them the shader silently reads zeros, and a wrong size shifts "
        "every member. One file gives every op the same bytes, which ops with different "
        "blocks would read as different members: give those values by name "
        "(`--push-constant NAME=VALUE`), which lays out each op's own block.",
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
UNWRITTEN_ELEMENTS = rule(
    "VKS962",
    summary="The op ran, but some elements of a result were never written: they still "
            "hold what the output was filled with before the dispatch.",
    why="`run` dispatches the op twice, its outputs filled first with zeros (as the runner "
        "leaves them) and then with a sentinel; an element that still holds what it was "
        "filled with after both dispatches was never written by the shader (too few "
        "workgroups in some axis, a guard that stops too early, an index that never "
        "reaches it). Without this check those elements come back as whatever the memory "
        "held, zeros here, and the numbers look plausible. Where the index analysis proves "
        "a dispatch that writes every element and nothing past, the finding names its "
        "`workgroup_sizes`. The finding is the device's, not a static rule's: configuring "
        "VKS518 does not change it (`--no-write-check` turns the check off).",
    bad='"workgroup_sizes": [16, 1, 1]   // an 8 x 8 shader on a 128 x 128 image: rows 8-127 '
        'never written',
    good='"workgroup_sizes": [16, 16, 1]',
)
WRITE_PAST_END = rule(
    "VKS963",
    summary="The shader wrote past the end of a result, into the part of the output buffer "
            "that holds no element of it.",
    why="Where the VGF makes an output buffer larger than its result (a multi-component "
        "format over a tensor of scalars: the buffer is elements x texel size), `run` "
        "fills the rest with the sentinel too and finds writes there. What lands there is "
        "lost, and on a buffer sized to the result it would overwrite other memory. (The "
        "scenario runner refuses buffers of another size than the VGF's, so a buffer sized "
        "exactly to its result has no such zone: where the index analysis does not prove "
        "the stores inside it, the run adds GPU-assisted validation by itself, VKS968, and "
        "a store past the end is VKS966.)",
    bad='layout(std430) writeonly buffer Out { vec4 y[]; };   // result tensor<64xf32>, '
        'format R32G32B32A32_SFLOAT: 64 vec4 writes for 16 texels of data',
    good='layout(std430) writeonly buffer Out { float y[]; };   // format R32_SFLOAT',
)
READS_OUTPUT = rule(
    "VKS964",
    summary="A result differs between two dispatches that differ only in what the output "
            "held before them: the shader reads an output before writing it (or its "
            "invocations race).",
    why="An output's contents are undefined when a dispatch starts on a Vulkan device; the "
        "reference scenario runner hands the shader zeros, so an op that adds into an output "
        "(`y[i] += x[i]`, `atomicAdd` into a histogram nobody cleared) computes as written "
        "there and from garbage where the memory is not cleared. `run` dispatches the op "
        "from the runner's zeros (the results it gives) and from a sentinel: written "
        "elements must come out the same. (Which elements such a shader left untouched "
        "cannot be told from those it added nothing to, so VKS962 is not claimed for that "
        "result.)",
    bad="y[i] += x[i];   // y is an output: its initial contents are undefined",
    good="y[i] = x[i];   // or clear it first in a separate pass",
)
VALIDATION_LAYER_MISSING = rule(
    "VKS965",
    summary="`run --validate` needs the Khronos validation layer, and it is not installed.",
    why="The validation layer checks every Vulkan call the runner makes and, with "
        "GPU-assisted validation, every shader access; without it there is nothing to "
        "validate with, and running without it would report a clean run that was never "
        "validated. (Where the run turns the layer on by itself, VKS968, a missing layer "
        "is that note as a warning instead: nothing was asked for.)",
    bad="tosa-vkshader run model.mlir --validate ...   # no vulkan-validationlayers",
    good="sudo apt-get install vulkan-validationlayers",
)
VALIDATION_ERROR = rule(
    "VKS966",
    summary="The Khronos validation layer reported an error while the op ran (`run "
            "--validate`, or the layer the run turned on by itself: VKS968).",
    why="An error from the validation layer is a use of Vulkan the specification forbids: "
        "an out-of-bounds store found by GPU-assisted validation "
        "(`VUID-vkCmdDispatch-None-02706`), a uniform block bound as a storage buffer "
        "(`VUID-VkComputePipelineCreateInfo-layout-00703`), a data race found by "
        "synchronization validation. The scenario runner exits 0 all the same; `run` reads "
        "the layer's log and reports each message with its VUID and the shader line.",
    bad="y[gl_GlobalInvocationID.x] = 1.0;   // 1,024 invocations, 1,000 elements",
    good="if (gl_GlobalInvocationID.x < 1000u) y[gl_GlobalInvocationID.x] = 1.0;",
)
VALIDATION_WARNING = rule(
    "VKS967",
    summary="The Khronos validation layer reported a warning while the op ran (`run "
            "--validate`, or the layer the run turned on by itself: VKS968).",
    why="Warnings are uses of Vulkan that are allowed but likely wrong or slow; they are "
        "shown with their message identifier and do not fail the run.",
    bad="(a validation warning, e.g. a performance warning)",
    good="(no message from the layer)",
)
VALIDATED_WHERE_UNPROVEN = rule(
    "VKS968",
    summary="`run` turned on the Khronos validation layer by itself: the static analysis "
            "does not prove an op's buffer accesses in bounds, or its shader declares a "
            "uniform block the runtime binds as a storage buffer (a warning when the layer "
            "is not installed).",
    why="The write check sees every element of a result, but not a store past a buffer "
        "sized exactly to its result (the runner allows no room after it), a read past an "
        "operand (lavapipe returns zeros) or a uniform block the runtime binds as a storage "
        "buffer (it reads zeros, and every element is still written). Where the index "
        "analysis proves every buffer access of an op inside its buffer for the op's "
        "dispatch, nothing more is needed and the op runs without the layer; where it "
        "proves a store past the end, or cannot decide (an index read from memory, a bound "
        "in a push constant), the run adds GPU-assisted validation, which checks every "
        "access on the device (VKS966 when one is out of bounds); a uniform block gets the "
        "layer's core checks. This is decided from the shader itself, not from the check's "
        "diagnostics: lowering or ignoring VKS522, VKS523 or VKS251 does not change it. "
        "`--no-validate` runs without the layer, `--validate` always with it.",
    bad="y[to[i]] = x[i];   // where each store goes depends on the data: validated",
    good="y[i] = x[i];   // dispatched as exactly the result's elements: no layer needed",
)


VALIDATION_LAYER_OLDER_THAN_DEVICE = rule(
    "VKS973",
    summary="The Khronos validation layer does not know some structures or extensions the "
            "runner enabled on this device (the layer is older than the device's driver): "
            "its checks of them are skipped.",
    why="The scenario runner and the emulation layers enable what the device offers. On a "
        "GPU whose driver is newer than the installed layer (measured: an NVIDIA H200, "
        "driver 580.159 with Vulkan 1.4.312, under Debian's layer 1.3.239) the layer "
        "reports each structure of `vkCreateDevice` it does not know as "
        "`VUID-VkDeviceCreateInfo-pNext-pNext` (\"unknown VkStructureType\": there, "
        "bfloat16 and replicated-composites features; in any other pNext chain too, which "
        "the runner and the emulation layers fill, never the op) and each extension it "
        "does not know "
        "(VK_KHR_maintenance5 there) as \"not supported by this layer\". Neither is about "
        "the op, whose shader and dispatch the layer still checks: they are this one note, "
        "not VKS966/VKS967 findings that would fail a correct op. A validation layer at "
        "least as new as the driver (`TOSA_VKSHADER_VALIDATION_LAYER` names its manifest) "
        "checks them too.",
    bad="tosa-vkshader run model.mlir --validate ...   # Vulkan 1.4 driver, 1.3.239 layer",
    good="TOSA_VKSHADER_VALIDATION_LAYER=/opt/vvl/VkLayer_khronos_validation.json "
         "tosa-vkshader run model.mlir --validate ...",
)

RESULTS_FROM_A_RACE = rule(
    "VKS969",
    summary="The op's results come from a data race on workgroup-shared memory that its "
            "SPIR-V proves: one invocation reads what another wrote with no barrier() "
            "between them.",
    why="A race is invisible on the device: lavapipe gives the same wrong values on every "
        "run and no validation layer reports it, so neither the write check nor "
        "`--validate` can show it, and another device (or this one another time) may give "
        "other values. The index analysis proves it from the shader's own addresses "
        "(VKS431 says where): the values this run returned are not what the shader means. "
        "Like every run-time finding it does not follow VKS431's configured severity: "
        "lowering the static warning never turns a race into a clean run.",
    bad="s[lid] = x[gid]; sum = s[lid] + s[lid ^ 1u];   // another invocation's element, "
        "no barrier()",
    good="s[lid] = x[gid]; barrier(); sum = s[lid] + s[lid ^ 1u];",
)

