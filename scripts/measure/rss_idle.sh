#!/usr/bin/env bash
# What the server's memory does after long, slow requests and a pause, for several settings side
# by side in one run: each configuration gets a fresh server, which is warmed up, then serves four
# 3,000-character requests at speed 0.5, two at a time, then idles.
#
#   scripts/measure/rss_idle.sh [--idle S] [--out FILE] [CONFIG …]
#
# A CONFIG is 'LABEL=ENV=V … -- SERVE FLAGS…' (either side of -- may be empty); without any, the
# built-in comparison runs: the defaults, ONNX Runtime's CPU arena off, glibc with two malloc
# arenas and fixed trim and mmap thresholds, and both together. Prints one line per
# configuration: RSS once warm, the high-water mark (VmHWM), RSS after the idle pause and that
# as a percentage of the warm RSS, and the wall time of the four requests.
set -euo pipefail

root=$(cd "$(dirname "$0")/../.." && pwd)
cd "$root"
idle=10 out=/dev/null
while [ $# -gt 0 ]; do
  case $1 in
    --idle) idle=$2; shift 2 ;;
    --out) out=$2; shift 2 ;;
    -h|--help) sed -n '2,13p' "$0"; exit 0 ;;
    *) break ;;
  esac
done
configs=("$@")
if [ ${#configs[@]} -eq 0 ]; then
  configs=(
    "defaults= -- "
    "cpu-arena-off= -- --cpu-arena off"
    "glibc-trim=MALLOC_ARENA_MAX=2 GLIBC_TUNABLES=glibc.malloc.trim_threshold=131072:glibc.malloc.mmap_threshold=131072 -- "
    "cpu-arena-off+glibc-trim=MALLOC_ARENA_MAX=2 GLIBC_TUNABLES=glibc.malloc.trim_threshold=131072:glibc.malloc.mmap_threshold=131072 -- --cpu-arena off"
  )
fi
make -s build

# 3,000 characters of running prose: the perf sentences joined until the length is reached.
text=$(grep -v '^#' testdata/perf/texts.txt | tr '\n' ' ')
while [ ${#text} -lt 3000 ]; do text="$text $text"; done
text=${text:0:3000}
body=$(python3 -c 'import json,sys; print(json.dumps({"text": sys.argv[1], "speed": 0.5}))' "$text")

pid=""
cleanup() { [ -z "$pid" ] || kill "$pid" 2>/dev/null || true; }
trap cleanup EXIT
kb() { awk -v k="$2" '$1 == k":" {print $2}' "/proc/$1/status"; }
port=18970
for cfg in "${configs[@]}"; do
  label=${cfg%%=*} rest=${cfg#*=}
  envs=${rest%%--*} flags=""
  [[ $rest == *--* ]] && flags=${rest#*--}
  port=$((port + 1))
  # shellcheck disable=SC2086 # envs and flags are word lists
  env $envs bin/kokoro serve --host 127.0.0.1 --port "$port" $flags >"/tmp/rss_idle-$port.log" 2>&1 &
  pid=$!
  for _ in $(seq 1200); do curl -fs "http://127.0.0.1:$port/ping" >/dev/null 2>&1 && break; sleep 0.5; done
  # Warm-up: one short request of each speed, so the warm level includes a used engine.
  for s in 1.0 0.5; do
    curl -fsS -o /dev/null -H 'Content-Type: application/json' -d "{\"text\": \"Warming up the engine.\", \"speed\": $s}" "http://127.0.0.1:$port/invocations"
  done
  sleep 2
  warm=$(kb "$pid" VmRSS)
  t0=$(date +%s.%N)
  for _ in 1 2; do
    reqs=()
    for _ in 1 2; do
      curl -fsS -o /dev/null -H 'Content-Type: application/json' -d "$body" "http://127.0.0.1:$port/invocations" &
      reqs+=($!)
    done
    wait "${reqs[@]}"
  done
  took=$(python3 -c "import sys; print(f'{float(sys.argv[2]) - float(sys.argv[1]):.0f}')" "$t0" "$(date +%s.%N)")
  peak=$(kb "$pid" VmHWM)
  sleep "$idle"
  after=$(kb "$pid" VmRSS)
  kill "$pid"; wait "$pid" 2>/dev/null || true; pid=""
  printf '%-32s warm %5d MB, peak %5d MB, after %ss idle %5d MB (%d %% of warm), 4 requests in %s s\n' \
    "$label" $((warm / 1024)) $((peak / 1024)) "$idle" $((after / 1024)) $((100 * after / warm)) "$took" | tee -a "$out"
done
