package main

import (
	"bytes"
	"encoding/json"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/tiebreak/tiebreak/board"
	"github.com/tiebreak/tiebreak/internal/redistest"
	"github.com/tiebreak/tiebreak/pack"
)

// The command reads descriptors with its own struct (storedDescriptor):
// it knows every field the board package stores, for every setting, so
// that describe shows it and a resumed migration keeps it. A field added
// to board's descriptor alone fails here.
func TestStoredDescriptorKnowsEveryField(t *testing.T) {
	env := redistest.New(t)
	ctx := t.Context()
	l, err := pack.NewLayout(pack.Field{Name: "points", Width: 20}, pack.Field{Name: "time", Width: 20, Dir: pack.LowerIsBetter, Signed: true})
	if err != nil {
		t.Fatal(err)
	}
	rules := board.Rules{Start: time.UnixMilli(1e12), End: time.Date(2099, 1, 1, 0, 0, 0, 0, time.UTC), JoinRequired: true, MaxMembers: 9, MaxAttempts: 3}
	metas := map[string]string{}
	for name, o := range map[string]board.Options{
		"suffix": {Strategy: board.KeySuffix, DenseRanks: true, Hiding: true, KeepTop: 10, Bounds: []board.Bound{{Field: "points", Min: 0, Max: 100}}},
		"rules":  {Group: env.Prefix + "g", SharedData: true, Rules: rules},
		"shards": {Shards: 2, Cap: 10},
	} {
		b, err := board.New(ctx, env.Client, env.Prefix+name, l, o)
		if err != nil {
			t.Fatal(err)
		}
		if o.Rules.JoinRequired {
			if err := b.Join(ctx, "a"); err != nil {
				t.Fatal(err)
			}
		}
		if _, err := b.Submit(ctx, board.Submission{ID: "a", Values: []float64{1, 1}}); err != nil {
			t.Fatal(err)
		}
		metas[name] = "tb:{" + b.Name() + "}:meta"
		if o.Group != "" {
			metas[name] = "tb:{" + o.Group + "}:{" + b.Name() + "}:meta"
		}
	}
	p, err := board.NewPeriodic(env.Client, env.Prefix+"weekly", l, board.Weekly(time.UTC), time.Hour, board.Options{Rules: board.Rules{MaxAttempts: 2}})
	if err != nil {
		t.Fatal(err)
	}
	w := p.At(time.Now())
	if _, err := w.Submit(ctx, board.Submission{ID: "a", Values: []float64{1, 1}}); err != nil {
		t.Fatal(err)
	}
	metas["window"] = "tb:{" + w.Name() + "}:meta"
	for name, key := range metas {
		s, err := env.Client.Do(ctx, env.Client.B().Hget().Key(key).Field("desc").Build()).ToString()
		if err != nil {
			t.Fatalf("%s: HGET %s desc: %v", name, key, err)
		}
		var d storedDescriptor
		dec := json.NewDecoder(bytes.NewReader([]byte(s)))
		dec.DisallowUnknownFields()
		if err := dec.Decode(&d); err != nil {
			t.Errorf("%s: the command does not know a field of %s: %v", name, s, err)
			continue
		}
		again, _ := json.Marshal(d)
		var want, got map[string]any
		_ = json.Unmarshal([]byte(s), &want)
		_ = json.Unmarshal(again, &got)
		if diff := cmp.Diff(want, got); diff != "" {
			t.Errorf("%s: the command's reading of the descriptor loses (-stored +read):\n%s", name, diff)
		}
	}
}
