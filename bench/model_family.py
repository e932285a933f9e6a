"""A family of generated TOSA MLIR models, for measuring how fast large models are read.

Each member is described by a :class:`Shape`: its size, how many functions, how many
ordinary TOSA ops and in what mix (elementwise ops, casts, reshapes, small bias
constants), how many large weight constants (``tosa.const`` with dense hex values, printed
the way ``tosa-opt`` prints them), how many ``tosa.custom`` Vulkan shader ops with how many
distinct SPIR-V modules among them, and how often one of them carries a mistake.

What every member is, whatever its shape:

* written as ``tosa-opt`` prints a model: SSA values numbered ``%0, %1, ...`` per
  function, arguments ``%arg0, ...``, attributes in alphabetical order, dense constants
  of more than a hundred elements as hex;
* well formed: ``tosa-opt`` parses and verifies it (``check_parses``);
* wired like a real model: multi-operand ops (binary ops, custom ops with several inputs)
  take distinct values, and every result is used (by a later op, or returned);
* custom ops whose operand and result types fit their attributes (element type from the
  vkformat, rank and shape from the shader's tensors) and whose ``workgroup_sizes`` cover
  their results, so that the diagnostics come from the planted mistakes (one op in
  ``mistake_every``: a misspelled key, a wrong descriptor type, an empty dispatch, a
  binding conflict, a missing entry point) and what the shaders themselves warrant.

The SPIR-V modules are the valid ones of ``fixtures/spirv/valid`` (with their attributes).

    .venv/bin/python bench/model_family.py issue /tmp/issue.mlir   # write one member
"""

from __future__ import annotations

import base64
import json
import math
import random
import subprocess
import sys
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "fixtures" / "models"))
import build  # noqa: E402  (mlir_string, tosa_opt)

VALID = ROOT / "fixtures" / "spirv" / "valid"
DOMAIN = "com.arm.VulkanCustomShader"
FLOATS = ("f32", "f16")
CASTABLE = ("f32", "f16", "i32", "i16", "i8")
# The element types each kind of ordinary op takes.
_APPLIES = {"unary": FLOATS, "binary": ("f32", "f16", "i32"), "cast": CASTABLE,
            "reshape": CASTABLE, "bias": ("f32",)}


@dataclass(frozen=True, slots=True)
class Shape:
    """What a member of the family is made of (see the module's docstring)."""

    name: str
    megabytes: float  # the file's size, reached by sizing the weight constants
    ordinary_ops: int  # every op that is not a tosa.custom, constants included
    custom_ops: int
    distinct_shaders: int  # distinct SPIR-V modules among the custom ops
    weights: int  # large tosa.const ops (hex), part of ordinary_ops
    functions: int = 1
    # Relative weights of the other ordinary ops: unary elementwise, binary elementwise,
    # casts, reshapes (with their tosa.const_shape), small bias constants added to a value.
    mix: tuple[tuple[str, int], ...] = (("unary", 6), ("binary", 3), ("cast", 1),
                                        ("reshape", 1), ("bias", 1))
    mistake_every: int = 10  # one custom op in this many has a mistake (0: none)
    channels: int = 8  # the activations are tensor<1xHxWxCxf32>
    width: int = 64
    custom_elements: int = 4096  # elements of a custom op's tensors (buffer shaders)
    seed: int = 31


# The family measured by bench/bench_models.py.
FAMILY = (
    # The shape of issue #31: one function, ~2,300 ordinary ops, 100 custom ops with 21
    # distinct modules, large hex weights making 23.2 MB.
    Shape("issue", megabytes=23.2, ordinary_ops=2300, custom_ops=100, distinct_shaders=21,
          weights=100),
    # Many small ops and few constants: the text is ops, not weights.
    Shape("many-small-ops", megabytes=6.0, ordinary_ops=24000, custom_ops=400,
          distinct_shaders=12, weights=6, channels=4, width=16, seed=7),
    # Several functions, heavy shader reuse (a few modules among many custom ops).
    Shape("functions", megabytes=14.0, ordinary_ops=4000, custom_ops=240,
          distinct_shaders=4, weights=40, functions=8, seed=11),
    # Mostly weights: few ops, few large constants of a megabyte or more.
    Shape("weights", megabytes=40.0, ordinary_ops=600, custom_ops=30, distinct_shaders=21,
          weights=24, mix=(("unary", 2), ("binary", 1)), seed=3),
)


def member(name: str) -> Shape:
    return next(shape for shape in FAMILY if shape.name == name)


# -- the shaders ------------------------------------------------------------------------------

@dataclass(frozen=True, slots=True)
class Shader:
    """A valid SPIR-V module with its attributes, and the tensor types its ops take."""

    name: str
    attributes: dict
    inputs: tuple[str, ...]  # MLIR tensor types
    outputs: tuple[str, ...]
    local_size: tuple[int, int, int]


def _element(vkformat: str) -> tuple[str, int] | None:
    """The MLIR element type a single-kind vkformat stores, and its component count."""
    from tosa_vkshader.vulkan import format_info

    info = format_info(vkformat)
    if info is None or not info.is_plain or info.numeric is None:
        return None
    bits = {c.bits for c in info.components}
    if len(bits) != 1:
        return None
    width = bits.pop()
    # (TOSA's integers are signless: a model holds unsigned data as iN)
    kind = {"SFLOAT": "f", "SINT": "i", "UINT": "i", "UNORM": "i"}.get(info.numeric)
    return (f"{kind}{width}", len(info.components)) if kind else None


def _tensor(shape: tuple[int, ...], element: str) -> str:
    return f"tensor<{''.join(f'{d}x' for d in shape)}{element}>"


def load_shaders(elements: int) -> list[Shader]:
    """Every module of fixtures/spirv/valid whose resources can be tensors of a model."""
    from tosa_vkshader.dispatch import covering_workgroups
    from tosa_vkshader.spirv.reader import read_module
    from tosa_vkshader.spirv.reflect import reflect

    shaders = []
    for path in sorted(VALID.glob("*.json")):
        attrs = json.loads(path.read_text())
        if path.name == "expected.json" or not isinstance(attrs, dict):
            continue
        module, _ = read_module(base64.b64decode(attrs["shader_code"]))
        if module is None:
            continue
        reflection = reflect(module, attrs.get("entry_point"))
        local = reflection.local_size
        if local is None or None in local.values:
            continue
        bindings = {(b.set, b.binding): b for b in reflection.bindings}
        types: dict[str, list[str]] = {"input": [], "output": []}
        for direction in types:
            index = 0
            while f"{direction}_{index}_binding" in attrs:
                element = _element(attrs[f"{direction}_{index}_vkformat"])
                binding = bindings.get((attrs[f"{direction}_{index}_descriptorset"],
                                        attrs[f"{direction}_{index}_binding"]))
                if element is None or binding is None:
                    break
                name, components = element
                if binding.tensor_rank:
                    shape = binding.tensor_shape or \
                        (1,) * (binding.tensor_rank - 1) + (elements,)
                else:
                    shape = (elements // components, components) if components > 1 \
                        else (elements,)
                types[direction].append(_tensor(tuple(shape), name))
                index += 1
        if not types["output"] or any(f"{d}_{len(types[d])}_binding" in attrs
                                      for d in types):
            continue  # a resource that no tensor type fits
        values = tuple(v or 1 for v in local.values)
        largest = max(math.prod(_dims(t)) // _components(attrs, k)
                      for k, t in enumerate(types["output"]))
        attrs["workgroup_sizes"] = covering_workgroups(values, largest)
        shaders.append(Shader(path.stem, attrs, tuple(types["input"]),
                              tuple(types["output"]), values))  # type: ignore[arg-type]
    return shaders


def _dims(tensor: str) -> tuple[int, ...]:
    return tuple(int(d) for d in tensor[len("tensor<"):-1].split("x")[:-1])


def _components(attrs: dict, index: int) -> int:
    element = _element(attrs[f"output_{index}_vkformat"])
    return element[1] if element else 1


# -- mistakes, one kind after another ---------------------------------------------------------

def _misspelled_key(attrs: dict) -> None:
    key = next(k for k in attrs if k.endswith("_binding"))
    attrs[key.replace("_binding", "_bindng")] = attrs.pop(key)


def _wrong_descriptor_type(attrs: dict) -> None:
    key = next(k for k in attrs if k.endswith("_vkdescriptortype"))
    attrs[key] = "VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER"


def _empty_dispatch(attrs: dict) -> None:
    attrs["workgroup_sizes"] = [0, 1, 1]


def _binding_conflict(attrs: dict) -> None:
    attrs["output_0_binding"] = attrs.get("input_0_binding", 7)


def _missing_entry_point(attrs: dict) -> None:
    attrs["entry_point"] = "mian"


MISTAKES = (_misspelled_key, _wrong_descriptor_type, _empty_dispatch, _binding_conflict,
            _missing_entry_point)


# -- one function -------------------------------------------------------------------------------

@dataclass(slots=True)
class _Function:
    """The body of one function, built op by op; values are (name, type)."""

    rng: random.Random
    lines: list[str] = field(default_factory=list)
    arguments: list[tuple[str, str]] = field(default_factory=list)
    unused: list[tuple[str, str]] = field(default_factory=list)  # oldest first
    used: dict[str, list[str]] = field(default_factory=dict)  # type -> names
    shapes: dict[str, str] = field(default_factory=dict)  # tosa.const_shape per shape
    folded: dict[tuple[int, ...], tuple[int, ...]] = field(default_factory=dict)
    shift: str | None = None  # the tosa.mul shift constant
    count: int = 0  # values defined
    ops: int = 0  # ordinary ops written

    def new(self, type_: str) -> str:
        name = f"%{self.count}"
        self.count += 1
        self.unused.append((name, type_))
        return name

    def argument(self, type_: str) -> str:
        name = f"%arg{len(self.arguments)}"
        self.arguments.append((name, type_))
        self.used.setdefault(type_, []).append(name)
        return name

    def take(self, accept, avoid: tuple[str, ...] = ()) -> tuple[str, str] | None:
        """The oldest unused value whose type ``accept`` takes (it is used from now on),
        else a used one, never one of ``avoid``."""
        for position, (name, type_) in enumerate(self.unused):
            if accept(type_) and name not in avoid:
                del self.unused[position]
                self.used.setdefault(type_, []).append(name)
                return name, type_
        for type_, names in self.used.items():
            if accept(type_):
                choices = [n for n in names[-8:] if n not in avoid]
                if choices:
                    return self.rng.choice(choices), type_
        return None

    def value_of(self, type_: str, avoid: tuple[str, ...]) -> str:
        """A value of ``type_`` (distinct from ``avoid``): an unused or used one, a cast
        of a value of the same shape, else a new argument."""
        found = self.take(lambda t: t == type_, avoid)
        if found is not None:
            return found[0]
        element = _element_of(type_)
        if element in CASTABLE:
            dims = _dims(type_)
            source = self.take(lambda t: t != type_ and _element_of(t) in CASTABLE
                               and _dims(t) == dims, avoid)
            if source is not None:
                name = self.new(type_)
                self.unused.pop()
                self.used.setdefault(type_, []).append(name)
                self.lines.append(f"    {name} = tosa.cast {source[0]} : ({source[1]}) -> "
                                  f"{type_}")
                self.ops += 1
                return name
        return self.argument(type_)

    # -- ordinary ops ---------------------------------------------------------------------
    def weight(self, type_: str, hex_digits: str) -> None:
        name = self.new(type_)
        self.lines.append(f'    {name} = "tosa.const"() <{{values = dense<"0x{hex_digits}"> : '
                          f"{type_}}}> : () -> {type_}")
        self.ops += 1

    def ordinary(self, kinds: list[str], weights: list[int], activation: str,
                 channels: int) -> None:
        """One op (or two: a bias and its add) on the oldest unused value, of a kind
        that applies to its type; an elementwise op on a recent value when none is
        unused. A value no op applies to (unsigned integers) is left to be returned."""
        if not self.unused:
            self.unary(self.take(lambda t: t == activation))
            return
        for position, (name, type_) in enumerate(self.unused):
            element = _element_of(type_)
            fits = [k for k in kinds if element in _APPLIES[k]
                    and (k != "bias" or type_ == activation)]
            if fits:
                del self.unused[position]
                self.used.setdefault(type_, []).append(name)
                break
        else:
            self.unary(self.take(lambda t: t == activation))
            return
        kind = self.rng.choices(fits, [weights[kinds.index(k)] for k in fits])[0]
        if kind == "bias":
            self.bias((name, type_), channels)
        else:
            getattr(self, kind)((name, type_))

    def unary(self, found: tuple[str, str] | None) -> None:
        assert found is not None  # (the function's first argument is an activation)
        value, type_ = found
        op = self.rng.choice(("sigmoid", "tanh", "exp", "abs", "floor", "ceil",
                              "reciprocal", "clamp"))
        name = self.new(type_)
        if op == "clamp":
            element = _element_of(type_)
            self.lines.append(f"    {name} = tosa.clamp {value} {{max_val = 6.000000e+00 : "
                              f"{element}, min_val = 0.000000e+00 : {element}}} : ({type_}) "
                              f"-> {type_}")
        else:
            self.lines.append(f"    {name} = tosa.{op} {value} : ({type_}) -> {type_}")
        self.ops += 1

    def binary(self, first: tuple[str, str]) -> None:
        value, type_ = first
        second = self.take(lambda t: t == type_, avoid=(value,))
        if second is None:
            second = (self.argument(type_), type_)
        op = self.rng.choice(("add", "sub", "maximum", "minimum", "mul"))
        if op == "mul":
            if self.shift is None:
                self.shift = self.new("tensor<1xi8>")
                self.unused.pop()
                self.lines.append(f'    {self.shift} = "tosa.const"() <{{values = dense<0> : '
                                  f'tensor<1xi8>}}> : () -> tensor<1xi8>')
                self.ops += 1
            name = self.new(type_)
            self.lines.append(f"    {name} = tosa.mul {value}, {second[0]}, {self.shift} : "
                              f"({type_}, {type_}, tensor<1xi8>) -> {type_}")
        else:
            name = self.new(type_)
            self.lines.append(f"    {name} = tosa.{op} {value}, {second[0]} : ({type_}, "
                              f"{type_}) -> {type_}")
        self.ops += 1

    def cast(self, found: tuple[str, str]) -> None:
        """To f32 (chains come back to the activations' type), or from f32 to another."""
        value, type_ = found
        element = _element_of(type_)
        other = "f32" if element != "f32" else self.rng.choice(CASTABLE[1:])
        target = type_[: type_.rindex("x") + 1] + other + ">"
        name = self.new(target)
        self.lines.append(f"    {name} = tosa.cast {value} : ({type_}) -> {target}")
        self.ops += 1

    def reshape(self, found: tuple[str, str]) -> None:
        """Fold the first two dimensions (1xHxWxC -> HxWxC), or unfold them back."""
        value, type_ = found
        dims = _dims(type_)
        if dims in self.folded:
            shape = self.folded[dims]
        else:
            shape = (dims[0] * dims[1],) + dims[2:] if len(dims) > 1 else (1,) + dims
            self.folded[shape] = dims
        target = _tensor(shape, _element_of(type_))
        key = ", ".join(map(str, shape))
        written = f"[{key}]" if len(shape) > 1 else key  # (tosa-opt prints a splat)
        if key not in self.shapes:
            self.shapes[key] = self.new(f"!tosa.shape<{len(shape)}>")
            self.unused.pop()
            self.lines.append(f"    {self.shapes[key]} = tosa.const_shape  {{values = "
                              f"dense<{written}> : tensor<{len(shape)}xindex>}} : () -> "
                              f"!tosa.shape<{len(shape)}>")
            self.ops += 1
        name = self.new(target)
        self.lines.append(f"    {name} = tosa.reshape {value}, {self.shapes[key]} : "
                          f"({type_}, !tosa.shape<{len(shape)}>) -> {target}")
        self.ops += 1

    def bias(self, found: tuple[str, str], channels: int) -> None:
        value, activation = found
        bias_type = _tensor((1, 1, 1, channels), "f32")
        # (sixteenths: tosa-opt prints them as written here)
        values = ", ".join(f"{self.rng.randint(-16, 16) / 16:.6e}" for _ in range(channels))
        bias = self.new(bias_type)
        self.unused.pop()
        self.lines.append(f'    {bias} = "tosa.const"() <{{values = dense<[[[[{values}]]]]> : '
                          f"{bias_type}}}> : () -> {bias_type}")
        name = self.new(activation)
        self.lines.append(f"    {name} = tosa.add {value}, {bias} : ({activation}, "
                          f"{bias_type}) -> {activation}")
        self.ops += 2

    # -- the custom op ----------------------------------------------------------------------
    def custom(self, shader: Shader, index: int, mistake) -> None:
        attrs = dict(shader.attributes)
        if mistake is not None:
            mistake(attrs)
        operands: list[str] = []
        for type_ in shader.inputs:
            operands.append(self.value_of(type_, tuple(operands)))
        results = [self.new(t) for t in shader.outputs]
        names = results[0] if len(results) == 1 else f"{results[0]}:{len(results)}"
        outputs = shader.outputs[0] if len(results) == 1 else \
            f"({', '.join(shader.outputs)})"
        text = json.dumps(attrs)
        self.lines.append(
            f"    {names} = tosa.custom {', '.join(operands)} {{domain_name = \"{DOMAIN}\", "
            f"implementation_attrs = {build.mlir_string(text)}, operator_name = "
            f"\"kernel_{index}\"}} : ({', '.join(shader.inputs)}) -> {outputs}")

    def text(self, name: str) -> str:
        returned = self.unused
        arguments = ", ".join(f"{n}: {t}" for n, t in self.arguments)
        types = [t for _, t in returned]
        result = types[0] if len(types) == 1 else f"({', '.join(types)})"
        return "\n".join([f"  func.func @{name}({arguments}) -> {result} {{", *self.lines,
                          f"    return {', '.join(n for n, _ in returned)} : "
                          f"{', '.join(types)}", "  }"])


def _element_of(type_: str) -> str:
    return type_[type_.rindex("x") + 1 : -1] if type_.startswith("tensor<") else ""


# -- the model ------------------------------------------------------------------------------------

def generate(shape: Shape, height: int | None = None) -> str:
    """The member's MLIR text. ``height`` (the activations' H) sizes the weights; by
    default it is chosen so that the file has ``shape.megabytes``."""
    if height is None:
        base = len(generate(shape, height=1))
        per_row = shape.weights * shape.width * shape.channels * 8  # hex digits per H
        # at least 101 elements a weight: tosa-opt prints smaller constants as lists,
        # and the models are written as tosa-opt prints them
        fewest = -(-101 // (shape.width * shape.channels))
        height = max(fewest, round((shape.megabytes * 1e6 - base) / per_row) + 1)
    rng = random.Random(shape.seed)
    shaders = load_shaders(shape.custom_elements)
    chosen = shaders[: shape.distinct_shaders]
    if len(chosen) < shape.distinct_shaders:
        raise SystemExit(f"only {len(chosen)} shaders fit a model, {shape.distinct_shaders} "
                         "asked for")
    activation = _tensor((1, height, shape.width, shape.channels), "f32")
    weight_bytes = height * shape.width * shape.channels * 4
    kinds = [kind for kind, _ in shape.mix]
    weights = [weight for _, weight in shape.mix]
    out = ["module {"]
    custom_index = 0
    for number in range(shape.functions):
        function = _Function(rng)
        function.argument(activation)
        share = _share(shape.ordinary_ops, shape.functions, number)
        customs = _share(shape.custom_ops, shape.functions, number)
        weight_ops = _share(shape.weights, shape.functions, number)
        next_weight = next_custom = 0
        while function.ops < share or next_custom < customs:
            progress = function.ops / max(1, share)
            if next_weight < weight_ops and progress >= next_weight / weight_ops:
                function.weight(activation, rng.randbytes(weight_bytes).hex().upper())
                next_weight += 1
            elif next_custom < customs and progress >= next_custom / customs:
                mistake = None
                if shape.mistake_every and custom_index % shape.mistake_every == \
                        shape.mistake_every - 1:
                    mistake = MISTAKES[(custom_index // shape.mistake_every) % len(MISTAKES)]
                function.custom(chosen[custom_index % len(chosen)], custom_index, mistake)
                custom_index += 1
                next_custom += 1
            else:
                function.ordinary(kinds, weights, activation, shape.channels)
        out.append(function.text("main" if number == 0 else f"part_{number}"))
    out.append("}")
    return "\n".join(out) + "\n\n"  # (tosa-opt ends with an empty line)


def _share(total: int, parts: int, index: int) -> int:
    return total // parts + (1 if index < total % parts else 0)


def check_parses(path: Path) -> None:
    """Raise when tosa-opt (from tosa-tools) does not parse and verify ``path``."""
    done = subprocess.run([str(build.tosa_opt()), str(path), "-o", "/dev/null"],
                          capture_output=True, text=True)
    if done.returncode:
        raise SystemExit(f"tosa-opt does not read {path}:\n{done.stderr[:2000]}")


def main() -> int:
    name, target = sys.argv[1], Path(sys.argv[2])
    target.write_text(generate(member(name)))
    check_parses(target)
    print(f"{target}: {target.stat().st_size / 1e6:.1f} MB")
    return 0


if __name__ == "__main__":
    sys.exit(main())
