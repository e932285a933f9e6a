"""Resource indices cost nothing in their value (issue #14, item 1).

An 80-byte document naming `input_99999999999_binding` once made `check` allocate a set
of every index up to it. Each test runs the real command line under a 1 GiB ceiling:
a rule that loops or allocates by an index value fails it with a MemoryError.
"""

from __future__ import annotations

import json

from hostile_helpers import run_cli, text

from tosa_vkshader import validate

HEAD = '{"entry_point": "main", "workgroup_sizes": [1, 1, 1], '


def _write(tmp_path, body: str):
    path = tmp_path / "op.json"
    path.write_text(HEAD + body + "}")
    return path


def test_huge_index_reports_the_gap_as_one_range(tmp_path):
    path = _write(tmp_path, '"input_0_binding": 0, "input_99999999999_binding": 1')
    result = run_cli("check", "--format", "json", str(path))
    assert result.returncode == 1, text(result)
    report = json.loads(result.stdout)
    messages = [d["message"] for d in report["files"][0]["diagnostics"]
                if d["code"] == "VKS221"]
    assert messages == ["input indices are [0, 99999999999]: "
                        "input_1 … input_99999999998 are missing (input_i describes the "
                        "op's operand i, so they run 0, 1, 2, ... without gaps)"]


def _messages(tmp_path, body: str, code: str) -> list[str]:
    result = run_cli("check", "--format", "json", str(_write(tmp_path, body)))
    assert result.returncode == 1, text(result)
    diagnostics = json.loads(result.stdout)["files"][0]["diagnostics"]
    return [d["message"] for d in diagnostics if d["code"] == code]


def test_many_gaps_are_listed_up_to_a_cap(tmp_path):
    keys = ", ".join(f'"output_{10**k}_binding": {k}' for k in range(1, 15))
    (message,) = _messages(tmp_path, keys, "VKS221")
    assert message.startswith("output indices are [10, 100, 1000, 10000, 100000, ... "
                              "(14 in all)]: output_0 … output_9, output_11 … output_99,")
    assert message.endswith("and 9 more ranges are missing (output_i describes the op's "
                            "result i, so they run 0, 1, 2, ... without gaps)")
    assert len(message) < 400


def test_single_and_double_gaps_are_named_one_by_one():
    report = validate(HEAD + '"input_1_binding": 0, "input_4_binding": 1}')
    (message,) = [d.message for d in report.diagnostics if d.code == "VKS221"]
    assert message == ("input indices are [1, 4]: input_0, input_2, input_3 are missing "
                       "(input_i describes the op's operand i, so they run 0, 1, 2, ... "
                       "without gaps)")


def test_index_beyond_19_digits_is_its_own_error_not_a_traceback(tmp_path):
    index = "9" * 5000  # Python refuses to turn more than 4300 digits into an int
    path = _write(tmp_path, f'"input_0_binding": 0, "input_{index}_binding": 1')
    result = run_cli("check", "--format", "json", str(path))
    assert result.returncode == 1, text(result)
    assert "Traceback" not in result.stderr.decode()
    codes = [d["code"] for d in json.loads(result.stdout)["files"][0]["diagnostics"]]
    assert "VKS107" in codes
    assert "VKS221" not in codes  # the index is never treated as a number


def test_huge_hexadecimal_and_glued_indices_are_too_large(tmp_path):
    messages = _messages(tmp_path, f'"input_0x{"f" * 5000}_binding": 0, '
                                   f'"output{"7" * 30}_binding": 1', "VKS107")
    assert len(messages) == 2
    assert "the index has 30 digits" in messages[1]


def test_malformed_hexadecimal_index_is_not_a_number():
    report = validate(HEAD + '"input_0xzz_binding": 0}')
    assert "VKS113" in report.codes


def test_push_constant_entries_are_parsed_in_linear_time_and_without_conversion(tmp_path):
    # A few thousand spaces took minutes with the old regular expression; a size of
    # 5000 digits or a superscript digit raised a ValueError.
    body = (f'"push_constants": "{" " * 20000}, a: {"9" * 5000}, b: \\u00b2, '
            f'c{" " * 20000}: 4"')
    messages = _messages(tmp_path, body, "VKS210")
    assert "push-constant `a` has a size of 5000 digits" in messages
    assert "push-constant `b` has size '²', not a decimal integer" in messages
