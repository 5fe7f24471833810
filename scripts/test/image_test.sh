#!/usr/bin/env bash
# image_test.sh — both container images, built from this checkout and started, without a Docker
# engine. Podman builds Dockerfile.cpu and Dockerfile on local stand-ins for their public base
# images (scripts/test/image_bases.sh); then each image is started the way SageMaker starts it,
# `docker run IMAGE serve`: its ENTRYPOINT plus "serve", with exactly its ENV, chrooted into a
# writable overlay of its filesystem, in a network namespace of its own that has only loopback
# (so it starts offline, on its own port 8080). Checked: /ping, a streamed /invocations, the
# stage markers, a SIGTERM drain, that the image holds nothing but the runtime, and that every
# library resolves; on the GPU image also that the CUDA provider loads, fails for want of a GPU,
# and the server says so and serves on the CPU. A broken path, a missing library or a missing
# asset fails it.
#
# Needs root. Installs podman, debootstrap and iproute2 with apt when missing (as setup.sh
# installs espeak-ng). Layers, downloads and the Go build cache stay in ~/.cache/kokoro/podman,
# so a second run rebuilds only what changed.
set -eEuo pipefail
trap 'echo "image_test: FAIL: line $LINENO: $BASH_COMMAND" >&2' ERR
cd "$(dirname "$0")/../.."
source scripts/test/image_bases.sh

work=$(mktemp -d)
mounted=()
server=
cleanup() {
	if [[ -n "$server" ]] && kill -0 "$server" 2>/dev/null; then kill -KILL "$server" 2>/dev/null || true; fi
	for id in "${mounted[@]}"; do P image unmount "$id" >/dev/null 2>&1 || true; done
	rm -rf "$work"
}
trap cleanup EXIT

fail() {
	echo "image_test: FAIL: $*" >&2
	for f in "$work"/serve.stderr "$work"/serve.stdout; do [[ -s "$f" ]] && tail -15 "$f" >&2; done
	exit 1
}
pass() { echo "image_test: ok: $*"; }
hex() { od -An -tx1 -j "$2" -N "$3" "$1" | tr -d ' \n'; } # file offset length

# --- tools ------------------------------------------------------------------------------------
[[ "$(id -u)" == 0 ]] || fail "needs root (debootstrap, chroot builds, mounting image filesystems)"
missing=()
for t in podman:podman debootstrap:debootstrap ip:iproute2 curl:curl unshare:util-linux nsenter:util-linux strings:binutils; do
	command -v "${t%%:*}" >/dev/null || missing+=("${t#*:}")
done
if ((${#missing[@]})); then
	echo "image_test: installing ${missing[*]}"
	(apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${missing[@]}" >/dev/null) ||
		fail "could not install ${missing[*]}"
fi
chroot_bin=$(command -v chroot)

# --- build --------------------------------------------------------------------------------------
start=$SECONDS
image_bases
pass "base images $RUNTIME_IMAGE, $GO_IMAGE ($((SECONDS - start)) s)"

build_args=(--isolation=chroot --network=host --layers
	--build-arg "GO_IMAGE=$GO_IMAGE" --build-arg "RUNTIME_IMAGE=$RUNTIME_IMAGE"
	--build-arg "VERSION=$(git describe --always --dirty 2>/dev/null || echo dev)"
	--build-arg KOKORO_MODEL_VARIANT=int8)
declare -A id
# build NAME DOCKERFILE [TARGET]: the image ID goes to id[NAME]. The stages are tagged too, so
# that what the next run can reuse is never a dangling image.
build() {
	local s=$SECONDS
	P build "${build_args[@]}" -f "$2" ${3:+--target "$3"} --iidfile "$work/$1.iid" \
		-t "localhost/kokoro-test:$1" . >"$work/build-$1.log" 2>&1 ||
		{ tail -30 "$work/build-$1.log" >&2; fail "podman build of $2${3:+ (stage $3)}"; }
	id[$1]=$(cat "$work/$1.iid")
	echo "image_test: built $1 from $2${3:+ (stage $3)} in $((SECONDS - s)) s"
}
build build Dockerfile.cpu build
build cpu-assets Dockerfile.cpu assets
build cpu Dockerfile.cpu
build gpu-assets Dockerfile assets
build gpu Dockerfile
pass "images built in $((SECONDS - start)) s"
# Old versions of the tags above are dangling now; an hour's grace spares a concurrent run's.
P image prune -f --filter until=1h >/dev/null || true

size_mb() { echo $(($(P image inspect --format '{{.Size}}' "$1") / 1000000)); }
echo "image_test: image sizes (MB): build stage $(size_mb "${id[build]}"), cpu assets stage $(size_mb "${id[cpu-assets]}"), gpu assets stage $(size_mb "${id[gpu-assets]}"), cpu $(size_mb "${id[cpu]}"), gpu $(size_mb "${id[gpu]}")"
for n in cpu gpu; do
	echo "image_test: layers of the $n image:"
	P history --no-trunc --format '{{.Size}}\t{{.CreatedBy}}' "${id[$n]}" |
		sed -E 's|/bin/sh -c (#\(nop\) )?||; s/(file|dir|multi):[0-9a-f]{64}/\1/; s/^/    /' | cut -c1-140
done

# --- the image as a container -------------------------------------------------------------------
# config ID FIELD: one line per element of a list field of the image's config.
config() { P image inspect --format "{{range .Config.$2}}{{println .}}{{end}}" "$1" | sed '/^$/d'; }
# mount_image ID VAR: mounts the image's filesystem (read-only) and sets VAR to the path.
mount_image() {
	local m
	m=$(P image mount "$1") || fail "podman image mount $1"
	mounted+=("$1")
	printf -v "$2" '%s' "$m"
}
# in_image DIR STDOUT STDERR ARGV...: runs ARGV inside the image mounted at $lower, with the
# image's ENV alone, chrooted into a writable overlay at DIR, in new mount and network
# namespaces (only loopback). Runs in the background; $! is the process itself.
in_image() {
	local dir=$1 out=$2 err=$3
	shift 3
	mkdir -p "$dir/up" "$dir/work" "$dir/root"
	{
		declare -p env
		echo 'set -e'
		echo "mount -t overlay overlay -o lowerdir=$lower,upperdir=$dir/up,workdir=$dir/work $dir/root"
		echo "mount -t proc proc $dir/root/proc; mount --rbind /sys $dir/root/sys; mount --rbind /dev $dir/root/dev"
		echo 'ip link set lo up'
		printf 'exec env -i HOME=/root "${env[@]}" %q %q' "$chroot_bin" "$dir/root"
		printf ' %q' "$@"
		echo
	} >"$dir.sh"
	unshare --mount --net bash "$dir.sh" >"$out" 2>"$err" &
}
# run_in_image ARGV...: in_image in the foreground; prints stdout, fails on a non-zero exit.
run_in_image() {
	local d
	d=$(mktemp -d "$work/run.XXXXXX")
	in_image "$d/fs" "$d/out" "$d/err" "$@"
	wait $! || { cat "$d/err" >&2; return 1; }
	cat "$d/out"
}

check_image() { # NAME
	local name=$1 img=${id[$1]}
	mapfile -t env < <(config "$img" Env)
	mapfile -t entrypoint < <(config "$img" Entrypoint)
	local cmd ports wd
	cmd=$(config "$img" Cmd | paste -sd' ')
	ports=$(P image inspect --format '{{range $p, $_ := .Config.ExposedPorts}}{{$p}} {{end}}' "$img")
	wd=$(P image inspect --format '{{.Config.WorkingDir}}' "$img")
	[[ "${entrypoint[*]}" == /usr/local/bin/kokoro && "$cmd" == serve ]] ||
		fail "$name: ENTRYPOINT ${entrypoint[*]} CMD $cmd, want /usr/local/bin/kokoro serve"
	[[ "$ports" == *8080/tcp* ]] || fail "$name: EXPOSE $ports, want 8080"
	[[ -z "$wd" || "$wd" == / ]] || fail "$name: WORKDIR $wd (this test starts in /)"
	mount_image "$img" lower
	for p in usr/local/go go src usr/bin/python3 usr/bin/npm usr/bin/node usr/bin/gcc root/.cache out; do
		[[ ! -e "$lower/$p" ]] || fail "$name: the runtime image carries /$p"
	done
	pass "$name: ENTRYPOINT [/usr/local/bin/kokoro] CMD [serve], EXPOSE 8080, no build tools in it"

	local libdir ldd
	libdir=$(run_in_image /bin/sh -c 'echo "${LD_LIBRARY_PATH:-$KOKORO_ASSETS/lib}"')
	compgen -G "$lower$libdir/*.so*" >/dev/null || fail "$name: no libraries in $libdir, where LD_LIBRARY_PATH or KOKORO_ASSETS point"
	# shellcheck disable=SC2016 # expanded inside the image
	ldd=$(run_in_image /bin/sh -c 'for f in /usr/local/bin/kokoro "$1"/*.so*; do echo "== $f"; ldd "$f"; done' _ "$libdir") ||
		fail "$name: ldd in the image"
	if grep -q 'not found' <<<"$ldd"; then
		fail "$name: libraries missing with the image's library path: $(grep -e '^==' -e 'not found' <<<"$ldd" | grep -B1 'not found' | paste -sd' ')"
	fi
	pass "$name: kokoro and the $(grep -c '^== .*\.so' <<<"$ldd") libraries in $libdir resolve all their dependencies"
	run_in_image espeak-ng -q --ipa kokoro | grep -q 'k' || fail "$name: espeak-ng does not run"
	pass "$name: espeak-ng runs"
}

# check_gpu_libs: the GPU image's libraries beyond ldd: each one setup.sh unpacked is in the
# image, whole; symbols resolve; and what the libraries dlopen at run time (the cuDNN
# sub-libraries, NVRTC) is there.
check_gpu_libs() {
	local libdir=/opt/kokoro/assets/lib assets name size
	mount_image "${id[gpu-assets]}" assets
	[[ -f "$assets/out/assets/lib-gpu/.stamp" ]] || fail "gpu: setup.sh left no lib-gpu/.stamp"
	while read -r name size; do
		[[ "$(stat -c %s "$lower$libdir/$name" 2>/dev/null)" == "$size" ]] ||
			fail "gpu: $libdir/$name is not the $size bytes setup.sh unpacked"
	done < <(tail -n +2 "$assets/out/assets/lib-gpu/.stamp")
	pass "gpu: all $(($(wc -l <"$assets/out/assets/lib-gpu/.stamp") - 1)) libraries of lib-gpu are in the image"
	# ONNX Runtime defines Provider_GetHost in libonnxruntime_providers_shared.so, which it
	# loads first; nothing else may stay undefined.
	local undef
	undef=$(run_in_image ldd -r "$libdir/libonnxruntime_providers_cuda.so" | grep 'undefined symbol' | grep -v 'Provider_GetHost' || true)
	[[ -z "$undef" ]] || fail "gpu: undefined symbols in the CUDA provider: $undef"
	local wanted=() w
	mapfile -t wanted < <(for f in "$lower$libdir"/*.so*; do strings -n 8 "$f"; done |
		grep -oxE 'lib(cudnn[a-z_]*|cublas(Lt)?|cudart|cufft|curand|nvrtc(-builtins)?)\.so(\.[0-9]+)*' | sort -u)
	((${#wanted[@]} > 10)) || fail "gpu: found only ${#wanted[@]} library names in the CUDA libraries"
	for w in "${wanted[@]}"; do
		compgen -G "$lower$libdir/$w*" >/dev/null || fail "gpu: $w is loaded at run time but not in $libdir"
	done
	pass "gpu: symbols resolve; the ${#wanted[@]} libraries loaded at run time are there"
	# The check can fail: the same ldd without the library path misses the CUDA libraries.
	run_in_image /bin/sh -c 'LD_LIBRARY_PATH= ldd "$1"' _ "$libdir/libonnxruntime_providers_cuda.so" |
		grep -q 'libcublasLt.so.12 => not found' || fail "gpu: ldd without the library path should miss libcublasLt"
	pass "gpu: (control) without LD_LIBRARY_PATH the provider's CUDA libraries are not found"
}

# serve NAME: starts ENTRYPOINT + serve as SageMaker does and checks the contract.
serve() {
	local name=$1 start
	local -a argv=("${entrypoint[@]}" serve)
	start=$(date +%s.%N)
	in_image "$work/serve-$name" "$work/serve.stdout" "$work/serve.stderr" "${argv[@]}"
	server=$!
	# nsenter into the server's network namespace: 127.0.0.1:8080 there is the image's port.
	ns_curl() { nsenter -t "$server" -n curl "$@"; }
	local code=000
	for _ in $(seq 100); do
		kill -0 "$server" 2>/dev/null || fail "$name: serve exited before it answered /ping"
		code=$(ns_curl -s -o /dev/null -w '%{http_code}' --max-time 2 http://127.0.0.1:8080/ping) || code=000
		[[ "$code" != 000 ]] && break
		sleep 0.1
	done
	[[ "$code" == 503 || "$code" == 200 ]] || fail "$name: /ping while loading answered $code"
	for _ in $(seq 600); do
		kill -0 "$server" 2>/dev/null || fail "$name: serve exited while loading"
		code=$(ns_curl -s -o /dev/null -w '%{http_code}' --max-time 2 http://127.0.0.1:8080/ping) || code=000
		[[ "$code" == 200 ]] && break
		sleep 0.5
	done
	[[ "$code" == 200 ]] || fail "$name: /ping never answered 200"
	pass "$name: port 8080 answered at once, /ping 200 after $(awk -v s="$start" -v e="$(date +%s.%N)" 'BEGIN { printf "%.1f", e - s }') s, offline"

	local stages
	stages=$(grep -E '^=== STAGE [a-z_]+ t=[0-9-]{10}T[0-9:]{8}\.[0-9]{3}Z elapsed_s=[0-9]+\.[0-9]{3} ===$' "$work/serve.stdout" | awk '{print $3}' | paste -sd, -)
	[[ "$stages" == framework_init,weights_ready,warmup_done,ready ]] || fail "$name: stage markers '$stages'"
	pass "$name: stage markers $stages"

	# Streamed: chunked transfer and a WAV header whose sizes say "unknown" (0xFFFFFFFF).
	local ttfb total size
	read -r code ttfb total < <(ns_curl -sN --max-time 300 -D "$work/$name.headers" -o "$work/$name.wav" \
		-w '%{http_code} %{time_starttransfer} %{time_total}\n' -H 'Content-Type: application/json' \
		-d '{"text":"Hello from the image."}' http://127.0.0.1:8080/invocations)
	[[ "$code" == 200 && "$(head -c 4 "$work/$name.wav")" == RIFF ]] || fail "$name: /invocations answered $code"
	grep -qi '^transfer-encoding: chunked' "$work/$name.headers" || fail "$name: /invocations is not chunked"
	[[ "$(hex "$work/$name.wav" 40 4)" == ffffffff ]] || fail "$name: /invocations is not a streamed WAV"
	size=$(stat -c %s "$work/$name.wav")
	((size > 44 + 48000)) || fail "$name: the WAV holds less than a second of audio ($size bytes)"
	pass "$name: streamed /invocations, $size bytes, first byte ${ttfb}s, end ${total}s"

	# The log (JSON on stderr): what the model runs on, and on the GPU image why not CUDA.
	python3 - "$name" "$work/serve.stderr" <<-'PY' || fail "$name: log"
		import json, sys
		name, path = sys.argv[1], sys.argv[2]
		recs = []
		for line in open(path, encoding="utf-8", errors="replace"):
		    try:
		        recs.append(json.loads(line))
		    except ValueError:
		        pass
		loaded = [r for r in recs if r.get("msg") == "model loaded"]
		if not loaded or loaded[0].get("provider") != "cpu":
		    sys.exit(f"no 'model loaded' with provider cpu in the log: {loaded}")
		cuda = [r for r in recs if r.get("msg", "").startswith("cuda ") and "running on cpu" in r.get("msg", "")]
		if name == "cpu":
		    if cuda:
		        sys.exit(f"the CPU image tried CUDA: {cuda}")
		    print(f"image_test: ok: cpu: the model runs on the CPU, ONNX Runtime {loaded[0].get('onnxruntime')}")
		    sys.exit(0)
		if not cuda:
		    sys.exit("the GPU image logged no CUDA fallback")
		reason = cuda[0].get("reason", "")
		# The provider and every CUDA library loaded; only the driver (no GPU here) is missing.
		if "cannot open shared object" in reason or "CUDA failure" not in reason:
		    sys.exit(f"CUDA failed for another reason than the missing driver: {reason}")
		print(f"image_test: ok: gpu: logged '{cuda[0]['msg']}' ({reason[reason.index('CUDA failure'):][:70]}...), "
		      f"serves on the CPU with ONNX Runtime {loaded[0].get('onnxruntime')}")
	PY

	# SageMaker stops a container with SIGTERM and allows 30 s.
	local t0=$SECONDS rc=0
	kill -TERM "$server"
	wait "$server" || rc=$?
	server=
	[[ "$rc" == 0 ]] || fail "$name: serve exited $rc after SIGTERM"
	((SECONDS - t0 <= 30)) || fail "$name: serve took $((SECONDS - t0)) s to exit"
	pass "$name: SIGTERM, exit 0 in $((SECONDS - t0)) s"
	rm -f "$work/serve.stdout" "$work/serve.stderr"
}

check_image cpu
serve cpu
check_image gpu
check_gpu_libs
serve gpu
echo "image_test: PASS ($((SECONDS - start)) s)"
