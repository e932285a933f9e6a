"""The emulation layers' manifests as Debian's loader needs them: each in a folder of its
own, with the absolute path of its library (the wheel's manifests name the bare file).

They are kept in the cache folder (``vulkan-layers/`` in ``cachedir.default_cache_dir``),
one set per installed emulation_layer package: a run reads them and compares them with
what the wheel's manifests make (a few kilobytes), and writes them again only when they
are missing or differ (a reinstalled or moved wheel, a damaged file). Only when the cache
folder cannot be written are they written into the run's work directory, as before:
writing five entries there and removing them again cost a millisecond of every run, and
far more on a disk other processes keep busy.
"""

from __future__ import annotations

import os
from pathlib import Path

# in the order the loader must see them: (layer name, file stem)
LAYERS = (
    ("VK_LAYER_ML_Graph_Emulation", "VkLayer_Graph"),
    ("VK_LAYER_ML_Tensor_Emulation", "VkLayer_Tensor"),
)


def manifest_folders(deploy: Path, workdir: Path) -> list[str]:
    """The folder of each layer's manifest, in the loader's order (``deploy`` is the
    wheel's ``emulation_layer/deploy``)."""
    wanted = [_manifest(deploy, stem) for _name, stem in LAYERS]
    try:
        return _write_missing(_cache_folder(deploy), wanted)
    except OSError:  # no cache folder to write to
        return _write_missing(workdir / "layers", wanted)


def _manifest(deploy: Path, stem: str) -> tuple[str, str]:
    import json

    source = deploy / "share/vulkan/explicit_layer.d" / f"{stem}.json"
    document = json.loads(source.read_text(encoding="utf-8"))
    document["layer"]["library_path"] = str((deploy / "lib" / f"lib{stem}.so").resolve())
    return stem, json.dumps(document)


def _cache_folder(deploy: Path) -> Path:
    import zlib

    from ..cachedir import default_cache_dir

    key = zlib.crc32(os.fsencode(deploy.resolve()))
    return default_cache_dir() / "vulkan-layers" / f"{key:08x}"


def _write_missing(root: Path, manifests: list[tuple[str, str]]) -> list[str]:
    folders = []
    for stem, text in manifests:
        folder = root / stem
        path = folder / f"{stem}.json"
        try:
            current = path.read_text(encoding="utf-8")
        except (OSError, UnicodeDecodeError):
            current = None
        if current != text:
            folder.mkdir(parents=True, exist_ok=True)
            partial = folder / f".{stem}.{os.getpid()}.tmp"
            partial.write_text(text, encoding="utf-8")
            os.replace(partial, path)  # another run reads the old file or the new one
        folders.append(str(folder))
    return folders
