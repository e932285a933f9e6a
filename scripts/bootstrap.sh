#!/usr/bin/env bash
# Install everything the project needs, idempotently: Debian packages when missing,
# then a virtual environment in .venv with the project and its dev extras.
# Sourced or run by scripts/check-fixtures and scripts/test; safe to run repeatedly.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$root"

apt_packages=(glslc spirv-cross)
# `tosa-vkshader run` and the real-toolchain tests: a Vulkan loader, Mesa's lavapipe (a
# Vulkan 1.3 device on the CPU), vulkaninfo (device profiles) and the Khronos validation
# layer (`run --validate`).
apt_packages+=(libvulkan1 mesa-vulkan-drivers vulkan-tools vulkan-validationlayers)
# The web tests drive Debian's chromium through its chromedriver (no browser download);
# TOSA_VKSHADER_WITH_BROWSER=0 skips installing them on machines that never run those.
[ "${TOSA_VKSHADER_WITH_BROWSER:-1}" = 1 ] && apt_packages+=(chromium chromium-driver)
missing=()
for pkg in "${apt_packages[@]}"; do
  dpkg-query -W -f='${Status}' "$pkg" 2>/dev/null | grep -q "install ok installed" || missing+=("$pkg")
done
if [ ${#missing[@]} -gt 0 ]; then
  echo "bootstrap: installing Debian packages: ${missing[*]}" >&2
  sudo_cmd=""
  [ "$(id -u)" -ne 0 ] && sudo_cmd="sudo"
  export DEBIAN_FRONTEND=noninteractive
  $sudo_cmd apt-get update -qq >&2
  $sudo_cmd apt-get install -y -qq --no-install-recommends "${missing[@]}" >&2
fi

python="${PYTHON:-python3}"
if [ ! -x .venv/bin/python ]; then
  echo "bootstrap: creating .venv" >&2
  "$python" -m venv .venv >&2
fi
# Reinstall only when the dependency list changed.
stamp=".venv/.tosa-vkshader-installed"
want="$(sha256sum pyproject.toml | cut -d' ' -f1)"
if [ ! -f "$stamp" ] || [ "$(cat "$stamp")" != "$want" ]; then
  echo "bootstrap: installing Python packages into .venv" >&2
  .venv/bin/python -m pip install -q --disable-pip-version-check -e ".[dev]" >&2
  rm -rf .venv/wheelhouse
  echo "$want" > "$stamp"
fi
# An editable install runs from src/; with PYTHONDONTWRITEBYTECODE set nothing would ever
# cache the compiled modules, and compiling them costs a quarter of a small check's time
# (docs/performance.md). Only stale files are recompiled.
.venv/bin/python -m compileall -q src >&2
# Wheels of the project's build and runtime dependencies, so the pre-commit hook test can
# install the hook (language: python) without reaching a package index.
if [ ! -f .venv/wheelhouse/.complete ]; then
  echo "bootstrap: downloading wheels for the offline pre-commit test" >&2
  # shellcheck disable=SC2046  # one argument per requirement, none has spaces
  .venv/bin/python -m pip download -q --disable-pip-version-check --only-binary=:all: \
    -d .venv/wheelhouse $(.venv/bin/python -c 'import tomllib
p = tomllib.load(open("pyproject.toml", "rb"))
print(" ".join(p["build-system"]["requires"] + p["project"]["dependencies"]))') >&2
  touch .venv/wheelhouse/.complete
fi
