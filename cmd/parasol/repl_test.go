package main

import (
	"fmt"
	"io"
	"strings"
	"testing"

	"github.com/parasol-lang/parasol/eval"
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

// BenchmarkREPLDefinitions feeds n param definitions, each referring to
// the one before, through the REPL's script path on std:xmp64: a session
// should take time in proportion to n (before each definition was
// compiled alone, 8,000 took over a minute).
func BenchmarkREPLDefinitions(b *testing.B) {
	for _, n := range []int{1000, 2000, 4000, 8000} {
		var text strings.Builder
		text.WriteString("param p0 = 1us\n")
		for i := 1; i < n; i++ {
			fmt.Fprintf(&text, "param p%d = p%d + 1us\n", i, i-1)
		}
		b.Run(fmt.Sprint(n), func(b *testing.B) {
			for b.Loop() {
				m, err := eval.Load("std:xmp64")
				if err != nil {
					b.Fatal(err)
				}
				var errs strings.Builder
				r := &repl{m: m, out: io.Discard, errOut: &errs}
				if err := r.script(strings.NewReader(text.String())); err != nil || r.status != exitOK {
					b.Fatal(err, errs.String())
				}
			}
		})
	}
}
