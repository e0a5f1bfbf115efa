package observe

import (
	"context"
	"fmt"
	"strings"
)

// Observer observes the operations of the handles whose Options name it.
// It must be safe for concurrent use: one handle serves many goroutines.
type Observer interface {
	// Start is called as an operation begins. The operation makes its
	// Redis calls with the context Start returns (ctx itself when the
	// observer has nothing to add), and calls the Span's End once when it
	// ends. Start must not return a nil Span.
	Start(ctx context.Context, op Op) (context.Context, Span)
}

// Span is one operation under way, as an Observer started it.
type Span interface {
	// End is called once, when the operation returns, with its outcome.
	End(o Outcome)
}

// Op describes an operation as it starts. Fields that do not apply to it
// are zero.
type Op struct {
	// Package is the package of the handle: "board", "league",
	// "timeline", "decimalmap" or "ratelimit".
	Package string

	// Name is the operation: the method's name ("Submit", "Top",
	// "AllowN"), or the type's and the method's for a type other than the
	// package's main one ("Group.Submit", "Periodic.Archive").
	Name string

	// Object names what the operation reads or writes: a board's name, a
	// timeline's room, a decimal map's name, a limiter's key prefix.
	Object string

	// Group is a board's group (Options.Group), "" for none.
	Group string

	// Key is the limited key of a limiter's operation.
	Key string

	// Strategy is the name of the handle's storage strategy
	// ("PackedScore", "KeySuffix", "LexID", "SplitScore"), "" for the
	// packages that have one way only.
	Strategy string

	// Policy is the name of a board submission's policy ("Replace",
	// "Best", "Add"; those of its Fields joined by commas: "Add,Keep"),
	// of the rank kind a Rank asks for, or a limiter's limit as
	// Limit.String writes it ("10 per 1s").
	Policy string

	// N is how many the call asks for or gives: the entries of a read,
	// the submissions of a SubmitMany, the ids of a Remove or Among, the
	// requests of an AllowN. 0 when the operation takes no count.
	N int64
}

// FullName is the operation's name with its package's: "board.Submit".
func (op Op) FullName() string { return op.Package + "." + op.Name }

// Outcome is how an operation ended. Has says which of the result fields
// hold something; Err and ErrKind always do.
type Outcome struct {
	// Err is the error the operation returned, nil when it succeeded.
	Err error

	// ErrKind names the package's sentinel error that Err wraps,
	// qualified by the package ("board.ErrMismatch"), or
	// "context.Canceled" or "context.DeadlineExceeded" for an error of
	// the caller's context (which wraps no sentinel: the caller ended the
	// call, Redis did not fail it); "" when Err is nil or none of these
	// (an UpdateFunc's own error, say).
	ErrKind string

	// Has says which of the fields below are set.
	Has Fields

	// Rank is the rank the operation returned or stored (1 = best; 0 when
	// a cap trimmed the entry at once).
	Rank int64

	// Count is how many the operation returned or affected: entries read,
	// ids removed, submissions written, requests remaining in a limiter's
	// window.
	Count int64

	// Changed reports that a write changed the stored entry.
	Changed bool

	// Trimmed reports that a board's cap removed the entry in the same
	// write.
	Trimmed bool

	// Allowed reports that a limiter admitted the requests.
	Allowed bool

	// Attempts is how many read-compute-write rounds an Update made, and
	// Conflicts how many of them lost their compare-and-set to another
	// writer.
	Attempts, Conflicts int
}

// Fields is a set of Outcome fields, one bit each.
type Fields uint8

// The fields of an Outcome that Has may hold.
const (
	HasRank Fields = 1 << iota
	HasCount
	HasChanged
	HasTrimmed
	HasAllowed
	HasAttempts // Attempts and Conflicts
)

var fieldNames = [...]string{"HasRank", "HasCount", "HasChanged", "HasTrimmed", "HasAllowed", "HasAttempts"}

// String returns the names of the fields in f joined by "|", such as
// "HasRank|HasChanged"; "0" for none.
func (f Fields) String() string {
	if f == 0 {
		return "0"
	}
	var s []string
	for i, name := range fieldNames {
		if f&(1<<i) != 0 {
			s = append(s, name)
		}
	}
	if rest := f &^ (1<<len(fieldNames) - 1); rest != 0 {
		s = append(s, fmt.Sprintf("Fields(%#x)", uint8(rest)))
	}
	return strings.Join(s, "|")
}
