"""`tosa-vkshader run`'s fast lane: the reference tools started before anything else is
loaded, for the usual command line in a process of its own (``cli.program``).

The scenario runner takes most of a run (130 ms of 160 on lavapipe), the converter and
``vgf_dump`` 9 ms; the interpreter starts in 20 ms. Loading argparse, the configuration,
the diagnostics and the checker before the converter (30 ms) was most of what `run` added
to the tools' own time. Here, with only what the interpreter has loaded and a few small
modules: the model and inputs are read, the converter started, the interface read, the
inputs and scenario written and the runner started; then, while the runner works, the
configuration is read, the signature and inputs are matched and the model is checked.
The check still decides: a model with errors gets its diagnostics and exit 1, and
nothing is written to OUTDIR. What comes after is `run`'s own code (``commands/run``).

Whatever the fast lane does not take on, it leaves to the usual path before anything is
printed or written (:func:`run_fast` answers None and the tools it started are stopped):
command lines argparse must read (:mod:`.run_argv`), op JSON files, HLSL ops (they are
compiled before converting), push constants for several ops, ``--device``, inputs numpy
must read, a missing toolchain or Vulkan driver, and any failure before the runner
starts (a converter that refuses the model, an interface `run` cannot feed); so every
diagnostic and exit status is the usual path's own.
"""

from __future__ import annotations

import gc
import os
import time
from pathlib import Path
from typing import TYPE_CHECKING

from ..runtime.spawn import Folder, Process
from ..runtime.toolchain import (
    Toolchain,
    default_driver_environment,
    find_binary,
    icd_manifests,
    locate_toolchain,
)
from ..runtime.workdir import make_workdir, remove_workdir
from .run_argv import read_run_argv

if TYPE_CHECKING:
    from types import SimpleNamespace

    from ..runtime.interface import Interface
    from ..runtime.npyfile import HostArray

_TOOL_TIMEOUT = 60.0  # as for the usual path's converter and vgf_dump


def run_fast(argv: list[str]) -> int | None:
    """Run ``run ARGV...``; its exit status, or None when the usual path must run it
    (nothing printed or written, no tool left running)."""
    args = read_run_argv(argv)
    if args is None:
        return None
    text = _read_model(args)
    push = _read_push_constants(args)
    if text is None or push is False or not _eligible(text, push):
        return None
    converter = find_binary("model-converter")
    if converter is None:  # the usual path names what is missing
        return None
    try:
        lane = _Lane(args, text, push, converter)
    except OSError:  # no temporary folder, or no way back to this one
        return None
    # One run, then the program leaves with os._exit: reference counting frees what it
    # uses, and the cycle collector's passes over the checker's objects (5 ms of CPU
    # taken from the runner, and maybe one after it) find nothing worth the time.
    gc.disable()
    try:
        code = lane.run()
    finally:
        lane.close()
    if code is None:  # the usual path runs as it always does
        gc.enable()
    return code


def _read_model(args: SimpleNamespace) -> str | None:
    if args.model.lower().endswith(".json"):  # an op JSON: the module is built first
        return None
    try:
        with open(args.model, encoding="utf-8") as file:  # as Path.read_text reads it
            return file.read()
    except (OSError, UnicodeDecodeError):
        return None


def _read_push_constants(args: SimpleNamespace) -> bytes | None | bool:
    """The bytes, None when not given, False when they cannot be read."""
    if args.push_constants is None:
        return None
    try:
        return args.push_constants.read_bytes()
    except OSError:
        return False


def _eligible(text: str, push: bytes | None) -> bool:
    """No HLSL (compiled and embedded before converting), and push constants only for a
    single op (with several, their shaders' reflection says which ops take them)."""
    if "HLSL" in text:
        return False
    return push is None or text.count("implementation_attrs") <= 1


def _sizes(names: list[str]) -> int:
    total = 0
    for name in names:
        try:
            total += os.stat(name).st_size
        except OSError:  # said when it is read
            pass
    return total


def _read_inputs(names: list[str]) -> list[HostArray] | None:
    from ..runtime.npyfile import read_plain_npy

    arrays = []
    for name in names:
        try:
            with open(name, "rb") as file:
                array = read_plain_npy(file.read())
        except OSError:
            return None
        if array is None:  # numpy must read it
            return None
        arrays.append(array)
    return arrays


class _Lane:
    """One run: the work directory and the tool running now (at last the runner)."""

    def __init__(self, args: SimpleNamespace, text: str, push: bytes | None,
                 converter: str) -> None:
        self.args, self.text, self.push, self.converter = args, text, push, converter
        self.folder = Folder()
        try:
            self.workdir = make_workdir(len(text) + _sizes(args.inputs))
        except OSError:
            self.folder.close()
            raise
        self.tools: Toolchain | None = None
        self.process: Process | None = None
        self.stage = "converting"  # then "dumping", or "failed"
        self.keep = False  # the work directory outlives the run (--keep-workdir)

    def path(self, name: str) -> str:
        return os.path.join(self.workdir, name)

    def run(self) -> int | None:
        try:
            prepared = self._prepare()
        except Exception:  # e.g. an interface `run` cannot feed: the usual path says why
            return None
        if prepared is None:
            return None
        inputs, interface, env = prepared
        assert self.tools is not None
        try:
            runner = self.process = self.folder.start(
                [self.tools.scenario_runner, "--scenario", "scenario.json", "--output",
                 "out"], self.workdir, env, stdin=os.devnull, output="runner.log")
        except OSError:  # the usual path's Popen says why
            return None
        started = time.monotonic()
        # From here on the run is the fast lane's to finish, whatever happens.
        self.keep = self.args.keep_workdir
        if not self.keep:  # what the runner never reads need not be removed at the end
            for name in ("model.mlir", "dump.json"):
                try:
                    os.unlink(self.path(name))
                except OSError:
                    pass
        from .run_finish import finish_run

        return finish_run(self.args, self.text, inputs, interface, self.push,
                          Path(self.workdir), runner, started)

    def _prepare(self) -> tuple[list[HostArray], Interface, dict[str, str]] | None:
        """The inputs, the converted model's interface and the runner's environment,
        with the inputs and scenario written; None when a tool fails, something is
        missing or the inputs do not fit."""
        with open(self.path("model.mlir"), "w", encoding="utf-8") as file:
            file.write(self.text)
        self._start([self.converter, "-i", "model.mlir", "-o", "model.vgf"])
        # While the converter and vgf_dump work: the other tools, the inputs, the modules
        # that write the scenario, the emulation layers' manifests. Between these steps
        # vgf_dump is started as soon as the converter is done.
        self.tools = locate_toolchain()[0]
        if self.tools is None or not icd_manifests():  # the usual path says what is missing
            return None
        self._advance()
        inputs = _read_inputs(self.args.inputs)
        if inputs is None:
            return None
        self._advance()
        import json

        self._advance()
        from ..runtime.interface import read_interface

        self._advance()
        from ..runtime.scenario import write_inputs, write_scenario

        self._advance()
        workdir = Path(self.workdir)
        env = {**os.environ, **self.tools.layer_environment(workdir),
               **default_driver_environment()}
        if not self._dumped():
            return None
        with open(self.path("dump.json"), encoding="utf-8") as file:
            interface = read_interface(json.load(file))
        if len(interface.inputs) != len(inputs):
            return None
        write_inputs(workdir, interface, inputs)
        write_scenario(workdir, interface, self.push, interface.compute_modules)
        os.mkdir(self.path("out"))
        return inputs, interface, env

    def _start(self, argv: list[str]) -> None:
        self.process = self.folder.start(argv, self.workdir, os.environ)

    def _advance(self, *, block: bool = False) -> None:
        """Once the converter has finished well, start vgf_dump (a tool's messages are
        not read: when one fails, the usual path runs it again and says why)."""
        if self.stage != "converting":
            return
        assert self.process is not None and self.tools is not None
        code = self.process.wait(_TOOL_TIMEOUT) if block else self.process.poll()
        if code is None:
            return
        if code != 0 or not os.path.isfile(self.path("model.vgf")):
            self.stage = "failed"
            return
        self._start([self.tools.vgf_dump, "-i", "model.vgf", "-o", "dump.json"])
        self.stage = "dumping"

    def _dumped(self) -> bool:
        """Whether the converter and vgf_dump both finished well."""
        self._advance(block=True)
        assert self.process is not None
        return self.stage == "dumping" and self.process.wait(_TOOL_TIMEOUT) == 0

    def close(self) -> None:
        if self.process is not None:
            self.process.kill()
        self.folder.close()
        if not self.keep:
            remove_workdir(self.workdir)
