"""Rules about reaching the input at all."""

from ..diagnostics import Diagnostic, Location
from ..fsutil import InputRefused
from ..rule_registry import rule
from .jsontext import TOO_LARGE

UNREADABLE = rule(
    "VKS900",
    summary="A file named on the command line cannot be read.",
    why="A path that does not exist or cannot be opened is usually a typo in a hook or CI "
        "configuration; it must not pass silently.",
    bad="tosa-vkshader check attrs/missing.json",
    good="tosa-vkshader check attrs/conv.json",
)

NOT_REGULAR = rule(
    "VKS941",
    summary="A path names a named pipe (FIFO), a device or a socket instead of a file.",
    why="Reading one may block for ever or never end; only regular files are read.",
    bad="tosa-vkshader check /dev/zero",
    good="tosa-vkshader check attrs/conv.json",
)
LINK_LEAVES_FOLDER = rule(
    "VKS940",
    summary="A symbolic link found while walking a folder points outside it; it is not "
            "followed.",
    why="Checking a folder must read only what is in it: a link to another place (a "
        "secret, a device, a huge file) would otherwise be read and its lines shown in "
        "the report. Name the target on the command line to check it.",
    bad="attrs/conv.json -> /home/me/elsewhere/conv.json   (tosa-vkshader check attrs)",
    good="tosa-vkshader check attrs /home/me/elsewhere/conv.json",
)


def refusal(path: str, exc: OSError) -> Diagnostic:
    """The diagnostic for a file that could not be read (see fsutil.read_limited)."""
    reason = exc.strerror or str(exc)
    if getattr(exc, "too_large", False):
        return TOO_LARGE.at("", f"{path}: {reason}",
                            hint="raise `max-file-size` in [tool.tosa-vkshader] if this is "
                                 "intended").located(Location(path, 1, 1))
    if isinstance(exc, InputRefused):
        return NOT_REGULAR.at("", f"{path} is {reason}")
    return UNREADABLE.at("", f"cannot read {path}: {reason}")
