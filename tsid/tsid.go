package tsid

import "time"

// TSIDEpoch is the instant of TSID time part 0: 2020-01-01T00:00:00Z.
var TSIDEpoch = time.Date(2020, 1, 1, 0, 0, 0, 0, time.UTC)

// TSID is the layout of TSIDs (as made by the tsid-creator library): 42
// bits of milliseconds since TSIDEpoch (until 2159), then 22 bits of node
// and counter, 64 bits in all. Its text is 13 Crockford base32 characters:
// upper case on output; case-insensitive, with the aliases O=0 and I=L=1,
// on input; the first character 0-F (a larger one is ErrRange). Its Fields
// are the default split, node (10 bits) then counter (12 bits); other
// splits of the 22 bits parse, split and join the same.
//
// Split gives score = the 42-bit time part and a 6-hex-digit suffix of the
// 22 rest bits: 0123456789ABC splits into 9153062458 and "04a96c".
var TSID = mustLayout(LayoutSpec{
	Name:     "TSID",
	TimeBits: 42,
	RestBits: 22,
	Epoch:    TSIDEpoch,
	Unit:     time.Millisecond,
	Text:     TextCrockford,
	Fields:   []Field{{Name: "node", Bits: 10}, {Name: "counter", Bits: 12}},
})
