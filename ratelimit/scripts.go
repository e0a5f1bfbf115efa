package ratelimit

import (
	_ "embed"

	"github.com/redis/rueidis"
)

//go:embed lua/allow.lua
var allowSrc string

// allowScript is the whole limiter: trim, count, admit or explain the
// refusal, in one atomic script (see lua/allow.lua for its contract).
var allowScript = rueidis.NewLuaScript(allowSrc)
