"""The differential corpus: valid base ops and systematic mutations of them.

Each :class:`Case` is one TOSA MLIR module holding one Vulkan shader custom op, written
the way a user would write it. The base ops are valid by the spec and run on the
reference runtime; every mutation changes one thing (a key, a value, the JSON text, an
operand type, how the op sits in its function). The same module goes to the reference
model-converter and to our ``check``; ``oracle.py`` and ``test_differential.py`` compare.

Case ids are stable (``<base>/<mutation>``): the reviewed table ``stricter.md`` refers to
them.
"""

from __future__ import annotations

import base64
import json
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
SHADERS = ROOT / "fixtures" / "shaders"
OWN_SHADERS = Path(__file__).resolve().parent / "shaders"
DOMAIN = "com.arm.VulkanCustomShader"
RESOURCE_FIELDS = ("binding", "descriptorset", "vkdescriptortype", "vkformat")


@dataclass(frozen=True)
class Base:
    """A valid op: its attributes (shader code read from a fixture shader) and types."""

    name: str
    shader: str  # file under fixtures/shaders or ./shaders; .comp: GLSL, .spv: SPIR-V
    attrs: dict
    operands: tuple[str, ...]
    results: tuple[str, ...]

    def attributes(self) -> dict:
        path = SHADERS / self.shader
        if not path.is_file():
            path = OWN_SHADERS / self.shader
        if path.suffix == ".spv":
            code = {"shader_language": "SPIR-V",
                    "shader_code": base64.b64encode(path.read_bytes()).decode("ascii")}
        else:
            code = {"shader_language": "GLSL", "shader_code": path.read_text()}
        out = {"entry_point": "main"}
        out.update(self.attrs)
        # shader keys after workgroup_sizes, like the spec's examples
        head = {k: out.pop(k) for k in ("entry_point", "workgroup_sizes")}
        return {**head, **code, **out}


def _resource(binding: int, vkformat: str, *, kind: str = "Buffer", set_: int = 0,
              descriptor: str = "VK_DESCRIPTOR_TYPE_STORAGE_BUFFER") -> dict:
    return {"type": kind, "vkformat": vkformat, "vkdescriptortype": descriptor,
            "binding": binding, "descriptorset": set_}


def _attrs(workgroup_sizes: list[int], inputs: list[dict], outputs: list[dict],
           **extra) -> dict:
    attrs: dict = {"workgroup_sizes": workgroup_sizes, **extra}
    for direction, resources in (("input", inputs), ("output", outputs)):
        for index, resource in enumerate(resources):
            for key, value in resource.items():
                attrs[f"{direction}_{index}_{key}"] = value
    return attrs


F32 = "VK_FORMAT_R32_SFLOAT"
TENSOR = "VK_DESCRIPTOR_TYPE_TENSOR_ARM"
SAMPLER = {
    "min_filter": "VK_FILTER_LINEAR",
    "mag_filter": "VK_FILTER_LINEAR",
    "address_mode_u": "VK_SAMPLER_ADDRESS_MODE_CLAMP_TO_EDGE",
    "address_mode_v": "VK_SAMPLER_ADDRESS_MODE_CLAMP_TO_EDGE",
    "border_color": "VK_BORDER_COLOR_FLOAT_TRANSPARENT_BLACK",
}

# workgroup_sizes, as a dispatch count, writes every element of every result and nothing
# past one; for most it also equals the shader's local size, so both readings of the
# attribute agree (scale_bias_push's rows of 1024 and combined_sampler's rows of 256
# texels need more workgroups along x than the local size).
BASES: tuple[Base, ...] = (
    Base("copy-glsl", "copy_f32.comp",
         _attrs([64, 1, 1], [_resource(0, F32)], [_resource(1, F32)]),
         ("tensor<64x64xf32>",), ("tensor<64x64xf32>",)),
    Base("copy-spirv", "copy_f32.spv",
         _attrs([64, 1, 1], [_resource(0, F32)], [_resource(1, F32)]),
         ("tensor<64x64xf32>",), ("tensor<64x64xf32>",)),
    Base("add-i32-glsl", "add_i32.comp",
         _attrs([32, 1, 1], [_resource(0, "VK_FORMAT_R32_SINT"),
                             _resource(1, "VK_FORMAT_R32_SINT")],
                [_resource(2, "VK_FORMAT_R32_SINT")]),
         ("tensor<32x32xi32>", "tensor<32x32xi32>"), ("tensor<32x32xi32>",)),
    Base("push-glsl", "scale_bias_push.comp",
         _attrs([64, 2, 1], [_resource(0, F32)], [_resource(1, F32)],
                push_constants="scale: 4, bias: 4"),
         ("tensor<16x1024xf32>",), ("tensor<16x1024xf32>",)),
    Base("two-results-glsl", "copy_two_f32.comp",
         _attrs([64, 1, 1], [_resource(0, F32)], [_resource(1, F32), _resource(2, F32)]),
         ("tensor<64x64xf32>",), ("tensor<64x64xf32>", "tensor<64x64xf32>")),
    Base("sets-glsl", "multi_set.comp",
         _attrs([64, 1, 1], [_resource(0, F32), _resource(0, F32, set_=1)],
                [_resource(5, F32, set_=2)]),
         ("tensor<64x64xf32>", "tensor<64x64xf32>"), ("tensor<64x64xf32>",)),
    Base("image-glsl", "storage_image_rgba8.comp",
         _attrs([8, 8, 1], [_resource(0, "VK_FORMAT_R32G32B32A32_SFLOAT")],
                [_resource(1, "VK_FORMAT_R8G8B8A8_UNORM", kind="Image",
                           descriptor="VK_DESCRIPTOR_TYPE_STORAGE_IMAGE")]),
         ("tensor<1x64x64x4xf32>",), ("tensor<1x64x64x4xi8>",)),
    Base("sampler-glsl", "combined_sampler.comp",
         {**_attrs([32, 2, 1],
                   [_resource(0, "VK_FORMAT_R8G8B8A8_UNORM", kind="Image",
                              descriptor="VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER")],
                   [_resource(1, "VK_FORMAT_R32G32B32A32_SFLOAT")]),
          "input_0_sampler": SAMPLER},
         ("tensor<1x64x64x4xi8>",), ("tensor<1x16x256x4xf32>",)),
    Base("tensor-i8-spirv", "tensor_copy_int8.spv",
         _attrs([8, 8, 1], [_resource(0, "VK_FORMAT_R8_SINT", kind="Tensor",
                                      descriptor=TENSOR)],
                [_resource(1, "VK_FORMAT_R8_SINT", kind="Tensor", descriptor=TENSOR)]),
         ("tensor<1x64x64x1xi8>",), ("tensor<1x64x64x1xi8>",)),
    Base("tensor-add-spirv", "tensor_add_f32.spv",
         _attrs([64, 1, 1], [_resource(0, F32, kind="Tensor", descriptor=TENSOR),
                            _resource(1, F32, kind="Tensor", descriptor=TENSOR)],
                [_resource(2, F32, kind="Tensor", descriptor=TENSOR)],
                push_constants="count: 4, scale: 4"),
         ("tensor<1x64xf32>", "tensor<1x64xf32>"), ("tensor<1x64xf32>",)),
)


# -- one case: the module text ---------------------------------------------------------

@dataclass(frozen=True)
class Case:
    id: str
    attrs_text: str  # the JSON text of implementation_attrs, exactly as written
    operands: tuple[str, ...]
    results: tuple[str, ...]
    # How the op sits in its function: "plain", "unused-result" (the last result is not
    # returned), "same-operand" (the first argument passed as every operand)
    wiring: str = "plain"
    # Raw bytes spliced into implementation_attrs as MLIR \XX escapes (invalid UTF-8)
    raw_prefix: bytes = b""
    operator_name: str = "op"

    def attrs(self) -> object:
        """The attributes as the reference's JSON parser reads them (the last duplicate
        wins), or None when the text is not JSON for Python either."""
        try:
            return json.loads(self.attrs_text.lstrip("\ufeff"))
        except ValueError:
            return None

    def mlir(self) -> str:
        arg_types = self.operands[:1] if self.wiring == "same-operand" else self.operands
        args = ", ".join(f"%arg{k}: {t}" for k, t in enumerate(arg_types))
        returned = list(range(len(self.results)))
        if self.wiring == "unused-result":
            returned = returned[:-1]
        ret_types = [self.results[k] for k in returned]
        signature = ", ".join(ret_types)
        operands = [f"%arg{0 if self.wiring == 'same-operand' else k}"
                    for k in range(len(self.operands))]
        operand_types = [self.operands[0 if self.wiring == "same-operand" else k]
                         for k in range(len(self.operands))]
        values = ", ".join(f"%0#{k}" if len(self.results) > 1 else "%0" for k in returned)
        attrs = mlir_string(self.attrs_text, self.raw_prefix)
        result_sig = (self.results[0] if len(self.results) == 1
                      else "(" + ", ".join(self.results) + ")")
        lines = [
            "module {",
            f"  func.func @main({args}) -> ({signature}) {{",
            f"    %0{':' + str(len(self.results)) if len(self.results) > 1 else ''} = "
            f"tosa.custom {', '.join(operands)} {{domain_name = \"{DOMAIN}\", "
            f"operator_name = \"{self.operator_name}\", implementation_attrs = \"{attrs}\"}} : "
            f"({', '.join(operand_types)}) -> {result_sig}",
            f"    return {values} : {signature}" if returned else "    return",
            "  }",
            "}",
            "",
        ]
        return "\n".join(lines)


def mlir_string(text: str, raw_prefix: bytes = b"") -> str:
    """``text`` as the body of an MLIR string literal: printable ASCII as is, quotes and
    backslashes escaped, everything else as ``\\XX`` UTF-8 bytes."""
    out = ["".join(f"\\{b:02X}" for b in raw_prefix)]
    for byte in text.encode("utf-8", "surrogatepass"):
        char = chr(byte)
        if char in '"\\':
            out.append("\\" + char)
        elif 0x20 <= byte < 0x7F:
            out.append(char)
        else:
            out.append(f"\\{byte:02X}")
    return "".join(out)


# -- mutations ----------------------------------------------------------------------------

def dumps(attrs: dict) -> str:
    return json.dumps(attrs, indent=1, ensure_ascii=False)


def _replace_value_text(text: str, key: str, new_value_text: str) -> str:
    """The JSON text with the value of top-level ``key`` replaced by raw text."""
    marker = json.dumps({key: "\0MARK\0"}, ensure_ascii=False)[1:-1]
    attrs = json.loads(text)
    attrs[key] = "\0MARK\0"
    return dumps(attrs).replace(marker, json.dumps(key) + ": " + new_value_text)


SCALAR_KEYS = ("binding", "descriptorset")
NEAR_MISSES = {
    "entry_point": ["entryPoint", "entry_Point", "entry-point"],
    "workgroup_sizes": ["workgroup_size", "workgroupSizes", "work_group_sizes"],
    "shader_language": ["shader_lang", "shaderLanguage"],
    "shader_code": ["shader_codes", "shaderCode"],
    "input_0_binding": ["input_0_bindng", "Input_0_binding", "input_00_binding",
                        "input0_binding", "input_0_Binding"],
    "input_0_descriptorset": ["input_0_descriptor_set", "input_0_descriptorSet"],
    "input_0_vkformat": ["input_0_vk_format", "input_0_format"],
    "input_0_vkdescriptortype": ["input_0_vkdescriptor_type", "input_0_descriptortype"],
    "output_0_binding": ["output_0_bindings", "outputs_0_binding", "output_01_binding"],
}
BIG_INTEGERS = {"minus-1": "-1", "2^31": str(2**31), "2^32": str(2**32),
                "2^32+1": str(2**32 + 1), "2^63": str(2**63), "2^64-1": str(2**64 - 1),
                "2^64": str(2**64), "minus-2^63": str(-2**63), "zero": "0",
                "float-1.0": "1.0", "exp-1e0": "1e0"}
WRONG_TYPES = {"string": '"1"', "float": "1.5", "true": "true", "list": "[1]",
               "object": "{}", "null": "null"}
DESCRIPTOR_NAMES = (
    "VK_DESCRIPTOR_TYPE_INLINE_UNIFORM_BLOCK_EXT", "VK_DESCRIPTOR_TYPE_MUTABLE_VALVE",
    "VK_DESCRIPTOR_TYPE_MUTABLE_EXT", "VK_DESCRIPTOR_TYPE_FOO", "STORAGE_BUFFER",
    "vk_descriptor_type_storage_buffer", "VK_DESCRIPTOR_TYPE_STORAGE_BUFFER ",
    "VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER", "VK_DESCRIPTOR_TYPE_STORAGE_TEXEL_BUFFER",
    "VK_DESCRIPTOR_TYPE_STORAGE_BUFFER_DYNAMIC", "VK_DESCRIPTOR_TYPE_SAMPLED_IMAGE",
    "VK_DESCRIPTOR_TYPE_TENSOR_ARM", "VK_DESCRIPTOR_TYPE_STORAGE_IMAGE",
    "VK_DESCRIPTOR_TYPE_PARTITIONED_ACCELERATION_STRUCTURE_NV", "")
FORMAT_NAMES = ("VK_FORMAT_FOO", "R32_SFLOAT", "VK_FORMAT_R32_SFLOAT ", "100",
                "vk_format_r32_sfloat", "VK_FORMAT_UNDEFINED", "VK_FORMAT_R32_UINT",
                "VK_FORMAT_R16_SFLOAT", "VK_FORMAT_R32G32B32A32_SFLOAT", "")


def format_aliases() -> list[str]:
    """Every registry alias of a VkFormat (from our generated registry tables)."""
    import sys

    sys.path.insert(0, str(ROOT / "src"))
    from tosa_vkshader.vulkan import tables as vulkan_tables

    return sorted(k for k, v in vulkan_tables.FORMAT_NAMES.items() if k != v)


def mutations(base: Base, attrs: dict, *, full: bool) -> Iterator[Case]:  # noqa: C901
    text = dumps(attrs)

    def case(name: str, new_text: str, **kw) -> Case:
        return Case(f"{base.name}/{name}", new_text, kw.pop("operands", base.operands),
                    kw.pop("results", base.results), **kw)

    def with_value(key: str, value_text: str) -> str:
        return _replace_value_text(text, key, value_text)

    def without(*keys: str) -> str:
        return dumps({k: v for k, v in attrs.items() if k not in keys})

    yield case("base", text)
    for key in attrs:
        yield case(f"remove:{key}", without(key))
        yield case(f"null:{key}", with_value(key, "null"))
    for key, value in attrs.items():
        if isinstance(value, str):
            yield case(f"empty:{key}", with_value(key, '""'))
            yield case(f"type-int:{key}", with_value(key, "0"))
            yield case(f"type-list:{key}", with_value(key, json.dumps([value])))
        elif isinstance(value, int):
            for name, number in BIG_INTEGERS.items():
                yield case(f"int-{name}:{key}", with_value(key, number))
            for name, wrong in WRONG_TYPES.items():
                yield case(f"type-{name}:{key}", with_value(key, wrong))
    for name, number in BIG_INTEGERS.items():
        for axis in (0, 1) if full else (0,):
            sizes = [json.dumps(v) for v in attrs["workgroup_sizes"]]
            sizes[axis] = number
            yield case(f"workgroup-{name}[{axis}]",
                       with_value("workgroup_sizes", "[" + ", ".join(sizes) + "]"))
    for name, sizes in {"two": "[8, 8]", "four": "[8, 8, 1, 1]", "empty": "[]",
                        "strings": '["8", "8", "1"]', "object": '{"x": 8}'}.items():
        yield case(f"workgroup-{name}", with_value("workgroup_sizes", sizes))
    # near-miss keys: alone (instead of the right key) and beside it
    for right, wrongs in NEAR_MISSES.items():
        if right not in attrs:
            continue
        for wrong in wrongs:
            renamed = {(wrong if k == right else k): v for k, v in attrs.items()}
            yield case(f"near-alone:{wrong}", dumps(renamed))
            yield case(f"near-beside:{wrong}", dumps({**attrs, wrong: attrs[right]}))
    # names of descriptor types and formats
    for name in DESCRIPTOR_NAMES:
        yield case(f"descriptor:{name!r}", with_value("input_0_vkdescriptortype",
                                                      json.dumps(name)))
    for name in FORMAT_NAMES:
        yield case(f"format:{name!r}", with_value("input_0_vkformat", json.dumps(name)))
    if full or base.name == "copy-glsl":
        for name in format_aliases():
            yield case(f"format-alias:{name}", with_value("output_0_vkformat",
                                                          json.dumps(name)))
    # _type: values the spec names, real-world spellings, inconsistent ones, unknown
    for value in ("Tensor", "TENSOR", "Image", "Buffer", "buffer", "Texture", "", 7):
        yield case(f"type-value:{value!r}", with_value("input_0_type", json.dumps(value)))
    # unknown and extra keys
    yield case("extra:is_vkshader", dumps({**attrs, "is_vkshader": True}))
    yield case("extra:unknown-key", dumps({**attrs, "my_note": "hello"}))
    yield case("extra:input-beyond-operands", dumps({**attrs, **{
        k.replace("input_0_", f"input_{len(base.operands)}_"): v
        for k, v in attrs.items() if k.startswith("input_0_")}}))
    # entry point
    for name, value in {"empty": '""', "other": '"run"', "nul": '"main\\u0000x"',
                        "space": '" main"'}.items():
        yield case(f"entry-{name}", with_value("entry_point", value))
    yield from _shader_cases(base, attrs, case, with_value, without, full=full)
    yield from _sampler_cases(base, attrs, case, with_value, full=full)
    yield from _json_cases(base, attrs, text, case, with_value)
    yield from _type_cases(base, text, case)
    yield from _push_constant_cases(base, attrs, case, with_value)


def _shader_cases(base, attrs, case, with_value, without, *, full):
    language = attrs["shader_language"]
    for value in ("", "glsl", "SPIRV", "GLSL ", "HLSL", "spir-v"):
        yield case(f"language:{value!r}", with_value("shader_language", json.dumps(value)))
    yield case("language-empty-no-code", dumps({**{k: v for k, v in attrs.items()
                                                   if k != "shader_code"},
                                                "shader_language": ""}))
    yield case("language-empty-code-empty", dumps({**attrs, "shader_language": "",
                                                   "shader_code": ""}))
    yield case("no-shader", without("shader_language", "shader_code"))
    yield case("null-shader", dumps({**attrs, "shader_language": None, "shader_code": None}))
    yield case("code-empty", with_value("shader_code", '""'))
    if language != "SPIR-V":
        return
    code = attrs["shader_code"]
    raw = base64.b64decode(code)
    variants = {
        "no-padding": code.rstrip("="),
        "extra-padding": code + "=",
        "quad-padding": code + "====",
        "space-inside": code[:8] + " " + code[8:],
        "newline-inside": code[:76] + "\n" + code[76:],
        "trailing-newline": code + "\n",
        "urlsafe": base64.urlsafe_b64encode(raw).decode(),
        "data-uri": "data:application/octet-stream;base64," + code,
        "truncated-2-bytes": base64.b64encode(raw[:-2]).decode(),
        "header-only": base64.b64encode(raw[:20]).decode(),
        "zero-words": base64.b64encode(bytes(8)).decode(),
        "byte-swapped": base64.b64encode(b"".join(
            raw[k:k + 4][::-1] for k in range(0, len(raw), 4))).decode(),
        "trailing-zero-word": base64.b64encode(raw + bytes(4)).decode(),
        "not-base64": "not base64!",
    }
    if not code.endswith("="):
        # a final quantum with padding that is not needed
        variants["pad-after-complete"] = code[:-4] + code[-4:] + "="
    for name, value in variants.items():
        yield case(f"base64:{name}", with_value("shader_code", json.dumps(value)))


def _sampler_cases(base, attrs, case, with_value, *, full):
    if "input_0_sampler" not in attrs:
        yield case("sampler-on-buffer", dumps({**attrs, "input_0_sampler": SAMPLER}))
        return
    sampler = attrs["input_0_sampler"]
    values = {
        "min_filter": ["VK_FILTER_CUBIC_EXT", "VK_FILTER_CUBIC_IMG", "VK_FILTER_FOO",
                       "LINEAR", ""],
        "address_mode_u": ["VK_SAMPLER_ADDRESS_MODE_MIRROR_CLAMP_TO_EDGE_KHR",
                           "VK_SAMPLER_ADDRESS_MODE_MIRROR_CLAMP_TO_EDGE",
                           "VK_SAMPLER_ADDRESS_MODE_FOO"],
        "border_color": ["VK_BORDER_COLOR_FLOAT_CUSTOM_EXT", "VK_BORDER_COLOR_INT_CUSTOM_EXT",
                         "VK_BORDER_COLOR_FOO"],
    }
    for field_name, options in values.items():
        for value in options:
            yield case(f"sampler:{field_name}={value!r}", with_value(
                "input_0_sampler", json.dumps({**sampler, field_name: value})))
    for field_name in sampler:
        yield case(f"sampler-remove:{field_name}", with_value("input_0_sampler", json.dumps(
            {k: v for k, v in sampler.items() if k != field_name})))
        yield case(f"sampler-null:{field_name}", with_value(
            "input_0_sampler", json.dumps({**sampler, field_name: None})))
    yield case("sampler-extra-field", with_value(
        "input_0_sampler", json.dumps({**sampler, "max_lod": 1.0})))
    yield case("sampler-string", with_value("input_0_sampler", '"linear"'))
    yield case("sampler-on-output", dumps({**attrs, "output_0_sampler": sampler}))


def _json_cases(base, attrs, text, case, with_value):
    yield case("json:bom", "\ufeff" + text)
    yield case("json:duplicate-same", text[:-2] + ',\n "entry_point": "main"\n}')
    yield case("json:duplicate-other", text[:-2] + ',\n "input_0_binding": 7\n}')
    yield case("json:lone-surrogate-unknown-value", text[:-2] + ',\n "note": "\\ud800"\n}')
    yield case("json:lone-surrogate-unknown-key", text[:-2] + ',\n "n\\udc00": 1\n}')
    yield case("json:lone-surrogate-entry", with_value("entry_point", '"ma\\ud83din"'))
    yield case("json:surrogate-pair-unknown", text[:-2] + ',\n "note": "\\ud83d\\ude00"\n}')
    yield case("json:huge-number-unknown", text[:-2] + ',\n "note": 1e400\n}')
    yield case("json:huge-negative-unknown", text[:-2] + ',\n "note": -1e400\n}')
    yield case("json:huge-number-nested", text[:-2] + ',\n "note": {"a": [1e999]}\n}')
    yield case("json:tiny-number-unknown", text[:-2] + ',\n "note": 1e-400\n}')
    yield case("json:30-digit-unknown", text[:-2] + ',\n "note": ' + "9" * 30 + "\n}")
    yield case("json:400-digit-unknown", text[:-2] + ',\n "note": ' + "9" * 400 + "\n}")
    yield case("json:escaped-key", text.replace('"input_0_binding"', '"\\u0069nput_0_binding"'))
    yield case("json:trailing-comma", text[:-2] + ",\n}")
    yield case("json:comment", "// note\n" + text)
    yield case("json:nan-unknown", text[:-2] + ',\n "note": NaN\n}')
    yield case("json:trailing-text", text + " x")
    yield case("json:control-char", text[:-2] + ',\n "note": "a\tb"\n}')
    yield case("json:invalid-utf8", text, raw_prefix=b"\xff")
    yield case("json:top-level-array", "[" + text + "]")


def _variants(tensor: str) -> dict[str, str]:
    """Types of the same element as ``tensor`` (``tensor<AxBxE>``) that TOSA's verifier
    rejects (zero-size, complex, index, memref) or accepts (dynamic, unranked, rank 0)."""
    body = tensor[len("tensor<"):-1]
    dims, element = body.rsplit("x", 1)
    rest = dims.split("x", 1)[1] + "x" if "x" in dims else ""
    return {
        "zero-dim": f"tensor<0x{rest}{element}>",
        "complex": f"tensor<{dims}xcomplex<f32>>",
        "index": f"tensor<{dims}xindex>",
        "memref": f"memref<{dims}x{element}>",
        "dynamic": f"tensor<?x{rest}{element}>",
        "unranked": f"tensor<*x{element}>",
        "rank-0": f"tensor<{element}>",
    }


def _type_cases(base, text, case):
    for name, type_text in _variants(base.operands[0]).items():
        yield case(f"operand-type:{name}", text, operands=(type_text, *base.operands[1:]))
    for name, type_text in _variants(base.results[0]).items():
        yield case(f"result-type:{name}", text, results=(type_text, *base.results[1:]))
    if len(base.operands) > 1:
        yield case("wiring:same-operand", text, wiring="same-operand")
    if len(base.results) > 1:
        yield case("wiring:unused-result", text, wiring="unused-result")
    yield case("operator-name:empty", text, operator_name="")
    yield case("operator-name:spaces", text, operator_name="my kernel")


def _push_constant_cases(base, attrs, case, with_value):
    if "push_constants" not in attrs:
        return
    for name, value in {"empty": '""', "bad-syntax": '"scale 4"', "list": '["scale: 4"]',
                        "zero-size": '"scale: 0, bias: 4"'}.items():
        yield case(f"push:{name}", with_value("push_constants", value))


def all_cases(*, full: bool = True) -> list[Case]:
    cases: list[Case] = []
    for base in BASES:
        cases.extend(mutations(base, base.attributes(), full=full))
    ids = [c.id for c in cases]
    duplicates = {i for i in ids if ids.count(i) > 1}
    assert not duplicates, duplicates
    return cases


def sample() -> list[Case]:
    """The bounded sample the normal test suite runs: every mutation once, on one of the
    base ops it applies to (chosen by a stable hash of the mutation), plus every base."""
    import zlib

    by_mutation: dict[str, list[Case]] = {}
    for item in all_cases(full=False):
        by_mutation.setdefault(item.id.split("/", 1)[1], []).append(item)
    chosen = []
    for mutation, group in by_mutation.items():
        if mutation == "base":
            chosen.extend(group)
        else:
            chosen.append(group[zlib.crc32(mutation.encode()) % len(group)])
    return chosen
