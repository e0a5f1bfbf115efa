// Package engine tells which server a client talks to: Redis or Valkey, and
// which version, as INFO server says (server_name, valkey_version,
// redis_version), read once per client. The tests, the benchmarks and the
// command use it to name the engine they ran on and to know what it
// supports.
//
// Valkey reports the Redis version it is compatible with as redis_version
// (7.2.4 on Valkey 8) and its own as valkey_version; Redis reports no
// server_name before 8 (and redis_version 255.255.255 on its development
// builds). What an engine supports is read from redis_version: Valkey 8
// supports what Redis 7.2 does.
package engine

import (
	"context"
	"fmt"
	"strconv"
	"strings"
	"sync"

	"github.com/redis/rueidis"
	"github.com/tiebreak/tiebreak/internal/redisops"
)

// Engine is the server a client talks to, as its INFO server says.
type Engine struct {
	// ServerName is INFO's server_name as reported: "valkey" on Valkey,
	// "" on Redis before 8.
	ServerName string
	// ValkeyVersion is INFO's valkey_version: "" on Redis.
	ValkeyVersion string
	// RedisVersion is INFO's redis_version: Redis's own version, or on
	// Valkey the version of Redis it is compatible with.
	RedisVersion string
}

// Parse reads an Engine from the fields of INFO server (see
// redisops.ParseInfo).
func Parse(info map[string]string) Engine {
	return Engine{ServerName: info["server_name"], ValkeyVersion: info["valkey_version"], RedisVersion: info["redis_version"]}
}

// Name is the engine's name: "valkey" on Valkey, else server_name, else
// "redis".
func (e Engine) Name() string {
	switch {
	case e.ValkeyVersion != "":
		return "valkey"
	case e.ServerName != "":
		return strings.ToLower(e.ServerName)
	}
	return "redis"
}

// Version is the engine's own version: valkey_version on Valkey, else
// redis_version.
func (e Engine) Version() string {
	if e.ValkeyVersion != "" {
		return e.ValkeyVersion
	}
	return e.RedisVersion
}

// String names the engine and its version, as "redis 7.2.6" or
// "valkey 8.0.1 (redis_version 7.2.4)".
func (e Engine) String() string {
	s := e.Name() + " " + e.Version()
	if e.ValkeyVersion != "" {
		s += " (redis_version " + e.RedisVersion + ")"
	}
	return s
}

// AtLeast reports whether redis_version is major.minor or later: whether
// the engine supports what that version of Redis does. A version it
// cannot read is none.
func (e Engine) AtLeast(major, minor int) bool {
	parts := strings.SplitN(e.RedisVersion, ".", 3)
	if len(parts) < 2 {
		return false
	}
	ma, err1 := strconv.Atoi(parts[0])
	mi, err2 := strconv.Atoi(parts[1])
	if err1 != nil || err2 != nil {
		return false
	}
	return ma > major || ma == major && mi >= minor
}

// ClientSetInfo reports whether the engine has CLIENT SETINFO (Redis
// 7.2, Valkey 8), which rueidis sends on every new connection unless its
// ClientOption.ClientSetInfo is rueidis.DisableClientSetInfo: a user's
// ACL must then allow client|setinfo, which Redis 7.0 does not know.
func (e Engine) ClientSetInfo() bool { return e.AtLeast(7, 2) }

// ZRankWithScore reports whether the engine's ZRANK takes WITHSCORE
// (Redis 7.2, Valkey 8).
func (e Engine) ZRankWithScore() bool { return e.AtLeast(7, 2) }

// Detect reads the engine of client (INFO server, one round trip). On a
// cluster it is the engine of the node that answered.
func Detect(ctx context.Context, client rueidis.Client) (Engine, error) {
	info, err := redisops.Info(ctx, client, "server")
	if err != nil {
		return Engine{}, fmt.Errorf("engine: INFO server: %w", err)
	}
	e := Parse(info)
	if e.RedisVersion == "" {
		return Engine{}, fmt.Errorf("engine: INFO server has no redis_version")
	}
	return e, nil
}

// known holds the engine of every client Of has read, by client.
var known sync.Map

// Of returns the engine of client, read with Detect the first time and
// kept while the process runs (a process holds few clients; each one
// asked about stays referenced, with its few strings). An error is not
// kept: the next call asks again.
func Of(ctx context.Context, client rueidis.Client) (Engine, error) {
	if e, ok := known.Load(client); ok {
		return e.(Engine), nil
	}
	e, err := Detect(ctx, client)
	if err != nil {
		return Engine{}, err
	}
	known.Store(client, e)
	return e, nil
}

// A Form is a form of a command that older engines refuse, such as ZRANK
// ... WITHSCORE (Redis 7.2, Valkey 8; Redis 7.0 refuses it). Whether a
// client's engine takes it is found by sending it, which needs no
// permission beyond the command's own (INFO, which [Of] reads, may be
// outside a user's ACL): an engine refuses a form it does not know before
// running anything, queued in MULTI too (EXEC then aborts, running none of
// the transaction), so the caller sends the older form instead and calls
// Refuse; from then on Refused tells it to send the older form first. The
// zero value knows of no refusal.
type Form struct {
	refused sync.Map // rueidis.Client -> struct{}
}

// Refused reports whether the engine of client refused the form.
func (f *Form) Refused(client rueidis.Client) bool {
	_, ok := f.refused.Load(client)
	return ok
}

// Refuse records that the engine of client refused the form (kept while
// the process runs, as Of's).
func (f *Form) Refuse(client rueidis.Client) { f.refused.Store(client, struct{}{}) }

// IsRefusal reports whether err is an engine's refusal of a command's
// form before running it: a wrong number of arguments or a syntax error.
func IsRefusal(err error) bool {
	e, ok := rueidis.IsRedisErr(err)
	if !ok {
		return false
	}
	s := strings.TrimPrefix(strings.ToLower(e.Error()), "err ") // a refusal in MULTI has no ERR
	return strings.HasPrefix(s, "wrong number of arguments") || strings.HasPrefix(s, "syntax error")
}
