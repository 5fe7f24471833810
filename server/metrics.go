package server

import (
	"strconv"
	"time"

	"github.com/prometheus/client_golang/prometheus"
)

// Outcomes a synthesis request ends with, the "outcome" label of kokoro_requests_total.
const (
	OutcomeOK          = "ok"
	OutcomeClientError = "client_error" // 4xx other than the ones below
	OutcomeStale       = "stale"        // 408 request_stale
	OutcomeRejected    = "rejected"     // 503 queue_saturated
	OutcomeNotReady    = "not_ready"    // 503 while loading or draining
	OutcomeCancelled   = "cancelled"    // the client went away or cancelled
	OutcomeError       = "error"        // server-side failure
)

// Metrics holds the server's Prometheus collectors. It also implements tts.Observer, so the
// engine's slots report per-chunk model time and queue depth into it.
type Metrics struct {
	Requests     *prometheus.CounterVec   // route, outcome
	Rejections   *prometheus.CounterVec   // route
	InFlight     prometheus.Gauge         // admitted requests not yet finished
	QueuedChunks prometheus.Gauge         // chunks waiting for a model slot
	TTFAB        *prometheus.HistogramVec // route; arrival → first audio byte written
	TTFAS        *prometheus.HistogramVec // route; arrival → first audible sample heard (audioTimes)
	Latency      *prometheus.HistogramVec // route; arrival → last byte written
	RTF          *prometheus.HistogramVec // route; synthesis wall time / audio duration
	AudioSeconds *prometheus.CounterVec   // route
	ChunkModel   prometheus.Histogram     // model time per chunk
	ChunkWait    prometheus.Histogram     // queue wait per chunk
	SlotBusy     *prometheus.CounterVec   // slot; model time summed
	ChunksTotal  prometheus.Counter
	Ready        prometheus.Gauge
	WSSessions   prometheus.Gauge
}

// NewMetrics creates the collectors and registers them on reg.
func NewMetrics(reg prometheus.Registerer) *Metrics {
	lat := []float64{.005, .01, .025, .05, .075, .1, .15, .2, .3, .5, .75, 1, 1.5, 2, 3, 5, 10, 20, 30, 60}
	m := &Metrics{
		Requests: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "kokoro_requests_total", Help: "Synthesis requests (HTTP requests and WebSocket utterances) by route and outcome.",
		}, []string{"route", "outcome"}),
		Rejections: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "kokoro_rejections_total", Help: "Requests turned away by the admission gate (queue_saturated).",
		}, []string{"route"}),
		InFlight: prometheus.NewGauge(prometheus.GaugeOpts{
			Name: "kokoro_requests_in_flight", Help: "Admitted requests in the system, queued or executing.",
		}),
		QueuedChunks: prometheus.NewGauge(prometheus.GaugeOpts{
			Name: "kokoro_queued_chunks", Help: "Chunks waiting for a model slot.",
		}),
		TTFAB: prometheus.NewHistogramVec(prometheus.HistogramOpts{
			Name: "kokoro_ttfab_seconds", Help: "Time from request arrival to the first audio byte written.", Buckets: lat,
		}, []string{"route"}),
		TTFAS: prometheus.NewHistogramVec(prometheus.HistogramOpts{
			Name: "kokoro_ttfas_seconds", Buckets: lat,
			Help: "Time from request arrival to the first audible sample, as heard by a client that plays from the first byte.",
		}, []string{"route"}),
		Latency: prometheus.NewHistogramVec(prometheus.HistogramOpts{
			Name: "kokoro_request_duration_seconds", Help: "Time from request arrival to the last audio byte written.", Buckets: lat,
		}, []string{"route"}),
		RTF: prometheus.NewHistogramVec(prometheus.HistogramOpts{
			Name: "kokoro_real_time_factor", Help: "Synthesis wall time divided by the audio duration produced.",
			Buckets: []float64{.01, .02, .05, .1, .2, .3, .5, .75, 1, 1.5, 2, 5},
		}, []string{"route"}),
		AudioSeconds: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "kokoro_audio_seconds_total", Help: "Seconds of audio sent to clients.",
		}, []string{"route"}),
		ChunkModel: prometheus.NewHistogram(prometheus.HistogramOpts{
			Name: "kokoro_chunk_model_seconds", Help: "Model time of one chunk on a slot.", Buckets: lat,
		}),
		ChunkWait: prometheus.NewHistogram(prometheus.HistogramOpts{
			Name: "kokoro_chunk_queue_wait_seconds", Help: "Time a chunk waited for a model slot.", Buckets: lat,
		}),
		SlotBusy: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "kokoro_slot_busy_seconds_total", Help: "Seconds each model slot spent running chunks.",
		}, []string{"slot"}),
		ChunksTotal: prometheus.NewCounter(prometheus.CounterOpts{
			Name: "kokoro_chunks_total", Help: "Chunks synthesized.",
		}),
		Ready: prometheus.NewGauge(prometheus.GaugeOpts{
			Name: "kokoro_ready", Help: "1 once the model is loaded and warmed, 0 before and while draining.",
		}),
		WSSessions: prometheus.NewGauge(prometheus.GaugeOpts{
			Name: "kokoro_websocket_sessions", Help: "Open WebSocket sessions.",
		}),
	}
	reg.MustRegister(m.Requests, m.Rejections, m.InFlight, m.QueuedChunks, m.TTFAB, m.TTFAS, m.Latency, m.RTF,
		m.AudioSeconds, m.ChunkModel, m.ChunkWait, m.SlotBusy, m.ChunksTotal, m.Ready, m.WSSessions)
	return m
}

// ChunkDone implements tts.Observer.
func (m *Metrics) ChunkDone(slot int, modelTime, queueWait, _ time.Duration) {
	m.ChunkModel.Observe(modelTime.Seconds())
	m.ChunkWait.Observe(queueWait.Seconds())
	m.SlotBusy.WithLabelValues(strconv.Itoa(slot)).Add(modelTime.Seconds())
	m.ChunksTotal.Inc()
}

// QueueDepth implements tts.Observer.
func (m *Metrics) QueueDepth(n int) { m.QueuedChunks.Set(float64(n)) }
