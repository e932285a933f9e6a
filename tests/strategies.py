"""Hypothesis strategies: attribute objects from the spec's grammar, and their mutations."""

from __future__ import annotations

import string

from hypothesis import strategies as st

from tosa_vkshader import vulkan
from tosa_vkshader.vulkan import tables as vulkan_tables

IDENT = st.from_regex(r"[A-Za-z_][A-Za-z0-9_]{0,12}", fullmatch=True)
PLAIN_SINGLE = sorted(n for n in vulkan_tables.FORMATS
                      if (i := vulkan.format_info(n)).is_single_component and i.is_plain
                      and i.packed is None)
STORAGE_IMAGE = sorted(n for n in vulkan_tables.FORMATS
                       if vulkan.format_info(n).spirv_image_format)
PLAIN = sorted(n for n in vulkan_tables.FORMATS if vulkan.format_info(n).is_plain)
SAMPLER = {"min_filter": "VK_FILTER_LINEAR", "mag_filter": "VK_FILTER_NEAREST",
           "address_mode_u": "VK_SAMPLER_ADDRESS_MODE_REPEAT",
           "address_mode_v": "VK_SAMPLER_ADDRESS_MODE_CLAMP_TO_EDGE",
           "border_color": "VK_BORDER_COLOR_INT_OPAQUE_BLACK"}
# (descriptor type, _type, formats, needs sampler)
KINDS = [
    ("VK_DESCRIPTOR_TYPE_STORAGE_BUFFER", "Buffer", PLAIN, False),
    ("VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER", "Buffer", PLAIN, False),
    ("VK_DESCRIPTOR_TYPE_TENSOR_ARM", "Tensor", PLAIN_SINGLE, False),
    ("VK_DESCRIPTOR_TYPE_STORAGE_IMAGE", "Image", STORAGE_IMAGE, False),
    ("VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER", "Image", PLAIN, True),
    ("VK_DESCRIPTOR_TYPE_STORAGE_TEXEL_BUFFER", "Buffer", STORAGE_IMAGE, False),
]


@st.composite
def resources(draw, direction: str, count: int, bindings: list[tuple[int, int]]):
    out = {}
    for index in range(count):
        descriptor, kind, formats, sampled = draw(st.sampled_from(KINDS))
        dset, binding = bindings.pop()
        prefix = f"{direction}_{index}_"
        out[prefix + "binding"] = binding
        out[prefix + "descriptorset"] = dset
        out[prefix + "vkdescriptortype"] = descriptor
        out[prefix + "vkformat"] = draw(st.sampled_from(formats))
        if draw(st.booleans()):
            out[prefix + "type"] = kind
        if sampled and draw(st.booleans()):
            out[prefix + "sampler"] = dict(SAMPLER)
    return out


@st.composite
def valid_attribute_objects(draw):
    x = draw(st.integers(1, 8))
    y = draw(st.integers(1, 8))
    z = draw(st.integers(1, 2))
    attrs = {"entry_point": draw(IDENT), "workgroup_sizes": [x, y, z]}
    # No shader: both keys absent (a present "" language is refused, VKS242).
    names = draw(st.lists(IDENT, unique=True, max_size=4))
    if names:
        sizes = [draw(st.sampled_from([4, 8, 16])) for _ in names]
        attrs["push_constants"] = ", ".join(f"{n}: {s}" for n, s in zip(names, sizes, strict=True))
    inputs = draw(st.integers(0, 4))
    outputs = draw(st.integers(0, 3))
    slots = draw(st.lists(st.tuples(st.integers(0, 3), st.integers(0, 31)), unique=True,
                          min_size=inputs + outputs, max_size=inputs + outputs))
    attrs.update(draw(resources("input", inputs, slots)))
    attrs.update(draw(resources("output", outputs, slots)))
    if draw(st.booleans()):
        attrs["is_vkshader"] = True
    keys = list(attrs)
    order = draw(st.permutations(keys))
    return {k: attrs[k] for k in order}


def any_json(max_leaves: int = 12):
    scalars = (st.none() | st.booleans() | st.integers(-2**40, 2**40)
               | st.floats(allow_nan=False, allow_infinity=False)
               | st.text(max_size=20))
    return st.recursive(scalars, lambda children: st.lists(children, max_size=4)
                        | st.dictionaries(st.text(max_size=12), children, max_size=4),
                        max_leaves=max_leaves)


KEY_TEXT = st.one_of(
    st.sampled_from(["entry_point", "workgroup_sizes", "shader_language", "shader_code",
                     "push_constants", "input_0_binding", "input_01_binding",
                     "output_0_vkformat", "input_0_sampler", "Input_0_type"]),
    st.text(alphabet=string.ascii_letters + string.digits + "_-", max_size=24),
)


@st.composite
def mutated_attribute_objects(draw):
    attrs = dict(draw(valid_attribute_objects()))
    for _ in range(draw(st.integers(1, 3))):
        action = draw(st.sampled_from(["delete", "replace", "add", "rename"]))
        keys = list(attrs)
        if action == "delete" and keys:
            attrs.pop(draw(st.sampled_from(keys)))
        elif action == "replace" and keys:
            attrs[draw(st.sampled_from(keys))] = draw(any_json(4))
        elif action == "add":
            attrs[draw(KEY_TEXT)] = draw(any_json(4))
        elif action == "rename" and keys:
            key = draw(st.sampled_from(keys))
            new = draw(st.sampled_from([key.upper(), key.replace("_0_", "_00_"),
                                        key.replace("_", "-"), key + "s", key[:-1]]))
            attrs[new] = attrs.pop(key)
    return attrs
