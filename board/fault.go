package board

import (
	"context"
	"errors"
	"time"

	"github.com/tiebreak/tiebreak/board/internal/rdb"
)

// faultPoint, when set (by tests only), runs at every step boundary of the
// long operations, named by the operation and the step just done:
//
//	Migrate  begin, copy (each step), check, switch
//	Reshard  begin, export, copy (each step), drain, freeze, check,
//	         switch, retire
//	Archive  claim, copy (each step), done
//	Page     sample (a sharded board's deep Page or Between, between its
//	         round trips)
//
// The fault tests run an operation in a child process that kills itself
// (SIGKILL) at a chosen step, then finish it from another process.
var faultPoint func(op, step string)

// atStep reports a step boundary to faultPoint.
func atStep(op, step string) {
	if faultPoint != nil {
		faultPoint(op, step)
	}
}

// rideOutFor bounds how long a long operation (Migrate, Reshard, Archive)
// goes on trying while Redis is unreachable or lost a reply: a restart or
// a failover (a replica takes over a few seconds after its master dies).
const rideOutFor = 30 * time.Second

// rideOut runs op, one resumable step of a long operation, again while it
// fails because Redis could not be reached, lost the connection before a
// reply, or did not replicate a write in time (every step of these
// operations may run twice: each is idempotent or checked), until
// rideOutFor has passed since the last step that went through or ctx
// ends; it returns op's last error.
func rideOut[T any](ctx context.Context, op func() (T, error)) (T, error) {
	deadline := time.Now().Add(rideOutFor)
	for {
		res, err := op()
		if err == nil || !transient(err) || time.Now().After(deadline) {
			return res, err
		}
		if sleep(ctx, 200*time.Millisecond) != nil {
			return res, err
		}
	}
}

// transient reports an error that a restart or a failover causes.
func transient(err error) bool {
	return rdb.ConnectionLost(err) || errors.Is(err, ErrNotReplicated)
}
