package main

import (
	"context"
	"fmt"
	"strings"

	"github.com/redis/rueidis"
	"github.com/tiebreak/tiebreak/internal/hashtag"
)

// slotOut is the hash slot of one object of a board: the board's own
// keys, or one shard's. Every key of a tiebreak object shares one hash
// tag, so the object lives in one slot.
type slotOut struct {
	// Object names it: the board, or a shard of a sharded board.
	Object  string `json:"object"`
	HashTag string `json:"hashTag"`
	Slot    int    `json:"slot"`
	// What CLUSTER SLOT-STATS reports of the slot, on a cluster whose
	// nodes offer it, as the node serving the slot counted it since it
	// started: the keys of the slot (the object's and any other's), the
	// CPU time spent on it in microseconds, and the network bytes in and
	// out. A statistic the node does not report is absent: Valkey reports
	// CPU and network only with cluster-slot-stats-enabled yes.
	Keys            *int64 `json:"keys,omitempty"`
	CPUUsec         *int64 `json:"cpuUsec,omitempty"`
	NetworkBytesIn  *int64 `json:"networkBytesIn,omitempty"`
	NetworkBytesOut *int64 `json:"networkBytesOut,omitempty"`
}

// notOffered is what describe says where the server has no slot
// statistics, refused where the user's ACL does not allow them.
const (
	notOffered = "not offered by this server"
	refused    = "refused by the ACL (grant +cluster|slot-stats to see them)"
)

// hashTagOf returns the part of key that Redis Cluster hashes: the text
// between its first "{" and the first "}" after it, when not empty, else
// the whole key.
func hashTagOf(key string) string {
	if i := strings.IndexByte(key, '{'); i >= 0 {
		if j := strings.IndexByte(key[i+1:], '}'); j > 0 {
			return key[i+1 : i+1+j]
		}
	}
	return key
}

// keySlot is the hash slot of key.
func keySlot(key string) int { return hashtag.Slot(hashTagOf(key)) }

// slotOf returns the slot of the object whose key is key.
func slotOf(object, key string) slotOut {
	tag := hashTagOf(key)
	return slotOut{Object: object, HashTag: tag, Slot: hashtag.Slot(tag)}
}

// slotStats fills in what CLUSTER SLOT-STATS reports of each slot, each
// asked of the node serving it, in one pipelined round trip. It reports
// whether the server offers the statistics: only a cluster does, and only
// an engine that knows the command (Valkey 8 and later); a server that
// answers with an error reply does not offer them, which is no error.
// denied reports that the server has them but the user's ACL refused
// them (NOPERM).
func slotStats(ctx context.Context, c rueidis.Client, slots []slotOut) (offered, denied bool, err error) {
	if c.Mode() != rueidis.ClientModeCluster || len(slots) == 0 {
		return false, false, nil
	}
	cmds := make(rueidis.Commands, len(slots))
	for i, s := range slots {
		n := int64(s.Slot)
		cmds[i] = c.B().ClusterSlotStats().Slotsrange().StartSlot(n).EndSlot(n).Build().SetSlot("{" + s.HashTag + "}")
	}
	for i, r := range c.DoMulti(ctx, cmds...) {
		rows, err := r.ToArray()
		if e, isReply := rueidis.IsRedisErr(err); isReply {
			return false, strings.HasPrefix(e.Error(), "NOPERM"), nil
		}
		if err != nil {
			return false, false, fmt.Errorf("CLUSTER SLOT-STATS SLOTSRANGE %d %d: %w", slots[i].Slot, slots[i].Slot, err)
		}
		for _, row := range rows {
			f, err := row.ToArray()
			if err != nil || len(f) != 2 {
				return false, false, fmt.Errorf("CLUSTER SLOT-STATS SLOTSRANGE %d %d: a row not of a slot and its statistics: %v", slots[i].Slot, slots[i].Slot, err)
			}
			if n, err := f[0].AsInt64(); err != nil || n != int64(slots[i].Slot) {
				continue
			}
			stats, err := f[1].AsIntMap()
			if err != nil {
				return false, false, fmt.Errorf("CLUSTER SLOT-STATS SLOTSRANGE %d %d: statistics: %w", slots[i].Slot, slots[i].Slot, err)
			}
			s := &slots[i]
			for name, to := range map[string]**int64{"key-count": &s.Keys, "cpu-usec": &s.CPUUsec,
				"network-bytes-in": &s.NetworkBytesIn, "network-bytes-out": &s.NetworkBytesOut} {
				if v, ok := stats[name]; ok {
					*to = &v
				}
			}
		}
	}
	return true, false, nil
}

// addSlots adds a row per slot, with its statistics when offered, and a
// row that says where they come from, or why there are none.
func addSlots(t *table, slots []slotOut, offered, denied bool) {
	for _, s := range slots {
		text := fmt.Sprintf("%d (hash tag {%s})", s.Slot, s.HashTag)
		if offered {
			text += ": " + slotStatsText(s)
		}
		label := "slot"
		if len(slots) > 1 {
			label = "slot of " + s.Object
		}
		t.add(label, text)
	}
	if offered {
		t.add("slot statistics", "CLUSTER SLOT-STATS of the node serving each slot, since it started: every key of the slot counts")
	} else if denied {
		t.add("slot statistics", refused)
	} else {
		t.add("slot statistics", notOffered)
	}
}

// slotStatsText writes a slot's statistics for people.
func slotStatsText(s slotOut) string {
	if s.Keys == nil && s.CPUUsec == nil && s.NetworkBytesIn == nil && s.NetworkBytesOut == nil {
		return "no statistics (the node serving it did not report the slot)"
	}
	var parts []string
	if s.Keys != nil {
		parts = append(parts, count(*s.Keys, "keys"))
	}
	if s.CPUUsec != nil {
		parts = append(parts, fmt.Sprintf("%d µs CPU", *s.CPUUsec))
	}
	if s.NetworkBytesIn != nil {
		parts = append(parts, fmt.Sprintf("%d bytes in", *s.NetworkBytesIn))
	}
	if s.NetworkBytesOut != nil {
		parts = append(parts, fmt.Sprintf("%d bytes out", *s.NetworkBytesOut))
	}
	if s.CPUUsec == nil && s.NetworkBytesIn == nil && s.NetworkBytesOut == nil {
		parts = append(parts, "CPU and network not counted (cluster-slot-stats-enabled no)")
	}
	return strings.Join(parts, ", ")
}
