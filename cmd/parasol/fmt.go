package main

import (
	"fmt"
	"os"

	"github.com/parasol-lang/parasol/lang"
	"github.com/parasol-lang/parasol/parser"
)

func runFmt(e *env, args []string) error {
	fs := newFlags(e, "fmt", "[-w] FILE...", `
Fmt prints machine files in canonical form: one statement per line, tab
indentation, single spaces around operators, comments kept. Formatting a
formatted file changes nothing. Parasol I files are converted with
'parasol import' instead.`)
	write := fs.Bool("w", false, "write the result back to the file instead of printing it")
	files, err := parseInterspersed(fs, args)
	if err != nil {
		return err
	}
	if len(files) == 0 {
		return usageError("parasol fmt: no files given\nUsage: parasol fmt [-w] FILE...")
	}
	var errs lang.Diagnostics
	for _, path := range files {
		data, err := os.ReadFile(path)
		if err != nil {
			errs.Append(err)
			continue
		}
		f, err := parser.ParseFile(path, string(data))
		if err != nil {
			errs.Append(err)
			continue
		}
		if f.Legacy {
			errs.Append(fmt.Errorf("%s is in the Parasol I format; convert it with: parasol import %s", path, path))
			continue
		}
		out := lang.Format(f)
		if *write {
			if out != string(data) {
				if err := os.WriteFile(path, []byte(out), 0o644); err != nil {
					errs.Append(err)
				}
			}
			continue
		}
		fmt.Fprint(e.stdout, out)
	}
	if len(errs) > 0 {
		return errs
	}
	return nil
}
