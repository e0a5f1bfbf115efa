package board

import (
	"embed"

	"github.com/redis/rueidis"
)

//go:embed lua/*.lua
var luaFiles embed.FS

// script returns the named operation with the shared helpers in front.
func script(name string, readOnly bool) *rueidis.Lua {
	common, err := luaFiles.ReadFile("lua/common.lua")
	if err != nil {
		panic(err) // embedded at build time: cannot happen
	}
	op, err := luaFiles.ReadFile("lua/" + name + ".lua")
	if err != nil {
		panic(err)
	}
	src := string(common) + "\n" + string(op)
	if readOnly {
		return rueidis.NewLuaScriptReadOnly(src)
	}
	return rueidis.NewLuaScript(src)
}

var (
	submitScript  = script("submit", false)
	removeScript  = script("remove", false)
	setDataScript = script("setdata", false)
	rankScript    = script("rank", true)
	rangeScript   = script("range", true)
	aroundScript  = script("around", true)
	afterScript   = script("after", true)
	betweenScript = script("between", true)
)
