#!/usr/bin/env bash
# Creates (or refreshes) the git-ignored virtual environments with the Python tools the tests
# use as real peers:
#   .venv      scripts/setup/requirements-test.txt: moto's server (an AWS API emulator the tests start
#              on loopback), the official OpenAI SDK, websockets, boto3, soundfile
#   .venv-sdk  scripts/setup/requirements-sdk.txt: the official SageMaker bidirectional-stream SDK,
#              which needs Python >= 3.12 (found as below)
#   .venv-agents  scripts/setup/requirements-agents.txt: the voice-agent frameworks (Pipecat,
#              LiveKit Agents), with the same Python
# or, given `pyvenv.sh LINK REQUIREMENTS [PYTHON]`, that one environment (other scripts' own,
# such as scripts/reference/model_reference.sh's .venv-reference); PYTHON defaults to python3.
# Each environment is built once per requirements file and Python version, in
# $KOKORO_CACHE/venv/, and the checkout's .venv, .venv-sdk and .venv-agents are links to it: a
# second clone or worktree reuses it at once. A stamp holding the requirements' SHA-256 marks a complete
# build (a build that stopped half-way is redone); a lock keeps two clones from building the
# same one at once.
#
#   KOKORO_VENV        where the .venv link goes (default: <repo>/.venv)
#   KOKORO_SDK_VENV    where the .venv-sdk link goes (default: <repo>/.venv-sdk)
#   KOKORO_AGENTS_VENV where the .venv-agents link goes (default: <repo>/.venv-agents)
#   KOKORO_CACHE       the cache (default: ~/.cache/kokoro, as scripts/setup/setup.sh)
#   KOKORO_SDK_PYTHON  the Python >= 3.12 for .venv-sdk (default: the first of python3.12,
#                      python3.13, python3.14 on PATH that runs, else the oldest of pyenv's
#                      installed versions that is 3.12 or later: the one the pins were made with)
set -euo pipefail

root=$(cd "$(dirname "$0")/../.." && pwd)

log() { printf 'pyvenv: %s\n' "$*" >&2; }

cache=${KOKORO_CACHE:-$HOME/.cache/kokoro}/venv

# make_venv LINK REQUIREMENTS PYTHON: LINK points at a complete environment built from
# REQUIREMENTS with PYTHON.
make_venv() {
  local link=$1 req=$2 py=$3 want version store
  want=$(sha256sum "$req" | cut -d' ' -f1)
  version=$("$py" -c 'import platform; print(platform.python_version())')
  store="$cache/$(basename "$req" .txt)-py$version-${want:0:16}"
  if [ -L "$link" ] && [ "$(readlink "$link")" = "$store" ] && [ -f "$store/.stamp" ] && [ "$(cat "$store/.stamp")" = "$want" ]; then
    return 0
  fi
  mkdir -p "$cache"
  (
    flock 9
    if [ -f "$store/.stamp" ] && [ "$(cat "$store/.stamp")" = "$want" ] && [ -x "$store/bin/python" ]; then
      exit 0
    fi
    log "creating $store from ${req#"$root"/} with Python $version"
    rm -rf "$store"
    "$py" -m venv "$store"
    "$store/bin/python" -m pip install --quiet --disable-pip-version-check -r "$req"
    echo "$want" > "$store/.stamp"
  ) 9>"$store.lock"
  rm -rf "$link"
  ln -s "$store" "$link"
  log "ready: $link -> $store"
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
if (($#)); then
  (($# >= 2)) || { log "usage: scripts/setup/pyvenv.sh [LINK REQUIREMENTS [PYTHON]]"; exit 2; }
  make_venv "$1" "$(realpath "$2")" "${3:-python3}"
  exit 0
fi
make_venv "${KOKORO_VENV:-$root/.venv}" "$root/scripts/setup/requirements-test.txt" python3

py=$(sdk_python)
if [ -z "$py" ]; then
  log "error: no Python 3.12 or later for .venv-sdk (the SageMaker HTTP/2 SDK needs it): install one (pyenv install 3.12) or set KOKORO_SDK_PYTHON"
  exit 1
fi
make_venv "${KOKORO_SDK_VENV:-$root/.venv-sdk}" "$root/scripts/setup/requirements-sdk.txt" "$py"
make_venv "${KOKORO_AGENTS_VENV:-$root/.venv-agents}" "$root/scripts/setup/requirements-agents.txt" "$py"
