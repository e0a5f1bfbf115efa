package main

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"slices"
	"sort"
	"strconv"
	"strings"

	"github.com/redis/rueidis"
	"github.com/tiebreak/tiebreak/internal/hashtag"
)

func leagueCommands() []*command {
	return []*command{
		{name: "league describe", args: []string{"NAME"}, help: "a league's stored settings and, per partition, its latest season and whether it is rolled",
			setup: func(fs *flag.FlagSet) runFunc {
				return func(ctx context.Context, e *env, a []string) error { return leagueDescribe(ctx, e, a[0]) }
			}},
		{name: "league cohorts", args: []string{"NAME", "SEASON"}, help: "a season's cohorts: tier, members, rolled or not, and the board to read each with board top",
			setup: func(fs *flag.FlagSet) runFunc {
				return func(ctx context.Context, e *env, a []string) error { return leagueCohorts(ctx, e, a[0], a[1]) }
			}},
		{name: "league member", args: []string{"NAME", "ID"}, help: "a member's partition, the tier of its next season, and its cohort in each season",
			setup: func(fs *flag.FlagSet) runFunc {
				return func(ctx context.Context, e *env, a []string) error { return leagueMember(ctx, e, a[0], a[1]) }
			}},
	}
}

// storedLeague is a league's descriptor as it stores it (JSON in the
// field "desc" of tb:{name}:league).
type storedLeague struct {
	Version    int        `json:"version"`
	Tiers      []string   `json:"tiers"`
	CohortSize int        `json:"cohortSize"`
	Promote    storedZone `json:"promote"`
	Demote     storedZone `json:"demote"`
	Partitions int        `json:"partitions"`
	Layout     string     `json:"layout"`
	// Period is the seasons' period: "weekly in UTC", "every 3600000ms"...
	Period string `json:"period"`
	// Board is the descriptor every cohort board stores.
	Board json.RawMessage `json:"board"`
}

// storedZone is a promotion or demotion zone.
type storedZone struct {
	Count    int     `json:"count,omitempty"`
	Fraction float64 `json:"fraction,omitempty"`
}

// text is "the best 2", "the worst 20%" and so on, with side.
func (z storedZone) text(side string) string {
	switch {
	case z.Count > 0:
		return fmt.Sprintf("the %s %d", side, z.Count)
	case z.Fraction > 0:
		return fmt.Sprintf("the %s %s%%", side, strconv.FormatFloat(z.Fraction*100, 'g', 12, 64))
	}
	return "none"
}

// readLeague reads league name's descriptor.
func readLeague(ctx context.Context, e *env, name string) (string, storedLeague, error) {
	var d storedLeague
	if err := checkName("league", name); err != nil {
		return "", d, err
	}
	key := "tb:{" + name + "}:league"
	s, err := e.client.Do(ctx, e.client.B().Hget().Key(key).Field("desc").Build()).ToString()
	if rueidis.IsRedisNil(err) {
		return key, d, fmt.Errorf("no league named %q (no key %s with a desc field) (not found)", name, key)
	}
	if err != nil {
		return key, d, fmt.Errorf("HGET %s desc: %w", key, err)
	}
	if err := json.Unmarshal([]byte(s), &d); err != nil || d.Partitions < 1 || len(d.Tiers) == 0 {
		return key, d, fmt.Errorf("%s: the stored descriptor %q is not a league's", key, s)
	}
	return key, d, nil
}

// partitionOut is one partition of a league in JSON.
type partitionOut struct {
	Partition int      `json:"partition"`
	Group     string   `json:"group"`
	Latest    string   `json:"latest,omitempty"`
	Rolled    bool     `json:"rolled"`
	Seasons   []string `json:"seasons"`
}

// leagueOut is league describe's answer in JSON.
type leagueOut struct {
	Name       string         `json:"name"`
	Key        string         `json:"key"`
	Descriptor storedLeague   `json:"descriptor"`
	Partitions []partitionOut `json:"partitions"`
}

func leagueDescribe(ctx context.Context, e *env, name string) error {
	key, d, err := readLeague(ctx, e, name)
	if err != nil {
		return err
	}
	out := leagueOut{Name: name, Key: key, Descriptor: d}
	c := e.client
	for p := range d.Partitions {
		g := name + "~" + strconv.Itoa(p)
		meta, err := c.Do(ctx, c.B().Hgetall().Key("tb:{"+g+"}:league").Build()).AsStrMap()
		if err != nil {
			return fmt.Errorf("HGETALL tb:{%s}:league: %w", g, err)
		}
		seasons, err := c.Do(ctx, c.B().Zrange().Key("tb:{"+g+"}:seasons").Min("0").Max("-1").Build()).AsStrSlice()
		if err != nil {
			return fmt.Errorf("ZRANGE tb:{%s}:seasons: %w", g, err)
		}
		latest := meta["last"]
		out.Partitions = append(out.Partitions, partitionOut{Partition: p, Group: g, Latest: latest, Rolled: latest != "" && meta["rolled:"+latest] != "", Seasons: append([]string{}, seasons...)})
	}
	t := &table{}
	t.add("league", name)
	t.add("key", key)
	t.add("seasons", d.Period)
	t.add("tiers", strings.Join(d.Tiers, ", ")+" (lowest first)")
	t.add("cohort size", strconv.Itoa(d.CohortSize))
	t.add("promote", d.Promote.text("best"))
	t.add("demote", d.Demote.text("worst"))
	t.add("partitions", strconv.Itoa(d.Partitions))
	t.add("layout", d.Layout)
	if len(d.Board) > 0 {
		bd, err := parseDescriptor(key, "desc", string(d.Board))
		if err != nil {
			return err
		}
		addDescriptor(t, "cohort ", bd)
	}
	for _, p := range out.Partitions {
		state := "no season yet"
		if p.Latest != "" {
			state = "latest season " + p.Latest + ", " + map[bool]string{true: "rolled", false: "not rolled"}[p.Rolled]
		}
		t.add("partition "+strconv.Itoa(p.Partition), fmt.Sprintf("group %s: %s (%d seasons)", p.Group, state, len(p.Seasons)))
	}
	return e.out.emit(out, t)
}

// cohortOut is one cohort in JSON.
type cohortOut struct {
	Tier      string `json:"tier"`
	Index     int    `json:"index"`
	Partition int    `json:"partition"`
	Members   int64  `json:"members"`
	Rolled    bool   `json:"rolled"`
	Board     string `json:"board"`
}

func leagueCohorts(ctx context.Context, e *env, name, season string) error {
	_, d, err := readLeague(ctx, e, name)
	if err != nil {
		return err
	}
	var out []cohortOut
	c := e.client
	for p := range d.Partitions {
		g := name + "~" + strconv.Itoa(p)
		counts, err := c.Do(ctx, c.B().Hgetall().Key("tb:{"+g+"}:"+season+":cohorts").Build()).AsStrMap()
		if err != nil {
			return fmt.Errorf("HGETALL tb:{%s}:%s:cohorts: %w", g, season, err)
		}
		rolled, err := c.Do(ctx, c.B().Hgetall().Key("tb:{"+g+"}:"+season+":rolled").Build()).AsStrMap()
		if err != nil {
			return fmt.Errorf("HGETALL tb:{%s}:%s:rolled: %w", g, season, err)
		}
		for t, tier := range d.Tiers {
			n, _ := strconv.Atoi(counts[strconv.Itoa(t+1)])
			for i := 1; i <= n; i++ {
				where := strconv.Itoa(t+1) + ":" + strconv.Itoa(i)
				members, _ := strconv.ParseInt(counts[where], 10, 64)
				out = append(out, cohortOut{Tier: tier, Index: i, Partition: p, Members: members, Rolled: rolled[where] != "",
					Board: g + "/" + season + ":" + tier + ":" + strconv.Itoa(i)})
			}
		}
	}
	sort.SliceStable(out, func(i, j int) bool { return tierRank(d, out[i].Tier) < tierRank(d, out[j].Tier) })
	t := &table{header: []string{"TIER", "COHORT", "PARTITION", "MEMBERS", "ROLLED", "BOARD"}}
	for _, o := range out {
		t.add(o.Tier, strconv.Itoa(o.Index), strconv.Itoa(o.Partition), strconv.FormatInt(o.Members, 10), strconv.FormatBool(o.Rolled), o.Board)
	}
	if out == nil {
		return leagueNoSeason(ctx, e, name, season, d)
	}
	t.note("%d cohorts in season %s", len(out), season)
	return e.out.emit(out, t)
}

// leagueNoSeason reports a season of league name with no cohort: one it
// never played (no such object), naming the seasons it played.
func leagueNoSeason(ctx context.Context, e *env, name, season string, d storedLeague) error {
	var played []string
	for p := range d.Partitions {
		key := "tb:{" + name + "~" + strconv.Itoa(p) + "}:seasons"
		ss, err := e.client.Do(ctx, e.client.B().Zrange().Key(key).Min("0").Max("-1").Build()).AsStrSlice()
		if err != nil {
			return fmt.Errorf("ZRANGE %s: %w", key, err)
		}
		played = append(played, ss...)
	}
	slices.Sort(played)
	played = slices.Compact(played)
	if len(played) == 0 {
		return fmt.Errorf("league %s has played no season: no cohort in season %q", name, season)
	}
	return fmt.Errorf("league %s has no cohort in season %q; the seasons it played: %s", name, season, strings.Join(played, ", "))
}

// tierRank is the tier's number, from 1 for the lowest.
func tierRank(d storedLeague, tier string) int {
	for i, t := range d.Tiers {
		if t == tier {
			return i + 1
		}
	}
	return 0
}

// memberOut is league member's answer in JSON.
type memberOut struct {
	ID        string        `json:"id"`
	Partition int           `json:"partition"`
	NextTier  string        `json:"nextTier"`
	Seasons   []placementIn `json:"seasons"`
}

// placementIn is where a member competed in one season.
type placementIn struct {
	Season string `json:"season"`
	Tier   string `json:"tier"`
	Cohort int    `json:"cohort"`
	Board  string `json:"board"`
}

func leagueMember(ctx context.Context, e *env, name, id string) error {
	_, d, err := readLeague(ctx, e, name)
	if err != nil {
		return err
	}
	p := hashtag.Partition(id, d.Partitions)
	g := name + "~" + strconv.Itoa(p)
	c := e.client
	out := memberOut{ID: id, Partition: p, NextTier: d.Tiers[0], Seasons: []placementIn{}}
	tier, err := c.Do(ctx, c.B().Hget().Key("tb:{"+g+"}:tiers").Field(id).Build()).AsInt64()
	switch {
	case rueidis.IsRedisNil(err):
	case err != nil:
		return fmt.Errorf("HGET tb:{%s}:tiers: %w", g, err)
	case tier >= 1 && int(tier) <= len(d.Tiers):
		out.NextTier = d.Tiers[tier-1]
	}
	seasons, err := c.Do(ctx, c.B().Zrange().Key("tb:{"+g+"}:seasons").Min("0").Max("-1").Build()).AsStrSlice()
	if err != nil {
		return fmt.Errorf("ZRANGE tb:{%s}:seasons: %w", g, err)
	}
	for _, s := range seasons {
		where, err := c.Do(ctx, c.B().Hget().Key("tb:{"+g+"}:"+s+":placed").Field(id).Build()).ToString()
		if rueidis.IsRedisNil(err) {
			continue
		}
		if err != nil {
			return fmt.Errorf("HGET tb:{%s}:%s:placed: %w", g, s, err)
		}
		ts, ns, _ := strings.Cut(where, ":")
		t, _ := strconv.Atoi(ts)
		n, _ := strconv.Atoi(ns)
		if t < 1 || t > len(d.Tiers) {
			return fmt.Errorf("tb:{%s}:%s:placed holds %q for %s: not a cohort", g, s, where, id)
		}
		out.Seasons = append(out.Seasons, placementIn{Season: s, Tier: d.Tiers[t-1], Cohort: n, Board: g + "/" + s + ":" + d.Tiers[t-1] + ":" + ns})
	}
	if tier == 0 && len(out.Seasons) == 0 {
		return fmt.Errorf("%s is no member of league %s: never placed in a season (partition %d)", id, name, p)
	}
	t := &table{header: []string{"SEASON", "TIER", "COHORT", "BOARD"}}
	for _, s := range out.Seasons {
		t.add(s.Season, s.Tier, strconv.Itoa(s.Cohort), s.Board)
	}
	t.note("%s: partition %d, next tier %s", id, p, out.NextTier)
	return e.out.emit(out, t)
}
