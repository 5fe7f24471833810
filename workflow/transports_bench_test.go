package workflow

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/kokoro-sm/kokoro/artifact"
	"github.com/kokoro-sm/kokoro/bench"
	"github.com/kokoro-sm/kokoro/bench/transport"
	"github.com/kokoro-sm/kokoro/emulate"
	"github.com/kokoro-sm/kokoro/emulate/emulatetest"
	"github.com/kokoro-sm/kokoro/internal/testenv"
	"github.com/kokoro-sm/kokoro/sagemaker/awsconf"
	"github.com/kokoro-sm/kokoro/tts"
)

// BenchmarkRealModelTransports measures the real model behind one server directly (http, ws)
// and through the SageMaker emulator (sagemaker-stream, sagemaker-bidi) with the same ladder
// and SLO, and reports each transport's Q_max and p95 TTFAB per rung: on an idle machine they
// agree within a rung. The server has one slot, so TTFAB grows about linearly with N; the SLO
// is 2.5 times the TTFAB of one request alone, so that Q_max falls inside the ladder 1, 2, 4.
//
//	go test -run '^$' -bench RealModelTransports -benchtime 1x ./workflow/
func BenchmarkRealModelTransports(b *testing.B) {
	a := testenv.RealModel(b)
	b.Setenv("AWS_ACCESS_KEY_ID", "AKIDLOCAL")
	b.Setenv("AWS_SECRET_ACCESS_KEY", "local")
	b.Setenv("AWS_CONFIG_FILE", filepath.Join(b.TempDir(), "none"))
	b.Setenv("AWS_SHARED_CREDENTIALS_FILE", filepath.Join(b.TempDir(), "none"))
	b.Setenv("AWS_EC2_METADATA_DISABLED", "true")
	url, stop, err := startSelf(context.Background(), tts.LoadConfig{Assets: a, Provider: "cpu", Slots: 1, Threads: 2}, 0)
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { _ = stop() })
	emuURL := emulatetest.Start(b, emulate.Config{EndpointName: "kokoro-local", Region: "us-east-1",
		Variants: []emulate.Variant{{Name: "AllTraffic", Instances: []string{url}}}})
	texts := filepath.Join(b.TempDir(), "texts.txt")
	if err := os.WriteFile(texts, []byte("Hello there.\nThank you.\nGood morning.\nSee you soon.\nAll right.\n"), 0o644); err != nil {
		b.Fatal(err)
	}
	s := oneRequestTTFAB(b, url)
	slo := 2.5 * s
	hold := min(max(time.Duration(12*s)*time.Millisecond, 8*time.Second), 90*time.Second)
	b.Logf("one request: TTFAB p50 %.0f ms; SLO %.0f ms, hold %v", s, slo, hold)
	for range b.N {
		for _, tr := range []string{"http", "sagemaker-stream", "ws", "sagemaker-bidi"} {
			out := b.TempDir()
			job := NewQmax()
			job.Transport, job.Ladder, job.Hold, job.Window, job.Settle = tr, []int{1, 2, 4}, hold, hold*4/5, time.Second
			job.SLOms, job.Out, job.Texts = slo, out, texts
			if strings.HasPrefix(tr, "sagemaker-") {
				job.SageMaker = SageMaker{Endpoint: "kokoro-local", Variant: "AllTraffic", AWS: AWS{Region: "us-east-1", EndpointURL: emuURL, Timeout: awsconf.DefaultAnswerTimeout},
					InstanceType: "local-emulator", ImageDigest: "sha256:0123456789abcdef"}
			} else {
				job.URL = url
			}
			var log strings.Builder
			if err := job.Run(context.Background(), &log, &log); err != nil {
				b.Fatalf("%s: %v\n%s", tr, err, log.String())
			}
			arts, _ := filepath.Glob(filepath.Join(out, "qmax-kokoro-82m-"+tr+"-*.json"))
			if len(arts) != 1 {
				b.Fatalf("%s: artifacts %v", tr, arts)
			}
			q, err := artifact.ReadQmax(arts[0])
			if err != nil {
				b.Fatal(err)
			}
			var steps []string
			for _, r := range q.Steps {
				steps = append(steps, fmt.Sprintf("N=%d p95 %.0f ms ok %d %s", r.Concurrency, r.TTFABP95Ms, r.OK, r.UnusableReason))
			}
			b.Logf("%-16s Q_max %d bracketed %v: %s", tr, q.QMax, q.QMaxBracketed, strings.Join(steps, "; "))
			b.ReportMetric(float64(q.QMax), "qmax_"+tr)
		}
	}
}

// oneRequestTTFAB is the median TTFAB in milliseconds of five requests sent one at a time.
func oneRequestTTFAB(b *testing.B, url string) float64 {
	tr, err := transport.New("http", transport.Options{BaseURL: url, MaxConns: 1})
	if err != nil {
		b.Fatal(err)
	}
	defer tr.Close()
	conn, err := tr.Dial(context.Background())
	if err != nil {
		b.Fatal(err)
	}
	var ttfab []float64
	for i := range 5 {
		start := time.Now()
		var first time.Duration
		err := conn.Synthesize(context.Background(), bench.Request{ID: fmt.Sprint("cal-", i), Text: "Thank you."}, func([]byte) {
			if first == 0 {
				first = time.Since(start)
			}
		})
		if err != nil {
			b.Fatal(err)
		}
		ttfab = append(ttfab, float64(first)/float64(time.Millisecond))
	}
	slices.Sort(ttfab)
	return ttfab[2]
}
