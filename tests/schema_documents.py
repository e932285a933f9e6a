"""Attribute documents generated from a JSON Schema's structure, with perturbations.

A seeded generator (``random.Random``), not a copy of any schema. It starts from a
realistic op that is clean for this checker (complete resources on distinct bindings,
formats that suit their descriptor types, sometimes `_type`, a sampler, push constants),
so that a verdict is about the perturbation, not about something else; then it walks the
schema it is given (``properties``, ``patternProperties``, ``required``, ``$ref``,
``enum``, ``type``, ``minimum``, ``minItems``/``maxItems``, ``items``, ``pattern``,
``additionalProperties``) and breaks the op in one to three places the schema
constrains, present keys or keys it adds:

* a value of another JSON type (``null`` included) for a key, an array item or a member
  of a nested object;
* a string outside an ``enum`` (case, spacing, registry aliases, a neighbour's value) or
  not matching a ``pattern``;
* a number below a ``minimum``, an array shorter or longer than its bounds;
* an unknown member in an object that allows none, a required member removed;
* a root that is not an object (a scalar, ``null`` or an empty list: a list of objects is
  a list of ops in our JSON files, each item checked as a document of its own).

Strings the schema leaves free are drawn from what real ops hold (format and descriptor
type names from our registry, ``main``, a push-constant layout, a small fixed set of
shader texts, so that a run compiles a handful of distinct shaders at most).
"""

from __future__ import annotations

import base64
import copy
import random
import re
from collections.abc import Iterator
from typing import Any

from tosa_vkshader.vulkan import tables as vulkan_tables

from strategies import KINDS, SAMPLER

_FORMATS = sorted(vulkan_tables.FORMATS)
_DESCRIPTORS = sorted(vulkan_tables.DESCRIPTOR_TYPES)
# A real module: the SPIR-V header of an empty compute shader (enough for the schema,
# which never decodes it) and a few GLSL texts; the same few every time.
_SPIRV = base64.b64encode(bytes.fromhex("03022307" "00000100" "00000000" "01000000"
                                        "00000000")).decode()
_GLSL = ("void main() {}", "#version 460\nlayout(local_size_x = 8) in;\nvoid main() {}\n")
_FREE_STRINGS = {
    "entry_point": ("main", "main", "entry", ""),
    "push_constants": ("scale: 4", "scale: 4, bias: 4", ""),
    "_type": ("Tensor", "Image", "Buffer", "TENSOR"),
}
_WRONG_VALUES: tuple[Any, ...] = (None, True, False, 0, -1, 1, 1.5, 8.0, "", "x", "8",
                                  [], [1], {}, {"a": 1})
_JSON_TYPES = {"null": (type(None),), "boolean": (bool,), "integer": (int,),
               "number": (int, float), "string": (str,), "array": (list,),
               "object": (dict,)}


def _is(value: Any, json_type: str) -> bool:
    if json_type == "integer" and isinstance(value, float):
        return value.is_integer()
    if isinstance(value, bool):
        return json_type == "boolean"
    return isinstance(value, _JSON_TYPES[json_type])


class SchemaDocuments:
    """Documents for ``schema`` drawn from ``random.Random(seed)``."""

    def __init__(self, schema: dict[str, Any], seed: int) -> None:
        self.schema = schema
        self.random = random.Random(seed)

    # -- resolving and instantiating --------------------------------------------------

    def _resolve(self, node: dict[str, Any]) -> dict[str, Any]:
        while "$ref" in node:
            path = node["$ref"].removeprefix("#/").split("/")
            target: Any = self.schema
            for token in path:
                target = target[token]
            node = {**target, **{k: v for k, v in node.items() if k != "$ref"}}
        return node

    def _keys_for(self, pattern: str) -> list[str]:
        """Key names matching a property pattern: built from its literal tail and the
        resource directions and indices real ops use, kept when they match."""
        tail = re.sub(r"[$\\]", "", pattern.rsplit(")", 1)[-1])
        candidates = [f"{direction}_{index}{tail}" for direction in ("input", "output")
                      for index in (0, 1, 2, 10)]
        return [key for key in candidates if re.search(pattern, key)]

    def _free_string(self, name: str, node: dict[str, Any]) -> str:
        pattern = node.get("pattern")
        if name.endswith("_vkformat"):
            return self.random.choice(_FORMATS)
        if name.endswith("_vkdescriptortype") or (pattern and "DESCRIPTOR" in pattern):
            return self.random.choice(_DESCRIPTORS)
        if name.endswith("_type"):
            return self.random.choice(_FREE_STRINGS["_type"])
        if name == "shader_code":
            return self.random.choice((_SPIRV, *_GLSL))
        return self.random.choice(_FREE_STRINGS.get(name, ("main", "x")))

    def valid(self, node: dict[str, Any], name: str = "") -> Any:
        """A value the (sub)schema ``node`` accepts."""
        node = self._resolve(node)
        if "enum" in node:
            return self.random.choice(node["enum"])
        kind = node.get("type", "object" if "properties" in node else "string")
        if kind == "object":
            return self._valid_object(node)
        if kind == "array":
            low, high = node.get("minItems", 0), node.get("maxItems", 4)
            return [self.valid(node.get("items", {}), name)
                    for _ in range(self.random.randint(low, high))]
        if kind == "integer":
            low = node.get("minimum", -4)
            return self.random.choice((low, low + 1, low + 7, low + 63))
        if kind == "boolean":
            return self.random.choice((True, False))
        return self._free_string(name, node)

    def _valid_object(self, node: dict[str, Any]) -> dict[str, Any]:
        properties = node.get("properties", {})
        required = set(node.get("required", ()))
        out: dict[str, Any] = {}
        for key, sub in properties.items():
            if key in required or self.random.random() < 0.5:
                out[key] = self.valid(sub, key)
        for pattern, sub in node.get("patternProperties", {}).items():
            for key in self._keys_for(pattern):
                if self.random.random() < 0.3:
                    out[key] = self.valid(sub, key)
        if node.get("additionalProperties", True) is not False and self.random.random() < 0.2:
            out["is_vkshader"] = True
        return out

    def realistic(self) -> dict[str, Any]:
        """An op this checker finds clean: no shader, 0-3 inputs and 1-2 outputs."""
        rnd = self.random
        attrs: dict[str, Any] = {"entry_point": "main",
                                 "workgroup_sizes": [rnd.choice((1, 8, 64)), rnd.choice((1, 8)), 1]}
        if rnd.random() < 0.3:
            attrs["push_constants"] = rnd.choice(("scale: 4", "scale: 4, bias: 4"))
        bindings = rnd.sample(range(16), 5)
        for direction, count in (("input", rnd.randint(0, 3)), ("output", rnd.randint(1, 2))):
            for index in range(count):
                descriptor, kind, formats, sampled = rnd.choice(KINDS[:1] + KINDS[2:5])
                prefix = f"{direction}_{index}_"
                attrs[prefix + "vkformat"] = rnd.choice(formats)
                attrs[prefix + "vkdescriptortype"] = descriptor
                attrs[prefix + "binding"] = bindings.pop()
                attrs[prefix + "descriptorset"] = 0
                if rnd.random() < 0.5:
                    attrs[prefix + "type"] = kind
                if sampled:
                    attrs[prefix + "sampler"] = dict(SAMPLER)
        if rnd.random() < 0.2:
            attrs["is_vkshader"] = True
        return attrs

    # -- where a document can be broken ------------------------------------------------

    def _schema_of_key(self, node: dict[str, Any], key: str) -> dict[str, Any] | None:
        node = self._resolve(node)
        if key in node.get("properties", {}):
            return self._resolve(node["properties"][key])
        for pattern, sub in node.get("patternProperties", {}).items():
            if re.search(pattern, key):
                return self._resolve(sub)
        return None

    def _places(self, value: Any, node: dict[str, Any],
                path: tuple[Any, ...] = ()) -> Iterator[tuple[tuple[Any, ...], dict[str, Any]]]:
        """(path, subschema) of every value in ``value`` that the schema constrains."""
        node = self._resolve(node)
        yield path, node
        if isinstance(value, dict):
            for key, member in value.items():
                sub = self._schema_of_key(node, key)
                if sub is not None:
                    yield from self._places(member, sub, (*path, key))
        elif isinstance(value, list) and "items" in node:
            for index, item in enumerate(value):
                yield from self._places(item, node["items"], (*path, index))

    def _wrong_values(self, node: dict[str, Any], name: str) -> list[Any]:
        """Values ``node`` refuses (some; the caller keeps those the schema rejects)."""
        found = [v for v in _WRONG_VALUES
                 if "type" in node and not _is(v, node["type"])]
        for text in node.get("enum", ()):
            if isinstance(text, str):
                found += [text.lower(), text + " ", " " + text, text + "_KHR",
                          text.replace("_IMG", "_EXT"), text[:-1], text.replace("-", "")]
        if "pattern" in node:
            sample = self._free_string(name, node)
            found += [sample.lower(), sample.removeprefix("VK_"), sample + "!", "VK_"]
        if "minimum" in node:
            found += [node["minimum"] - 1, node["minimum"] - 2**31]
        if "minItems" in node or "maxItems" in node:
            item = node.get("items", {})
            low, high = node.get("minItems", 0), node.get("maxItems", 6)
            found += [[self.valid(item, name) for _ in range(n)]
                      for n in (low - 1, high + 1, 0) if n >= 0 and not low <= n <= high]
        if node.get("type") == "object" or "properties" in node:
            if node.get("additionalProperties", True) is False:
                found.append("+unknown-member")
            if node.get("required"):
                found.append("-required-member")
        return found

    def _absent(self, document: dict[str, Any]) -> Iterator[tuple[tuple[Any, ...],
                                                                     dict[str, Any]]]:
        """(path, subschema) of keys the schema constrains that the document lacks."""
        root = self._resolve(self.schema)
        for key, sub in root.get("properties", {}).items():
            if key not in document:
                yield (key,), self._resolve(sub)
        for pattern, sub in root.get("patternProperties", {}).items():
            for key in self._keys_for(pattern)[:2]:
                if key not in document:
                    yield (key,), self._resolve(sub)

    def _perturb(self, document: Any) -> Any:
        places = list(self._places(document, self.schema))
        if isinstance(document, dict):
            places += list(self._absent(document))
        path, node = self.random.choice(places)
        name = next((p for p in reversed(path) if isinstance(p, str)), "")
        options = self._wrong_values(node, name)
        if not path:
            options += ["+unknown-member", "-required-member", [], "x", 1, None]
        choice = self.random.choice(options) if options else None
        target = document
        for token in path[:-1]:
            target = target[token]
        if not path:
            current = document
        else:
            current = target.get(path[-1]) if isinstance(target, dict) else target[path[-1]]
        if choice == "+unknown-member" and isinstance(current, dict):
            current[self.random.choice(("extra", "max_lod", "minFilter", "min_filter "))] = \
                self.random.choice(_WRONG_VALUES)
            return document
        if choice == "-required-member" and isinstance(current, dict):
            required = [k for k in node.get("required", ()) if k in current]
            if required:
                del current[self.random.choice(required)]
            return document
        if choice in ("+unknown-member", "-required-member"):
            return document
        if not path:
            return copy.deepcopy(choice)
        target[path[-1]] = copy.deepcopy(choice)
        return document

    def document(self) -> Any:
        """One realistic op broken in one to three places (it may still be valid: the
        caller asks the schema)."""
        document: Any = self.realistic()
        for _ in range(self.random.randint(1, 3)):
            if not isinstance(document, (dict, list)):
                break
            document = self._perturb(document)
        return document
