package rdb

import (
	"errors"
	"strings"
	"unsafe"

	"github.com/redis/rueidis"
	"github.com/tiebreak/tiebreak/internal/redisretry"
)

// The replies keep the client library's memory as it is: each type here
// is one of rueidis's under another name, so that a reply, an array of
// them or a pipeline's results change type without a copy. Their methods
// are the few that board and league read replies with.

// Result is what a command, or a script, answered: a reply or an error
// (a Redis error reply, a connection error, the context's).
type Result rueidis.RedisResult

func (r Result) raw() rueidis.RedisResult { return rueidis.RedisResult(r) }

// Error is the result's error: nil for a reply; a nil reply's is one
// IsNil reports.
func (r Result) Error() error { return r.raw().Error() }

// ToMessage is the result's reply.
func (r Result) ToMessage() (Reply, error) {
	m, err := r.raw().ToMessage()
	return Reply(m), err
}

// AsInt64 is an integer reply, or a string one that holds an integer.
func (r Result) AsInt64() (int64, error) { return r.raw().AsInt64() }

// ToString is a string reply.
func (r Result) ToString() (string, error) { return r.raw().ToString() }

// AsStrSlice is an array reply of strings (a nil element is "").
func (r Result) AsStrSlice() ([]string, error) { return r.raw().AsStrSlice() }

// AsIntSlice is an array reply of integers.
func (r Result) AsIntSlice() ([]int64, error) { return r.raw().AsIntSlice() }

// AsStrMap is a map reply, or an array of fields and values.
func (r Result) AsStrMap() (map[string]string, error) { return r.raw().AsStrMap() }

// ToArray is an array reply.
func (r Result) ToArray() ([]Reply, error) {
	ms, err := r.raw().ToArray()
	return replies(ms), err
}

// Scored is a member of a sorted set and its score.
type Scored rueidis.ZScore

// AsZScores is the reply of a ZRANGE ... WITHSCORES: members and scores.
func (r Result) AsZScores() ([]Scored, error) {
	zs, err := r.raw().AsZScores()
	return unsafe.Slice((*Scored)(unsafe.SliceData(zs)), len(zs)), err
}

// AsScanEntry is the reply of a SCAN, SSCAN, HSCAN or ZSCAN: the next
// cursor (0 at the end) and the elements.
func (r Result) AsScanEntry() (cursor uint64, elems []string, err error) {
	e, err := r.raw().AsScanEntry()
	return e.Cursor, e.Elements, err
}

func results(rs []rueidis.RedisResult) []Result {
	return unsafe.Slice((*Result)(unsafe.SliceData(rs)), len(rs))
}

// Reply is one reply, or one element of an array reply.
type Reply rueidis.RedisMessage

func (r *Reply) raw() *rueidis.RedisMessage { return (*rueidis.RedisMessage)(r) }

func replies(ms []rueidis.RedisMessage) []Reply {
	return unsafe.Slice((*Reply)(unsafe.SliceData(ms)), len(ms))
}

// Error is the element's error: an error reply within an array (a
// transaction's command that failed), or a nil element's (IsNil reports
// it); nil for any other.
func (r *Reply) Error() error { return r.raw().Error() }

// IsNil reports a nil reply.
func (r *Reply) IsNil() bool { return r.raw().IsNil() }

// IsString reports a string reply (simple or bulk).
func (r *Reply) IsString() bool { return r.raw().IsString() }

// IsArray reports an array reply.
func (r *Reply) IsArray() bool { return r.raw().IsArray() }

// IsInt64 reports an integer reply.
func (r *Reply) IsInt64() bool { return r.raw().IsInt64() }

// ToString is a string reply; a nil reply's error is one IsNil reports.
func (r *Reply) ToString() (string, error) { return r.raw().ToString() }

// AsInt64 is an integer reply, or a string one that holds an integer.
func (r *Reply) AsInt64() (int64, error) { return r.raw().AsInt64() }

// AsFloat64 is a double reply, or a string one that holds a number.
func (r *Reply) AsFloat64() (float64, error) { return r.raw().AsFloat64() }

// AsStrSlice is an array reply of strings (a nil element is "").
func (r *Reply) AsStrSlice() ([]string, error) { return r.raw().AsStrSlice() }

// ToArray is an array reply.
func (r *Reply) ToArray() ([]Reply, error) {
	ms, err := r.raw().ToArray()
	return replies(ms), err
}

// IsNil reports a nil reply: a missing key, field or member.
func IsNil(err error) bool { return rueidis.IsRedisNil(err) }

// ErrorText is the text of err where it is an error reply of Redis (a
// script's error_reply included), with ok true; "" and false for any
// other error (a connection's, the context's), and for a nil reply.
func ErrorText(err error) (text string, ok bool) {
	rerr, ok := rueidis.IsRedisErr(err)
	if !ok || rerr.IsNil() {
		return "", false
	}
	return rerr.Error(), true
}

// HasPrefix reports an error reply of Redis whose text starts with
// prefix (its error code: "WRONGTYPE", "OOM", or a script's "TB...").
func HasPrefix(err error, prefix string) bool {
	text, ok := ErrorText(err)
	return ok && strings.HasPrefix(text, prefix)
}

// ConnectionLost reports an error of a connection that failed (the
// server unreachable, or gone before its reply), which a restart or a
// failover causes: the command may or may not have run.
func ConnectionLost(err error) bool {
	return errors.Is(err, redisretry.ErrUnreachable) || errors.Is(err, redisretry.ErrNoReply)
}
