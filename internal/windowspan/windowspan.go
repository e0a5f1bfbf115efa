// Package windowspan writes and reads how a periodic window's board
// stores its span, the start and end of its time, in its meta HASH:
// "start-end", Unix milliseconds. board stores and checks it; the command
// shows it.
package windowspan

import (
	"strconv"
	"strings"
	"time"
)

// Of is the stored span of a window from start to end.
func Of(start, end time.Time) string {
	return strconv.FormatInt(start.UnixMilli(), 10) + "-" + strconv.FormatInt(end.UnixMilli(), 10)
}

// Text is a stored span in words, "[2026-11-23T00:00:00Z,
// 2026-11-24T00:00:00Z)" in UTC, with milliseconds where a time has them
// (two spans differ in their text when they differ at all); the stored
// text quoted when it is not a span.
func Text(stored string) string {
	a, b, ok := strings.Cut(stored, "-")
	start, err1 := strconv.ParseInt(a, 10, 64)
	end, err2 := strconv.ParseInt(b, 10, 64)
	if !ok || err1 != nil || err2 != nil {
		return strconv.Quote(stored)
	}
	const layout = "2006-01-02T15:04:05.999Z07:00" // RFC 3339, milliseconds when not 0
	return "[" + time.UnixMilli(start).UTC().Format(layout) + ", " + time.UnixMilli(end).UTC().Format(layout) + ")"
}
