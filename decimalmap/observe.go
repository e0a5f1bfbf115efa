package decimalmap

import (
	"github.com/tiebreak/tiebreak/internal/observed"
	"github.com/tiebreak/tiebreak/observe"
)

// errKinds are the package's sentinel errors as an observer names them.
var errKinds = []observed.Sentinel{
	{Err: ErrNotReplicated, Name: "decimalmap.ErrNotReplicated"},
	{Err: ErrName, Name: "decimalmap.ErrName"},
	{Err: ErrOptions, Name: "decimalmap.ErrOptions"},
	{Err: ErrKey, Name: "decimalmap.ErrKey"},
	{Err: ErrArgument, Name: "decimalmap.ErrArgument"},
	{Err: ErrRedis, Name: "decimalmap.ErrRedis"},
	{Err: ErrReply, Name: "decimalmap.ErrReply"},
}

// op describes the operation name of m over n keys or values.
func (m *Map) op(name string, n int) observe.Op {
	return observe.Op{Package: "decimalmap", Name: name, Object: m.name, N: int64(n)}
}

// entriesOutcome reports how many keys a read returned.
func entriesOutcome(es []Entry, o observe.Outcome) observe.Outcome {
	return observed.Count(len(es), o)
}
