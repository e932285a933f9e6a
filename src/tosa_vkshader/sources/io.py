"""Rules about reaching the input at all."""

from ..diagnostics import Diagnostic, Location, Severity, rule
from .jsontext import NOT_UTF8

UNREADABLE = rule(
    "VKS900", "unreadable-file", Severity.ERROR,
    summary="A file named on the command line cannot be read.",
    why="A path that does not exist or cannot be opened is usually a typo in a hook or CI "
        "configuration; it must not pass silently.",
    bad="tosa-vkshader check attrs/missing.json",
    good="tosa-vkshader check attrs/conv.json",
)


def decode_text(data: bytes | str, path: str | None) -> tuple[str, Diagnostic | None]:
    """The file's text (UTF-8, a BOM dropped), or a located VKS101 diagnostic."""
    if isinstance(data, str):
        return data, None
    if data.startswith(b"\xef\xbb\xbf"):
        data = data[3:]
    try:
        return data.decode("utf-8"), None
    except UnicodeDecodeError as exc:
        line = data.count(b"\n", 0, exc.start) + 1
        column = exc.start - (data.rfind(b"\n", 0, exc.start) + 1) + 1
        diag = NOT_UTF8.at("", f"byte 0x{data[exc.start]:02x} at offset {exc.start} is not "
                               "valid UTF-8", hint="save the file as UTF-8")
        return "", diag.located(Location(path, line, column))
