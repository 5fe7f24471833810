#!/usr/bin/env bash
# busy.sh N [COMMAND...] — keeps N busy loops running, to check that something passes on a
# machine whose cores are oversubscribed (`scripts/test/busy.sh 6 make test`: three loops per core on
# a 2-core machine). With a command, runs it beside the loops and exits with its status; without
# one, runs until interrupted. The loops stop when this script exits, however it exits.
set -uo pipefail
n=${1:-}
[[ "$n" =~ ^[0-9]+$ && "$n" -gt 0 ]] || { echo "usage: scripts/test/busy.sh N [COMMAND...]" >&2; exit 2; }
shift
pids=()
stop() {
	((${#pids[@]})) && kill "${pids[@]}" 2>/dev/null
	wait "${pids[@]}" 2>/dev/null
	pids=()
}
trap stop EXIT
trap 'exit 130' INT
trap 'exit 143' TERM
for ((i = 0; i < n; i++)); do
	(trap - INT TERM; while :; do :; done) &
	pids+=($!)
done
echo "busy.sh: $n busy loops on $(nproc) cores" >&2
if (($#)); then
	"$@"
	exit $?
fi
wait
