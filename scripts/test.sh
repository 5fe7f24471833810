#!/usr/bin/env bash
# test.sh — every Go test once, as `make test` runs them (after setup, venv and vet):
#   1. all tests but the real model's, with the race detector: the server, scheduler, bench,
#      emulator and control plane, where the concurrency lives, run on stand-in engines;
#   2. the tests that run the real model (named TestReal…, internal/testenv.RealModelPrefix),
#      without it: their time is spent in ONNX Runtime's C code, which the detector does not
#      see, and under it the Go side around the model runs several times slower.
# Both passes run at once (much of pass 1 waits on timers and sockets) and go through
# internal/tools/testsum, which prints each package's result and the output of what failed and
# ends with one line: packages, tests, failures, skips (a skip fails the run: under make test
# every asset and peer is there) and the wall time from the start of `make test`.
#
#   TEST_START   unix time the run began (make test sets it before setup); default: now
#   TEST_PASSES  "race real" (default), or one of them
#   GOTESTFLAGS  extra flags for both passes, e.g. -run TestName or -v
set -uo pipefail
cd "$(dirname "$0")/.."
start=${TEST_START:-$(date +%s.%N)}
passes=${TEST_PASSES:-race real}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
export KOKORO_REQUIRE_ASSETS=1

go build -o "$tmp/testsum" ./internal/tools/testsum || exit 1
prefix=$(sed -n 's/^const RealModelPrefix = "\(.*\)"$/\1/p' internal/testenv/assets.go)
[[ -n "$prefix" ]] || { echo "test.sh: RealModelPrefix not found in internal/testenv/assets.go" >&2; exit 1; }
# The packages that hold real-model tests: only these are built a second time without -race.
mapfile -t real_pkgs < <(grep -rl --include='*_test.go' "^func ${prefix}" . | xargs -r -n1 dirname | sort -u)

# Each pass writes its events into a named pipe of its own; testsum reads both at once.
inputs=()
# shellcheck disable=SC2086 # GOTESTFLAGS is a list of flags
if [[ " $passes " == *" race "* ]]; then
	mkfifo "$tmp/race"
	inputs+=("$tmp/race")
	{
		go test -race -count=1 -json -timeout 25m -parallel 8 -skip "^${prefix}" ${GOTESTFLAGS:-} ./...
		echo $? >"$tmp/race.rc"
	} >"$tmp/race" 2>&1 &
fi
# shellcheck disable=SC2086
if [[ " $passes " == *" real "* ]] && ((${#real_pkgs[@]})); then
	mkfifo "$tmp/real"
	inputs+=("$tmp/real")
	{
		go test -count=1 -json -timeout 25m -run "^${prefix}" ${GOTESTFLAGS:-} "${real_pkgs[@]}"
		echo $? >"$tmp/real.rc"
	} >"$tmp/real" 2>&1 &
fi
((${#inputs[@]})) || { echo "test.sh: TEST_PASSES=$passes runs nothing" >&2; exit 2; }
"$tmp/testsum" -start "$start" -no-skip "${inputs[@]}"
rc=$?
wait
for f in "$tmp"/*.rc; do
	[[ -f "$f" ]] || continue
	# testsum judges from the events; a pass that failed without saying why in them (a bad
	# flag, a crash of go itself) still fails the run.
	[[ "$(cat "$f")" == 0 ]] || rc=1
done
exit "$rc"
