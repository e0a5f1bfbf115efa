// Package hook lends package board's write engine to the packages built
// over it (league), without widening board's API: package board sets the
// functions here in its init, and their callers pass and get board's own
// types as any (a *board.Board, a board.Options, a board.Submission, a
// board.Result).
package hook

import (
	"context"

	"github.com/tiebreak/tiebreak/board/internal/rdb"
	"github.com/tiebreak/tiebreak/pack"
)

// Placed is a write whose board its script chooses: the caller's
// placement fragment runs first, picks the board, and calls the board's
// submit on it, in the same script.
type Placed interface {
	// Submit runs the script with KEYS keys and ARGV args followed by
	// the submission's submit arguments (its RequestID left out: the
	// placement fragment remembers it). It returns the board.Result, and
	// the first element of the script's reply, which the placement
	// fragment adds (where it placed the write). An error the placement
	// fragment raised (its text starting with "TBLEAGUE") is returned as
	// rueidis returns it; any other is board's.
	Submit(ctx context.Context, keys, args []string, s any) (result any, placed string, err error)
	// Source is the script's text, as Redis runs it.
	Source() string
}

var (
	// NewPlaced builds the Placed write of the boards shaped as
	// template (a *board.Board; its name does not matter) with the Lua
	// placement fragment placement, which Lua functions precede:
	//
	//	board_1(KEYS, ARGV, CHECK)   the board's submit (see board's group.lua)
	//	board_keys(prefix)           a board's keys, in submit's order, from
	//	                             its key prefix "tb:{group}:{name}:"
	NewPlaced func(template any, placement string) (Placed, error)

	// Handle returns a *board.Board of name in group, stored with
	// layout and opts (a board.Options), without a round trip: a handle
	// for reading a board the placement made.
	Handle func(conn rdb.Conn, group, name string, layout *pack.Layout, opts any) (any, error)

	// Descriptor returns the descriptor that board (a *board.Board)
	// stores, as JSON: its layout and stored settings, not its name.
	Descriptor func(board any) string

	// Period describes period (a board.Period): the same text for two
	// periods that make the same windows with the same labels.
	Period func(period any) string

	// PolicyName is how an Observer is told the policy of s (a
	// board.Submission): its Policy, or its Fields' joined by commas.
	PolicyName func(s any) string
)
