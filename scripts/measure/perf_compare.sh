#!/usr/bin/env bash
# kokoro beside the Python Kokoro servers on this machine, the same int8 model, voice and texts:
# the Q_max ladder of `kokoro bench qmax` (one client, closed loop) run rung by rung, the systems
# alternating at every rung so that a change of load on the machine falls on all of them; then
# the model-only limit (`kokoro tune --model-only`) the saturated server is a fraction of.
#
#   scripts/measure/perf_compare.sh [--systems LIST] [--ladder 1,2,4] [--hold 45s] [--window 30s]
#                           [--slo-ms 2000] [--texts FILE] [--out DIR]
#
# Systems (default all): kokoro (its defaults, `bench qmax --self`), kokoro-1x2 and kokoro-2x1
# (fixed shapes: --slots 1 --threads 2, --slots 2 --threads 1), kokoro-old (the default before
# the adaptive shape and the short first phrase: one 2-thread slot, a first chunk of up to 80
# ids ending at punctuation only after 80, later chunks ramped 3×), kokoro-phrase, kokoro-word and
# kokoro-auto (the defaults with --first-chunk-at phrase, word or auto), kokoro-ts (the defaults,
# asking for word timestamps), kokoro-windows (the defaults with --decoder-windows on),
# kokoro-ws and kokoro-ws-ts (the WebSocket protocol without and
# with them), fastkokoro (0.7.0, its
# /v1/audio/speech with stream true, its defaults) and kokoro-onnx (0.6.1 behind one lock,
# scripts/peers/peer_kokoro_onnx.py). The peers come from scripts/setup/requirements-peers.txt in the
# git-ignored .venv-peers, as scripts/measure/listen_bench.sh builds it. Writes every artifact, the raw
# results, the host, the load average around each rung and summary.md into OUT (default
# testdata/perf/compare).
set -euo pipefail

root=$(cd "$(dirname "$0")/../.." && pwd)
cd "$root"
systems=kokoro,kokoro-old,kokoro-1x2,kokoro-2x1,fastkokoro,kokoro-onnx
ladder=1,2,3,4,6 hold=45s window=30s settle=5s slo=2000 texts=testdata/perf/texts.txt out=testdata/perf/compare
while [ $# -gt 0 ]; do
  case $1 in
    --systems) systems=$2; shift 2 ;;
    --ladder) ladder=$2; shift 2 ;;
    --hold) hold=$2; shift 2 ;;
    --window) window=$2; shift 2 ;;
    --settle) settle=$2; shift 2 ;;
    --slo-ms) slo=$2; shift 2 ;;
    --texts) texts=$2; shift 2 ;;
    --out) out=$2; shift 2 ;;
    *) sed -n '2,20p' "$0" >&2; exit 2 ;;
  esac
done
log() { printf 'perf_compare: %s\n' "$*" >&2; }

make -s setup build
venv() { # dir requirements: the same environment, and the same stamp, scripts/measure/listen_bench.sh makes
  local want; want=$(cat "$2" <(echo) | sha256sum | cut -d' ' -f1)
  if [ ! -f "$1/.stamp" ] || [ "$(cat "$1/.stamp")" != "$want" ]; then
    log "creating $1 from $2"
    rm -rf "$1"
    python3 -m venv "$1"
    "$1/bin/python" -m pip install --quiet --disable-pip-version-check -r "$2"
    echo "$want" > "$1/.stamp"
  fi
}
case ,$systems, in *,fastkokoro,*|*,kokoro-onnx,*) venv .venv-peers scripts/setup/requirements-peers.txt ;; esac

rm -rf "$out"
mkdir -p "$out/runs"
model=assets/model/model.onnx
{
  echo "date: $(date -u +%FT%TZ)"
  echo "commit: $(git rev-parse --short HEAD)$(git diff --quiet || echo ' (modified)')"
  echo "cpu: $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2- | sed 's/^ *//') x $(nproc)"
  echo "memory: $(free -g | awk '/Mem:/ {print $2}') GiB"
  echo "kernel: $(uname -r)"
  echo "model: $model sha256 $(sha256sum "$model" | cut -c1-16)"
  echo "onnxruntime: $(basename "$(readlink -f assets/lib/libonnxruntime.so.1)")"
  echo "load average at start: $(cut -d' ' -f1-3 /proc/loadavg)"
  echo "command: scripts/measure/perf_compare.sh --systems $systems --ladder $ladder --hold $hold --window $window --settle $settle --slo-ms $slo --texts $texts"
} > "$out/host.txt"
cat "$out/host.txt" >&2

pids=()
cleanup() { for p in "${pids[@]}"; do kill "$p" 2>/dev/null || true; done; wait 2>/dev/null || true; rm -rf "$(dirname "${npz:-/nonexistent/x}")"; }
trap cleanup EXIT
wait_ready() { # url what
  for _ in $(seq 600); do
    curl -fs "$1" >/dev/null 2>&1 && return 0
    sleep 0.5
  done
  log "$2 did not become ready"; exit 1
}
npz=$(mktemp -d)/voices.npz
if [[ ,$systems, == *,fastkokoro,* || ,$systems, == *,kokoro-onnx,* ]]; then
  .venv-peers/bin/python -c "import sys; sys.path.insert(0, 'scripts/measure'); import listen_bench as l; l.voices_npz('assets/voices', ['af_heart'], '$npz')"
fi
if [[ ,$systems, == *,fastkokoro,* ]]; then
  FASTKOKORO_MODEL_PATH=$model FASTKOKORO_VOICES_PATH=$npz FASTKOKORO_HOST=127.0.0.1 FASTKOKORO_PORT=18951 \
    .venv-peers/bin/fastkokoro >"$out/fastkokoro.log" 2>&1 &
  pids+=($!)
  wait_ready http://127.0.0.1:18951/health fastkokoro
fi
if [[ ,$systems, == *,kokoro-onnx,* ]]; then
  .venv-peers/bin/python scripts/peers/peer_kokoro_onnx.py --model "$model" --voices "$npz" --port 18952 >"$out/kokoro-onnx.log" 2>&1 &
  pids+=($!)
  wait_ready http://127.0.0.1:18952/health kokoro-onnx
fi

common=(--hold "$hold" --measure-window "$window" --settle "$settle" --slo-ms "$slo" --texts "$texts" --voice af_heart)
run_rung() { # system n
  local dir=$out/runs/$1/n$2 args
  mkdir -p "$dir"
  case $1 in
    kokoro) args=(--self) ;;
    kokoro-1x2) args=(--self --slots 1 --threads 2) ;;
    kokoro-old) args=(--self --slots 1 --threads 2 --first-chunk-min-ids 80 --first-chunk-max-ids 80 --chunk-ramp 3 --chunk-context off) ;;
    kokoro-phrase|kokoro-word|kokoro-auto) args=(--self --first-chunk-at "${1#kokoro-}") ;;
    kokoro-2x1) args=(--self --slots 2 --threads 1) ;;
    kokoro-ts) args=(--self --word-timestamps) ;;
    kokoro-windows) args=(--self --decoder-windows on) ;;
    kokoro-ws) args=(--self --transport ws) ;;
    kokoro-ws-ts) args=(--self --transport ws --word-timestamps) ;;
    fastkokoro) args=(--url http://127.0.0.1:18951 --transport openai --server-metrics off --model-name fastkokoro) ;;
    kokoro-onnx) args=(--url http://127.0.0.1:18952 --transport openai --server-metrics off --model-name kokoro-onnx) ;;
    *) log "unknown system $1"; exit 2 ;;
  esac
  echo "$(cut -d' ' -f1-3 /proc/loadavg)" > "$dir/load-before.txt"
  log "$1 N=$2"
  bin/kokoro bench qmax "${args[@]}" "${common[@]}" --ladder "$2" --out "$dir" >"$dir/stdout.txt" 2>"$dir/stderr.txt" ||
    { log "$1 N=$2 failed:"; tail -5 "$dir/stderr.txt" >&2; }
  echo "$(cut -d' ' -f1-3 /proc/loadavg)" > "$dir/load-after.txt"
}
IFS=, read -ra rungs <<< "$ladder"
IFS=, read -ra names <<< "$systems"
for i in "${!rungs[@]}"; do
  # Alternate the order at every rung as well, so that no system always follows another.
  if (( i % 2 )); then order=($(printf '%s\n' "${names[@]}" | tac)); else order=("${names[@]}"); fi
  for s in "${order[@]}"; do run_rung "$s" "${rungs[$i]}"; done
done

log "the model-only limit"
bin/kokoro tune --model-only --texts "$texts" --voice af_heart --hold "$window" >"$out/model-only.txt" 2>"$out/model-only.log"
echo "load average at end: $(cut -d' ' -f1-3 /proc/loadavg)" >> "$out/host.txt"
find "$out/runs" -name '*.png' -delete # a one-rung plot says nothing the table does not
python3 scripts/measure/perf_summary.py --dir "$out" --slo-ms "$slo" --systems "$systems" > "$out/summary.md"
cat "$out/summary.md"
