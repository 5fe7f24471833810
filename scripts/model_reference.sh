#!/usr/bin/env bash
# Regenerates testdata/reference/: the model's output for fixed phonemes, voices and speeds as
# kokoro-onnx 0.6.1 makes it (scripts/model_reference.py says how), the reference that
# tts/reference_test.go holds kokoro's model input to. Links the git-ignored .venv-reference
# to the environment scripts/pyvenv.sh builds once from scripts/requirements-reference.txt.
#
#   scripts/model_reference.sh        (assets from `make setup`: the int8 model)
set -euo pipefail

root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
bash scripts/pyvenv.sh .venv-reference scripts/requirements-reference.txt
make -s setup
.venv-reference/bin/python scripts/model_reference.py "$@"
