package main

import (
	"testing"

	"github.com/kokoro-sm/kokoro/model"
)

func TestMaxChunkIDsFollowsTheProvider(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		flag int
		p    model.Provider
		want int
	}{{0, model.ProviderCPU, 200}, {0, model.ProviderCUDA, 510}, {300, model.ProviderCPU, 300}, {120, model.ProviderCUDA, 120}} {
		if got := maxChunkIDs(c.flag, c.p); got != c.want {
			t.Errorf("maxChunkIDs(%d, %s) = %d, want %d", c.flag, c.p, got, c.want)
		}
	}
}
