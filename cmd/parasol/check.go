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
	var maxMemory memorySize
	fs.Var(&maxMemory, "max-memory", maxMemoryUsage)
	files, err := parseInterspersed(fs, args)
	if err != nil {
		return err
	}
	if len(files) == 0 {
		return usageError("parasol check: no files given\nUsage: parasol check FILE...")
	}
	failed := false
	for _, f := range files {
		names, err := eval.Check(f, eval.WithMaxMemory(int64(maxMemory)))
		if err != nil {
			fmt.Fprintln(e.stderr, err)
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
