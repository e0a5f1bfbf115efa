// Command tiebreak shows what the tiebreak packages store in Redis: the
// boards, timelines, decimal maps and rate-limited keys it finds, a
// board's stored descriptor and its entries with every field decoded by
// name, a timeline's messages with their IDs and times, a map's keys in
// order, a limited key's count and reset time. Reading is the default:
// only the commands below marked "writes" change anything, and each
// refuses to run without --yes; --dry-run prints exactly what it would
// change (keys, counts, the entries affected) and changes nothing.
//
//	go install github.com/tiebreak/tiebreak/cmd/tiebreak@latest
//
//	tiebreak [--url redis://host:port/0] [--cluster] [--json] COMMAND ...
//
//	list                                  boards, timelines, maps, limited keys (SCAN)
//	board describe NAME                   descriptor, generation, migration state
//	board top NAME [-n 10] [--offset 0]   the best entries
//	board get NAME ID                     one entry, every rank kind
//	board rank NAME ID                    its ranks and share of the board (top x%)
//	board around NAME ID [-n 11]          entries around it
//	board scan NAME [--cursor C] [-n 100] a page, and the next page's cursor
//	board watch NAME [-n 10] [--every 1s] the best entries, again each time they change
//	board hidden NAME                     the members a board with hiding hides, with their entries
//	board entrant NAME ID                 what a tournament knows of a member
//	timeline latest|oldest ROOM --layout L [-n 20]
//	timeline before|after|around ROOM ID --layout L [-n 20]
//	timeline get ROOM ID --layout L
//	map range NAME [--min K|--gt K] [--max K|--lt K] [--reverse] [-n 100]
//	map get NAME KEY
//	limiter get KEY --window 1m [--limit N]
//	league describe NAME                  a league's settings, its partitions' latest seasons
//	league cohorts NAME SEASON            a season's cohorts, each with its board
//	league member NAME ID                 a member's partition, next tier and cohorts
//
// Writes (each through the package's own call, atomic where it is):
//
//	board remove NAME ID...               Board.Remove, one script
//	board remove --group GROUP ID...      every board of a group and its shared data
//	board clear NAME                      Board.Clear: empty, descriptor kept
//	board drop NAME                       Board.Drop (sharded boards, windows, archives)
//	board drop NAME --windows             every window and archive of a periodic board
//	board archive NAME --window LABEL [--tz ZONE] [--from TIME] [--top N] [--retention D]
//	                                      Periodic.Archive of an ended window
//	board migration NAME [--resume]       progress, lease, last step; --resume resumes
//	timeline remove ROOM ID... --layout L Timeline.Remove
//	map remove NAME KEY...                Map.Remove
//	limiter reset KEY                     Limiter.Reset
//
// A periodic board stores neither its period nor its retention: board
// archive reads the period from the window's label (2026-11-22 daily,
// 2026-W47 weekly, 2026-11 monthly, 60000ms-29544480 fixed) and its time
// zone from --tz, required for a calendar window.
//
// The server is --url, else the REDIS_URL environment variable, else
// redis://127.0.0.1:6379; a cluster is recognised by itself (--cluster
// refuses a server that is not one). Flags may come before or after the
// arguments. Output is a table, or JSON with --json.
//
// Exit status: 0 when the command did what it was asked, 1 when it could
// not (no such object, a key of another type, Redis unreachable), 2 for a
// command line it does not understand.
package main
