#!/usr/bin/env bash
# The side-by-side listening benchmark (scripts/measure/listen_bench.py says what it measures): kokoro,
# optionally a baseline build of it, fastkokoro 0.7.0, kokoro-onnx 0.6.1 and misaki's reference
# phonemes, all on the model and voices in assets/, judged by pocketsphinx.
#
#   scripts/measure/listen_bench.sh [--baseline REV [--baseline-voices a,b] [--baseline-args ARGS]]
#                           [--args ARGS] [--voices a,b,c] [--only SYSTEM=VOICES]...
#                           [--sentences FILE] [--out DIR]
#
# --args and --baseline-args are more `kokoro serve` flags for this build's server and the
# baseline's (e.g. --args "--first-chunk-at word"), split on spaces.
# --only limits one system (fastkokoro, kokoro-onnx, reference) to some of the voices.
# Sets up two git-ignored virtual environments from pinned requirements: .venv-peers
# (scripts/setup/requirements-peers.txt) and .venv-misaki (scripts/setup/requirements-misaki.txt less torch;
# misaki needs spaCy, which the peers do not). Peers' audio is kept in OUT/wav between runs (the same
# model and input give the same samples); kokoro's is made anew on every run. Takes about
# 8 CPU-seconds per sentence, system and voice.
set -euo pipefail

root=$(cd "$(dirname "$0")/../.." && pwd)
cd "$root"
only=() baseline="" baseline_voices="" args="" baseline_args="" voices=af_heart,am_michael,bf_emma sentences=testdata/listen/sentences.txt out=out/listen
while [ $# -gt 0 ]; do
  case $1 in
    --baseline) baseline=$2; shift 2 ;;
    --baseline-voices) baseline_voices=$2; shift 2 ;;
    --args) args=$2; shift 2 ;;
    --baseline-args) baseline_args=$2; shift 2 ;;
    --voices) voices=$2; shift 2 ;;
    --only) only+=(--only "$2"); shift 2 ;;
    --sentences) sentences=$2; shift 2 ;;
    --out) out=$2; shift 2 ;;
    *) echo "usage: $0 [--baseline REV [--baseline-voices a,b] [--baseline-args ARGS]] [--args ARGS] [--voices a,b] [--only SYSTEM=VOICES]... [--sentences FILE] [--out DIR]" >&2; exit 2 ;;
  esac
done
log() { printf 'listen_bench: %s\n' "$*" >&2; }

command -v pocketsphinx_continuous >/dev/null || { log "pocketsphinx is missing: make setup as root installs it"; exit 1; }
make -s setup build

venv() { # dir requirements [pip options]
  local dir=$1 req=$2; shift 2
  local want; want=$(cat "$req" <(echo "$*") | sha256sum | cut -d' ' -f1)
  if [ ! -f "$dir/.stamp" ] || [ "$(cat "$dir/.stamp")" != "$want" ]; then
    log "creating $dir from $req"
    rm -rf "$dir"
    python3 -m venv "$dir"
    "$dir/bin/python" -m pip install --quiet --disable-pip-version-check "$@" -r "$req"
    echo "$want" > "$dir/.stamp"
  fi
}
venv .venv-peers scripts/setup/requirements-peers.txt
# misaki's English G2P with trf=False uses spaCy's small model and never imports torch: the
# pinned set is installed without the torch and CUDA wheels (gigabytes) and without resolving.
light=$(mktemp)
grep -vE '^(torch|triton|nvidia-|cuda-|curated-|spacy-curated-)' scripts/setup/requirements-misaki.txt > "$light"
venv .venv-misaki "$light" --no-deps
rm -f "$light"

mkdir -p "$out"
# kokoro's clips are made anew; what the judge heard stays cached by each clip's hash.
[ ! -d "$out/wav/kokoro" ] || find "$out/wav/kokoro" -name '*.wav' -delete
log "misaki's phonemes"
.venv-misaki/bin/python scripts/measure/listen_bench.py phonemes --sentences "$sentences" --out "$out/misaki.json" 2>/dev/null

pids=()
cleanup() { for p in "${pids[@]}"; do kill "$p" 2>/dev/null || true; done; [ -z "${tree:-}" ] || git worktree remove --force "$tree"; }
trap cleanup EXIT
serve() { # binary port [serve flags]
  local bin=$1 port=$2; shift 2
  "$bin" serve --host 127.0.0.1 --port "$port" "$@" >"$out/serve-$port.log" 2>&1 &
  pids+=($!)
  for _ in $(seq 600); do
    curl -fs "http://127.0.0.1:$port/ping" >/dev/null 2>&1 && return 0
    sleep 0.5
  done
  log "server on port $port did not become ready"; exit 1
}
servers=(--kokoro "kokoro=http://127.0.0.1:18931")
# shellcheck disable=SC2086 # the extra flags are split on spaces
serve bin/kokoro 18931 $args
if [ -n "$baseline" ]; then
  rev=$(git rev-parse --short "$baseline")
  tree=$(mktemp -d)/kokoro-$rev
  git worktree add --detach "$tree" "$rev" >/dev/null
  (cd "$tree" && go build -o "$root/$out/kokoro-$rev" ./cmd/kokoro)
  # shellcheck disable=SC2086
  serve "$out/kokoro-$rev" 18932 $baseline_args
  servers+=(--kokoro "kokoro@$rev=http://127.0.0.1:18932")
  [ -z "$baseline_voices" ] || servers+=(--only "kokoro@$rev=$baseline_voices")
fi

.venv-peers/bin/python scripts/measure/listen_bench.py run --sentences "$sentences" --voices "$voices" \
  "${servers[@]}" "${only[@]}" --model assets/model/model.onnx --voices-dir assets/voices \
  --misaki "$out/misaki.json" --kokoro-bin bin/kokoro --out "$out" \
  --command-line "scripts/measure/listen_bench.sh${baseline:+ --baseline $baseline}${baseline_voices:+ --baseline-voices $baseline_voices}${baseline_args:+ --baseline-args \"$baseline_args\"}${args:+ --args \"$args\"} --voices $voices${only[*]:+ ${only[*]}}$([ "$sentences" = testdata/listen/sentences.txt ] || echo " --sentences $sentences")$([ "$out" = out/listen ] || echo " --out $out")"
