package main

import (
	"fmt"

	"github.com/parasol-lang/parasol/eval"
)

func runCheck(e *env, args []string) error {
	fs := newFlags(e, "check", "FILE...", `
Check reads each machine file (modern syntax or Parasol I) and reports every
error it finds as file:line:col with the source line and a caret. Every
machine in a file is checked. The exit status is 1 when there is any error.`)
	files, err := parseInterspersed(fs, args)
	if err != nil {
		return err
	}
	if len(files) == 0 {
		return usageError("parasol check: no files given\nUsage: parasol check FILE...")
	}
	failed := false
	for _, f := range files {
		names, err := eval.MachineNames(f)
		if err != nil {
			fmt.Fprintln(e.stderr, err)
			failed = true
			continue
		}
		seen := map[string]bool{}
		for _, n := range names {
			if _, err := eval.Load(f, eval.WithMachine(n)); err != nil {
				// Shared definitions can fail the same way in every machine.
				if msg := err.Error(); !seen[msg] {
					seen[msg] = true
					fmt.Fprintln(e.stderr, msg)
				}
			}
		}
		if len(seen) > 0 {
			failed = true
			continue
		}
		fmt.Fprintf(e.stdout, "%s: ok (%d machine%s)\n", f, len(names), plural(len(names)))
	}
	if failed {
		return &exitError{code: 1}
	}
	return nil
}
