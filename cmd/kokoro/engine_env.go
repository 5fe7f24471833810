package main

import (
	"runtime"
	"slices"
	"strconv"

	"github.com/kokoro-sm/kokoro/model"
	"github.com/kokoro-sm/kokoro/tts"
)

// engineEnv is an in-process server's configuration as the container environment that would
// set it: the settings that decide its speed as much as the machine does. It goes into the
// fingerprint of what the server measures (`bench qmax --self`, `kokoro emulate --serve`) the
// way a SageMaker endpoint's container environment does. The shape is recorded as the engine
// resolves it (the adaptive default is slots 0 in the flags), so that two runs of different
// shapes never share a fingerprint.
func engineEnv(e tts.LoadConfig, maxQueueDepth int) map[string]string {
	env := func(flag string) string { return lookupSetting(flag).Env }
	provider, _ := model.ParseProvider(e.Provider)
	shape, cores := e.Shape(provider, e.Assets.ORTLib, runtime.NumCPU())
	return map[string]string{
		env("slots"):               strconv.Itoa(len(shape)),
		env("threads"):             strconv.Itoa(slices.Max(shape)),
		env("provider"):            e.Provider,
		env("max-queue-depth"):     strconv.Itoa(maxQueueDepth),
		env("first-chunk-max-ids"): strconv.Itoa(e.FirstChunkMaxIDs),
		env("max-chunk-ids"):       strconv.Itoa(e.MaxChunkIDs),
		env("slot-threads"):        (*intList)(&shape).String(),
		env("cores"):               strconv.Itoa(cores),
		env("first-chunk-min-ids"): strconv.Itoa(e.FirstChunkMinIDs),
		env("chunk-ramp"):          strconv.FormatFloat(e.Ramp, 'g', -1, 64),
		env("first-chunk-at"):      e.FirstChunkAt.String(),
		env("chunk-context"):       (*toggle)(&e.ChunkContext).String(),
		env("decoder-windows"):     (*toggle)(&e.DecoderWindows).String(),
	}
}
