package main

import (
	"bytes"
	"context"
	"strings"
	"testing"
	"time"

	"github.com/tiebreak/tiebreak/internal/benchload"
)

// TestMeasureWidensEmptyWindow: a variant whose one operation outlasts
// the window (started in the warm-up, ended after the window) is measured
// again in longer windows until an operation starts in one; a variant
// that fills its window is measured once.
func TestMeasureWidensEmptyWindow(t *testing.T) {
	noCPU := func(context.Context) (float64, error) { return 0, nil }
	for name, c := range map[string]struct {
		sleep   time.Duration
		widened bool
	}{"slow": {30 * time.Millisecond, true}, "fast": {100 * time.Microsecond, false}} {
		var log bytes.Buffer
		h := &harness{cfg: config{Duration: 10 * time.Millisecond, Warmup: 5 * time.Millisecond}, log: newProgress(&log)}
		v := benchload.Variant{Name: name, Op: func(context.Context) error { time.Sleep(c.sleep); return nil }}
		m, err := h.measure(context.Background(), v, 1, noCPU)
		if err != nil {
			t.Fatal(err)
		}
		if m.Ops == 0 || m.OpsPerSec == 0 {
			t.Errorf("%s: %d ops, %.0f ops/s: want an operation measured", name, m.Ops, m.OpsPerSec)
		}
		if got := strings.Contains(log.String(), "measuring again"); got != c.widened {
			t.Errorf("%s: widened %v, want %v; log:\n%s", name, got, c.widened, log.String())
		}
		if c.widened && m.OpsPerSec > float64(time.Second/c.sleep) {
			t.Errorf("%s: %.0f ops/s, more than one op every %v allows: the rate is not of the widened window", name, m.OpsPerSec, c.sleep)
		}
	}
}
