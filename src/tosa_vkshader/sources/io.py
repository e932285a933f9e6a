"""Rules about reaching the input at all."""

from ..diagnostics import Severity, rule

UNREADABLE = rule(
    "VKS900", "unreadable-file", Severity.ERROR,
    summary="A file named on the command line cannot be read.",
    why="A path that does not exist or cannot be opened is usually a typo in a hook or CI "
        "configuration; it must not pass silently.",
    bad="tosa-vkshader check attrs/missing.json",
    good="tosa-vkshader check attrs/conv.json",
)
