"""Problems found while generating attributes, ops or repairs (VKS600-VKS629).

Code generation reports through the same diagnostics as the checker: these rules cover
what only a generator can get wrong (what to infer from a shader, how to render an op,
whether a repair is mechanical); everything about the result itself is reported by the
checker's own rules, because every generated object goes through ``check`` before it is
written.
"""

from __future__ import annotations

from ..rule_registry import rule

NO_COMPUTE_ENTRY = rule(
    "VKS600",
    summary="The shader has no GLCompute entry point (or not the one asked for).",
    why="A custom op's shader runs as a compute pipeline; attributes for a vertex or "
        "fragment shader, or for an entry point the module does not export, could never "
        "be dispatched.",
    bad="tosa-vkshader new blur.frag.spv            # OpEntryPoint Fragment %main",
    good="tosa-vkshader new blur.comp                 # OpEntryPoint GLCompute %main",
)
AMBIGUOUS_ENTRY = rule(
    "VKS601",
    summary="The module has several compute entry points and none was chosen.",
    why="Each entry point can declare different bindings and a different local size; "
        "picking one silently would describe a shader the user may not mean.",
    bad="tosa-vkshader new two_entry_points.spv",
    good="tosa-vkshader new two_entry_points.spv --entry-point forward",
)
FORMAT_NOT_INFERRED = rule(
    "VKS602",
    summary="The VkFormat of a binding cannot be read from the shader; give it with "
            "`--format-of`.",
    why="Sampled images and uniform texel buffers declare no format (Unknown), and a "
        "buffer of structs with mixed member types, or of padded vectors, has no single "
        "element format. Guessing would write a plausible but wrong `vkformat`.",
    bad="tosa-vkshader new sample.comp                # uniform sampler2D tex;",
    good="tosa-vkshader new sample.comp --format-of tex=VK_FORMAT_R8G8B8A8_UNORM",
)
FORMAT_OF_CONFLICT = rule(
    "VKS603",
    summary="`--format-of` gives one binding two formats, or a format the shader "
            "contradicts (a storage image's declared format, a tensor's element type).",
    why="The attributes can hold one format per resource; a storage image's format "
        "qualifier and a tensor's element type are fixed by the shader.",
    bad="--format-of 0=VK_FORMAT_R32_SFLOAT --format-of src=VK_FORMAT_R8_SINT  # src is 0",
    good="--format-of src=VK_FORMAT_R32_SFLOAT",
)
FORMAT_OF_UNKNOWN = rule(
    "VKS604",
    summary="A `--format-of` key names no binding of the entry point, names several, or "
            "its value is not a VkFormat; a `--sampler-of` key names no sampled image or "
            "several, or its value is not FILTER[,ADDRESS[,BORDER]].",
    why="A format meant for one binding must not silently go nowhere (a typo in the "
        "variable name) or to the wrong binding (binding 0 of two descriptor sets).",
    bad="--format-of texture=VK_FORMAT_R8G8B8A8_UNORM    # the variable is `tex`",
    good="--format-of tex=VK_FORMAT_R8G8B8A8_UNORM",
)
UNBINDABLE = rule(
    "VKS605",
    summary="The entry point uses a descriptor the attribute format cannot describe as an "
            "input or output (a standalone sampler, an acceleration structure, an input "
            "attachment, two variables on one binding).",
    why="Every input/output carries one tensor's data; a sampler or an acceleration "
        "structure has no VkFormat and no tensor behind it, so the converter could not "
        "create it.",
    bad="layout(binding = 1) uniform sampler smp;  // used with texture(sampler2D(img, smp))",
    good="layout(binding = 0) uniform sampler2D img;  // combined image sampler",
)
DESCRIPTOR_ARRAY = rule(
    "VKS606",
    summary="A binding is an array of descriptors; it is described as one input/output.",
    why="The runtime binds one tensor per input or output, so only one element of the "
        "array is backed by the op's operand; the shader must not read the others.",
    bad="layout(binding = 0) buffer Parts { float v[]; } parts[4];",
    good="layout(binding = 0) buffer Part0 { float v[]; } part0;  // one binding per tensor",
)
UNUSED_BINDING = rule(
    "VKS607",
    summary="A binding the entry point never uses is left out of the attributes, unless "
            "the op's operands need it.",
    why="Inputs and outputs are the op's operands and results; a declaration the entry "
        "point does not use needs no tensor. When the op has more operands than the "
        "bindings the entry point reads, and the unused storage buffers it declares make "
        "up exactly the difference (a bias read only `#ifdef USE_BIAS`), they back those "
        "operands: the runtime binds them, and the shader ignores them.",
    bad="layout(binding = 2) buffer Spare { float s[]; };   // never used",
    good="(no input_N/output_N for binding 2)",
)
WORKGROUP_UNKNOWN = rule(
    "VKS608",
    summary="`workgroup_sizes` cannot be derived: the shader's local size is not a "
            "constant, or `--workgroup-sizes` is not three positive integers.",
    why="Without a local size neither reading of workgroup_sizes can be computed: the "
        "number of workgroups covering the results needs it, and so does the spec's "
        "local-size reading.",
    bad="tosa-vkshader new tiled.comp   # layout(local_size_x_id = 0) in; no default",
    good="tosa-vkshader new tiled.comp --workgroup-sizes 16,16,1",
)
WORKGROUP_CONTRADICTS = rule(
    "VKS609",
    summary="`--workgroup-sizes` differs from the shader's local size under "
            "workgroup-semantics = \"local-size\".",
    why="Under the spec's reading workgroup_sizes is the local size, so it must equal the "
        "shader's; `check` would reject the result (VKS420).",
    bad="--workgroup-sizes 16,16,1   # layout(local_size_x = 8, local_size_y = 8) in;",
    good="--workgroup-sizes 8,8,1",
)
SPECIALIZABLE_LOCAL_SIZE = rule(
    "VKS610",
    summary="The local size comes from specialization constants; `workgroup_sizes` uses "
            "the size the pipeline gets without specialization.",
    why="The attribute format has no way to pass specialization constants, so the "
        "pipeline runs with the defaults, which may not be the values in the source.",
    bad="layout(local_size_x_id = 0) in;  layout(constant_id = 0) const int WG = 8;",
    good="layout(local_size_x = 8) in;",
)
LOCAL_SIZE_ONE = rule(
    "VKS614",
    summary="The shader's local size is 1 x 1 x 1: one invocation per workgroup.",
    why="GPUs run a workgroup's invocations in SIMD groups of 8 to 64 lanes (subgroups: 16 "
        "on Mali, 32 on NVIDIA and Apple, 64 on Adreno and AMD). A workgroup of one "
        "invocation fills one lane and leaves the rest idle, on every GPU: the same work "
        "takes up to 64 times the time, and the dispatch needs one workgroup per element. "
        "GLSL without a `local_size` declaration gets 1 x 1 x 1 silently; a specialization "
        "constant's default of 1 does the same.",
    bad="layout(local_size_x = 1) in;   // or no layout(local_size_...) at all",
    good="layout(local_size_x = 64) in;  // and index with gl_GlobalInvocationID.x",
)
EMBED_UNAVAILABLE = rule(
    "VKS611",
    summary="`--embed source` was asked for a SPIR-V module, which has no source to embed.",
    why="Only GLSL and HLSL files have source text; a .spv can only be embedded as base64 "
        "SPIR-V.",
    bad="tosa-vkshader new kernel.spv --embed source",
    good="tosa-vkshader new kernel.spv --embed spirv",
)
PUSH_CONSTANT_PADDING = rule(
    "VKS612",
    summary="The push-constant block has gaps between members; `push_constants` gets "
            "padding entries so that every member keeps its offset.",
    why="`push_constants` lists sizes, not offsets: a gap left out would shift every later "
        "member (VKS422).",
    bad='"push_constants": "scale: 4, offset: 16"   // offset is at byte 16',
    good='"push_constants": "scale: 4, pad_4: 12, offset: 16"',
)
SHADER_UNREADABLE = rule(
    "VKS613",
    summary="The shader file cannot be read, or its kind (GLSL, HLSL, SPIR-V) is not known "
            "from its suffix.",
    why="`new` compiles .comp/.glsl (GLSL) and .hlsl (HLSL) files and reads .spv modules; "
        "anything else would be guessed.",
    bad="tosa-vkshader new shader.txt",
    good="tosa-vkshader new shader.comp",
)
BAD_TENSOR_TYPE = rule(
    "VKS615",
    summary="An `--operands`/`--results` entry is not a ranked or unranked MLIR tensor type "
            "with a known element type.",
    why="The op's operands and results become real MLIR types and .tosa tensors; "
        "`tensor<1x16xi8` or `memref<4xf32>` cannot.",
    bad="--operands 'tensor<1x16x16x4xint8>'",
    good="--operands 'tensor<1x16x16x4xi8>'",
)
NOT_SERIALIZABLE = rule(
    "VKS616",
    summary="An operand or result type cannot be written to a .tosa file (a dynamic or "
            "unranked shape, an element type TOSA has no DType for).",
    why="TOSA flatbuffer tensors have static shapes and a fixed set of element types.",
    bad="--operands 'tensor<?x16xf32>'    (emit tosa)",
    good="--operands 'tensor<1x16xf32>'",
)
ATTRIBUTES_INVALID = rule(
    "VKS617",
    summary="The attributes given to `emit` (or to the Python API) do not pass `check`.",
    why="An op is only rendered from attributes that check clean; the checker's own "
        "diagnostics say what is wrong.",
    bad='{"entry_point": "main"}   // no workgroup_sizes',
    good='{"entry_point": "main", "workgroup_sizes": [8, 8, 1], ...}',
)
TOSA_TOOLS_MISSING = rule(
    "VKS618",
    summary="Writing a .tosa file needs `tosa_serializer` from tosa-tools, which is not "
            "installed.",
    why="The .tosa form is a flatbuffer written by the reference serializer; without it "
        "only MLIR can be emitted.",
    bad="tosa-vkshader emit tosa attrs.json ...   # tosa-tools missing",
    good="pip install tosa-tools   # or, in a checkout: pip install '.[tosa]'",
)
FIX_AMBIGUOUS = rule(
    "VKS620",
    summary="A problem `fix` would repair has no single mechanical repair (a near-miss key "
            "with no unambiguous target, or whose target key already exists); the file is "
            "left untouched.",
    why="A repair that guesses can turn one visible mistake into a silent one (two keys "
        "merged, a value lost).",
    bad='{"input_01_binding": 0, "input_1_binding": 1}',
    good='{"input_1_binding": 1}   // decide by hand which value is right',
)
FIX_UNREADABLE = rule(
    "VKS621",
    summary="`fix` cannot read the file as one JSON attribute object; nothing is changed.",
    why="Repairs are made on the parsed object and written back whole; a file that does "
        "not parse cannot be rewritten without losing what is in it.",
    bad='{"entry_point": "main",',
    good='{"entry_point": "main"}',
)
FIX_EMBED_FAILED = rule(
    "VKS622",
    summary="`fix --embed spirv` could not compile the shader; the file is left untouched.",
    why="Embedding replaces the source by its SPIR-V: without a module there is nothing to "
        "embed, and the source must stay.",
    bad='"shader_language": "GLSL", "shader_code": "void main( {"',
    good='"shader_language": "GLSL", "shader_code": "void main() {}"',
)
WORKGROUP_COMPUTED = rule(
    "VKS521",
    summary="`new` was given the op's result types: it says which reading of "
            "`workgroup_sizes` it wrote, which invocation axis walks which axis of which "
            "result, and whether that was proven from the shader's writes.",
    why="workgroup_sizes is read two ways: the spec's wording calls it the local size, the "
        "reference converter and runtime use it as the number of workgroups. Under the "
        "runtime's reading (workgroup-semantics = \"dispatch\", the default) `new` reads "
        "the shader's stores (the index analysis of its SPIR-V) for the workgroups that "
        "write every element of every result and nothing past one; when the stores cannot "
        "be followed it says so and counts one invocation per element instead.",
    bad="tosa-vkshader new relu.comp   # workgroup_sizes = local size: 64 x 64 invocations",
    good="tosa-vkshader new relu.comp --operands 'tensor<1x256x384xf32>' "
         "--results 'tensor<1x256x384xf32>'   # [1536, 1, 1]",
)
NO_EXACT_DISPATCH = rule(
    "VKS623",
    summary="No `workgroup_sizes` makes the shader write every element of the results "
            "without writing past one (an unguarded store and a result that is not a "
            "multiple of the local size, or elements no store ever addresses).",
    why="A dispatch that leaves elements unwritten computes wrong numbers; one that writes "
        "past a result overwrites other memory even when the numbers come back right. "
        "`new` writes neither: the shader needs a guard on the result's size, or a local "
        "size that divides it.",
    bad="layout(local_size_x = 64) in; ... c[i] = a[i] + b[i];   --results tensor<1000xf32>",
    good="if (i >= 1000u) return;  c[i] = a[i] + b[i];",
)
MACROS_EMBEDDED = rule(
    "VKS624",
    summary="The macros given to `new` (`-D`, `macros` of the configuration) are written "
            "into the embedded shader as `#define` lines (or compiled into embedded SPIR-V).",
    why="The reference runtime compiles an op's GLSL itself, with no compiler flags: a "
        "macro that exists only on `new`'s command line would leave the runtime with an "
        "undefined name (measured: its compiler fails). The op must compile there exactly "
        "as it did for `new`, so the defines travel inside `shader_code`.",
    bad="tosa-vkshader new add.comp -D T=float   # shader_code without T: the runtime fails",
    good="tosa-vkshader new add.comp -D T=float   # shader_code gets `#define T float` "
         "after #version",
)
HLSL_EMBEDDED_AS_SPIRV = rule(
    "VKS625",
    summary="`new` embedded an HLSL shader as SPIR-V, because the reference runtime cannot "
            "compile HLSL.",
    why="The converter stores HLSL text unchanged and the scenario runner stops with "
        "\"HLSL shaders are not supported on this platform\" (VKS254); the compiled module "
        "runs anywhere. `--embed source` keeps the text for a runtime that compiles it.",
    bad="tosa-vkshader new scale.hlsl --embed source   # VKS254 on the op written",
    good="tosa-vkshader new scale.hlsl                 # SPIR-V embedded",
)
INCLUDES_EMBEDDED_AS_SPIRV = rule(
    "VKS626",
    summary="`new` embedded a GLSL shader that `#include`s files as SPIR-V, because the "
            "reference runtime compiles `shader_code` alone.",
    why="The runtime compiles an op's GLSL itself, with no include directories and no "
        "files beside the model: an `#include` left in `shader_code` would not resolve "
        "there (and `check` refuses it, VKS303). The module compiled by `new`, with the "
        "files it included, is what runs.",
    bad="tosa-vkshader new act.comp -I include --embed source   # #include left in the op",
    good="tosa-vkshader new act.comp -I include                 # SPIR-V embedded",
)
INCLUDES_NOT_EMBEDDABLE = rule(
    "VKS627",
    summary="`--embed source` on a GLSL shader that `#include`s files: the op's "
            "`shader_code` would name files the reference runtime cannot read.",
    why="The runtime compiles `shader_code` alone, without include directories; the op "
        "would not compile there. Embed SPIR-V (the default for such a shader), or put the "
        "included code into the shader.",
    bad="tosa-vkshader new act.comp -I include --embed source",
    good="tosa-vkshader new act.comp -I include",
)
OPERAND_WITHOUT_BINDING = rule(
    "VKS628",
    summary="The op has more operands than the shader has bindings it only reads, because "
            "the shader reads and writes one buffer in place or reads several operands "
            "through one array of descriptors.",
    why="The reference runtime gives each operand and each result a tensor of its own at "
        "a binding of its own: a buffer the shader writes is a result (its input values "
        "are never the operand's), and an array of descriptors is bound as one tensor, so "
        "the other operands have nowhere to go.",
    bad="layout(binding = 0) buffer Data { float d[]; };  d[i] = d[i] * 2.0;",
    good="layout(binding = 0) readonly buffer In { float x[]; };\n"
         "layout(binding = 1) writeonly buffer Out { float y[]; };  y[i] = x[i] * 2.0;",
)
