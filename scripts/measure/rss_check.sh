#!/usr/bin/env bash
# The server's resident memory after a sequence of long and slow (speed 0.5) requests, the case
# where ONNX Runtime's arena used to grow to the largest shape and stay there: for this build
# and, with --baseline REV, another one, each with the server flags given after --.
#
#   scripts/measure/rss_check.sh [--baseline REV] [--out FILE] [-- SERVE FLAGS…]
#
# Prints one line per server: RSS once ready, after each request, the peak (VmHWM), and RSS after
# 5 s idle.
set -euo pipefail

root=$(cd "$(dirname "$0")/../.." && pwd)
cd "$root"
baseline="" out=/dev/null
while [ $# -gt 0 ]; do
  case $1 in
    --baseline) baseline=$2; shift 2 ;;
    --out) out=$2; shift 2 ;;
    --) shift; break ;;
    *) sed -n '2,10p' "$0" >&2; exit 2 ;;
  esac
done
flags=("$@")
make -s build

long="The committee reviewed every proposal with considerable patience and care, and then it asked each team to explain its budget, its schedule and the risks it saw, one after another, until the late afternoon; nobody left before the chair had summed up what had been agreed and what was still open."
sequence=("0.5:$long" "1.0:$long" "0.5:$long")

pid="" tree=""
cleanup() { [ -z "$pid" ] || kill "$pid" 2>/dev/null || true; [ -z "$tree" ] || git worktree remove --force "$tree"; }
trap cleanup EXIT
rss() { awk -v k="$2" '$1 == k":" {printf "%d MB", $2 / 1024}' "/proc/$1/status"; }
measure() { # label binary port
  "$2" serve --host 127.0.0.1 --port "$3" "${flags[@]}" >/tmp/rss_check-$3.log 2>&1 &
  pid=$!
  for _ in $(seq 1200); do curl -fs "http://127.0.0.1:$3/ping" >/dev/null 2>&1 && break; sleep 0.5; done
  local line="$1 ${flags[*]}: ready $(rss "$pid" VmRSS)"
  for item in "${sequence[@]}"; do
    local speed=${item%%:*} text=${item#*:}
    curl -fsS -o /dev/null -H 'Content-Type: application/json' \
      -d "{\"text\": \"$text\", \"speed\": $speed, \"stream\": false}" "http://127.0.0.1:$3/invocations"
    line+=", after speed $speed $(rss "$pid" VmRSS)"
  done
  sleep 5
  line+="; peak $(rss "$pid" VmHWM), idle $(rss "$pid" VmRSS)"
  kill "$pid"; wait "$pid" 2>/dev/null || true; pid=""
  echo "$line" | tee -a "$out"
}
if [ -n "$baseline" ]; then
  rev=$(git rev-parse --short "$baseline")
  tree=$(mktemp -d)/kokoro-$rev
  git worktree add --detach "$tree" "$rev" >/dev/null
  (cd "$tree" && go build -o "$tree/kokoro" ./cmd/kokoro)
  measure "kokoro@$rev" "$tree/kokoro" 18961
fi
measure "kokoro@$(git rev-parse --short HEAD)" bin/kokoro 18962
