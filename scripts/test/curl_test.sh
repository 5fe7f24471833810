#!/usr/bin/env bash
# curl_test.sh — `kokoro serve` on the real model, driven by curl as a user would drive it:
# the SageMaker contract (/ping, streamed and complete /invocations, stage markers), the
# OpenAI route and its formats, bad input, /metrics and a SIGTERM drain. Needs the assets of
# `make setup`.
set -euo pipefail
cd "$(dirname "$0")/../.."

work=$(mktemp -d)
pid=
cleanup() {
	if [[ -n "$pid" ]] && kill -0 "$pid" 2>/dev/null; then kill -KILL "$pid" 2>/dev/null || true; fi
	rm -rf "$work"
}
trap cleanup EXIT

fail() {
	echo "curl_test: FAIL: $*" >&2
	[[ -f "$work/stderr" ]] && tail -20 "$work/stderr" >&2
	exit 1
}
pass() { echo "curl_test: ok: $*"; }

hex() { od -An -tx1 -j "$2" -N "$3" "$1" | tr -d ' \n'; } # file offset length

go build -o "$work/kokoro" ./cmd/kokoro

port=
for _ in $(seq 50); do
	p=$((20000 + RANDOM % 20000))
	if ! (exec 3<>"/dev/tcp/127.0.0.1/$p") 2>/dev/null; then port=$p; break; fi
done
[[ -n "$port" ]] || fail "no free port"
url="http://127.0.0.1:$port"

CONTAINER_START_EPOCH=$(date +%s.%N) PORT=$port MAX_QUEUE_DEPTH=8 MAX_TEXT_CHARS=400 \
	"$work/kokoro" serve --threads 2 >"$work/stdout" 2>"$work/stderr" &
pid=$!

# The port accepts at once, before the model is loaded (/ping 503 then); the 30 s limit only
# catches a server that never listens.
code=000
for _ in $(seq 600); do
	code=$(curl -s -o /dev/null -w '%{http_code}' --max-time 2 "$url/ping" || true)
	[[ "$code" != 000 ]] && break
	sleep 0.05
done
[[ "$code" == 503 || "$code" == 200 ]] || fail "/ping while loading answered $code"
pass "listening at once; first /ping $code"

for _ in $(seq 360); do
	code=$(curl -s -o /dev/null -w '%{http_code}' --max-time 2 "$url/ping" || true)
	[[ "$code" == 200 ]] && break
	kill -0 "$pid" 2>/dev/null || fail "server exited while loading"
	sleep 0.5
done
[[ "$code" == 200 ]] || fail "/ping never answered 200"
pass "/ping 200 once warmed"

stages=$(grep -E '^=== STAGE [a-z_]+ t=[0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9]{2}:[0-9]{2}:[0-9]{2}\.[0-9]{3}Z elapsed_s=[0-9]+\.[0-9]{3} ===$' "$work/stdout" | awk '{print $3}' | paste -sd, -)
[[ "$stages" == "framework_init,weights_ready,warmup_done,ready" ]] || fail "stage markers: '$stages' in: $(cat "$work/stdout")"
pass "stage markers $stages"

# Streamed WAV: a 44-byte header with 0xFFFFFFFF sizes, PCM after it, first bytes before the end.
three='{"text":"Good morning. This is the second sentence of the test. And a third one closes it.","request_id":"curl-1"}'
read -r code ttfb total < <(curl -sN --max-time 180 -o "$work/stream.wav" -w '%{http_code} %{time_starttransfer} %{time_total}\n' \
	-H 'Content-Type: application/json' -d "$three" "$url/invocations")
[[ "$code" == 200 ]] || fail "streamed invocation: $code"
[[ "$(head -c 4 "$work/stream.wav")" == RIFF ]] || fail "streamed body is not RIFF"
[[ "$(hex "$work/stream.wav" 4 4)" == ffffffff && "$(hex "$work/stream.wav" 40 4)" == ffffffff ]] || fail "streamed WAV sizes are not 0xFFFFFFFF"
size=$(stat -c %s "$work/stream.wav")
((size > 44 + 48000)) || fail "streamed WAV has only $size bytes"
awk -v a="$ttfb" -v b="$total" 'BEGIN { exit !(a < b) }' || fail "first byte at ${ttfb}s is not before the end at ${total}s"
pass "streamed WAV: $size bytes, first byte ${ttfb}s, end ${total}s"

# stream:false: one complete WAV with the X- headers.
curl -s --max-time 180 -D "$work/headers" -o "$work/whole.wav" -d '{"text":"A complete file.","stream":false}' "$url/invocations"
grep -q '^HTTP/1.1 200' "$work/headers" || fail "complete WAV: $(head -1 "$work/headers")"
for h in X-Audio-Duration X-Inference-Time-Ms X-Rtf; do
	grep -qi "^$h: [0-9.]*" "$work/headers" || fail "complete WAV lacks $h"
done
size=$(stat -c %s "$work/whole.wav")
riff=$(od -An -tu4 -j4 -N4 "$work/whole.wav" | tr -d ' ')
((riff == size - 8)) || fail "complete WAV: RIFF size $riff for a $size-byte file"
pass "complete WAV: $size bytes, $(grep -i '^X-Audio-Duration' "$work/headers" | tr -d '\r')"

code=$(curl -s --max-time 180 -o "$work/raw.pcm" -w '%{http_code}' -d '{"text":"Raw samples.","format":"pcm"}' "$url/invocations")
[[ "$code" == 200 && "$(hex "$work/raw.pcm" 0 4)" != 52494646 && $(($(stat -c %s "$work/raw.pcm") % 2)) == 0 ]] || fail "pcm format: $code"
pass "raw PCM"

code=$(curl -s --max-time 180 -o "$work/openai.wav" -w '%{http_code}' \
	-d '{"model":"tts-1","input":"Hello from the speech route.","voice":"af_bella(2)+af_sky(1)","response_format":"wav"}' "$url/v1/audio/speech")
[[ "$code" == 200 && "$(head -c 4 "$work/openai.wav")" == RIFF ]] || fail "OpenAI speech: $code"
curl -s --max-time 10 "$url/v1/audio/voices" | grep -q '"af_heart"' || fail "voices list lacks af_heart"
curl -s --max-time 10 "$url/v1/audio/voices" | grep -q '"alloy":"af_alloy"' || fail "voices list lacks the OpenAI names"
pass "OpenAI speech with a blended voice; voices list with the OpenAI names"

# What an OpenAI client sends by default (no response_format) gets mp3, as from OpenAI; opus is
# Ogg Opus; flac is FLAC. The wav of this route is complete, its sizes real.
curl -s --max-time 180 -D "$work/mp3.headers" -o "$work/openai.mp3" \
	-d '{"model":"tts-1","input":"Hello in mp3.","voice":"alloy"}' "$url/v1/audio/speech"
grep -qi '^content-type: audio/mpeg' "$work/mp3.headers" || fail "default speech format: $(grep -i '^content-type' "$work/mp3.headers")"
[[ "$(hex "$work/openai.mp3" 0 2)" == fff3 ]] || fail "mp3 body starts with $(hex "$work/openai.mp3" 0 4), not an MPEG-2 Layer III frame"
curl -s --max-time 180 -o "$work/openai.opus" -d '{"input":"Hello in opus.","voice":"nova","response_format":"opus"}' "$url/v1/audio/speech"
[[ "$(head -c 4 "$work/openai.opus")" == OggS && "$(dd if="$work/openai.opus" bs=1 skip=28 count=8 2>/dev/null)" == OpusHead ]] || fail "opus body is not Ogg Opus"
curl -s --max-time 180 -o "$work/openai.flac" -d '{"input":"Hello in flac.","response_format":"flac"}' "$url/v1/audio/speech"
[[ "$(head -c 4 "$work/openai.flac")" == fLaC ]] || fail "flac body is not FLAC"
curl -s --max-time 180 -o "$work/openai2.wav" -d '{"input":"Real sizes.","response_format":"wav"}' "$url/v1/audio/speech"
riff=$(od -An -tu4 -j4 -N4 "$work/openai2.wav" | tr -d ' ')
((riff == $(stat -c %s "$work/openai2.wav") - 8)) || fail "speech route wav: RIFF size $riff"
curl -s --max-time 10 "$url/v1/models" | grep -q '"object":"list"' || fail "/v1/models"
pass "OpenAI route: mp3 by default, Ogg Opus, FLAC, complete wav, /v1/models"

check() { # method path body want-status want-error: ours as "error", OpenAI's shape (/v1/*) as "code"
	local out code
	out=$(curl -s --max-time 30 -X "$1" -w '\n%{http_code}' ${3:+-d "$3"} "$url$2")
	code=${out##*$'\n'}
	[[ "$code" == "$4" && ("$out" == *"\"error\":\"$5\""* || ("$2" == /v1/* && "$out" == *"\"code\":\"$5\""*)) ]] ||
		fail "$1 $2 $3: got $code ${out%$'\n'*}, want $4 $5"
	pass "$1 $2 → $4 $5"
}
check POST /invocations '{"text":""}' 400 empty_text
check POST /invocations '{"text":"---"}' 400 empty_text
check POST /v1/audio/speech '{"input":"😀 你好"}' 400 empty_text
check POST /v1/audio/speech '{"input":"hi","response_format":"aac"}' 400 unsupported_format
check POST /invocations "{\"text\":\"hi\",\"request_id\":\"$(printf 'x%.0s' $(seq 300))\"}" 400 invalid_request_id
check POST /invocations '{"text":' 400 invalid_json
check POST /invocations '{"text":"hi","voice":"xx_nobody"}' 400 unknown_voice
check POST /invocations '{"text":"hi","speed":5}' 400 invalid_speed
check POST /invocations '{"text":"hi","format":"ogg"}' 400 unsupported_format
check POST /invocations "{\"text\":\"$(printf 'a%.0s' $(seq 401))\"}" 413 text_too_long
check POST /invocations "{\"text\":\"hi\",\"request_timestamp\":$(($(date +%s) - 120))}" 408 request_stale
check GET /invocations '' 405 method_not_allowed

metrics=$(curl -s --max-time 10 "$url/metrics")
ok=$(grep -E '^kokoro_requests_total\{outcome="ok",route="invocations"\} ' <<<"$metrics" | awk '{print $2}')
[[ "$ok" == 3 ]] || fail "/metrics counts $ok ok invocations, want 3"
grep -q '^go_goroutines ' <<<"$metrics" || fail "/metrics lacks the Go runtime collector"
pass "/metrics: $ok ok invocations"

# SIGTERM with a request in flight (the three sentences above, streamed: seconds of work on a
# CPU): it completes whole and the process exits 0 within 30 s. Whole: the server logs it ok,
# and the client has every sample of the audio the log says it made (where its chunks are cut
# follows the load, so its length is not compared with the first request's). The signal goes
# once /metrics counts the request in flight, however long it takes to arrive; one that ends
# before it is seen there is sent again.
seen=
for _ in 1 2 3 4 5; do
	curl -sN --max-time 180 -o "$work/drain.wav" -w '%{http_code}' -d "${three/\"curl-1\"/\"curl-drain\"}" "$url/invocations" >"$work/drain.code" &
	cpid=$!
	while kill -0 "$cpid" 2>/dev/null; do
		inflight=$(curl -s --max-time 10 "$url/metrics" | awk '$1 == "kokoro_requests_in_flight" { print $2 }')
		[[ "$inflight" == 1 ]] && { seen=1; break; }
		sleep 0.02
	done
	[[ -n "$seen" ]] && break
	wait "$cpid" || true
done
[[ -n "$seen" ]] || fail "five requests ended before /metrics counted one in flight"
start=$(date +%s)
kill -TERM "$pid"
rc=0
wait "$pid" || rc=$?
elapsed=$(($(date +%s) - start))
pid=
wait "$cpid" || true
[[ "$rc" == 0 ]] || fail "serve exited $rc after SIGTERM"
((elapsed <= 30)) || fail "serve took ${elapsed}s to exit"
[[ "$(cat "$work/drain.code")" == 200 ]] || fail "in-flight request during SIGTERM: $(cat "$work/drain.code")"
[[ "$(hex "$work/drain.wav" 40 4)" == ffffffff ]] || fail "drained response has no streaming WAV header"
logged=$(grep '"request_id":"curl-drain"' "$work/stderr" | grep '"msg":"request"' | tail -1)
grep -q '"outcome":"ok"' <<<"$logged" || fail "the drained request's log line: $logged"
audio_s=$(sed -n 's/.*"audio_s":\([0-9.]*\).*/\1/p' <<<"$logged")
drained=$(stat -c %s "$work/drain.wav")
awk -v b="$drained" -v s="$audio_s" 'BEGIN { d = (b - 44) / 2 / 24000 - s; exit !(s > 1 && d > -0.006 && d < 0.006) }' ||
	fail "drained response has $drained bytes; the server made ${audio_s:-no} s of audio"
pass "SIGTERM drained the in-flight request (${audio_s} s of audio, all of it sent) and exited in ${elapsed}s"
echo "curl_test: PASS"
