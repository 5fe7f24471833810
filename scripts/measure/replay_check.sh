#!/usr/bin/env bash
# replay_check.sh — the real-model check of `kokoro plan replay`: a policy exercised by real
# traffic on an emulated endpoint of real-model servers, beside the simulation's prediction of
# the same trace. A benchmark (minutes of the real model; its outcome is this machine's), not
# a test.
#
#   1. the ladder of one instance (one slot, one thread) on this machine: the qmax artifact;
#   2. the plan from it, for a peak of --peak (1.2) instances' throughput, so that the policy's
#      MaxCapacity is two (T_total assumed);
#   3. kokoro emulate --serve 1 with the plan's policy (--policy, default the reference
#      arithmetic's target tracking on ConcurrentRequestsPerModel), AWS's time compressed by
#      --time-scale, each new instance a one-thread server started in the emulator's process;
#   4. kokoro bench replay: a step surge from --from to --to times one instance's measured
#      throughput, Poisson arrivals, sent open-loop over InvokeEndpointWithResponseStream;
#   5. kokoro plan replay of the same trace (same shape, same seed) with the same policy;
#   6. both summaries side by side, into OUT/compare.txt.
#
# Usage: scripts/measure/replay_check.sh [--out DIR] [--policy reference|proposal|KIND] [--from X]
#          [--to X] [--at DUR] [--length DUR] [--time-scale F] [--t-total S] [--slo-ms MS]
#          [--peak X] [--qmax FILE (skip the ladder)]
set -euo pipefail
cd "$(dirname "$0")/../.."
out=out/replay-check policy=reference from=0.5 to=1.5 at=60s length=300s scale=0.1 ttotal=100
slo=3000 qmax="" peakx=1.2
while (($#)); do
	case $1 in
	--out) out=$2 ;;
	--policy) policy=$2 ;;
	--from) from=$2 ;;
	--to) to=$2 ;;
	--at) at=$2 ;;
	--length) length=$2 ;;
	--time-scale) scale=$2 ;;
	--t-total) ttotal=$2 ;;
	--slo-ms) slo=$2 ;;
	--qmax) qmax=$2 ;;
	--peak) peakx=$2 ;;
	*) echo "replay_check.sh: unknown argument $1" >&2; exit 2 ;;
	esac
	shift 2
done
mkdir -p "$out"
go build -o bin/kokoro ./cmd/kokoro
k=bin/kokoro

if [[ -z "$qmax" ]]; then
	$k bench qmax --self --slots 1 --threads 1 --ladder 1,2,3,4 --hold 40s --measure-window 30s \
		--settle 5s --slo-ms "$slo" --out "$out/qmax" | tail -3
	qmax=$(ls "$out"/qmax/qmax-*.json | head -1)
fi
# One instance's throughput: the highest a usable rung reached (replay.FromQmax's capacity).
capacity=$(python3 -c '
import json, sys
d = json.load(open(sys.argv[1]))
print(max(s["achieved_rps"] for s in d["steps"] if s.get("usable")))' "$qmax")
rate() { python3 -c "print(round($1 * $capacity, 4))"; }
lo=$(rate "$from") hi=$(rate "$to") peak=$(rate "$peakx")
echo "one instance: $capacity rps; trace: $lo rps, then $hi rps from $at, $length in all"

$k plan --qmax "$qmax" --assume-t-total "$ttotal" --peak-rps "$peak" --trough-rps "$lo" \
	--out "$out/plan" >"$out/plan.txt"
trace=(--shape step --from "$lo" --to "$hi" --at "$at" --length "$length" --replay-seed 1)

port=18081
$k emulate --serve 1 --slots 1 --threads 1 --listen "127.0.0.1:$port" --autoscale "$out/plan/plan.json" \
	--autoscale-policy "$policy" --time-scale "$scale" >"$out/emulate.log" 2>&1 &
em=$!
trap 'kill $em 2>/dev/null; wait $em 2>/dev/null' EXIT
for _ in $(seq 1 300); do
	grep -q 'SageMaker runtime emulator on' "$out/emulate.log" && break
	kill -0 $em 2>/dev/null || { cat "$out/emulate.log"; exit 1; }
	sleep 1
done
AWS_ACCESS_KEY_ID=local AWS_SECRET_ACCESS_KEY=local $k bench replay --transport sagemaker-stream \
	--freeze=false --endpoint-name kokoro-local --region us-east-1 \
	--aws-endpoint-url "http://127.0.0.1:$port" --instance-type local-emulator \
	"${trace[@]}" --slo-ms "$slo" --out "$out/run" | tail -2
kill $em
wait $em 2>/dev/null || true
trap - EXIT

$k plan replay --qmax "$qmax" --assume-t-total "$ttotal" --peak-rps "$peak" --trough-rps "$lo" \
	--time-scale "$scale" --policies "$policy" --routing least-outstanding "${trace[@]}" \
	--slo-ms "$slo" --out "$out/replay" >"$out/replay.txt"

python3 - "$out" "$policy" <<'EOF' | tee "$out/compare.txt"
import json, sys
out, policy = sys.argv[1], sys.argv[2]
run = json.load(open(f"{out}/run/bench-replay.json"))["summary"]
pol = json.load(open(f"{out}/replay/replay.json"))["replays"][0]["summary"]
print(f"policy {policy}: requests, share within the SLO, share shed (503), p95 time to first audio")
print(f"  measured (emulated endpoint): {run['requests']:5d}  {run['share_within_slo']*100:6.2f} %  {run['shed_share']*100:6.2f} %  {run['ttfab_p95_ms']:8.0f} ms")
print(f"  predicted (plan replay):      {pol['requests']:5d}  {pol['share_within_slo']*100:6.2f} %  {pol['shed_share']*100:6.2f} %  {pol['ttfab_p95_ms']:8.0f} ms")
acts = [l.strip() for l in open(f"{out}/emulate.log") if l.startswith("autoscaling:")]
print("emulator's scaling activities:")
for a in acts:
    print("  " + a)
EOF
