package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"strconv"
	"strings"
	"time"
)

// globals are the flags every command takes.
type globals struct {
	url     string
	cluster bool
	json    bool
	timeout time.Duration
	// timeoutSet says that --timeout was given; watches, that the command
	// runs until interrupted (see command.watches).
	timeoutSet, watches bool
	// The flags of the commands that write.
	yes, dryRun, resume bool
}

func (g *globals) register(fs *flag.FlagSet) {
	fs.StringVar(&g.url, "url", "", "Redis `URL`: "+urlForm+" (default $REDIS_URL, else "+defaultURL+")")
	fs.BoolVar(&g.cluster, "cluster", false, "require a Redis Cluster (one is recognised without it)")
	fs.BoolVar(&g.json, "json", false, "print JSON instead of a table")
	fs.DurationVar(&g.timeout, "timeout", 30*time.Second, "give up after this `duration` (board watch: stop watching after it, when given)")
}

// runFunc runs a command on its positional arguments.
type runFunc func(ctx context.Context, e *env, args []string) error

// command is one command of the command line.
type command struct {
	name string   // "board top"
	args []string // positional arguments, by name: "NAME", "ID"
	help string   // one line
	// writes, when not empty, says what the command changes: it then
	// takes --yes and --dry-run and refuses to run with neither.
	writes string
	// resumes marks a command that reads, and writes only with --resume.
	resumes bool
	// nonEmpty marks a command none of whose arguments may be empty (a
	// board's name, an id): an empty one is a usage error. The timeline
	// commands say more of an empty ID themselves: how to name the zero one.
	nonEmpty bool
	// watches marks a command that runs until interrupted (SIGINT or
	// SIGTERM, a normal end): --timeout bounds its connecting, and the
	// command itself only when given.
	watches bool
	// setup defines the command's own flags on fs and returns the function
	// that runs it with their values.
	setup func(fs *flag.FlagSet) runFunc
}

// nonEmpty marks each of cs nonEmpty.
func nonEmpty(cs ...*command) []*command {
	for _, c := range cs {
		c.nonEmpty = true
	}
	return cs
}

// commands lists every command, in the order help shows them.
var commands []*command

func init() {
	commands = append(commands, &command{name: "help", args: []string{"[COMMAND]"}, help: "this overview, or a command's flags"})
	commands = append(commands, listCommands()...)
	commands = append(commands, boardCommands()...)
	commands = append(commands, timelineCommands()...)
	commands = append(commands, mapCommands()...)
	commands = append(commands, limiterCommands()...)
	commands = append(commands, leagueCommands()...)
	commands = append(commands, writeCommands()...)
}

// writing reports whether the command line asks cmd to write.
func (g *globals) writing(c *command) bool {
	return c.writes != "" && (!c.resumes || g.resume)
}

// lookup finds the command named by the first one or two words of args
// that are not flags (global flags may come first: --json board top) and
// returns it with args less those words.
func lookup(args []string) (*command, []string) {
	words, at := commandWords(args)
	for n := min(2, len(words)); n > 0; n-- {
		name := strings.Join(words[:n], " ")
		for _, c := range commands {
			if c.name == name {
				rest := append([]string(nil), args[:at[0]]...)
				for i := 0; i < n; i++ {
					end := len(args)
					if i+1 < n {
						end = at[i+1]
					}
					rest = append(rest, args[at[i]+1:end]...)
				}
				return c, rest
			}
		}
	}
	return nil, nil
}

// commandWords returns the first two arguments that are neither flags nor
// the values of the global flags that take one, and their indexes.
func commandWords(args []string) (words []string, at []int) {
	for i := 0; i < len(args) && len(words) < 2; i++ {
		a := args[i]
		switch {
		case a == "--":
			return words, at
		case strings.HasPrefix(a, "-"):
			if name := strings.TrimLeft(a, "-"); name == "url" || name == "timeout" {
				i++ // its value
			}
		default:
			words, at = append(words, a), append(at, i)
		}
	}
	return words, at
}

// flagSet returns the command's flags, the global ones included.
func (c *command) flagSet() (*flag.FlagSet, *globals, runFunc) {
	fs := flag.NewFlagSet(c.name, flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	g := &globals{}
	g.register(fs)
	if c.writes != "" {
		fs.BoolVar(&g.yes, "yes", false, "do it: "+c.writes)
		fs.BoolVar(&g.dryRun, "dry-run", false, "print exactly what it would change, and change nothing")
	}
	if c.resumes {
		fs.BoolVar(&g.resume, "resume", false, "resume it (writes; needs --yes or --dry-run)")
	}
	var fn runFunc
	if c.setup != nil {
		fn = c.setup(fs)
	}
	return fs, g, fn
}

// parse reads the command's flags and positional arguments, which may be
// interleaved; after "--" every argument is positional.
func parse(c *command, args []string) (*globals, []string, runFunc, error) {
	fs, g, fn := c.flagSet()
	var pos []string
	for len(args) > 0 {
		err := fs.Parse(args)
		consumed := args[:len(args)-fs.NArg()]
		args = fs.Args()
		if err != nil {
			// A negative number is an argument (a map key, an id), not an
			// unknown flag; the flag package has stepped past it.
			// A flag's value that does not parse is that flag's error.
			bad := consumed[len(consumed)-1]
			if strings.HasPrefix(err.Error(), "flag provided but not defined") && strings.HasPrefix(bad, "-") && isNumber(bad) {
				pos = append(pos, bad)
				continue
			}
			return nil, nil, nil, err
		}
		if len(consumed) > 0 && consumed[len(consumed)-1] == "--" {
			pos = append(pos, args...)
			break
		}
		if len(args) > 0 {
			pos, args = append(pos, args[0]), args[1:]
		}
	}
	fs.Visit(func(f *flag.Flag) { g.timeoutSet = g.timeoutSet || f.Name == "timeout" })
	g.watches = c.watches
	want, more := 0, false
	for _, a := range c.args {
		switch {
		case strings.HasSuffix(a, "..."): // one or more
			want, more = want+1, true
		case !strings.HasPrefix(a, "["):
			want++
		}
	}
	switch {
	case more && len(pos) < want:
		return nil, nil, nil, fmt.Errorf("want at least %d argument(s) (%s), got %d: %q", want, strings.Join(c.args, " "), len(pos), pos)
	case !more && len(pos) != want:
		return nil, nil, nil, fmt.Errorf("want %d argument(s) (%s), got %d: %q", want, strings.Join(c.args, " "), len(pos), pos)
	}
	for i, a := range pos {
		if a == "" && c.nonEmpty {
			// An optional argument's place may hold the next one (board
			// remove --group takes ids only): it is not named.
			if name := c.args[min(i, len(c.args)-1)]; !strings.HasPrefix(name, "[") {
				return nil, nil, nil, fmt.Errorf("argument %d (%s) is empty", i+1, strings.TrimSuffix(name, "..."))
			}
			return nil, nil, nil, fmt.Errorf("argument %d is empty", i+1)
		}
	}
	return g, pos, fn, nil
}

// isNumber reports whether s reads as a number, such as "-0.5" or "-1E+30".
func isNumber(s string) bool {
	_, err := strconv.ParseFloat(s, 64)
	return err == nil || errors.Is(err, strconv.ErrRange)
}

// usage is the command's help text: its synopsis and flags.
func (c *command) usage() string {
	var b strings.Builder
	fmt.Fprintf(&b, "usage: tiebreak %s [flags]\n\n%s\n", c.synopsis(), c.help)
	switch {
	case c.writes != "" && c.resumes:
		fmt.Fprintf(&b, "\nWithout --resume it only reads. With --resume it writes: %s; it then refuses\nto run without --yes, and --dry-run prints what it would change and changes nothing.\n", c.writes)
	case c.writes != "":
		fmt.Fprintf(&b, "\nIt writes: %s. It refuses to run without --yes; --dry-run prints what it\nwould change and changes nothing.\n", c.writes)
	}
	b.WriteString("\nflags:\n")
	fs, _, _ := c.flagSet()
	fs.SetOutput(&b)
	fs.PrintDefaults()
	return b.String()
}

func (c *command) synopsis() string {
	return strings.TrimSpace(c.name + " " + strings.Join(c.args, " "))
}

// overview lists every command.
func overview() string {
	var b strings.Builder
	b.WriteString("usage: tiebreak COMMAND [ARGS] [flags]\n\n" +
		"Shows what the tiebreak packages store in Redis. The commands marked [writes] change\n" +
		"it, and only with --yes (--dry-run prints what they would change); the others never write.\n\ncommands:\n")
	writeCommandLines(&b, "")
	b.WriteString("\nflags of every command: --url URL (default $REDIS_URL), --cluster, --json, --timeout;\n" +
		"`tiebreak help COMMAND` for the flags of one. Exit status: 0 ok, 1 failure, 2 usage.\n")
	return b.String()
}

// commandsUnder returns the commands whose first word is first (every
// command when first is "").
func commandsUnder(first string) []*command {
	if first == "" {
		return commands
	}
	var out []*command
	for _, c := range commands {
		if strings.HasPrefix(c.name, first+" ") {
			out = append(out, c)
		}
	}
	return out
}

// writeCommandLines writes a line per command of commandsUnder(first),
// and returns how many it wrote.
func writeCommandLines(b *strings.Builder, first string) int {
	n := 0
	for _, c := range commandsUnder(first) {
		mark := ""
		if c.writes != "" {
			mark = "[writes] "
		}
		if c.resumes {
			mark = "[writes with --resume] "
		}
		fmt.Fprintf(b, "  %-30s %s%s\n", c.synopsis(), mark, c.help)
		n++
	}
	return n
}
