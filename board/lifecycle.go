package board

import (
	"regexp"
	"slices"
	"sync"

	"github.com/tiebreak/tiebreak/internal/luascript"
)

// phase is where a board stands in the lifecycle of its long operations, as
// the field state of its meta HASH (tb:{name}:meta) holds it. A Migrate
// moves a board; a Reshard moves a sharded board and each of its old
// shards (every shard is a board of its own, with its own meta HASH):
//
//	a board (Migrate)
//
//	              begin.lua               copy.lua: a step of Batch entries
//	  live ──────────────────▶ migrating ◀─┐ (pscore/pmember; 'done' at the end)
//	   ▲                           │  └────┘ switch.lua 'recopy': the check
//	   └──────── switch.lua ───────┘         failed, the position cleared
//	          (the target's descriptor)
//
//	a sharded board (Reshard)
//
//	           reshard.lua begin              reshard.lua moved: the lease
//	  live ──────────────────────▶ resharding ◀─┐ renewed after a step of
//	   ▲                               │   └────┘ a shard
//	   └────── reshard.lua switch ─────┘
//	     (the target's descriptor; retiring lists the old shards until
//	     reshard.lua retired clears it, every old shard retired)
//
//	an old shard of a resharding
//
//	         export.lua              export.lua         retire.lua, after
//	         'exporting'             'frozen'           the board's switch
//	  live ─────────────▶ exporting ─────────▶ frozen ───────────────▶ retired
//	   │                   │  ▲  ▲              │  │  ▲
//	   │                   └──┘  └──────────────┘  └──┘
//	   │      shardpos.lua:      export.lua 'thaw'   drain.lua:
//	   │      a copy step;                           ids copied
//	   │      drain.lua: ids
//	   │      copied
//	   └──── export.lua 'frozen' (the script allows it; Reshard never
//	         asks it, exporting every shard first) ────────▶ frozen
//
// Each move to exporting or frozen renames the shard's keys to a new
// generation, leaving tombstones; exporting writes record their ids in the
// dirty set (exportmirror.lua), frozen ones are refused (frozen.lua); a
// thaw comes from a check that failed, or from a writer that revoked a
// lease that ran out (reshard.lua revoke). A meta HASH gets its first
// phase, live, with its descriptor (meta.lua, submit.lua, native writes).
//
// No other move is made: a step asked in another phase of its kind writes
// nothing and says so (begin.lua 'resumed' or 'busy', switch.lua and
// retire.lua 'stale', export.lua 'done' for a shard already there or
// further). transitions lists the moves that change the phase; the
// lifecycle's test runs every step's script from every phase of its kind
// and checks that it makes those and no other.
//
// Every step that moves an operation forward stores, in the same script,
// the server's time (TIME) in Unix milliseconds in the field moved of the
// meta HASH it writes, so that an operator sees how long ago it last
// moved: begin.lua, each copy.lua step, switch.lua (switched or recopy);
// on a shard, export.lua (exporting, frozen; not a thaw, which a writer
// may make after the resharding's process died), each shardpos.lua copy
// step, each drain.lua call that acknowledges copied ids, retire.lua; on
// a sharded board, reshard.lua's begin (begun), switch and retired, and
// its moved: the renewal of the lease before a step of the copy, when a
// step of some shard moved the resharding since the last renewal (the
// shards' keys are in other slots than the board's meta HASH, so no
// script writes both). The field stays after the operation ends: the time
// of its last step.
//
// The phases, the meta HASH's field names and the copy's end position
// are declared once, here: the scripts get them as constants
// (lifecycleConsts), so no name is written twice.
type phase string

// The phases. The zero phase "" is a meta HASH without the field: no
// descriptor stored yet; a generation's phase (generation.state) is ""
// unless its shard is exporting or frozen.
const (
	phaseLive       phase = "live"       // at rest: reads and writes on its current generation
	phaseMigrating  phase = "migrating"  // a Migrate copies it into generation tgen, mirroring every write
	phaseResharding phase = "resharding" // a sharded board whose Reshard moves its entries to the shards of target
	phaseExporting  phase = "exporting"  // a shard being copied: its writes record their ids (exportmirror.lua)
	phaseFrozen     phase = "frozen"     // a shard whose writes are refused (frozen.lua) while its last ids are copied
	phaseRetired    phase = "retired"    // a shard whose keys are gone (tombstones remain)
)

// String returns the phase as stored.
func (p phase) String() string { return string(p) }

// exports reports whether p is a shard's export phase: exporting, frozen
// or retired.
func (p phase) exports() bool {
	return p == phaseExporting || p == phaseFrozen || p == phaseRetired
}

// thaw is export.lua's move from frozen back to exporting: a step, not a
// phase.
const thaw = "thaw"

// The fields of a meta HASH.
const (
	fieldDesc     = "desc"       // the descriptor (JSON, descriptor.go)
	fieldGen      = "gen"        // the current generation of the keys
	fieldState    = "state"      // the phase
	fieldExpire   = "expire"     // a periodic window's expire-at, Unix ms
	fieldSpan     = "span"       // a periodic window's start and end, Unix ms: "start-end"
	fieldMoved    = "moved"      // when a step last moved a migration or a resharding, Unix ms of the server's clock
	fieldTarget   = "target"     // migrating or resharding: the descriptor moved to
	fieldTGen     = "tgen"       // migrating: the target's generation
	fieldDefaults = "defaults"   // migrating: the values of the target's new fields (JSON)
	fieldPScore   = "pscore"     // migrating: the score of the last entry copied, positionDone at the end
	fieldPMember  = "pmember"    // migrating: the member of the last entry copied
	fieldRecopies = "recopies"   // migrating: how many times the check sent the copy back to its start
	fieldCursor   = "cursor"     // an exporting shard: its copy position (a Scan cursor), positionDone at the end
	fieldFence    = "fence"      // a shard, or an archive: the token of the process whose copy may write
	fieldLease    = "lease"      // resharding: the token of the process copying, or leaseRevoked
	fieldUntil    = "leaseuntil" // resharding: when the lease runs out, Unix ms of the server's clock
	fieldRetiring = "retiring"   // a sharded board switched: its old shards not yet retired (JSON list)
	fieldRetired  = "retired:"   // a sharded board: the prefix of one field per shard a resharding retired
)

// leaseRevoked is the field lease of a resharding whose lease a writer
// revoked (reshard.lua).
const leaseRevoked = "revoked"

// positionDone is the copy position (fieldPScore, fieldCursor) of a copy
// that reached the end of its source.
const positionDone = "done"

// transitions are the lifecycle's moves that change the phase, as the
// diagram above draws them: the phase before, the step and the phase
// after.
var transitions = []struct {
	from phase
	step string
	to   phase
}{
	{"", "create", phaseLive},
	{phaseLive, "begin", phaseMigrating},
	{phaseMigrating, "switch", phaseLive},
	{phaseLive, "reshard begin", phaseResharding},
	{phaseResharding, "reshard switch", phaseLive},
	{phaseLive, "export", phaseExporting},
	{phaseExporting, "freeze", phaseFrozen},
	{phaseFrozen, "thaw", phaseExporting},
	{phaseFrozen, "retire", phaseRetired},
	{phaseLive, "freeze", phaseFrozen},
}

// lifecycleNames maps each Lua constant of the lifecycle to its Go value.
var lifecycleNames = []luascript.Const{
	{Name: "PHASE_LIVE", Value: string(phaseLive)},
	{Name: "PHASE_MIGRATING", Value: string(phaseMigrating)},
	{Name: "PHASE_RESHARDING", Value: string(phaseResharding)},
	{Name: "PHASE_EXPORTING", Value: string(phaseExporting)},
	{Name: "PHASE_FROZEN", Value: string(phaseFrozen)},
	{Name: "PHASE_RETIRED", Value: string(phaseRetired)},
	{Name: "THAW", Value: thaw},
	{Name: "POSITION_DONE", Value: positionDone},
	{Name: "LEASE_REVOKED", Value: leaseRevoked},
	{Name: "F_DESC", Value: fieldDesc},
	{Name: "F_GEN", Value: fieldGen},
	{Name: "F_STATE", Value: fieldState},
	{Name: "F_EXPIRE", Value: fieldExpire},
	{Name: "F_SPAN", Value: fieldSpan},
	{Name: "F_MOVED", Value: fieldMoved},
	{Name: "F_TARGET", Value: fieldTarget},
	{Name: "F_TGEN", Value: fieldTGen},
	{Name: "F_DEFAULTS", Value: fieldDefaults},
	{Name: "F_PSCORE", Value: fieldPScore},
	{Name: "F_PMEMBER", Value: fieldPMember},
	{Name: "F_RECOPIES", Value: fieldRecopies},
	{Name: "F_CURSOR", Value: fieldCursor},
	{Name: "F_FENCE", Value: fieldFence},
	{Name: "F_LEASE", Value: fieldLease},
	{Name: "F_LEASEUNTIL", Value: fieldUntil},
	{Name: "F_RETIRING", Value: fieldRetiring},
	{Name: "F_RETIRED", Value: fieldRetired},
}

// luaName matches a name a script may use.
var luaName = regexp.MustCompile(`[A-Z][A-Z0-9_]*`)

// lifecycleConsts returns the lifecycle's constants (Lua strings) that
// the fragments frags (lua/<name>.lua) name, in lifecycleNames's order: a
// script gets those it uses, and no other.
func lifecycleConsts(frags ...string) []luascript.Const {
	var out []luascript.Const
	for _, c := range lifecycleNames {
		if slices.ContainsFunc(frags, func(f string) bool { return fragmentNames(f)[c.Name] }) {
			out = append(out, luascript.Const{Name: c.Name, Value: luaString(c.Value)})
		}
	}
	return out
}

// fragmentNameSets holds, by fragment, the names its text uses: a
// fragment is embedded, so they are found once per process (finding
// them for every script of every generation built cost a migration's
// switch, and each handle's first build, milliseconds of CPU).
var fragmentNameSets sync.Map // fragment name -> map[string]bool

// fragmentNames returns the names (luaName) that fragment name uses.
func fragmentNames(name string) map[string]bool {
	if s, ok := fragmentNameSets.Load(name); ok {
		return s.(map[string]bool)
	}
	used := map[string]bool{}
	for _, n := range luaName.FindAllString(fragmentTexts([]string{name})[0], -1) {
		used[n] = true
	}
	s, _ := fragmentNameSets.LoadOrStore(name, used)
	return s.(map[string]bool)
}
