#!/usr/bin/env bash
# Regenerates testdata/reference/: the model's output for fixed phonemes, voices and speeds as
# kokoro-onnx 0.6.1 makes it (scripts/reference/model_reference.py says how), the reference that
# tts/reference_test.go holds kokoro's model input to. Links the git-ignored .venv-reference
# to the environment scripts/setup/pyvenv.sh builds once from scripts/requirements-reference.txt.
#
#   scripts/reference/model_reference.sh        (assets from `make setup`: the int8 model)
set -euo pipefail

root=$(cd "$(dirname "$0")/../.." && pwd)
cd "$root"
bash scripts/setup/pyvenv.sh .venv-reference scripts/setup/requirements-reference.txt
make -s setup
.venv-reference/bin/python scripts/reference/model_reference.py "$@"
