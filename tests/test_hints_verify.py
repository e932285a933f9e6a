"""Hints of `verify`'s own diagnostics (VKS970-VKS972): the command that reproduces a
counterexample (and following it shows the same failure), what to do about a reference
that raised, and the extra that brings hypothesis."""

from __future__ import annotations

import shlex
import sys

import pytest
from test_verify import RELU, reference_file, relu_model

from tosa_vkshader.cli import main
from tosa_vkshader.testing import VerifyError, verify

from hint_cases import hinted, printed

pytestmark = pytest.mark.runtime


def test_a_counterexample_names_the_command_that_reproduces_it(capsys, tmp_path):
    result = verify(relu_model(tmp_path), RELU, seed=1, database=None,
                    output_dir=tmp_path / "out")
    assert result.counterexample is not None
    command = result.counterexample.command
    assert command is not None
    hinted(result.diagnostics, "VKS970", hint=f"reproduce: {command}")
    assert main(shlex.split(command)[1:]) == 1
    assert "error[VKS960] result_0: 1 of 64 element(s) differ" in capsys.readouterr().err


def test_a_reference_that_raises_is_to_be_fixed_or_constrained(tmp_path):
    ref = reference_file(tmp_path, """\
        def divide(x):
            raise ValueError("not yet")
        """)
    with pytest.raises(VerifyError) as caught:
        verify(relu_model(tmp_path), f"{ref}:divide", database=None)
    assert caught.value.exit_code == 2
    hinted(caught.value.diagnostics, "VKS971",
           hint="fix the reference, or reject such inputs in it with "
                "tosa_vkshader.testing.assume(...) or constrain them with inputs(st)")


def test_without_hypothesis_the_extra_is_named(capsys, tmp_path, monkeypatch):
    monkeypatch.setitem(sys.modules, "hypothesis", None)  # `import hypothesis` fails
    assert main(["verify", str(relu_model(tmp_path)), "--reference", RELU]) == 2
    printed(capsys.readouterr().err, "VKS972",
            "pip install 'tosa-vkshader[verify]' (in a checkout: pip install "
            "'.[run,verify]')")
