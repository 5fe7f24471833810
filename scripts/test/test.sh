#!/usr/bin/env bash
# test.sh — every Go test once, as `make test` runs them (after setup, venv and vet), in
# streams that run at the same time:
#   race   the packages whose own code shares memory between goroutines (go statements, sync,
#          atomic, channels), under the race detector, but for their tests named TestReal…
#          and FuzzReal…;
#   plain  those TestReal… and FuzzReal… tests (internal/testenv.RealModelPrefix: the real
#          model, whole corpora and lexicons, the planner on the reference measurements), and
#          every test of the packages with no concurrency of their own (the planner, the
#          simulator, the artifacts, the encoders), without it: the detector finds nothing
#          there, the model's time is spent in ONNX Runtime's C code which it does not see,
#          and under it pure computation runs several times slower. The real model's tests
#          and the packages without concurrency run as two streams of their own.
# Every stream goes through internal/tools/testsum, which prints each package's result and the
# output of what failed and ends with one line: packages, tests, failures, skips (a skip fails
# the run: under make test every asset and peer is there) and the wall time from the start of
# `make test`.
#
#   TEST_START   unix time the run began (make test sets it before setup); default: now
#   TEST_PASSES  "race plain" (default), or one of them
#   GOTESTFLAGS  extra flags for every go test, e.g. -v
#   TEST_EVENTS  a directory: each stream's go test -json events are also kept there, as
#                STREAM.json (when each test ran, paused and ended: where the time went)
set -uo pipefail
cd "$(dirname "$0")/../.."
start=${TEST_START:-$(date +%s.%N)}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
events=${TEST_EVENTS:-}
[[ -z "$events" ]] || mkdir -p "$events" || exit 1
# keep STREAM: copies the stream's events into $TEST_EVENTS/STREAM.json when that is set.
keep() {
	if [[ -n "$events" ]]; then tee "$events/$1.json"; else cat; fi
}
export KOKORO_REQUIRE_ASSETS=1

go build -o "$tmp/testsum" ./internal/tools/testsum || exit 1
# The tests named by internal/testenv's RealModelPrefix and RealFuzzPrefix run without -race.
prefixes=$(sed -n 's/^[[:space:]]*Real\(Model\|Fuzz\)Prefix *= "\(.*\)"$/\2/p' internal/testenv/assets.go | paste -sd'|')
[[ "$prefixes" == *"|"* ]] || { echo "test.sh: RealModelPrefix and RealFuzzPrefix not found in internal/testenv/assets.go" >&2; exit 1; }
real_re="^(${prefixes})"

# Sort the packages by whether their non-test code is concurrent.
concurrent=() pure=()
while read -r dir; do
	if ls "$dir"/*.go 2>/dev/null | grep -v '_test\.go$' | xargs -r grep -lE '^[[:space:]]*go |sync\.|atomic\.|chan ' >/dev/null; then
		concurrent+=("$dir")
	else
		pure+=("$dir")
	fi
done < <(go list -f '{{.Dir}}' ./... | sed "s|^$PWD|.|")
# The concurrent packages that hold real-model tests: built a second time, without -race.
real=()
for dir in "${concurrent[@]}"; do
	grep -qlE "^func (${prefixes})" "$dir"/*_test.go 2>/dev/null && real+=("$dir")
done

# go test starts packages in the order it is given them, two at a time on two cores: the
# longest ones go first, so that none of them starts last and alone.
longest=(./tts ./workflow ./phonemize/en ./phonemize ./server ./phonemize/ja ./bench ./emulate ./bench/transport ./sagemaker ./planner)
first() { # first NAME: reorders the array NAME, the packages of $longest first in that order
	local -n pkgs=$1
	local out=() p q
	for p in "${longest[@]}"; do
		for q in "${pkgs[@]}"; do [[ "$q" == "$p" ]] && out+=("$q"); done
	done
	for q in "${pkgs[@]}"; do [[ " ${longest[*]} " == *" $q "* ]] || out+=("$q"); done
	pkgs=("${out[@]}")
}
first concurrent
first real
first pure

# Each stream writes its events into a named pipe of its own; testsum reads them all at once.
inputs=()
# shellcheck disable=SC2086 # GOTESTFLAGS is a list of flags
if [[ " ${TEST_PASSES:-race plain} " == *" race "* ]] && ((${#concurrent[@]})); then
	mkfifo "$tmp/race"
	inputs+=("$tmp/race")
	{
		go test -race -count=1 -json -timeout 25m -parallel 8 -skip "$real_re" ${GOTESTFLAGS:-} "${concurrent[@]}"
		echo $? >"$tmp/race.rc"
	} 2>&1 | keep race >"$tmp/race" &
fi
# shellcheck disable=SC2086
if [[ " ${TEST_PASSES:-race plain} " == *" plain "* ]]; then
	mkfifo "$tmp/plain"
	inputs+=("$tmp/plain")
	{
		if ((${#real[@]})); then
			go test -count=1 -json -timeout 25m -run "$real_re" ${GOTESTFLAGS:-} "${real[@]}"
		fi
		echo $? >"$tmp/plain.rc"
	} 2>&1 | keep plain >"$tmp/plain" &
	# The packages without concurrency: a stream of their own, beside the real model's.
	# shellcheck disable=SC2086
	if ((${#pure[@]})); then
		mkfifo "$tmp/pure"
		inputs+=("$tmp/pure")
		{
			go test -count=1 -json -timeout 25m ${GOTESTFLAGS:-} "${pure[@]}"
			echo $? >"$tmp/pure.rc"
		} 2>&1 | keep pure >"$tmp/pure" &
	fi
fi
((${#inputs[@]})) || { echo "test.sh: TEST_PASSES=${TEST_PASSES:-} runs nothing" >&2; exit 2; }
"$tmp/testsum" -start "$start" -no-skip "${inputs[@]}"
rc=$?
wait
for f in "$tmp"/*.rc; do
	[[ -f "$f" ]] || continue
	# testsum judges from the events; a stream that failed without saying why in them (a bad
	# flag, a crash of go itself) still fails the run.
	[[ "$(cat "$f")" == 0 ]] || rc=1
done
exit "$rc"
