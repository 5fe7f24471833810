#!/usr/bin/env bash
# The GPU path on a machine with an NVIDIA GPU, in a few minutes: the model-only limit with 1, 2
# and 4 CUDA slots on one device (`kokoro tune --model-only`), then a short Q_max ladder of the
# server on CUDA (`kokoro bench qmax --self`, rung by rung: the decoder in windows where the
# model splits, as it does on CPU), printed as one table.
#
#   scripts/measure/gpu-check.sh [--ladder 1,4,16,32] [--hold 30s] [--window 20s] [--out DIR]
#
# Needs the GPU build of ONNX Runtime and a float model (the int8 export's integer operators
# have no CUDA kernels): `KOKORO_ORT_GPU=1 KOKORO_MODEL_VARIANT=fp32 make setup` where the
# internet is reachable, or the assets of the GPU image (KOKORO_ASSETS, KOKORO_MODEL,
# KOKORO_ORT_LIB and LD_LIBRARY_PATH as the image sets them). Without them it says what is
# missing and stops.
set -euo pipefail

root=$(cd "$(dirname "$0")/../.." && pwd)
cd "$root"
ladder=1,4,16,32 hold=30s window=20s out=out/gpu-check
while [ $# -gt 0 ]; do
  case $1 in
    --ladder) ladder=$2; shift 2 ;;
    --hold) hold=$2; shift 2 ;;
    --window) window=$2; shift 2 ;;
    --out) out=$2; shift 2 ;;
    *) sed -n '2,12p' "$0" >&2; exit 2 ;;
  esac
done
log() { printf 'gpu-check: %s\n' "$*" >&2; }

command -v nvidia-smi >/dev/null && nvidia-smi -L >/dev/null 2>&1 || { log "no NVIDIA GPU here (nvidia-smi -L failed)"; exit 1; }
export KOKORO_ORT_LIB=${KOKORO_ORT_LIB:-$PWD/assets/lib-gpu/libonnxruntime.so.1}
[ -f "$KOKORO_ORT_LIB" ] || { log "no GPU ONNX Runtime at $KOKORO_ORT_LIB: KOKORO_ORT_GPU=1 make setup, or set KOKORO_ORT_LIB"; exit 1; }
[ -f "$(dirname "$KOKORO_ORT_LIB")/libonnxruntime_providers_cuda.so" ] || { log "$KOKORO_ORT_LIB has no CUDA provider beside it"; exit 1; }
export LD_LIBRARY_PATH=$(dirname "$KOKORO_ORT_LIB")${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
[ -x bin/kokoro ] || go build -o bin/kokoro ./cmd/kokoro

rm -rf "$out"
mkdir -p "$out/runs"
{
  echo "date: $(date -u +%FT%TZ)"
  echo "commit: $(git rev-parse --short HEAD 2>/dev/null || echo unknown)"
  echo "gpu: $(nvidia-smi --query-gpu=name,memory.total,driver_version --format=csv,noheader | head -1)"
  echo "cpu: $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2- | sed 's/^ *//') x $(nproc)"
  echo "model: ${KOKORO_MODEL:-assets/model/model.onnx}"
  echo "onnxruntime: $KOKORO_ORT_LIB"
  echo "load average at start: $(cut -d' ' -f1-3 /proc/loadavg)"
  echo "command: scripts/measure/gpu-check.sh --ladder $ladder --hold $hold --window $window"
} > "$out/host.txt"

log "model-only limit on CUDA"
bin/kokoro tune --model-only --provider cuda --shapes '1;1,1;1,1,1,1' --texts testdata/perf/texts.txt \
  --voice af_heart --hold "$window" >"$out/model-only.txt" 2>"$out/model-only.log" ||
  { log "tune failed:"; tail -20 "$out/model-only.log" >&2; exit 1; }
grep -i "quantized model on cuda" "$out/model-only.log" >&2 || true
# The server decodes in windows only where the model split into predictor and decoder at load.
echo "decoder windows: $(grep -o '"split":[a-z]*' "$out/model-only.log" | head -1 | cut -d: -f2)" | tee -a "$out/host.txt" >&2
IFS=, read -ra rungs <<< "$ladder"
for n in "${rungs[@]}"; do
  dir=$out/runs/kokoro-cuda/n$n
  mkdir -p "$dir"
  cut -d' ' -f1-3 /proc/loadavg > "$dir/load-before.txt"
  log "ladder N=$n"
  bin/kokoro bench qmax --self --provider cuda --ladder "$n" --hold "$hold" --measure-window "$window" --settle 3s \
    --slo-ms 2000 --texts testdata/perf/texts.txt --voice af_heart --out "$dir" >"$dir/stdout.txt" 2>"$dir/stderr.txt" ||
    { log "N=$n failed:"; tail -5 "$dir/stderr.txt" >&2; }
  cut -d' ' -f1-3 /proc/loadavg > "$dir/load-after.txt"
done
echo "load average at end: $(cut -d' ' -f1-3 /proc/loadavg)" >> "$out/host.txt"
python3 scripts/measure/perf_summary.py --dir "$out" --slo-ms 2000 --systems kokoro-cuda | tee "$out/summary.md"
