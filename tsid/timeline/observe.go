package timeline

import (
	"github.com/tiebreak/tiebreak/internal/observed"
	"github.com/tiebreak/tiebreak/observe"
)

// errKinds are the package's sentinel errors as an observer names them.
var errKinds = []observed.Sentinel{
	{Err: ErrNotReplicated, Name: "timeline.ErrNotReplicated"},
	{Err: ErrOptions, Name: "timeline.ErrOptions"},
	{Err: ErrRoom, Name: "timeline.ErrRoom"},
	{Err: ErrID, Name: "timeline.ErrID"},
	{Err: ErrPageSize, Name: "timeline.ErrPageSize"},
	{Err: ErrPayload, Name: "timeline.ErrPayload"},
	{Err: ErrArgument, Name: "timeline.ErrArgument"},
	{Err: ErrNotFound, Name: "timeline.ErrNotFound"},
	{Err: ErrRedis, Name: "timeline.ErrRedis"},
	{Err: ErrReply, Name: "timeline.ErrReply"},
}

// op describes the operation name of tl over n messages.
func (tl *Timeline[ID]) op(name string, n int) observe.Op {
	return observe.Op{Package: "timeline", Name: name, Object: tl.room, Strategy: tl.opts.Strategy.String(), N: int64(n)}
}

// pageOutcome reports how many messages a page holds.
func pageOutcome[ID any](p Page[ID], o observe.Outcome) observe.Outcome {
	return observed.Count(len(p.Messages), o)
}
