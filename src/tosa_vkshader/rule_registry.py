"""Every rule of the tool, in one table: its code, name, default severity, and the module
whose check reports it.

A rule is added in two places: a row here (what ``--select``, ``--ignore``, the severity
table of ``pyproject.toml`` and every reporter need, known without importing any check)
and, next to the check that reports it, its documentation::

    LEADING_ZERO = rule("VKS111", summary="...", why="...", bad="...", good="...")

:func:`rule` takes the name and the severity from this table (a code missing here fails
at import). ``docs/rules.md``, ``tosa-vkshader rule CODE``, the SARIF rule list and the
web's rule pages read each rule's documentation from the module named here
(``rules_doc.documented``).
"""

from __future__ import annotations

from typing import NamedTuple

from .diagnostics import Rule, Severity

GROUPS = {
    "1": "Keys and JSON",
    "2": "Values and semantics",
    "3": "Shader code and compilation",
    "4": "SPIR-V and cross-check",
    "5": "Model context (MLIR / TOSA)",
    "6": "Code generation and repair",
    "7": "Target device",
    "9": "Tool and environment",
}


class RuleEntry(NamedTuple):
    """A rule as the table knows it, a row of it: enough to select, ignore and report
    the rule."""

    code: str
    name: str
    severity: Severity
    # The module (below ``tosa_vkshader``) that declares the rule and reports it.
    module: str

    @property
    def group(self) -> str:
        return GROUPS[self.code[3]]

    @property
    def docs(self) -> str:
        """Where the rule's documentation is, wherever the tool is installed: the command
        that prints it (the same text as docs/rules.md and the web's /v1/rules/CODE)."""
        return f"tosa-vkshader rule {self.code}"


ERROR, WARNING, INFO = Severity.ERROR, Severity.WARNING, Severity.INFO

RULES: dict[str, RuleEntry] = {code: RuleEntry(code, name, severity, module)
                               for code, name, severity, module in (
    # -- 1xx: Keys and JSON
    ("VKS100", "invalid-json",                           ERROR,   "sources.jsontext"),
    ("VKS101", "not-utf8",                               ERROR,   "sources.jsontext"),
    ("VKS102", "not-an-object",                          ERROR,   "check"),
    ("VKS103", "duplicate-key",                          ERROR,   "sources.jsontext"),
    ("VKS104", "nesting-too-deep",                       ERROR,   "sources.jsontext"),
    ("VKS105", "file-too-large",                         ERROR,   "sources.jsontext"),
    ("VKS106", "non-standard-number",                    ERROR,   "sources.jsontext"),
    ("VKS107", "resource-index-too-large",               ERROR,   "rules.key_names"),
    ("VKS110", "missing-required-key",                   ERROR,   "rules.key_names"),
    ("VKS111", "leading-zero-index",                     ERROR,   "rules.key_names"),
    ("VKS112", "malformed-resource-key",                 ERROR,   "rules.key_names"),
    ("VKS113", "invalid-resource-index",                 ERROR,   "rules.key_names"),
    ("VKS114", "misspelled-key",                         ERROR,   "rules.key_names"),
    ("VKS115", "unknown-key",                            INFO,    "rules.key_names"),
    ("VKS116", "unknown-resource-field",                 WARNING, "rules.key_names"),
    ("VKS120", "lone-surrogate",                         ERROR,   "sources.jsontext"),
    ("VKS121", "number-out-of-range",                    ERROR,   "sources.jsontext"),
    # -- 2xx: Values and semantics
    ("VKS200", "wrong-value-type",                       ERROR,   "rules.value_types"),
    ("VKS201", "invalid-entry-point",                    ERROR,   "rules.shader_fields"),
    ("VKS202", "bad-workgroup-shape",                    ERROR,   "rules.shader_fields"),
    ("VKS203", "workgroup-over-guaranteed-limit",        WARNING, "rules.shader_fields"),
    ("VKS204", "unknown-shader-language",                ERROR,   "rules.shader_fields"),
    ("VKS205", "language-without-code",                  ERROR,   "rules.shader_fields"),
    ("VKS206", "spirv-not-base64",                       ERROR,   "rules.shader_fields"),
    ("VKS207", "spirv-length",                           ERROR,   "rules.shader_fields"),
    ("VKS208", "spirv-header",                           ERROR,   "rules.shader_fields"),
    ("VKS210", "push-constants-syntax",                  ERROR,   "rules.push_constants"),
    ("VKS211", "push-constant-duplicate",                ERROR,   "rules.push_constants"),
    ("VKS212", "push-constant-size",                     ERROR,   "rules.push_constants"),
    ("VKS213", "push-constants-over-limit",              WARNING, "rules.push_constants"),
    ("VKS220", "incomplete-resource",                    ERROR,   "rules.resources"),
    ("VKS221", "non-contiguous-indices",                 ERROR,   "rules.resources"),
    ("VKS222", "binding-collision",                      ERROR,   "rules.resources"),
    ("VKS223", "binding-out-of-range",                   ERROR,   "rules.resources"),
    ("VKS224", "malformed-descriptor-type",              ERROR,   "rules.resources"),
    ("VKS225", "unknown-descriptor-type",                ERROR,   "rules.resources"),
    ("VKS226", "unknown-format",                         ERROR,   "rules.resources"),
    ("VKS227", "invalid-resource-type",                  WARNING, "rules.resources"),
    ("VKS228", "resource-type-case",                     WARNING, "rules.resources"),
    ("VKS229", "resource-type-mismatch",                 WARNING, "rules.resources"),
    ("VKS230", "sampler-on-unsampled-resource",          WARNING, "rules.resources"),
    ("VKS231", "invalid-sampler",                        ERROR,   "rules.resources"),
    ("VKS232", "format-unusable-with-descriptor",        ERROR,   "rules.resources"),
    ("VKS233", "descriptor-type-unsuitable",             WARNING, "rules.resources"),
    ("VKS240", "registry-alias-name",                    ERROR,   "rules.resources"),
    ("VKS241", "workgroup-size-truncated",               ERROR,   "rules.shader_fields"),
    ("VKS242", "empty-shader-language",                  ERROR,   "rules.shader_fields"),
    ("VKS243", "null-as-absent",                         INFO,    "rules.value_types"),
    ("VKS250", "push-constants-dropped",                 INFO,    "rules.runtime_support"),
    ("VKS251", "uniform-buffer-bound-as-storage",        ERROR,   "rules.runtime_support"),
    ("VKS252", "descriptor-type-not-run",                ERROR,   "rules.runtime_support"),
    ("VKS253", "descriptor-type-unproven",               WARNING, "rules.runtime_support"),
    ("VKS254", "hlsl-not-run",                           WARNING, "rules.runtime_support"),
    # -- 3xx: Shader code and compilation
    ("VKS255", "sampler-not-honoured",                   WARNING, "rules.runtime_support"),
    ("VKS300", "shader-compile-error",                   ERROR,   "compile.diagnose"),
    ("VKS301", "shader-compile-warning",                 WARNING, "compile.diagnose"),
    ("VKS302", "glsl-entry-point-not-main",              ERROR,   "compile.batch"),
    ("VKS303", "include-disabled",                       ERROR,   "compile.includes"),
    ("VKS304", "include-rejected",                       ERROR,   "compile.includes"),
    ("VKS305", "compiler-lacks-arm-tensors",             ERROR,   "compile.diagnose"),
    ("VKS306", "compiler-internal-error",                ERROR,   "compile.diagnose"),
    ("VKS307", "entry-point-not-found",                  ERROR,   "compile.diagnose"),
    ("VKS308", "reference-compiler-option-unsupported",  ERROR,   "compile.reference_limits"),
    ("VKS309", "macro-expansion-too-large",              ERROR,   "compile.expansion"),
    ("VKS310", "macro-not-in-runtime",                   ERROR,   "compile.unseen_macros"),
    ("VKS311", "hlsl-beyond-glslang",                    ERROR,   "compile.hlsl"),
    ("VKS312", "include-not-in-runtime",                 ERROR,   "compile.includes"),
    # -- 4xx: SPIR-V and cross-check
    ("VKS400", "spirv-bad-header",                       ERROR,   "spirv.reader"),
    ("VKS401", "spirv-malformed-instruction",            ERROR,   "spirv.reader"),
    ("VKS402", "spirv-id-out-of-bound",                  ERROR,   "spirv.reader"),
    ("VKS403", "spirv-bad-type",                         ERROR,   "spirv.reader"),
    ("VKS404", "spirv-invalid",                          ERROR,   "spirv.validate"),
    ("VKS410", "module-entry-point-not-found",           ERROR,   "rules.crosscheck"),
    ("VKS411", "entry-point-not-compute",                ERROR,   "rules.crosscheck"),
    ("VKS412", "resource-not-in-shader",                 ERROR,   "rules.crosscheck"),
    ("VKS413", "binding-not-declared",                   ERROR,   "rules.crosscheck"),
    ("VKS414", "descriptor-type-mismatch",               ERROR,   "rules.crosscheck"),
    ("VKS415", "format-mismatch",                        ERROR,   "rules.crosscheck"),
    ("VKS416", "buffer-element-mismatch",                WARNING, "rules.crosscheck"),
    ("VKS417", "input-written",                          ERROR,   "rules.crosscheck"),
    ("VKS418", "output-not-writable",                    ERROR,   "rules.crosscheck"),
    ("VKS419", "output-not-written",                     WARNING, "rules.crosscheck"),
    ("VKS420", "workgroup-size-mismatch",                ERROR,   "rules.crosscheck"),
    ("VKS421", "workgroup-size-as-dispatch",             INFO,    "rules.crosscheck"),
    ("VKS422", "push-constants-mismatch",                ERROR,   "rules.crosscheck"),
    ("VKS423", "push-constants-missing",                 ERROR,   "rules.crosscheck"),
    ("VKS424", "resource-unused",                        INFO,    "rules.crosscheck"),
    ("VKS425", "sampler-undeclared",                     WARNING, "rules.crosscheck"),
    ("VKS430", "workgroup-sizes-equals-local-size",      INFO,    "rules.crosscheck"),
    ("VKS431", "shared-memory-without-barrier",          WARNING, "rules.coverage"),
    ("VKS432", "spec-id-defaults-differ",                WARNING,  "rules.specialization"),
    # -- 5xx: Model context (MLIR / TOSA)
    ("VKS500", "unreadable-custom-op",                   ERROR,   "sources.reading_rules"),
    ("VKS501", "invalid-tosa-file",                      ERROR,   "sources.reading_rules"),
    ("VKS502", "missing-implementation-attrs",           ERROR,   "sources.reading_rules"),
    ("VKS503", "domain-near-miss",                       ERROR,   "rules.context"),
    ("VKS504", "missing-operator-name",                  ERROR,   "rules.context"),
    ("VKS505", "malformed-op-object",                    ERROR,   "sources.reading_rules"),
    ("VKS506", "no-custom-op",                           INFO,    "check"),
    ("VKS510", "operand-without-input",                  ERROR,   "rules.context"),
    ("VKS511", "input-without-operand",                  ERROR,   "rules.context"),
    ("VKS512", "result-without-output",                  ERROR,   "rules.context"),
    ("VKS513", "output-without-result",                  ERROR,   "rules.context"),
    ("VKS514", "element-type-format-mismatch",           ERROR,   "rules.context"),
    ("VKS515", "element-type-reinterpreted",             WARNING, "rules.context"),
    ("VKS516", "tensor-rank-mismatch",                   ERROR,   "rules.context"),
    ("VKS517", "tensor-shape-mismatch",                  ERROR,   "rules.context"),
    ("VKS518", "dispatch-does-not-cover-output",         ERROR,   "rules.coverage"),
    ("VKS520", "results-returned-swapped",               ERROR,   "rules.context"),
    ("VKS521", "workgroup-sizes-from-shapes",            INFO,    "codegen.codegen_rules"),
    ("VKS522", "write-past-result",                      ERROR,   "rules.coverage"),
    ("VKS523", "coverage-not-decided",                   INFO,    "rules.coverage"),
    ("VKS530", "unsupported-tensor-type",                ERROR,   "rules.context"),
    ("VKS531", "unused-result-loses-binding",            ERROR,   "rules.context"),
    ("VKS532", "repeated-operand-loses-binding",         ERROR,   "rules.context"),
    # -- 6xx: Code generation and repair
    ("VKS600", "no-compute-entry-point",                 ERROR,   "codegen.codegen_rules"),
    ("VKS601", "ambiguous-entry-point",                  ERROR,   "codegen.codegen_rules"),
    ("VKS602", "format-not-inferred",                    ERROR,   "codegen.codegen_rules"),
    ("VKS603", "format-of-conflict",                     ERROR,   "codegen.codegen_rules"),
    ("VKS604", "format-of-unmatched",                    ERROR,   "codegen.codegen_rules"),
    ("VKS605", "binding-not-describable",                ERROR,   "codegen.codegen_rules"),
    ("VKS606", "descriptor-array",                       WARNING, "codegen.codegen_rules"),
    ("VKS607", "unused-binding-left-out",                INFO,    "codegen.codegen_rules"),
    ("VKS608", "workgroup-sizes-unknown",                ERROR,   "codegen.codegen_rules"),
    ("VKS609", "workgroup-sizes-contradict-shader",      ERROR,   "codegen.codegen_rules"),
    ("VKS610", "local-size-specializable",               INFO,    "codegen.codegen_rules"),
    ("VKS611", "embed-source-unavailable",               ERROR,   "codegen.codegen_rules"),
    ("VKS612", "push-constant-padding",                  INFO,    "codegen.codegen_rules"),
    ("VKS613", "shader-file-unreadable",                 ERROR,   "codegen.codegen_rules"),
    ("VKS614", "local-size-one",                         INFO,    "codegen.codegen_rules"),
    ("VKS615", "bad-tensor-type",                        ERROR,   "codegen.codegen_rules"),
    ("VKS616", "type-not-serializable",                  ERROR,   "codegen.codegen_rules"),
    ("VKS617", "attributes-invalid-for-emit",            ERROR,   "codegen.codegen_rules"),
    ("VKS618", "tosa-serializer-missing",                ERROR,   "codegen.codegen_rules"),
    ("VKS620", "fix-ambiguous",                          ERROR,   "codegen.codegen_rules"),
    ("VKS621", "fix-unreadable",                         ERROR,   "codegen.codegen_rules"),
    ("VKS622", "fix-embed-failed",                       ERROR,   "codegen.codegen_rules"),
    ("VKS623", "no-exact-dispatch",                      ERROR,   "codegen.codegen_rules"),
    ("VKS624", "macros-embedded",                        INFO,    "codegen.codegen_rules"),
    ("VKS625", "hlsl-embedded-as-spirv",                 INFO,    "codegen.codegen_rules"),
    ("VKS626", "includes-embedded-as-spirv",             INFO,    "codegen.codegen_rules"),
    ("VKS627", "includes-not-embeddable",                ERROR,   "codegen.codegen_rules"),
    ("VKS628", "operand-without-binding",                ERROR,   "codegen.codegen_rules"),
    # -- 7xx: Target device
    ("VKS700", "device-lacks-capability",                ERROR,   "devices.rules"),
    ("VKS701", "device-lacks-extension",                 ERROR,   "devices.rules"),
    ("VKS702", "local-size-exceeds-device",              ERROR,   "devices.rules"),
    ("VKS703", "invocations-exceed-device",              ERROR,   "devices.rules"),
    ("VKS704", "shared-memory-exceeds-device",           ERROR,   "devices.rules"),
    ("VKS705", "push-constants-exceed-device",           ERROR,   "devices.rules"),
    ("VKS706", "dispatch-exceeds-device",                ERROR,   "devices.rules"),
    ("VKS707", "buffer-exceeds-device-range",            ERROR,   "devices.rules"),
    ("VKS708", "format-unsupported-by-device",           ERROR,   "devices.rules"),
    ("VKS709", "tensor-exceeds-device",                  ERROR,   "devices.rules"),
    ("VKS710", "descriptors-exceed-device",              ERROR,   "devices.rules"),
    ("VKS711", "image-exceeds-device",                   ERROR,   "devices.rules"),
    ("VKS712", "spirv-version-exceeds-device",           ERROR,   "devices.rules"),
    ("VKS713", "compute-stage-unsupported-by-device",    ERROR,   "devices.rules"),
    ("VKS714", "cooperative-matrix-shape-unsupported",   ERROR,   "devices.rules"),
    # -- 9xx: Tool and environment
    ("VKS900", "unreadable-file",                        ERROR,   "sources.io"),
    ("VKS901", "bad-config",                             ERROR,   "config_file"),
    ("VKS902", "unusable-target-profile",                ERROR,   "devices.rules"),
    ("VKS910", "compiler-missing",                       ERROR,   "compile.compiler"),
    ("VKS911", "compiler-crashed",                       ERROR,   "compile.runner"),
    ("VKS912", "compiler-timeout",                       ERROR,   "compile.runner"),
    ("VKS913", "compiler-output-flood",                  ERROR,   "compile.runner"),
    ("VKS914", "cache-unusable",                         WARNING, "compile.cache"),
    ("VKS915", "compile-config-invalid",                 ERROR,   "compile.options"),
    ("VKS920", "spirv-val-missing",                      WARNING, "spirv.validate"),
    ("VKS921", "spirv-val-crashed",                      ERROR,   "spirv.validate"),
    ("VKS922", "spirv-val-timeout",                      ERROR,   "spirv.validate"),
    ("VKS930", "model-reader-missing",                   ERROR,   "sources.reading_rules"),
    ("VKS931", "web-diagnostics-truncated",              INFO,    "web.jobs"),
    ("VKS933", "unknown-rule-code",                      ERROR,   "rule_registry"),
    ("VKS934", "selection-disables-every-error",         WARNING, "selection"),
    ("VKS935", "not-an-op-document",                     INFO,    "sources.recognise"),
    ("VKS940", "link-leaves-folder",                     INFO,    "sources.io"),
    ("VKS941", "not-a-regular-file",                     ERROR,   "sources.io"),
    ("VKS942", "compiler-memory-limit",                  ERROR,   "compile.runner"),
    ("VKS950", "run-toolchain-missing",                  ERROR,   "runtime.rules"),
    ("VKS951", "no-vulkan-device",                       ERROR,   "runtime.rules"),
    ("VKS952", "device-not-found",                       ERROR,   "runtime.rules"),
    ("VKS953", "input-mismatch",                         ERROR,   "runtime.rules"),
    ("VKS954", "converter-failed",                       ERROR,   "runtime.rules"),
    ("VKS955", "runner-failed",                          ERROR,   "runtime.rules"),
    ("VKS956", "runner-timeout",                         ERROR,   "runtime.rules"),
    ("VKS957", "run-push-constants-mismatch",            ERROR,   "runtime.rules"),
    ("VKS958", "hlsl-compiled-for-run",                  INFO,    "runtime.rules"),
    ("VKS959", "run-unsupported-interface",              ERROR,   "runtime.rules"),
    ("VKS960", "result-mismatch",                        ERROR,   "runtime.rules"),
    ("VKS961", "run-model-unreadable",                   ERROR,   "runtime.rules"),
    ("VKS962", "run-elements-unwritten",                 ERROR,   "runtime.rules"),
    ("VKS963", "run-write-past-result",                  ERROR,   "runtime.rules"),
    ("VKS964", "run-result-depends-on-initial-contents", WARNING, "runtime.rules"),
    ("VKS965", "validation-layer-missing",               ERROR,   "runtime.rules"),
    ("VKS966", "validation-error",                       ERROR,   "runtime.rules"),
    ("VKS967", "validation-warning",                     WARNING, "runtime.rules"),
    ("VKS968", "run-validated-where-unproven",           INFO,    "runtime.rules"),
    ("VKS969", "run-results-from-a-race",                ERROR,   "runtime.rules"),
    ("VKS970", "verify-counterexample",                  ERROR,   "testing.rules"),
    ("VKS971", "verify-reference-failed",                ERROR,   "testing.rules"),
    ("VKS972", "verify-needs-hypothesis",                ERROR,   "testing.rules"),
    ("VKS973", "validation-layer-older-than-device",     INFO,    "runtime.rules"),
)}


def rule(code: str, *, summary: str, why: str, bad: str, good: str) -> Rule:
    """Declare the documentation of the rule ``code`` (a row of :data:`RULES`) next to
    its check; emit its diagnostics with :meth:`Rule.at`."""
    entry = RULES.get(code)
    if entry is None:
        raise LookupError(f"rule {code} is not in rule_registry.RULES: add its row there")
    return Rule(code, entry.name, entry.severity, summary, why, bad.strip("\n"),
                good.strip("\n"), entry.group)


def find(code_or_name: str) -> RuleEntry | None:
    """The rule with this code (any case) or this name, or None."""
    found = RULES.get(code_or_name.upper())
    if found is None:
        name = code_or_name.lower()
        found = next((entry for entry in RULES.values() if entry.name == name), None)
    return found


UNKNOWN_CODE = rule(
    "VKS933",
    summary="A code or prefix given to `--select`, `--ignore` or `severity` matches no rule.",
    why="`--ignore VKS1111` or `select = [\"VSK1\"]` would otherwise select nothing or "
        "ignore nothing without a word, and a gate meant to block a commit lets it through.",
    bad="tosa-vkshader check --select VSK1 ops/",
    good="tosa-vkshader check --select VKS1 ops/",
)


def unknown_code(code: str) -> tuple[str, str | None] | None:
    """None when ``code`` is a rule code or a prefix of one; else (why, hint). The hint
    names only close matches: one character replaced, added, removed, or two neighbours
    swapped (`VKS2O3`, `VKS1111`, `VSK1`); `VKS99999` is close to nothing."""
    if code and any(known.startswith(code) for known in RULES):
        return None
    # A group prefix is suggested only for a group-sized typo (`VSK1`), never for a code.
    candidates = (sorted(RULES) if len(code) > 4
                  else sorted({known[:4] for known in RULES}))
    alike = code.translate(_LOOK_ALIKE)
    close = [alike] if alike in candidates else \
        [c for c in candidates if _one_edit_apart(code, c)]
    hint = ("did you mean " + " or ".join(f"`{c}`" for c in close) + "?"
            if 0 < len(close) <= 3 else None)
    return "which matches no rule (`tosa-vkshader rule` lists them)", hint


# Letters typed for the digits they look like (`VKS2O3`, `VKS1l0`).
_LOOK_ALIKE = str.maketrans({"O": "0", "o": "0", "I": "1", "l": "1", "L": "1"})


def _one_edit_apart(typed: str, known: str) -> bool:
    """One substitution, insertion, deletion or swap of neighbours turns ``typed`` into
    ``known``."""
    if abs(len(typed) - len(known)) > 1 or typed == known:
        return False
    if len(typed) == len(known):
        diffs = [k for k, (a, b) in enumerate(zip(typed, known, strict=True)) if a != b]
        return len(diffs) == 1 or (len(diffs) == 2 and diffs[1] == diffs[0] + 1
                                   and typed[diffs[0]] == known[diffs[1]]
                                   and typed[diffs[1]] == known[diffs[0]])
    longer, shorter = (typed, known) if len(typed) > len(known) else (known, typed)
    return any(longer[:k] + longer[k + 1:] == shorter for k in range(len(longer)))
