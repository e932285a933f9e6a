"""`tosa-vkshader lsp` in a real editor: Debian's Neovim, headless, runs the server the
way docs/editors.md sets it up, shows its diagnostics and its hover, and applies its quick
fix (the server then checks the changed buffer clean). Neovim 0.7 (Debian 12) has
``vim.lsp.start_client``; ``vim.lsp.start`` (0.8+) is the same with the attaching done
for you."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from conftest import FIXTURES

NVIM = shutil.which("nvim")

SCRIPT = r"""
local root, file, out, python = unpack(_G.args)
local result = { diagnostics = {} }

local function drive()
local client = vim.lsp.start_client({
  name = "tosa-vkshader",
  cmd = { python, "-m", "tosa_vkshader", "lsp" },
  root_dir = root,
})
vim.cmd("edit " .. file)
vim.lsp.buf_attach_client(0, client)
vim.wait(15000, function() return #vim.diagnostic.get(0) > 0 end, 20)
for _, d in ipairs(vim.diagnostic.get(0)) do
  local lsp = (d.user_data or {}).lsp or {}
  table.insert(result.diagnostics, {
    code = lsp.code or d.code, lnum = d.lnum, col = d.col,
    end_lnum = d.end_lnum, end_col = d.end_col })
end
local hover = vim.lsp.buf_request_sync(0, "textDocument/hover", {
  textDocument = { uri = vim.uri_from_bufnr(0) },
  position = { line = 3, character = 5 } }, 15000)
for _, answer in pairs(hover or {}) do
  if answer.result then result.hover = answer.result.contents.value end
end
-- What vim.lsp.buf.code_action() asks for the diagnostic under the cursor.
local first = vim.diagnostic.get(0)[1]
local range = { start = { line = first.lnum, character = first.col },
                ["end"] = { line = first.end_lnum, character = first.end_col } }
local actions = vim.lsp.buf_request_sync(0, "textDocument/codeAction", {
  textDocument = { uri = vim.uri_from_bufnr(0) },
  range = range,
  context = { diagnostics = { { range = range, message = first.message, severity = 1,
                                code = "VKS111", source = first.source } },
              only = { "quickfix" } },
}, 15000)

for _, answer in pairs(actions or {}) do
  if answer.err then error(vim.inspect(answer.err)) end
  for _, action in ipairs(answer.result or {}) do
    result.action = action.title
    vim.lsp.util.apply_workspace_edit(action.edit, "utf-16")
  end
end
result.fixed_line = vim.api.nvim_buf_get_lines(0, 3, 4, false)[1]
result.cleared = vim.wait(15000, function() return #vim.diagnostic.get(0) == 0 end, 20)
vim.lsp.stop_client(client)
result.stopped = vim.wait(15000, function() return vim.lsp.client_is_stopped(client) end, 20)
end

-- Whatever happens, write what was seen and leave (an error must not leave Neovim
-- waiting for input).
local ok, problem = xpcall(drive, debug.traceback)
if not ok then result.error = problem end
local handle = io.open(out, "w")
handle:write(vim.fn.json_encode(result))
handle:close()
vim.cmd("qa!")
"""


@pytest.mark.slow
def test_neovim_shows_the_diagnostics_and_the_hover_and_applies_the_fix(tmp_path: Path):
    assert NVIM is not None, "Neovim is missing: scripts/bootstrap.sh installs Debian's neovim"
    op = tmp_path / "op.json"
    shutil.copy(FIXTURES / "invalid" / "leading-zero-index.json", op)
    out = tmp_path / "result.json"
    script = tmp_path / "drive.lua"
    arguments = [str(tmp_path), str(op), str(out), sys.executable]
    script.write_text(f"_G.args = vim.fn.json_decode([==[{json.dumps(arguments)}]==])\n"
                      + SCRIPT)
    subprocess.run([NVIM, "--headless", "--clean", "-n", "-c", f"luafile {script}"],
                   cwd=tmp_path, timeout=60, check=True, stdin=subprocess.DEVNULL,
                   capture_output=True)
    result = json.loads(out.read_text())
    assert "error" not in result, result["error"]
    assert result["diagnostics"] == [
        {"code": "VKS111", "lnum": 3, "col": 2, "end_lnum": 3, "end_col": 20}]
    assert "VKS111 leading-zero-index" in result["hover"]
    assert result["action"] == "renamed `input_00_binding` to `input_0_binding` (VKS111)"
    assert result["fixed_line"] == '  "input_0_binding": 0,'
    assert result["cleared"] is True  # Neovim sent the change; the server checked it clean
    assert result["stopped"] is True
