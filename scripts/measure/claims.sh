#!/usr/bin/env bash
# Measures the performance claims made in docs/ and in code comments, each with both sides
# side by side in one run (alternating rounds, with their spread), and writes each report to
# testdata/claims/NAME.txt with the host, the date, the commit and the command.
#
#   scripts/measure/claims.sh ort       ONNX Runtime 1.32.0 from PyPI (default) against 1.30.0 from npm
#                               (KOKORO_ORT_SOURCE=npm, installed on the side in out/assets-npm)
#   scripts/measure/claims.sh chunks    later chunks of 200 ids (the CPU default) against 510
#   scripts/measure/claims.sh lexicon   the lexicon scanner against encoding/json
#   scripts/measure/claims.sh espeak    a word through the espeak-ng helper against a one-shot process
#   scripts/measure/claims.sh espeaklib a word through espeak-ng's library against the helper process
#   scripts/measure/claims.sh arena     CPU time of a chunk with ONNX Runtime's CPU arena against without
#   scripts/measure/claims.sh all       all of them
#
#   ROUNDS (default 5 for the model, 7 for the rest)
set -euo pipefail

root=$(cd "$(dirname "$0")/../.." && pwd)
cd "$root"
out=testdata/claims
mkdir -p "$out"
log() { printf 'claims: %s\n' "$*" >&2; }

# gobench NAME TITLE COMMAND...: a Go benchmark's output under the report's header.
gobench() { # name title command...
  local name=$1 title=$2; shift 2
  log "$name: $*"
  {
    echo "# $title"
    echo
    echo "command: $*"
    echo "date:    $(date -u '+%Y-%m-%d %H:%M') UTC, commit $(git describe --always --dirty)"
    echo "host:    $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2- | sed 's/^ //'), $(nproc) CPUs, $(awk '/MemTotal/ {printf "%.0f GiB", $2/1048576}' /proc/meminfo), $(uname -sr)"
    echo
    KOKORO_REQUIRE_ASSETS=1 "$@" 2>&1 | grep -vE '^(PASS|ok |goos|goarch|pkg)'
  } > "$out/$name.txt"
  cat "$out/$name.txt"
}

claim() {
  case $1 in
    ort)
      make -s setup build
      KOKORO_ASSETS=$root/out/assets-npm KOKORO_ORT_SOURCE=npm KOKORO_ASSETS_ONLY=1 bash scripts/setup/setup.sh
      python3 scripts/measure/ab_synth.py --title "ONNX Runtime 1.32.0 (PyPI, the default) against 1.30.0 (npm, KOKORO_ORT_SOURCE=npm) on the int8 model" \
        --command-line "scripts/measure/claims.sh ort" --text-file "$out/text_short.txt" --rounds "${ROUNDS:-5}" --out "$out/ort_source.txt" \
        --variant "pypi-1.32=--ort-lib assets/lib/libonnxruntime.so.1" \
        --variant "npm-1.30=--ort-lib out/assets-npm/lib/libonnxruntime.so.1" ;;
    chunks)
      make -s setup build
      python3 scripts/measure/ab_synth.py --title "Later chunks of 200 phoneme ids (the CPU default) against 510 on the int8 model, CPU" \
        --command-line "scripts/measure/claims.sh chunks" --text-file "$out/text_long.txt" --rounds "${ROUNDS:-5}" --out "$out/chunk_ids.txt" \
        --common "--provider cpu" \
        --variant "200=--max-chunk-ids 200" --variant "510=--max-chunk-ids 510" ;;
    lexicon)
      make -s setup
      gobench lexicon_readers "The lexicon scanner (parseDict) against encoding/json (decodeDict) on the four lexicon files" \
        go test -count=1 -run '^$' -bench LexiconReaders -benchtime 1x -v ./phonemize/en/ ;;
    espeak)
      make -s setup
      gobench espeak_helper "A word through the long-lived espeak-ng helper against a one-shot espeak-ng process" \
        go test -count=1 -run '^$' -bench EspeakHelper -benchtime 1x -v ./phonemize/espeak/ ;;
    espeaklib)
      make -s setup
      gobench espeak_library "A word through espeak-ng's library (in process) against the long-lived espeak-ng helper" \
        go test -count=1 -run '^$' -bench EspeakLibrary -benchtime 1x -v ./phonemize/espeak/ ;;
    arena)
      make -s setup
      gobench cpu_arena "CPU time of one chunk with ONNX Runtime's CPU arena against without it, one thread each, alternating" \
        go test -count=1 -run '^$' -bench CPUArena -benchtime 9x -v ./model/ ;;
    all) for c in lexicon espeak espeaklib arena chunks ort; do claim "$c"; done ;;
    *) echo "usage: $0 ort|chunks|lexicon|espeak|espeaklib|arena|all" >&2; exit 2 ;;
  esac
}
claim "${1:-all}"
