// Package luascript assembles the Lua scripts of tiebreak's packages, the
// one way all of them do it: a constants block written by Go, then
// self-contained fragments (.lua files) in a declared order.
//
//	-- <title>
//	local STRATEGY = 'p'      the constants, one local each
//	local CAP = 0
//	-- fragment: side.lua
//	...                       each fragment as its file holds it
//	-- fragment: submit.lua
//	...
//
// A fragment may use the constants and what the fragments declared before
// it define, nothing else: there is no token replacement and no include,
// so the assembled text is the constants and the files, in order. The
// packages' golden tests write every script that can run to testdata/.
//
// A Script runs one: EVALSHA, and EVAL where Redis answers NOSCRIPT, for a
// single call (Exec) or many pipelined in one round trip (ExecMany). It
// never sends SCRIPT LOAD: rueidis's ExecMulti does, to every master on
// every call, which doubles a call's round trips and makes it wait on
// masters that do not hold its keys.
package luascript

import (
	"errors"
	"fmt"
	"io/fs"
	"strings"
)

// Const is one constant of a script: a Lua local named Name holding the
// Lua expression Value.
type Const struct {
	Name, Value string
}

// ErrFragment reports a fragment that is not in the file system given.
var ErrFragment = errors.New("luascript: no such fragment")

// Assemble returns the script titled title: the constants, then the
// fragments name.lua of dir in fsys, in order.
func Assemble(fsys fs.FS, dir, title string, consts []Const, fragments ...string) (string, error) {
	srcs := make([][]byte, len(fragments))
	size := len(title) + 4
	for i, name := range fragments {
		src, err := fs.ReadFile(fsys, dir+"/"+name+".lua")
		if err != nil {
			return "", fmt.Errorf("%w: %s/%s.lua", ErrFragment, dir, name)
		}
		srcs[i] = src
		size += len(src) + len(name) + 20
	}
	for _, c := range consts {
		size += len(c.Name) + len(c.Value) + 10
	}
	var b strings.Builder
	b.Grow(size) // a generation builds a score of scripts: one allocation each
	// The title is a comment: a line break in it would end the comment
	// and let the rest of the title run as Lua.
	b.WriteString("-- " + strings.NewReplacer("\n", `\n`, "\r", `\r`).Replace(title) + "\n")
	for _, c := range consts {
		b.WriteString("local " + c.Name + " = " + c.Value + "\n")
	}
	for i, name := range fragments {
		b.WriteString("-- fragment: " + name + ".lua\n")
		b.Write(srcs[i])
		if src := srcs[i]; len(src) > 0 && src[len(src)-1] != '\n' {
			b.WriteByte('\n')
		}
	}
	return b.String(), nil
}

// MustAssemble is Assemble for fragments embedded in the binary, which are
// there by construction: a missing one is a bug in the package, not input.
func MustAssemble(fsys fs.FS, dir, title string, consts []Const, fragments ...string) string {
	s, err := Assemble(fsys, dir, title, consts, fragments...)
	if err != nil {
		panic(err)
	}
	return s
}
