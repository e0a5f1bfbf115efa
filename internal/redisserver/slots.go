package redisserver

import (
	"context"
	"fmt"
	"net"
	"strconv"
	"time"

	"github.com/redis/rueidis"
)

// MoveOptions shape a slot's move.
type MoveOptions struct {
	// Batch is how many keys one MIGRATE carries. Default 10, as
	// redis-cli --cluster reshard. A batch smaller than the keys of one
	// hash tag splits it: for a while some of its keys are on each master.
	Batch int
	// Pause is a wait after every MIGRATE, so that the clients work with a
	// slot half moved for longer. Default 0.
	Pause time.Duration
	// AfterMigrate, when not nil, is called after every MIGRATE, with the
	// keys it moved: a test sees the slot half moved, and the move waits
	// for it to return.
	AfterMigrate func(keys []string)
}

// SlotOf returns the hash slot of key, as the cluster computes it.
func (c *Cluster) SlotOf(ctx context.Context, key string) (int, error) {
	var slot int64
	err := onNode(c.Addrs[0], func(n rueidis.Client) (err error) {
		slot, err = n.Do(ctx, n.B().ClusterKeyslot().Key(key).Build()).AsInt64()
		return err
	})
	return int(slot), err
}

// SlotOwner returns the address of the master that serves slot now.
func (c *Cluster) SlotOwner(ctx context.Context, slot int) (string, error) {
	nodes, err := c.liveNodes(ctx)
	if err != nil {
		return "", err
	}
	for _, n := range nodes {
		if !n.is("master") || n.is("fail") {
			continue
		}
		if owner, err := servesSlot(ctx, n.addr, slot); err != nil || owner {
			return n.addr, err
		}
	}
	return "", fmt.Errorf("redisserver: no master serves slot %d", slot)
}

// servesSlot reports whether the node addr serves slot, by its own CLUSTER
// SLOTS.
func servesSlot(ctx context.Context, addr string, slot int) (bool, error) {
	owner, err := slotOwnerSeenBy(ctx, addr, slot)
	return owner == addr, err
}

// slotOwnerSeenBy returns the address of the master that serves slot as
// the node addr sees it, by its CLUSTER SLOTS: "" if it sees none.
func slotOwnerSeenBy(ctx context.Context, addr string, slot int) (string, error) {
	var owner string
	err := onNode(addr, func(n rueidis.Client) error {
		slots, err := n.Do(ctx, n.B().ClusterSlots().Build()).ToArray()
		if err != nil {
			return err
		}
		for _, s := range slots {
			r, err := s.ToArray()
			if err != nil || len(r) < 3 {
				continue
			}
			lo, _ := r[0].AsInt64()
			hi, _ := r[1].AsInt64()
			m, _ := r[2].ToArray()
			if int64(slot) < lo || int64(slot) > hi || len(m) < 2 {
				continue
			}
			host, _ := m[0].ToString()
			port, _ := m[1].AsInt64()
			owner = net.JoinHostPort(host, strconv.FormatInt(port, 10))
		}
		return nil
	})
	return owner, err
}

// WaitSlotOwners waits until every live node, masters and replicas, sees
// each slot of owners served by the master given for it: after MoveSlot,
// the nodes that were not told learn the new owner by gossip, and a
// client that reads the topology from one of them meanwhile is sent to
// the old owner.
func (c *Cluster) WaitSlotOwners(ctx context.Context, owners map[int]string) error {
	for _, s := range c.nodes {
		if !s.alive() {
			continue
		}
		for slot, want := range owners {
			for {
				got, err := slotOwnerSeenBy(ctx, s.Addr, slot)
				if err == nil && got == want {
					break
				}
				select {
				case <-ctx.Done():
					return fmt.Errorf("redisserver: %s sees slot %d served by %q, want %s (%v)", s.Addr, slot, got, want, err)
				case <-time.After(50 * time.Millisecond):
				}
			}
		}
	}
	return nil
}

// MoveKeyAway moves the slot of key to another master than the one that
// serves it (the first of Addrs that is not it), as MoveSlot does.
func (c *Cluster) MoveKeyAway(ctx context.Context, key string, o MoveOptions) error {
	slot, err := c.SlotOf(ctx, key)
	if err != nil {
		return err
	}
	from, err := c.SlotOwner(ctx, slot)
	if err != nil {
		return err
	}
	to := c.Addrs[0]
	if to == from {
		to = c.Addrs[1]
	}
	return c.MoveSlot(ctx, slot, to, o)
}

// MoveSlot moves slot, and its keys, from the master that serves it to
// the master to, as an operator's resharding does: CLUSTER SETSLOT
// IMPORTING on to, MIGRATING on the owner, MIGRATE ... KEYS in batches
// while clients keep using the slot, then SETSLOT NODE on to, the owner
// and every other master. Moving a slot to its owner does nothing.
func (c *Cluster) MoveSlot(ctx context.Context, slot int, to string, o MoveOptions) error {
	from, err := c.SlotOwner(ctx, slot)
	if err != nil || from == to {
		return err
	}
	ids, err := c.nodeIDs(ctx)
	if err != nil {
		return err
	}
	s := strconv.Itoa(slot)
	if err := setSlot(ctx, to, s, "IMPORTING", ids[from]); err != nil {
		return err
	}
	if err := setSlot(ctx, from, s, "MIGRATING", ids[to]); err != nil {
		return err
	}
	if err := migrateKeys(ctx, from, to, slot, o); err != nil {
		return err
	}
	return c.assignSlot(ctx, s, ids[to], to, from)
}

// nodeIDs maps the address of every live node to its cluster node id.
func (c *Cluster) nodeIDs(ctx context.Context) (map[string]string, error) {
	nodes, err := c.liveNodes(ctx)
	if err != nil {
		return nil, err
	}
	ids := map[string]string{}
	for _, n := range nodes {
		ids[n.addr] = n.id
	}
	return ids, nil
}

// setSlot runs CLUSTER SETSLOT slot state id on the node addr.
func setSlot(ctx context.Context, addr, slot, state, id string) error {
	return onNode(addr, func(n rueidis.Client) error {
		err := n.Do(ctx, n.B().Arbitrary("CLUSTER", "SETSLOT").Args(slot, state, id).Build()).Error()
		if err != nil {
			return fmt.Errorf("CLUSTER SETSLOT %s %s on %s: %w", slot, state, addr, err)
		}
		return nil
	})
}

// migrateKeys moves slot's keys from from to to, o.Batch keys a MIGRATE.
func migrateKeys(ctx context.Context, from, to string, slot int, o MoveOptions) error {
	batch := o.Batch
	if batch <= 0 {
		batch = 10
	}
	host, port, _ := net.SplitHostPort(to)
	return onNode(from, func(n rueidis.Client) error {
		for {
			keys, err := n.Do(ctx, n.B().ClusterGetkeysinslot().Slot(int64(slot)).Count(int64(batch)).Build()).AsStrSlice()
			if err != nil || len(keys) == 0 {
				return err
			}
			args := append([]string{host, port, "", "0", "5000", "KEYS"}, keys...)
			if err := n.Do(ctx, n.B().Arbitrary("MIGRATE").Args(args...).Build()).Error(); err != nil {
				return fmt.Errorf("MIGRATE of %d keys of slot %d from %s to %s: %w", len(keys), slot, from, to, err)
			}
			if o.AfterMigrate != nil {
				o.AfterMigrate(keys)
			}
			time.Sleep(o.Pause)
		}
	})
}

// assignSlot ends a move: SETSLOT NODE on the new owner first, then on the
// old one, then on every other live master.
func (c *Cluster) assignSlot(ctx context.Context, slot, id, to, from string) error {
	masters, err := c.Masters(ctx)
	if err != nil {
		return err
	}
	order := []string{to, from}
	for _, m := range masters {
		if m != to && m != from {
			order = append(order, m)
		}
	}
	for _, addr := range order {
		if err := setSlot(ctx, addr, slot, "NODE", id); err != nil {
			return err
		}
	}
	return nil
}
