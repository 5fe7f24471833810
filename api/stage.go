package api

// Stage markers the server prints on stdout, one line each, as it starts: the scale-out timer
// reads them from the container's log, so they are part of the contract. In the order they
// occur; the line format is in server.FormatStage.
const (
	StageFrameworkInit = "framework_init" // the listener accepts; the model is not loaded
	StageWeightsReady  = "weights_ready"  // the model is loaded (reported by the loader)
	StageWarmupDone    = "warmup_done"    // every slot has run once (reported by the loader)
	StageReady         = "ready"          // /ping answers 200 from now on
)
