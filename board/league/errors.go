package league

import (
	"github.com/tiebreak/tiebreak/board"
	"github.com/tiebreak/tiebreak/internal/observed"
)

// Sentinel errors: the same values as package board's, so that one
// handler sorts both.
var (
	// ErrArgument reports a bad argument: an invalid id, values the
	// cohorts' layout refuses (as board's Submit), an unknown tier.
	ErrArgument = board.ErrArgument
	// ErrOptions reports Options or a Period New refuses; it wraps
	// ErrArgument.
	ErrOptions = board.ErrOptions
	// ErrNotFound reports a member that has no cohort in the season.
	ErrNotFound = board.ErrNotFound
	// ErrMismatch reports a league stored with other settings than the
	// handle's (New), naming the setting.
	ErrMismatch = board.ErrMismatch
	// ErrClosed reports a write to a season that was rolled, or older
	// than the latest season its partition placed members in (it is
	// board.ErrClosed; it wraps ErrArgument).
	ErrClosed = board.ErrClosed
	// ErrRedis wraps an error from Redis or the connection.
	ErrRedis = board.ErrRedis
)

// errKinds are the sentinels as an observer names them.
var errKinds = []observed.Sentinel{
	{Err: ErrOptions, Name: "league.ErrOptions"},
	{Err: ErrClosed, Name: "league.ErrClosed"},
	{Err: ErrArgument, Name: "league.ErrArgument"},
	{Err: ErrNotFound, Name: "league.ErrNotFound"},
	{Err: ErrMismatch, Name: "league.ErrMismatch"},
	{Err: ErrRedis, Name: "league.ErrRedis"},
}
