package tiebreakotel_test

import (
	"context"
	"fmt"
	"strings"

	"github.com/redis/rueidis/rueidisotel"
	"github.com/tiebreak/tiebreak/board"
	"github.com/tiebreak/tiebreak/internal/redistest"
	"github.com/tiebreak/tiebreak/pack"
	"github.com/tiebreak/tiebreak/tiebreakotel"
	sdktrace "go.opentelemetry.io/otel/sdk/trace"
	"go.opentelemetry.io/otel/sdk/trace/tracetest"
)

// A board traced with OpenTelemetry, on a client traced with rueidisotel:
// the Submit's span sits under the caller's and over the script's EVALSHA.
// The tree is printed from the SDK's in-memory recorder.
func Example() {
	env, err := redistest.Shared()
	if err != nil {
		panic(err)
	}
	ctx := context.Background()
	spans := tracetest.NewSpanRecorder()
	tp := sdktrace.NewTracerProvider(sdktrace.WithSpanProcessor(spans))

	// Opting in: an Observer on the providers (default: the global ones),
	// set in the board's Options.
	obs, err := tiebreakotel.New(tiebreakotel.WithTracerProvider(tp))
	if err != nil {
		panic(err)
	}
	client := rueidisotel.WithClient(env.Client, rueidisotel.WithTracerProvider(tp))
	layout, _ := pack.NewLayout(pack.Field{Name: "points", Width: 20}, pack.Field{Name: "time", Width: 32, Dir: pack.LowerIsBetter})
	b, err := board.New(ctx, client, env.Prefix+"_arena", layout, board.Options{Observer: obs})
	if err != nil {
		panic(err)
	}
	defer b.Drop(ctx)

	add := func(ctx context.Context, id string, points float64) {
		_, err := b.Submit(ctx, board.Submission{ID: id, Values: []float64{points, 1700000000},
			Fields: []board.Policy{board.Add, board.Min}})
		if err != nil {
			panic(err)
		}
	}
	add(ctx, "bob", 300) // the server caches the script (a first call may need EVAL)

	from := len(spans.Ended())
	ctx, request := tp.Tracer("game").Start(ctx, "POST /score")
	add(ctx, "ada", 120)
	request.End()

	var tree strings.Builder
	// db.stmt_size, the size of the command, is left out: it varies with
	// the length of the key names (here, with the test's prefix).
	printTree(&tree, spans.Ended()[from:], "db.stmt_size")
	fmt.Print(strings.ReplaceAll(tree.String(), env.Prefix+"_", ""))
	// Output:
	// POST /score (internal)
	//     board.Submit (internal) db.operation.name=board.Submit db.system.name=redis db.collection.name=arena tiebreak.strategy=PackedScore tiebreak.policy=Add,Min tiebreak.rank=2 tiebreak.changed=true tiebreak.trimmed=false
	//         EVALSHA (client) db.system=redis db.operation=EVALSHA
}
