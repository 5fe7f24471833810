#!/usr/bin/env bash
# Creates (or refreshes) the git-ignored virtual environment .venv with the Python tools the
# tests use as real peers: moto's server (an AWS API emulator the tests start on loopback), the
# official OpenAI SDK and websockets. Idempotent: a stamp holding the requirements' SHA-256 makes
# a second run return at once; pip's own cache keeps a rebuild offline-fast.
#
#   KOKORO_VENV   where to create it (default: <repo>/.venv)
set -euo pipefail

root=$(cd "$(dirname "$0")/.." && pwd)
venv=${KOKORO_VENV:-$root/.venv}
req=$root/scripts/requirements-test.txt
want=$(sha256sum "$req" | cut -d' ' -f1)

log() { printf 'pyvenv: %s\n' "$*" >&2; }

if [ -f "$venv/.stamp" ] && [ "$(cat "$venv/.stamp")" = "$want" ] && [ -x "$venv/bin/python" ]; then
  exit 0
fi
command -v python3 >/dev/null || { log "error: python3 is needed for the test tools"; exit 1; }
log "creating $venv from scripts/requirements-test.txt"
rm -rf "$venv"
python3 -m venv "$venv"
"$venv/bin/python" -m pip install --quiet --disable-pip-version-check -r "$req"
echo "$want" > "$venv/.stamp"
log "ready: $("$venv/bin/python" --version), $("$venv/bin/python" -m pip --version | cut -d' ' -f1-2)"
