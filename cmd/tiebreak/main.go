package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"strings"
)

func main() {
	os.Exit(run(context.Background(), os.Args[1:], os.Stdout, os.Stderr))
}

// Exit statuses.
const (
	exitOK      = 0
	exitFailure = 1
	exitUsage   = 2
)

// run runs the command line args and returns the exit status.
func run(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	cmd, rest := lookup(args)
	if cmd == nil && len(args) == 1 && (args[0] == "-h" || args[0] == "-help" || args[0] == "--help") {
		return help(stdout, stderr, nil) // as `tiebreak help`
	}
	if cmd == nil {
		return usageFailure(stderr, badCommand(args))
	}
	if cmd.name == "help" {
		return help(stdout, stderr, rest)
	}
	g, pos, runFn, err := parse(cmd, rest)
	switch {
	case errors.Is(err, flag.ErrHelp):
		fmt.Fprint(stdout, cmd.usage())
		return exitOK
	case err != nil && strings.Contains(err.Error(), "flag provided but not defined"):
		return usageFailure(stderr, fmt.Errorf("%s: %w\n(tiebreak help %s lists its flags; a name or id that starts with '-' goes after a --, which ends the flags)", cmd.name, err, cmd.name))
	case err != nil:
		return usageFailure(stderr, fmt.Errorf("%s: %w\n(tiebreak help %s lists its flags)", cmd.name, err, cmd.name))
	}
	if g.writing(cmd) && !g.yes && !g.dryRun {
		return usageFailure(stderr, fmt.Errorf("%s writes (%s): add --yes to do it, or --dry-run to see what it would change", cmd.name, cmd.writes))
	}
	if err := execute(ctx, g, stdout, stderr, func(ctx context.Context, e *env) error { return runFn(ctx, e, pos) }); err != nil {
		var u usageError
		if errors.As(err, &u) {
			return usageFailure(stderr, fmt.Errorf("%s: %w\n(tiebreak help %s lists its flags)", cmd.name, err, cmd.name))
		}
		fmt.Fprintf(stderr, "tiebreak: %v\n", err)
		return exitFailure
	}
	return exitOK
}

// usageFailure reports a command line the command does not understand.
func usageFailure(stderr io.Writer, err error) int {
	fmt.Fprintf(stderr, "tiebreak: %v\n", strings.TrimRight(err.Error(), "\n"))
	return exitUsage
}

// usageError is a command line the command does not understand: exit
// status 2.
type usageError struct{ msg string }

func (u usageError) Error() string { return u.msg }

// usagef returns a usageError.
func usagef(format string, a ...any) error { return usageError{fmt.Sprintf(format, a...)} }

// badCommand says which command args fails to name.
func badCommand(args []string) error {
	words, _ := commandWords(args)
	if len(words) == 0 {
		return fmt.Errorf("no command given\n\n%s", overview())
	}
	return fmt.Errorf("unknown command %q; the commands: %s; `tiebreak help` says more", strings.Join(words, " "), commandsLike(words[0]))
}

// commandsLike lists, in one line, the commands whose first word is
// first, or every command when none is.
func commandsLike(first string) string {
	cs := commandsUnder(first)
	if len(cs) == 0 {
		cs = commands
	}
	names := make([]string, len(cs))
	for i, c := range cs {
		names[i] = c.name
	}
	return strings.Join(names, ", ")
}

// help prints the overview, the commands of a group (board, timeline,
// ...), or one command's usage; it ignores flags.
func help(stdout, stderr io.Writer, args []string) int {
	words, _ := commandWords(args)
	if len(words) == 0 {
		fmt.Fprint(stdout, overview())
		return exitOK
	}
	cmd, _ := lookup(words)
	if cmd == nil && len(words) == 1 {
		var b strings.Builder
		if writeCommandLines(&b, words[0]) > 0 {
			fmt.Fprintf(stdout, "the %s commands (`tiebreak help %s COMMAND` for the flags of one):\n%s", words[0], words[0], b.String())
			return exitOK
		}
	}
	if cmd == nil || cmd.name == "help" {
		return usageFailure(stderr, badCommand(words))
	}
	fmt.Fprint(stdout, cmd.usage())
	return exitOK
}
