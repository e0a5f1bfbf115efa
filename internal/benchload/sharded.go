package benchload

import (
	"context"
	"errors"
	"fmt"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"

	"github.com/redis/rueidis"
	"github.com/tiebreak/tiebreak/board"
	"github.com/tiebreak/tiebreak/internal/redisops"
	"github.com/tiebreak/tiebreak/internal/redisserver"
)

// A board sharded over a local Redis Cluster of three masters against an
// unsharded board of the same entries on the same cluster: the latency one
// caller sees and the round trips of each read, for each shard count; the
// write throughput; and, measured apart, the Redis CPU each write costs
// every node, from which the notes model the writes a cluster with a core
// per node could take. The workload starts its own cluster (in a temporary
// directory, removed by Drop), whatever Redis the run measures otherwise.
// board's BenchmarkShardedReads and BenchmarkShardedWrites run it (the
// quick run's reads).
func init() {
	register(Workload{
		Num: 9, Name: "sharded", Title: "9. Sharded boards on a 3-master cluster",
		RatioOf: "reads: p50 / the unsharded board's p50 (greater is slower); writes: throughput / the unsharded board's, in the same round",
		Params: []Param{
			{Name: "sharded-board", Usage: "entries of the sharded workload's boards", Full: "1e5", Quick: "1e4", Min: 2000, Max: 1e7},
			{Name: "sharded-shards", Usage: "shard counts of the sharded workload", Full: "1,4,16", Quick: "16", Min: 1, Max: 256, List: true},
			{Name: "sharded-cpu-writes", Usage: "writes per board whose Redis CPU per node the sharded workload measures", Full: "50000", Quick: "3000", Min: 100, Max: 1e7},
		},
		Rows: func(c Config) int {
			n := 1 + len(c.Ints("sharded-shards"))
			return len(readsOf(c))*n + len(writersOf(c))
		},
		Goals:   func(Config) int { return 0 },
		Prepare: prepareSharded,
	})
}

// The sharded variants: SHUnsharded is what ratios divide by; SHRoundTrips
// counts the client's round trips (one Do or DoMulti each).
const (
	SHUnsharded  = "unsharded"
	SHRoundTrips = "round-trips"
	shMasters    = 3
)

// shReader is what the reads measured ask of a board, sharded or not.
type shReader interface {
	Get(ctx context.Context, id string, opts ...board.ReadOption) (board.Entry, error)
	Rank(ctx context.Context, id string, kind board.RankKind) (int64, error)
	Top(ctx context.Context, n int, opts ...board.ReadOption) (board.List, error)
	Page(ctx context.Context, offset int64, n int, opts ...board.ReadOption) (board.List, error)
	Around(ctx context.Context, id string, n int, opts ...board.ReadOption) (board.List, error)
	Scan(ctx context.Context, cursor string, n int, opts ...board.ReadOption) (board.List, error)
	Submit(ctx context.Context, s board.Submission) (board.Result, error)
}

// shBoard is one board of the workload, with the count of its round trips.
type shBoard struct {
	name   string // the variant: "unsharded", "S=4", "S=16 +rank"
	shards int    // 0 unsharded; negated for +rank
	r      shReader
	trips  *atomic.Int64
}

// shFixture is what the reads draw from: the board size and cursors spread
// over the board (cursors of a sharded board and of a board are alike).
type shFixture struct {
	size    int64
	cursors []string
}

// shardedRead is one read measured; s is the sequence number.
type shardedRead struct {
	name string
	op   func(ctx context.Context, b shReader, f *shFixture, s uint64) error
}

// shardedReads are the reads measured, in table order.
var shardedReads = []shardedRead{
	{"get", func(ctx context.Context, b shReader, f *shFixture, s uint64) error {
		_, err := b.Get(ctx, IDOf(int64(pick(s, int(f.size)))))
		return err
	}},
	{"rank-competition", func(ctx context.Context, b shReader, f *shFixture, s uint64) error {
		_, err := b.Rank(ctx, IDOf(int64(pick(s, int(f.size)))), board.Competition)
		return err
	}},
	{"top10", func(ctx context.Context, b shReader, _ *shFixture, _ uint64) error {
		_, err := b.Top(ctx, topN)
		return err
	}},
	{"around10", func(ctx context.Context, b shReader, f *shFixture, s uint64) error {
		_, err := b.Around(ctx, IDOf(int64(pick(s, int(f.size)))), aroundN)
		return err
	}},
	{"scan50", func(ctx context.Context, b shReader, f *shFixture, s uint64) error {
		_, err := b.Scan(ctx, f.cursors[pick(s, len(f.cursors))], pageSize)
		return err
	}},
	{"page50-shallow", func(ctx context.Context, b shReader, _ *shFixture, s uint64) error {
		_, err := b.Page(ctx, int64(pick(s, 1000-pageSize)), pageSize)
		return err
	}},
	{"page50-deep", func(ctx context.Context, b shReader, f *shFixture, s uint64) error {
		_, err := b.Page(ctx, 1000+int64(pick(s, int(f.size)-1000-pageSize)), pageSize)
		return err
	}},
}

// quickReads are the reads a quick run measures.
var quickReads = []string{"get", "top10", "around10", "page50-deep"}

// readsOf returns the reads a run of c measures: every one, or in a quick
// run quickReads.
func readsOf(c Config) []shardedRead {
	if !c.Quick {
		return shardedReads
	}
	return slices.DeleteFunc(slices.Clone(shardedReads), func(r shardedRead) bool { return !slices.Contains(quickReads, r.name) })
}

// writersOf returns the shard counts of the boards whose writes a run of
// c measures: 0 for the unsharded board, each shard count, and, unless
// the run is quick, the most sharded board once more with the write's
// board-wide rank (negated, -16), when it has several shards.
func writersOf(c Config) []int {
	out := []int{0}
	for _, n := range c.Ints("sharded-shards") {
		out = append(out, int(n))
	}
	if most := out[len(out)-1]; most > 1 && !c.Quick {
		out = append(out, -most)
	}
	return out
}

// countingClient counts the round trips made through it: one per Do or
// DoMulti, however many nodes a DoMulti reaches.
type countingClient struct {
	rueidis.Client
	n *atomic.Int64
}

func (c countingClient) Do(ctx context.Context, cmd rueidis.Completed) rueidis.RedisResult {
	c.n.Add(1)
	return c.Client.Do(ctx, cmd)
}

func (c countingClient) DoMulti(ctx context.Context, cmds ...rueidis.Completed) []rueidis.RedisResult {
	c.n.Add(1)
	return c.Client.DoMulti(ctx, cmds...)
}

// shCluster is the workload's own cluster: a client, and one on each
// master for INFO.
type shCluster struct {
	c      *redisserver.Cluster
	client rueidis.Client
	nodes  []rueidis.Client
}

// startShCluster starts a local cluster of shMasters masters.
func startShCluster(env Env) (*shCluster, error) {
	env.logf("sharded: starting a local Redis Cluster of %d masters", shMasters)
	c, err := redisserver.StartCluster("", shMasters)
	if err != nil {
		return nil, fmt.Errorf("sharded: the workload needs a local Redis Cluster (redis-server and redis-cli): %w", err)
	}
	sc := &shCluster{c: c}
	if sc.client, err = redisserver.Dial(c.Addrs...); err != nil {
		return nil, errors.Join(err, sc.close())
	}
	for _, addr := range c.Addrs {
		n, err := redisserver.DialNode(addr)
		if err != nil {
			return nil, errors.Join(err, sc.close())
		}
		sc.nodes = append(sc.nodes, n)
	}
	return sc, nil
}

// close stops the clients and the cluster, deleting its data.
func (sc *shCluster) close() error {
	for _, n := range sc.nodes {
		n.Close()
	}
	if sc.client != nil {
		sc.client.Close()
	}
	return sc.c.Close()
}

// cpu returns every master's CPU time (INFO cpu, user + system), in
// seconds.
func (sc *shCluster) cpu(ctx context.Context) ([]float64, error) {
	out := make([]float64, len(sc.nodes))
	for i, n := range sc.nodes {
		var err error
		if out[i], err = redisops.CPUSeconds(ctx, n); err != nil {
			return nil, err
		}
	}
	return out, nil
}

// cpuTotal returns the CPU time of all masters together, in seconds.
func (sc *shCluster) cpuTotal(ctx context.Context) (float64, error) {
	cpus, err := sc.cpu(ctx)
	total := 0.0
	for _, c := range cpus {
		total += c
	}
	return total, err
}

// newShBoard builds the board of a variant on its own counting client:
// unsharded for shards 0, else sharded over shards.
func newShBoard(ctx context.Context, sc *shCluster, name string, shards int, skipRank bool) (*shBoard, error) {
	sb := &shBoard{trips: new(atomic.Int64)}
	client := countingClient{Client: sc.client, n: sb.trips}
	var err error
	if shards == 0 {
		sb.name = SHUnsharded
		sb.r, err = board.New(ctx, client, name, Layout, board.Options{})
	} else {
		sb.name = "S=" + strconv.Itoa(shards)
		sb.r, err = board.New(ctx, client, name, Layout, board.Options{Shards: shards, SkipWriteRank: skipRank})
		if sb.shards = shards; !skipRank {
			sb.name, sb.shards = sb.name+" +rank", -shards
		}
	}
	return sb, err
}

// loadSharded fills b with entries 0..n-1, as loadBoard does.
func loadSharded(ctx context.Context, env Env, b *board.Board, n int64) error {
	_, err := loadChunks(ctx, env, "sharded: loading "+b.Name(), n, func(ctx context.Context, from, to int64) error {
		subs := make([]board.Submission, 0, to-from)
		for i := from; i < to; i++ {
			subs = append(subs, board.Submission{ID: IDOf(i), Values: LoadEntry(i).Values()})
		}
		for _, r := range b.SubmitMany(ctx, subs) {
			if r.Err != nil {
				return r.Err
			}
		}
		return nil
	})
	return err
}

// prepareSharded starts the cluster, loads an unsharded board and one
// sharded board per shard count with the same entries, checks that they
// answer alike, measures the CPU per write on every node, and compares
// the reads and the writes.
func prepareSharded(ctx context.Context, env Env, cfg Config) (*Fixture, error) {
	size := int64(cfg.Int("sharded-board"))
	sc, err := startShCluster(env)
	if err != nil {
		return nil, err
	}
	f := &Fixture{Drop: func(context.Context) error { return sc.close() }}
	boards, err := loadShBoards(ctx, env, sc, cfg, size)
	if err != nil {
		return f, err
	}
	fx, err := shCursors(ctx, boards[0].r, size)
	if err != nil {
		return f, err
	}
	if err := checkSharded(ctx, boards, fx); err != nil {
		return f, err
	}
	writers, err := shWriters(ctx, env, sc, boards)
	if err != nil {
		return f, err
	}
	cpus, err := shWriteCPU(ctx, env, sc, writers, cfg, size)
	if err != nil {
		return f, err
	}
	f.Notes = append(shardedNotes(size), shCPUNotes(writers, cpus, cfg.Int("sharded-cpu-writes"))...)
	var s seq
	for _, rd := range readsOf(cfg) {
		c := Comparison{Name: rd.name, Case: rd.name + " " + SizeLabel(size), Baseline: SHUnsharded, Metric: LatencyP50, Callers: 1, RedisCPU: sc.cpuTotal}
		for _, b := range boards {
			c.Variants = append(c.Variants, Variant{Name: b.name, Counters: []Counter{{SHRoundTrips, b.trips}},
				Op: func(ctx context.Context) error {
					return rd.op(ctx, b.r, fx, s.next())
				}})
		}
		f.Comparisons = append(f.Comparisons, c)
	}
	c := Comparison{Name: "writes", Case: "submit " + SizeLabel(size), Baseline: SHUnsharded, Metric: Throughput, RedisCPU: sc.cpuTotal}
	measured := writersOf(cfg)
	for _, w := range writers {
		if !slices.Contains(measured, w.shards) {
			continue // its CPU per node only
		}
		c.Variants = append(c.Variants, Variant{Name: w.name, Counters: []Counter{{SHRoundTrips, w.trips}},
			Op: func(ctx context.Context) error { return shWrite(ctx, w.r, s.next(), size) }})
	}
	f.Comparisons = append(f.Comparisons, c)
	return f, nil
}

// loadShBoards builds and loads the unsharded board and a sharded board
// per shard count, in that order.
func loadShBoards(ctx context.Context, env Env, sc *shCluster, cfg Config, size int64) ([]*shBoard, error) {
	counts := append([]int64{0}, cfg.Ints("sharded-shards")...)
	out := make([]*shBoard, len(counts))
	errs := make([]error, len(counts))
	var wg sync.WaitGroup
	for i, n := range counts {
		wg.Go(func() {
			name := fmt.Sprintf("%s_w9_s%d", env.Prefix, n)
			b, err := newShBoard(ctx, sc, name, int(n), true)
			if r, ok := b.r.(*board.Board); ok && err == nil {
				if n == 0 {
					_, err = loadBoard(ctx, env, "sharded: loading "+name, r, size, LoadEntry)
				} else {
					err = loadSharded(ctx, env, r, size)
				}
			}
			out[i], errs[i] = b, err
		})
	}
	wg.Wait()
	return out, errors.Join(errs...)
}

// shCursors scans b once, keeping a cursor every few pages.
func shCursors(ctx context.Context, b shReader, size int64) (*shFixture, error) {
	fx := &shFixture{size: size, cursors: []string{""}}
	var c string
	for {
		p, err := b.Scan(ctx, c, 1000)
		if err != nil {
			return nil, err
		}
		if p.Next == "" {
			return fx, nil
		}
		c = p.Next
		fx.cursors = append(fx.cursors, c)
	}
}

// checkSharded makes sure every board answers each read as the unsharded
// one does, at a few places.
func checkSharded(ctx context.Context, boards []*shBoard, fx *shFixture) error {
	for i := range uint64(8) {
		s := Mix(i)
		for _, rd := range shardedReads {
			var want any
			for _, b := range boards {
				got, err := shAnswer(ctx, rd.name, b.r, fx, s)
				if err != nil {
					return fmt.Errorf("sharded: %s on %s: %w", rd.name, b.name, err)
				}
				if want == nil {
					want = got
				} else if !reflect.DeepEqual(want, got) {
					return fmt.Errorf("sharded: %s on %s answers %v, the unsharded board %v", rd.name, b.name, got, want)
				}
			}
		}
	}
	return nil
}

// shAnswer is the answer of read name, as the measured op makes it.
func shAnswer(ctx context.Context, name string, b shReader, fx *shFixture, s uint64) (any, error) {
	var got any
	rec := recorder{shReader: b, got: &got}
	i := slices.IndexFunc(shardedReads, func(r shardedRead) bool { return r.name == name })
	err := shardedReads[i].op(ctx, rec, fx, s)
	return got, err
}

// recorder keeps the answer of the read made through it.
type recorder struct {
	shReader
	got *any
}

func (r recorder) Get(ctx context.Context, id string, opts ...board.ReadOption) (board.Entry, error) {
	e, err := r.shReader.Get(ctx, id, opts...)
	*r.got = e
	return e, err
}

func (r recorder) Rank(ctx context.Context, id string, kind board.RankKind) (int64, error) {
	n, err := r.shReader.Rank(ctx, id, kind)
	*r.got = n
	return n, err
}

func (r recorder) Top(ctx context.Context, n int, opts ...board.ReadOption) (board.List, error) {
	l, err := r.shReader.Top(ctx, n, opts...)
	*r.got = l
	return l, err
}

func (r recorder) Page(ctx context.Context, offset int64, n int, opts ...board.ReadOption) (board.List, error) {
	l, err := r.shReader.Page(ctx, offset, n, opts...)
	*r.got = l
	return l, err
}

func (r recorder) Around(ctx context.Context, id string, n int, opts ...board.ReadOption) (board.List, error) {
	l, err := r.shReader.Around(ctx, id, n, opts...)
	*r.got = l
	return l, err
}

func (r recorder) Scan(ctx context.Context, c string, n int, opts ...board.ReadOption) (board.List, error) {
	p, err := r.shReader.Scan(ctx, c, n, opts...)
	*r.got = p
	return p, err
}

// shWriters are the boards the writes go to: the unsharded board and each
// sharded one, all skipping the write's board-wide rank, and the most
// sharded once more with it ("+rank": a second round trip), whose CPU a
// quick run measures although it does not measure its throughput.
func shWriters(ctx context.Context, env Env, sc *shCluster, boards []*shBoard) ([]*shBoard, error) {
	out := slices.Clone(boards)
	most := boards[len(boards)-1].shards
	if most < 2 {
		return out, nil
	}
	b, err := newShBoard(ctx, sc, fmt.Sprintf("%s_w9_s%d", env.Prefix, most), most, false)
	if err != nil {
		return nil, err
	}
	return append(out, b), nil
}

// shWrite replaces a random entry's values by those of sequence number s:
// every write changes the board.
func shWrite(ctx context.Context, b shReader, s uint64, size int64) error {
	_, err := b.Submit(ctx, board.Submission{ID: IDOf(int64(pick(s, int(size)))), Values: WriteEntry(s).Values(), Policy: board.Replace})
	return err
}

// cpuWrites is how many writes to w measure its CPU, of n asked: a fifth
// for a write that ranks itself on every shard, which costs ten times more.
func cpuWrites(w *shBoard, n int64) int64 {
	if w.shards < 0 {
		return max(n/5, 100)
	}
	return n
}

// shWriteCPU makes cfg's count of writes (see cpuWrites) to each writer
// from the run's concurrency of goroutines and returns the CPU each
// master spent per write, in µs, [writer][node].
func shWriteCPU(ctx context.Context, env Env, sc *shCluster, writers []*shBoard, cfg Config, size int64) ([][]float64, error) {
	out := make([][]float64, len(writers))
	var s seq
	for i, w := range writers {
		n := cpuWrites(w, int64(cfg.Int("sharded-cpu-writes")))
		cpu0, err := sc.cpu(ctx)
		if err != nil {
			return nil, err
		}
		var next atomic.Int64
		var wg sync.WaitGroup
		errs := make([]error, cfg.Concurrency)
		for g := range cfg.Concurrency {
			wg.Go(func() {
				for next.Add(1) <= n && errs[g] == nil {
					errs[g] = shWrite(ctx, w.r, s.next(), size)
				}
			})
		}
		wg.Wait()
		if err := errors.Join(errs...); err != nil {
			return nil, fmt.Errorf("sharded: writes to %s: %w", w.name, err)
		}
		cpu1, err := sc.cpu(ctx)
		if err != nil {
			return nil, err
		}
		for j := range cpu1 {
			out[i] = append(out[i], (cpu1[j]-cpu0[j])*1e6/float64(n))
		}
		env.logf("sharded: %s: Redis CPU per write per node %s µs", w.name, fmtCPUs(out[i]))
	}
	return out, nil
}

// fmtCPUs writes per-node figures as "12.3 / 4.5 / 6.7".
func fmtCPUs(xs []float64) string {
	parts := make([]string, len(xs))
	for i, x := range xs {
		parts[i] = fmt.Sprintf("%.1f", x)
	}
	return strings.Join(parts, " / ")
}

// shardedNotes explains the section.
func shardedNotes(size int64) []string {
	return []string{
		fmt.Sprintf("A local Redis Cluster of %d masters started for this workload alone (no replicas), one unsharded board and one sharded board per shard count S on it, each of the same %s entries (the packed layout of every workload). The Redis CPU column is the cluster's (the sum over its masters, per operation); the CPU per write of each node is below.", shMasters, SizeLabel(size)),
		"Reads, one caller (a quick run measures get, top10, around10 and page50-deep only): get = Get; rank-competition = Rank(Competition); top10 = Top(10); around10 = Around(10); scan50 = Scan(50) from a cursor anywhere on the board; page50-shallow = Page(offset < 950, 50), one round trip on a sharded board; page50-deep = Page(offset >= 1000, 50), which samples the shards first. Every board answers each read alike (checked before measuring).",
		SHRoundTrips + ": the client's round trips per operation (one Do or DoMulti each, however many nodes it reaches; a sharded read asks all shards of a node in one pipelined batch, and all nodes at once).",
		"Writes, the run's concurrency: Submit (Replace) of a random entry with new values, so that every write moves it. Sharded boards skip the board-wide rank of the write (SkipWriteRank: one script on the entry's shard, one round trip); \"+rank\" is the most sharded board computing it (a second round trip counting the entries before it on every other shard; not measured in a quick run, though its CPU per write is).",
	}
}

// shCPUNotes states the CPU per write per node and the model of write
// throughput on machines with a core per node.
func shCPUNotes(writers []*shBoard, cpus [][]float64, n int) []string {
	out := []string{fmt.Sprintf("Redis CPU per write per node (INFO used_cpu_user+used_cpu_sys deltas of each master over %d writes, a fifth of it for +rank, from the run's concurrency, in µs), and the model: a node that spends c µs of one core per board write saturates at 1e6/c board writes per second, so the cluster's ceiling is 1e6 / (the busiest node's c). This machine's 2 shared cores run all three nodes and the client, so the throughput measured here cannot grow with the nodes; the ceiling below is what the measured CPU allows with a core per node.", n)}
	for i, w := range writers {
		busiest, total := slices.Max(cpus[i]), 0.0
		for _, c := range cpus[i] {
			total += c
		}
		line := fmt.Sprintf("%s: %s µs per write on the masters (sum %.1f); busiest node %.1f µs -> ceiling %.0f writes/s",
			w.name, fmtCPUs(cpus[i]), total, busiest, 1e6/busiest)
		if sb, ok := w.r.(*board.Board); ok && sb.Options().Shards > 1 {
			s := sb.Options().Shards
			line += fmt.Sprintf("; with S=%d on N nodes each holding at most ceil(S/N) shards, the busiest node takes ceil(S/N)/S of the writes: about %.0f writes/s on N=3 (%d shards on the busiest), %.0f on N=S=%d",
				s, 1e6/(total*shareOf(s, shMasters)), (s+shMasters-1)/shMasters, 1e6/(total*shareOf(s, s)), s)
		}
		out = append(out, line)
	}
	return out
}

// shareOf is the share of a board's writes the busiest of nodes nodes
// takes when its shards shards spread evenly.
func shareOf(shards, nodes int) float64 {
	return float64((shards+nodes-1)/nodes) / float64(shards)
}
