package durable_test

import (
	"errors"
	"strconv"
	"testing"
	"time"

	"github.com/tiebreak/tiebreak/internal/durable"
	"github.com/tiebreak/tiebreak/internal/engine"
	"github.com/tiebreak/tiebreak/internal/errs"
	"github.com/tiebreak/tiebreak/internal/redistest"
)

// hasWaitAOF reports whether the redis-server the tests run is one with
// WAITAOF (Redis or Valkey 7.2 or later): the tests check both sides.
func hasWaitAOF(t *testing.T) bool {
	t.Helper()
	_, c := redistest.Private(t)
	e, err := engine.Of(testCtx(t), c)
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("engine %v", e)
	return e.AtLeast(7, 2)
}

// With AOF, a write on a server with appendonly yes returns once it is in
// the append-only file, here and on the replica; on a server without
// WAITAOF it is refused (errs.Options) and nothing is written.
func TestWriteWaitsForDisk(t *testing.T) {
	has := hasWaitAOF(t)
	_, _, c := redistest.PrivateReplicated(t, "--appendonly", "yes", "--appendfsync", "always")
	ctx := testCtx(t)
	for i := range 20 {
		// A replica reports what it has on disk about once a second, so
		// only a few writes wait for it.
		w := durable.Wait{Timeout: 10 * time.Second, AOF: true}
		if i < 3 {
			w.Replicas = 1
		}
		reply, err := set(ctx, c, w, "k"+strconv.Itoa(i), "v")
		if !has {
			if !errors.Is(err, errs.Options) || get(t, c, "k"+strconv.Itoa(i)) != "" {
				t.Fatalf("write %d on a server without WAITAOF: %q, %v; want errs.Options and nothing written", i, reply, err)
			}
			continue
		}
		if err != nil || reply != "OK" {
			t.Fatalf("write %d: %q, %v; want OK, nil", i, reply, err)
		}
	}
}

// With AOF, a server whose append-only file is off refuses every write
// (errs.Options), writing nothing, and takes them once it is on.
func TestWriteDiskOff(t *testing.T) {
	has := hasWaitAOF(t)
	_, c := redistest.Private(t, "--appendonly", "no")
	ctx := testCtx(t)
	w := durable.Wait{AOF: true}
	if reply, err := set(ctx, c, w, "k", "v"); !errors.Is(err, errs.Options) || get(t, c, "k") != "" {
		t.Fatalf("a write with appendonly no: %q, %v; want errs.Options and nothing written", reply, err)
	}
	if !has {
		return
	}
	if err := c.Do(ctx, c.B().ConfigSet().ParameterValue().ParameterValue("appendonly", "yes").Build()).Error(); err != nil {
		t.Fatal(err)
	}
	// The rewrite that turning it on starts must end before WAITAOF counts
	// the master's disk; the write waits for it, within its timeout.
	w.Timeout = 10 * time.Second
	if reply, err := set(ctx, c, w, "k", "v"); err != nil || reply != "OK" {
		t.Fatalf("a write once appendonly is on: %q, %v; want OK", reply, err)
	}
}

// With AOF and a replica that is gone, a write is applied and reported
// short of its replicas (ErrNotReplicated).
func TestWriteDiskNoReplica(t *testing.T) {
	if !hasWaitAOF(t) {
		t.Log("a server without WAITAOF: TestWriteWaitsForDisk covers it")
		return
	}
	_, c := redistest.Private(t, "--appendonly", "yes", "--appendfsync", "always")
	ctx := testCtx(t)
	w := durable.Wait{Replicas: 1, Timeout: 100 * time.Millisecond, AOF: true}
	if reply, err := set(ctx, c, w, "k", "v"); !errors.Is(err, durable.ErrNotReplicated) || reply != "OK" || get(t, c, "k") != "v" {
		t.Fatalf("a write with no replica: %q, %v; want OK, applied, and ErrNotReplicated", reply, err)
	}
}
