package board

import (
	"context"
	"fmt"
	"strings"
	"sync"

	"github.com/tiebreak/tiebreak/board/internal/hook"
	"github.com/tiebreak/tiebreak/board/internal/rdb"
	"github.com/tiebreak/tiebreak/internal/luascript"
	"github.com/tiebreak/tiebreak/pack"
)

func init() {
	hook.NewPlaced = newPlaced
	hook.Handle = func(client rdb.Conn, group, name string, layout *pack.Layout, opts any) (any, error) {
		o := opts.(Options)
		o.Group = group
		return configure(client, name, layout, o)
	}
	hook.Descriptor = func(b any) string { return b.(*Board).desc.encoded() }
	hook.Period = func(p any) string { return p.(Period).text() }
	hook.PolicyName = func(s any) string { return policyName(s.(Submission)) }
}

// placed is a hook.Placed: the submit of the boards shaped as tmpl, run
// after a placement fragment that chooses the board.
type placed struct {
	tmpl   *Board
	script *luascript.Script
	src    string
}

// Source returns the script's text.
func (p *placed) Source() string { return p.src }

// placedScripts caches one script per template shape and placement.
var placedScripts sync.Map // source -> *luascript.Script

// newPlaced builds the placed write of the boards shaped as template (a
// *Board of one hash tag, not migrating): the template's submit as the
// function board_1 (as a group's write has it), board_keys, then the
// placement fragment.
func newPlaced(template any, placement string) (hook.Placed, error) {
	b, ok := template.(*Board)
	if !ok || b.sh != nil {
		return nil, fmt.Errorf("board: a placed write needs a board of one hash tag: %w", ErrOptions)
	}
	g := b.gen.Load()
	src, consts := groupFuncs([]*Board{b}, []*generation{g}, "(KEYS, ARGV, CHECK)", "placed write", "lookup", "side", "keeptop", "mirror", "guard", "rules", "submit")
	parts := make([]string, len(g.keys.script))
	for i, k := range g.keys.script {
		parts[i] = "p .. '" + strings.TrimPrefix(k, b.prefix) + "'"
	}
	fmt.Fprintf(src, "local function board_keys(p) return {%s} end\n", strings.Join(parts, ", "))
	for _, c := range consts {
		fmt.Fprintf(src, "local %s = %s\n", c.Name, c.Value)
	}
	src.WriteString(placement)
	text := src.String()
	s, _ := placedScripts.LoadOrStore(text, luascript.New(text))
	return &placed{tmpl: b, script: s.(*luascript.Script), src: text}, nil
}

// Submit runs the placed write of s (a Submission), after args.
func (p *placed) Submit(ctx context.Context, keys, args []string, s any) (any, string, error) {
	sub := s.(Submission)
	plan, err := p.tmpl.plan(sub, nil)
	if err != nil {
		return nil, "", err
	}
	plan.reqKey = "" // the placement fragment remembers the request id
	argv := append(append(make([]string, 0, len(args)+12), args...), plan.fullArgs("0", "", p.tmpl.opts.RequestRetention)...)
	type reply struct {
		res    Result
		placed string
	}
	r, err := rdb.Durable(ctx, p.tmpl.conn, p.tmpl.opts.wait(), "board: submit", func(c rdb.Conn) (reply, error) {
		arr, err := c.Run(ctx, p.script, keys, argv).ToArray()
		if rdb.HasPrefix(err, "TBLEAGUE") {
			return reply{}, err
		}
		if err != nil {
			return reply{}, p.tmpl.scriptErr("submit", err)
		}
		if len(arr) < 2 {
			return reply{}, fmt.Errorf("board: placed submit reply of %d elements: %w", len(arr), ErrReply)
		}
		where, err := arr[0].ToString()
		if err != nil {
			return reply{}, fmt.Errorf("board: placed submit reply: %w: %w", ErrReply, err)
		}
		res, err := p.tmpl.finishArr(&plan, arr[1:])
		return reply{res, where}, err
	})
	return r.res, r.placed, err
}
