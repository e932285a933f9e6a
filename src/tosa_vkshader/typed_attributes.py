"""Typed models of the attribute object (pydantic v2).

``Attributes.from_attrs(obj)`` turns the flat JSON object into structured data
(resources grouped by direction and index, push constants parsed) and
``to_attrs()`` turns it back into the same flat object, unknown keys included.
The checker does not need these models (rules work on :class:`~tosa_vkshader.view.
AttributeView` so that they can also describe invalid input); they are the typed
API for tools that build or inspect ops, and the source of the published schema.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Annotated, Any, Literal, TypeAlias

from pydantic import BaseModel, ConfigDict, Field, StrictInt, StrictStr, model_validator

from .attribute_values import SAMPLER_FIELDS, parse_push_constants
from .keys import RESOURCE_FIELDS, TOP_LEVEL_KEYS, KeyKind, classify, resource_key, split_nulls
from .vulkan import tables as vulkan_tables

MAX_UINT32 = 2**32 - 1

# The sampler's Vulkan names, from the table the rules check them against. (A Literal made
# from a table is what pydantic validates; mypy reads only literals, so it sees str.)
if TYPE_CHECKING:
    Filter: TypeAlias = str
    AddressMode: TypeAlias = str
    BorderColor: TypeAlias = str
else:
    Filter = Literal[SAMPLER_FIELDS["min_filter"]]
    AddressMode = Literal[SAMPLER_FIELDS["address_mode_u"]]
    BorderColor = Literal[SAMPLER_FIELDS["border_color"]]

EntryPoint = Annotated[StrictStr, Field(
    pattern=r"^[A-Za-z_][A-Za-z0-9_]*$", description=TOP_LEVEL_KEYS["entry_point"],
    examples=["main"])]
WorkgroupDimension = Annotated[StrictInt, Field(ge=1)]
WorkgroupSizes = Annotated[
    tuple[WorkgroupDimension, WorkgroupDimension, WorkgroupDimension],
    Field(description=TOP_LEVEL_KEYS["workgroup_sizes"], examples=[[8, 8, 1]])]
ShaderLanguage = Annotated[Literal["", "SPIR-V", "GLSL", "HLSL"], Field(
    description=TOP_LEVEL_KEYS["shader_language"])]
ShaderCode = Annotated[StrictStr, Field(description=TOP_LEVEL_KEYS["shader_code"])]
PUSH_CONSTANTS_PATTERN = (r"^\s*$|^\s*[A-Za-z_][A-Za-z0-9_]*\s*:\s*[0-9]+\s*"
                          r"(,\s*[A-Za-z_][A-Za-z0-9_]*\s*:\s*[0-9]+\s*)*$")
PushConstantsText = Annotated[StrictStr, Field(
    pattern=PUSH_CONSTANTS_PATTERN, description=TOP_LEVEL_KEYS["push_constants"],
    examples=["scale: 4, bias: 4"])]
Binding = Annotated[StrictInt, Field(ge=0, le=MAX_UINT32,
                                     description=RESOURCE_FIELDS["binding"])]
DescriptorSet = Annotated[StrictInt, Field(ge=0, le=MAX_UINT32,
                                           description=RESOURCE_FIELDS["descriptorset"])]
DescriptorType = Annotated[StrictStr, Field(
    pattern=r"^VK_DESCRIPTOR_TYPE_[A-Z0-9_]+$", description=RESOURCE_FIELDS["vkdescriptortype"],
    json_schema_extra={"enum": list(vulkan_tables.DESCRIPTOR_TYPES)})]
VkFormat = Annotated[StrictStr, Field(
    description=RESOURCE_FIELDS["vkformat"],
    json_schema_extra={"enum": list(vulkan_tables.FORMAT_NAMES)})]
ResourceType = Annotated[StrictStr, Field(
    description=RESOURCE_FIELDS["type"] + " Matched case-insensitively; canonical case "
                "preferred.",
    pattern=r"^([Tt][Ee][Nn][Ss][Oo][Rr]|[Ii][Mm][Aa][Gg][Ee]|[Bb][Uu][Ff][Ff][Ee][Rr])$",
    examples=["Tensor", "Image", "Buffer"])]


class SamplerConfig(BaseModel):
    """Sampler state for a sampled image. All five fields are required."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    min_filter: Filter = Field(description="Minification filter (VkFilter).")
    mag_filter: Filter = Field(description="Magnification filter (VkFilter).")
    address_mode_u: AddressMode = Field(
        description="Addressing mode in U (VkSamplerAddressMode).")
    address_mode_v: AddressMode = Field(
        description="Addressing mode in V (VkSamplerAddressMode).")
    border_color: BorderColor = Field(
        description="Border colour for CLAMP_TO_BORDER (VkBorderColor).")


class Resource(BaseModel):
    """One input or output: ``<direction>_<index>_<field>`` keys grouped together."""

    model_config = ConfigDict(frozen=True)

    direction: Literal["input", "output"]
    index: Annotated[StrictInt, Field(ge=0)]
    binding: Binding | None = None
    descriptorset: DescriptorSet | None = None
    vkdescriptortype: DescriptorType | None = None
    vkformat: VkFormat | None = None
    type: ResourceType | None = None
    sampler: SamplerConfig | None = None
    extra: dict[str, Any] = Field(default_factory=dict,
                                  description="Fields the format does not define, kept as is.")

    @property
    def name(self) -> str:
        return f"{self.direction}_{self.index}"

    def to_attrs(self) -> dict[str, Any]:
        out: dict[str, Any] = {}
        for field in ("vkformat", "vkdescriptortype", "type", "binding", "descriptorset",
                      "sampler"):
            value = getattr(self, field)
            if value is not None:
                out[resource_key(self.direction, self.index, field)] = (
                    value.model_dump() if isinstance(value, SamplerConfig) else value)
        for field, value in self.extra.items():
            out[resource_key(self.direction, self.index, field)] = value
        return out


class PushConstant(BaseModel):
    model_config = ConfigDict(frozen=True)

    name: Annotated[StrictStr, Field(pattern=r"^[A-Za-z_][A-Za-z0-9_]*$")]
    size: Annotated[StrictInt, Field(gt=0, multiple_of=4)]


class PushConstants(BaseModel):
    """The ``push_constants`` string and its parsed entries (the text is kept verbatim)."""

    model_config = ConfigDict(frozen=True)

    text: PushConstantsText
    entries: list[PushConstant]

    @classmethod
    def parse(cls, text: str) -> PushConstants:
        entries = parse_push_constants(text)
        if entries is None:
            raise ValueError(f"push_constants {text!r} is not 'name: size, name: size'")
        return cls(text=text, entries=[PushConstant(name=e.name, size=e.size)
                                       for e in entries])

    @property
    def total_size(self) -> int:
        return sum(e.size for e in self.entries)


class Attributes(BaseModel):
    """A complete, typed attribute object."""

    model_config = ConfigDict(frozen=True)

    entry_point: EntryPoint
    workgroup_sizes: WorkgroupSizes
    shader_language: ShaderLanguage | None = None
    shader_code: ShaderCode | None = None
    push_constants: PushConstants | None = None
    inputs: list[Resource] = Field(default_factory=list)
    outputs: list[Resource] = Field(default_factory=list)
    extra: dict[str, Any] = Field(default_factory=dict,
                                  description="Top-level keys the format does not define "
                                              "(e.g. is_vkshader), kept as is.")

    @model_validator(mode="after")
    def _resources_numbered(self) -> Attributes:
        for direction, resources in (("input", self.inputs), ("output", self.outputs)):
            for position, resource in enumerate(resources):
                if resource.direction != direction or resource.index != position:
                    raise ValueError(f"{direction}s must be numbered 0..n-1 in order; "
                                     f"position {position} holds {resource.name}")
        return self

    @classmethod
    def from_attrs(cls, attrs: dict[str, Any]) -> Attributes:
        """Build from the flat attribute object; raises pydantic.ValidationError if invalid."""
        top: dict[str, Any] = {}
        extra: dict[str, Any] = {}
        grouped: dict[tuple[str, int], dict[str, Any]] = {}
        for key, value in split_nulls(attrs)[0].items():
            info = classify(key)
            if info.kind is KeyKind.TOP_LEVEL:
                top[key] = value
            elif info.kind in (KeyKind.RESOURCE, KeyKind.RESOURCE_UNKNOWN_FIELD):
                assert info.direction and info.index is not None and info.field
                fields = grouped.setdefault((info.direction, info.index), {"extra": {}})
                if info.kind is KeyKind.RESOURCE:
                    fields[info.field] = value
                else:
                    fields["extra"][info.field] = value
            else:
                extra[key] = value
        if isinstance(top.get("push_constants"), str):
            top["push_constants"] = PushConstants.parse(top["push_constants"])
        for direction in ("input", "output"):
            top[direction + "s"] = [
                {"direction": direction, "index": index, **fields}
                for (d, index), fields in sorted(grouped.items()) if d == direction
            ]
        return cls.model_validate({**top, "extra": extra})

    def to_attrs(self) -> dict[str, Any]:
        """The flat attribute object, keys in canonical order, unknown keys last."""
        out: dict[str, Any] = {"entry_point": self.entry_point,
                               "workgroup_sizes": list(self.workgroup_sizes)}
        if self.shader_language is not None:
            out["shader_language"] = self.shader_language
        if self.shader_code is not None:
            out["shader_code"] = self.shader_code
        if self.push_constants is not None:
            out["push_constants"] = self.push_constants.text
        for resource in (*self.inputs, *self.outputs):
            out.update(resource.to_attrs())
        out.update(self.extra)
        return out
