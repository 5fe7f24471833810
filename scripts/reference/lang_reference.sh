#!/usr/bin/env bash
# Builds the reference G2P for the languages other than English in the git-ignored .venv-lang
# (scripts/setup/requirements-lang.txt, fully pinned) and writes the reference phonemes of the
# corpora in phonemize/testdata/lang (scripts/reference/gen_lang_reference.py):
#
#   <lang>_<bucket>.tsv            misaki on the host's espeak-ng library, the one the Go
#                                  phonemizer loads (the comparison the tests gate on)
#   <lang>_<bucket>_espeak152.tsv  misaki as shipped, on espeakng-loader's espeak-ng 1.52.0
#
#   bash scripts/reference/lang_reference.sh [--bucket dev|heldout] [--lang es ...]
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
venv=$root/.venv-lang
req=$root/scripts/setup/requirements-lang.txt
stamp=$venv/.requirements.sha256
want=$(sha256sum "$req" | cut -d' ' -f1)
if [ ! -x "$venv/bin/python" ] || [ "$(cat "$stamp" 2>/dev/null)" != "$want" ]; then
  python3 -m venv "$venv"
  "$venv/bin/pip" install --quiet --no-deps -r "$req"
  echo "$want" > "$stamp"
fi
langs=()
espeak_langs=()
args=()
while [ $# -gt 0 ]; do
  case $1 in
    --lang) langs+=("$2"); shift 2 ;;
    *) args+=("$1"); shift ;;
  esac
done
[ ${#langs[@]} -gt 0 ] || langs=(es fr-fr hi it pt-br zh)
for l in "${langs[@]}"; do
  case $l in es|fr-fr|hi|it|pt-br) espeak_langs+=(--lang "$l") ;; esac
done
py=$venv/bin/python
for l in "${langs[@]}"; do
  "$py" "$root/scripts/reference/gen_lang_reference.py" --espeak system --lang "$l" "${args[@]}"
done
if [ ${#espeak_langs[@]} -gt 0 ]; then
  "$py" "$root/scripts/reference/gen_lang_reference.py" --espeak loader --suffix _espeak152 "${espeak_langs[@]}" "${args[@]}"
fi
