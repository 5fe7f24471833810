#!/usr/bin/env bash
# Creates (or refreshes) the git-ignored virtual environments with the Python tools the tests
# use as real peers:
#   .venv      scripts/requirements-test.txt: moto's server (an AWS API emulator the tests start
#              on loopback), the official OpenAI SDK, websockets, boto3, soundfile
#   .venv-sdk  scripts/requirements-sdk.txt: the official SageMaker bidirectional-stream SDK,
#              which needs Python >= 3.12 (found as below)
# Idempotent: a stamp holding the requirements' SHA-256 makes a second run return at once;
# pip's own cache keeps a rebuild offline-fast.
#
#   KOKORO_VENV        where to create .venv (default: <repo>/.venv)
#   KOKORO_SDK_VENV    where to create .venv-sdk (default: <repo>/.venv-sdk)
#   KOKORO_SDK_PYTHON  the Python >= 3.12 for .venv-sdk (default: the first of python3.12,
#                      python3.13, python3.14 on PATH that runs, else the oldest of pyenv's
#                      installed versions that is 3.12 or later: the one the pins were made with)
set -euo pipefail

root=$(cd "$(dirname "$0")/.." && pwd)

log() { printf 'pyvenv: %s\n' "$*" >&2; }

# make_venv DIR REQUIREMENTS PYTHON
make_venv() {
  local venv=$1 req=$2 py=$3 want
  want=$(sha256sum "$req" | cut -d' ' -f1)
  if [ -f "$venv/.stamp" ] && [ "$(cat "$venv/.stamp")" = "$want" ] && [ -x "$venv/bin/python" ]; then
    return 0
  fi
  log "creating $venv from ${req#"$root"/} with $("$py" --version)"
  rm -rf "$venv"
  "$py" -m venv "$venv"
  "$venv/bin/python" -m pip install --quiet --disable-pip-version-check -r "$req"
  echo "$want" > "$venv/.stamp"
  log "ready: $venv ($("$venv/bin/python" --version))"
}

# sdk_python prints a Python >= 3.12, or nothing.
sdk_python() {
  local c
  if [ -n "${KOKORO_SDK_PYTHON:-}" ]; then
    printf '%s' "$KOKORO_SDK_PYTHON"
    return
  fi
  local pyenv_root
  pyenv_root=$(pyenv root 2>/dev/null || echo "$HOME/.pyenv")
  for c in python3.12 python3.13 python3.14 $(ls -d "$pyenv_root"/versions/3.* 2>/dev/null | sort -V | sed 's|$|/bin/python3|'); do
    if "$c" -c 'import sys; sys.exit(0 if sys.version_info >= (3, 12) else 1)' >/dev/null 2>&1; then
      command -v "$c"
      return
    fi
  done
}

command -v python3 >/dev/null || { log "error: python3 is needed for the test tools"; exit 1; }
make_venv "${KOKORO_VENV:-$root/.venv}" "$root/scripts/requirements-test.txt" python3

py=$(sdk_python)
if [ -z "$py" ]; then
  log "error: no Python 3.12 or later for .venv-sdk (the SageMaker HTTP/2 SDK needs it): install one (pyenv install 3.12) or set KOKORO_SDK_PYTHON"
  exit 1
fi
make_venv "${KOKORO_SDK_VENV:-$root/.venv-sdk}" "$root/scripts/requirements-sdk.txt" "$py"
