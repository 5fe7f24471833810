package emulate

import (
	"context"
	"time"

	"github.com/kokoro-sm/kokoro/sagemaker/smruntime"
)

// MetricSink receives the ConcurrentRequestsPerModel statistics of each period;
// smruntime.MetricPublisher puts them into CloudWatch.
type MetricSink interface {
	PutConcurrency(ctx context.Context, stats []smruntime.ConcurrencyStat) error
}

// instanceAcc accumulates one instance's samples within a period.
type instanceAcc struct {
	n             int
	sum, min, max float64
}

func (a *instanceAcc) add(v float64) {
	if a.n == 0 || v < a.min {
		a.min = v
	}
	a.max = max(a.max, v)
	a.sum += v
	a.n++
}

// publish samples every instance's requests in flight every SampleEvery and puts one
// statistic set per instance and period, as SageMaker reports ConcurrentRequestsPerModel per
// model copy under the variant's dimensions: the period's Maximum is then the most requests
// any one instance held. A sample is the highest count since the previous sample, so a burst
// between two samples still shows in the Maximum.
func (e *Emulator) publish(ctx context.Context) {
	type key struct {
		v  *variant
		in *instance
	}
	acc := map[key]*instanceAcc{}
	periodStart := time.Now()
	flush := func() {
		var stats []smruntime.ConcurrencyStat
		for k, a := range acc {
			if a.n == 0 {
				continue
			}
			stats = append(stats, smruntime.ConcurrencyStat{
				Endpoint: e.cfg.EndpointName, Variant: k.v.name, At: periodStart,
				SampleCount: float64(a.n), Sum: a.sum, Min: a.min, Max: a.max,
			})
		}
		clear(acc)
		periodStart = time.Now()
		if len(stats) == 0 {
			return
		}
		// A put under way when the emulator closes still completes: its period was measured.
		pctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), 10*time.Second)
		defer cancel()
		if err := e.cfg.Metrics.PutConcurrency(pctx, stats); err != nil {
			e.log.Warn("publish concurrency", "err", err)
		}
	}
	t := time.NewTicker(e.cfg.SampleEvery)
	defer t.Stop()
	for {
		select {
		case <-ctx.Done():
			flush()
			return
		case <-t.C:
		}
		for _, v := range e.variants {
			for _, in := range v.serving() {
				now := in.inFlight.Load()
				peak := in.peak.Swap(now)
				k := key{v, in}
				if acc[k] == nil {
					acc[k] = &instanceAcc{}
				}
				acc[k].add(float64(max(now, peak)))
			}
		}
		if time.Since(periodStart) >= e.cfg.MetricPeriod-e.cfg.SampleEvery/2 {
			flush()
		}
	}
}
