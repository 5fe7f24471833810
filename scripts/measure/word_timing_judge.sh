#!/usr/bin/env bash
# The word-timing judge: starts `kokoro serve` on a loopback port with its defaults and runs
# internal/tools/wordjudge against it, which has pocketsphinx (Debian, as scripts/setup/setup.sh
# installs it) force-align each sentence's words to the audio kokoro sent and compares where
# each word starts with the times kokoro sent with it.
#
#   scripts/measure/word_timing_judge.sh [wordjudge flags: -voices af_heart,am_michael -texts FILES -speed 1 -jsonl FILE]
set -euo pipefail

root=$(cd "$(dirname "$0")/../.." && pwd)
cd "$root"
port=${JUDGE_PORT:-18960}
make -s setup build
log=$(mktemp)
bin/kokoro serve --host 127.0.0.1 --port "$port" >"$log" 2>&1 &
pid=$!
trap 'kill "$pid" 2>/dev/null || true; wait "$pid" 2>/dev/null || true; rm -f "$log"' EXIT
for _ in $(seq 600); do
  curl -fs "http://127.0.0.1:$port/ping" >/dev/null 2>&1 && break
  kill -0 "$pid" 2>/dev/null || { cat "$log" >&2; exit 1; }
  sleep 0.5
done
echo "commit: $(git rev-parse --short HEAD)$(git diff --quiet || echo ' (modified)'); load average $(cut -d' ' -f1-3 /proc/loadavg)"
go run ./internal/tools/wordjudge -url "http://127.0.0.1:$port" "$@"
