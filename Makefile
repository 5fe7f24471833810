# kokoro — build, fetch assets, serve, test. `make help` lists the targets.
SHELL := /bin/bash
GO    ?= go
BIN   ?= bin/kokoro
VERSION ?= $(shell git describe --always --dirty 2>/dev/null || echo dev)
LDFLAGS := -X main.version=$(VERSION)
# staticcheck at a pinned release (v0.8.2 = staticcheck 2026.2.2), built by `go run` so that it
# stays out of the module's own dependencies.
STATICCHECK ?= honnef.co/go/tools/cmd/staticcheck@v0.8.2
# deadcode from the same x/tools release staticcheck builds with: functions no test reaches.
DEADCODE ?= golang.org/x/tools/cmd/deadcode@v0.51.0
export CGO_ENABLED := 1

.PHONY: help setup venv build run test test-short curl-test image-test bench vet clean

help:
	@echo "make setup   fetch and verify runtime assets into ./assets (cached in ~/.cache/kokoro)"
	@echo "make venv    link .venv, .venv-sdk and .venv-agents to the Python peers the tests drive (moto, openai, websockets, boto3, soundfile; the SageMaker HTTP/2 SDK and the voice-agent frameworks Pipecat and LiveKit Agents on Python 3.12+), built once in ~/.cache/kokoro/venv"
	@echo "make build   build $(BIN)"
	@echo "make run     setup + build + serve the real model on :8080"
	@echo "make vet     gofmt, go mod tidy -diff, go vet, staticcheck, deadcode, no package testing in the binary"
	@echo "make test    setup, venv, vet and curl-test side by side, then every Go test once (the real model included; -race but for the real-model tests)"
	@echo "make curl-test  serve the real model and drive it with curl"
	@echo "make image-test  build both container images with podman and start them (root)"
	@echo "make bench   benchmarks: real-time factor, phonemizer speed, server TTFAB, planner"

setup:
	@bash scripts/setup/setup.sh

venv:
	@bash scripts/setup/pyvenv.sh

build:
	$(GO) build -ldflags "$(LDFLAGS)" -o $(BIN) ./cmd/kokoro

run: setup build
	./$(BIN) serve

vet:
	@test -z "$$(gofmt -l $$(git ls-files '*.go'))" || { gofmt -l $$(git ls-files '*.go'); echo "gofmt needed"; exit 1; }
	$(GO) mod tidy -diff
	$(GO) vet ./...
	$(GO) run $(STATICCHECK) ./...
	@dead="$$($(GO) run $(DEADCODE) -test ./...)" || exit 1; test -z "$$dead" || { echo "$$dead"; echo "dead code: nothing reaches these"; exit 1; }
	@! $(GO) list -deps ./cmd/kokoro | grep -qx testing || { echo "package testing is linked into bin/kokoro: a non-test file imports it"; exit 1; }

# The full suite: assets are required, so no real-model test can skip. setup, venv and vet need
# nothing of each other (curl-test needs setup): they run side by side, each one's output held
# until it ends, before the Go tests. The summary line at the end counts from the start.
test:
	@start=$$(date +%s.%N) && \
	$(MAKE) --no-print-directory -j3 --output-sync=target setup venv vet curl-test && \
	TEST_START=$$start bash scripts/test/test.sh

curl-test: setup
	@bash scripts/test/curl_test.sh

# Unit tests only; tests that need assets skip with a message naming `make setup`.
test-short:
	$(GO) test -short ./...

# Both container images built with podman and started as SageMaker starts them (root).
image-test:
	bash scripts/test/image_test.sh

bench: setup
	KOKORO_REQUIRE_ASSETS=1 $(GO) test -run '^$$' -bench . -benchtime 5x ./model/ ./phonemize/en/ ./phonemize/espeak/ ./server/ ./planner/

clean:
	rm -rf bin
