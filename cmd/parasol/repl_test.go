package main

import (
	"strings"
	"testing"
)

// Each command the REPL runs is a command of the table, whose usage takes
// a MACHINE (the REPL's own machine stands in for it).
func TestREPLRunsCommandsOfTheTable(t *testing.T) {
	for _, r := range replRuns {
		c := commandNamed(r.name)
		if c == nil {
			t.Errorf(":%s runs no command of the table", r.name)
			continue
		}
		if !strings.Contains(c.args, "MACHINE") {
			t.Errorf(":%s: parasol %s %s takes no MACHINE for the REPL's machine to stand in for", r.name, c.name, c.args)
		}
	}
}
