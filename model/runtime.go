package model

import (
	"fmt"
	"os"
	"sync"

	ort "github.com/yalue/onnxruntime_go"
)

// ONNX Runtime has one environment per process, so its initialisation is the one piece of
// process-wide state here: the first library path wins and later callers must agree with it.
var (
	envMu   sync.Mutex
	envPath string
)

func initRuntime(libPath string) error {
	envMu.Lock()
	defer envMu.Unlock()
	if ort.IsInitialized() {
		if libPath != envPath {
			return fmt.Errorf("onnx runtime already initialised from %s, cannot switch to %s", envPath, libPath)
		}
		return nil
	}
	if _, err := os.Stat(libPath); err != nil {
		return fmt.Errorf("onnx runtime library not found at %s: run `make setup` (or set KOKORO_ORT_LIB): %w", libPath, err)
	}
	ort.SetSharedLibraryPath(libPath)
	if err := ort.InitializeEnvironment(ort.WithLogLevelError()); err != nil {
		return fmt.Errorf("initialise onnx runtime from %s: %w", libPath, err)
	}
	envPath = libPath
	// One CPU arena for every session that opts in (SessionOptions.CPUArena). It keeps ONNX
	// Runtime's default extension (to the next power of two): growing by exactly what is asked
	// held 935 MB against 599 MB after the same long requests at speeds 0.5 and 1 on one slot
	// (testdata/perf/rss.txt), its many odd-sized regions fitting later chunks less well.
	info, err := ort.GetMemoryInfo()
	if err == nil {
		var cfg *ort.ArenaCfg
		if cfg, err = ort.NewArenaCfg(0, -1, -1, -1); err == nil {
			err = ort.CreateAndRegisterAllocator(info, cfg)
			cfg.Destroy()
		}
	}
	if err != nil {
		return fmt.Errorf("register the shared cpu arena: %w", err)
	}
	return nil
}
