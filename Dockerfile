# The SageMaker image (GPU). SageMaker starts it as `docker run IMAGE serve`.
#
#   KOKORO_ORT_GPU=1 KOKORO_MODEL_VARIANT=fp32 make setup   # assets, ONNX Runtime with CUDA
#   docker build -t kokoro .
#
# The image carries the assets installed by scripts/setup.sh, so it starts without network.
# Use a float model on GPU (fp32 or fp16): the int8 export's dynamically quantized convolutions
# have no CUDA kernels and would run on the CPU.
FROM golang:1.26-bookworm AS build
WORKDIR /src
COPY go.mod go.sum ./
RUN go mod download
COPY . .
ARG VERSION=dev
RUN CGO_ENABLED=1 go build -trimpath -ldflags "-s -w -X main.version=${VERSION}" -o /out/kokoro ./cmd/kokoro

FROM nvidia/cuda:12.8.1-cudnn-runtime-ubuntu24.04
RUN apt-get update \
 && DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends espeak-ng ca-certificates \
 && rm -rf /var/lib/apt/lists/*
COPY --from=build /out/kokoro /usr/local/bin/kokoro
COPY assets/model   /opt/kokoro/assets/model
COPY assets/voices  /opt/kokoro/assets/voices
COPY assets/lexicon /opt/kokoro/assets/lexicon
COPY assets/lib-gpu /opt/kokoro/assets/lib
ENV KOKORO_ASSETS=/opt/kokoro/assets \
    KOKORO_ORT_LIB=/opt/kokoro/assets/lib/libonnxruntime.so \
    LD_LIBRARY_PATH=/opt/kokoro/assets/lib \
    PROVIDER=auto
EXPOSE 8080
ENTRYPOINT ["/usr/local/bin/kokoro"]
CMD ["serve"]
