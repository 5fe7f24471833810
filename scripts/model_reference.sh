#!/usr/bin/env bash
# Regenerates testdata/reference/: the model's output for fixed phonemes, voices and speeds as
# kokoro-onnx 0.6.1 makes it (scripts/model_reference.py says how), the reference that
# tts/reference_test.go holds kokoro's model input to. Builds the git-ignored environment
# .venv-reference from scripts/requirements-reference.txt on first use.
#
#   scripts/model_reference.sh        (assets from `make setup`: the int8 model)
set -euo pipefail

root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
venv=.venv-reference req=scripts/requirements-reference.txt
want=$(sha256sum "$req" | cut -d' ' -f1)
if [ ! -f "$venv/.stamp" ] || [ "$(cat "$venv/.stamp")" != "$want" ]; then
  echo "model_reference: creating $venv from $req" >&2
  rm -rf "$venv"
  python3 -m venv "$venv"
  "$venv/bin/python" -m pip install --quiet --disable-pip-version-check -r "$req"
  echo "$want" > "$venv/.stamp"
fi
make -s setup
"$venv/bin/python" scripts/model_reference.py "$@"
