"""Deterministic corpus of attribute files for the benchmarks: mostly valid, some broken."""

from __future__ import annotations

import json
import random
from pathlib import Path

DESCRIPTORS = [
    ("VK_DESCRIPTOR_TYPE_STORAGE_BUFFER", "Buffer", "VK_FORMAT_R32_SFLOAT"),
    ("VK_DESCRIPTOR_TYPE_TENSOR_ARM", "Tensor", "VK_FORMAT_R8_SINT"),
    ("VK_DESCRIPTOR_TYPE_STORAGE_IMAGE", "Image", "VK_FORMAT_R8G8B8A8_UNORM"),
    ("VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER", "Buffer", "VK_FORMAT_R32G32B32A32_SFLOAT"),
]
BREAKAGES = [
    lambda a: a.__setitem__("input_01_binding", a.pop("input_0_binding")),
    lambda a: a.__setitem__("workgroup_sizes", [8, 0, 1]),
    lambda a: a.__setitem__("input_0_vkformat", "VK_FORMAT_R32_FLOAT"),
    lambda a: a.pop("entry_point"),
    lambda a: a.__setitem__("output_0_binding", a["input_0_binding"]),
]


def attribute_object(rng: random.Random, number: int) -> dict:
    attrs: dict = {"entry_point": "main", "workgroup_sizes": [rng.choice([4, 8]), 8, 1],
                   "push_constants": f"scale_{number}: 4, bias: 4"}
    binding = 0
    for direction, count in (("input", rng.randint(1, 3)), ("output", rng.randint(1, 2))):
        for index in range(count):
            descriptor, kind, fmt = rng.choice(DESCRIPTORS)
            attrs.update({f"{direction}_{index}_type": kind,
                          f"{direction}_{index}_vkformat": fmt,
                          f"{direction}_{index}_vkdescriptortype": descriptor,
                          f"{direction}_{index}_binding": binding,
                          f"{direction}_{index}_descriptorset": 0})
            binding += 1
    if rng.random() < 0.2:
        rng.choice(BREAKAGES)(attrs)
    return attrs


def write_corpus(folder: Path, count: int = 1000, seed: int = 7) -> list[Path]:
    rng = random.Random(seed)
    folder.mkdir(parents=True, exist_ok=True)
    paths = []
    for number in range(count):
        path = folder / f"op_{number:04d}.json"
        path.write_text(json.dumps(attribute_object(rng, number), indent=2))
        paths.append(path)
    return paths


def corpus_objects(count: int, seed: int = 7) -> list[dict]:
    rng = random.Random(seed)
    return [attribute_object(rng, n) for n in range(count)]
