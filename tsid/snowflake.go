package tsid

import "time"

// Epochs of the predefined snowflake layouts.
var (
	// SnowflakeEpoch is Twitter's epoch, Unix milliseconds 1288834974657
	// (2010-11-04T01:42:54.657Z).
	SnowflakeEpoch = time.UnixMilli(1288834974657).UTC()
	// DiscordEpoch is Discord's epoch, Unix milliseconds 1420070400000
	// (2015-01-01T00:00:00Z).
	DiscordEpoch = time.UnixMilli(1420070400000).UTC()
	// SonyflakeEpoch is Sonyflake's default start time, 2014-09-01T00:00:00Z.
	SonyflakeEpoch = time.Date(2014, 9, 1, 0, 0, 0, 0, time.UTC)
)

// Snowflake is Twitter's snowflake layout: a zero sign bit, 41 bits of
// milliseconds since SnowflakeEpoch, 10 bits of machine and 12 of
// sequence. IDs have 63 bits, so they fit a signed int64 (as Twitter's
// API and Java longs carry them); Parse refuses decimal text above
// 2^63-1 with ErrRange. Text is canonical decimal. Suffix: 6 hex digits.
var Snowflake = mustLayout(LayoutSpec{
	Name:     "Snowflake",
	TimeBits: 41,
	RestBits: 22,
	Epoch:    SnowflakeEpoch,
	Unit:     time.Millisecond,
	Fields:   []Field{{Name: "machine", Bits: 10}, {Name: "sequence", Bits: 12}},
})

// Discord is Discord's snowflake layout: milliseconds since DiscordEpoch
// in bits 63..22 (42 bits), then 5 bits of worker, 5 of process and 12 of
// increment. Discord documents its snowflakes as unsigned 64-bit integers
// sent as decimal strings, so all 64 bits are used and Parse accepts the
// whole uint64 range (IDs above 2^63-1 appear from 2084 on). Suffix: 6 hex
// digits.
var Discord = mustLayout(LayoutSpec{
	Name:     "Discord",
	TimeBits: 42,
	RestBits: 22,
	Epoch:    DiscordEpoch,
	Unit:     time.Millisecond,
	Fields: []Field{
		{Name: "worker", Bits: 5}, {Name: "process", Bits: 5}, {Name: "increment", Bits: 12},
	},
})

// Sonyflake is Sonyflake's default layout: a zero sign bit, 39 bits of
// 10-millisecond units since SonyflakeEpoch, then 8 bits of sequence and 16
// of machine id (sequence above machine, unlike Twitter's). IDs have 63
// bits; text is canonical decimal. Its score counts 10 ms units, not
// milliseconds. Suffix: 6 hex digits of the 24 rest bits.
var Sonyflake = mustLayout(LayoutSpec{
	Name:     "Sonyflake",
	TimeBits: 39,
	RestBits: 24,
	Epoch:    SonyflakeEpoch,
	Unit:     10 * time.Millisecond,
	Fields:   []Field{{Name: "sequence", Bits: 8}, {Name: "machine", Bits: 16}},
})
