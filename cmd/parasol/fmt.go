package main

import (
	"errors"
	"flag"
	"fmt"

	"github.com/parasol-lang/parasol/eval"
	"github.com/parasol-lang/parasol/lang"
	"github.com/parasol-lang/parasol/lang/format"
	"github.com/parasol-lang/parasol/parser"
	"github.com/rogpeppe/go-internal/diff"
)

// fmtCmd is parasol fmt.
var fmtCmd = &command{
	name:    "fmt",
	summary: "format machine files canonically",
	args:    "[-w | -l | -d] FILE...",
	doc: `
Fmt prints machine files in canonical form: one statement per line, tab
indentation, single spaces around operators, comments kept. Formatting a
formatted file changes nothing. Parasol I files are converted with
'parasol import' instead. A FILE of - is standard input.

The formatted text is parsed again and must mean the same as the file and
keep its comments, in order; otherwise nothing is printed or written and
the error shows where formatting would change the file. With -w, the file
is replaced only once the new text is complete on disk (written to a
temporary file beside it, synced, given the file's mode and renamed over
it), so a failure leaves the file as it was; read-only files and
directories are refused.

With -l or -d (or both) the formatted text is not printed: -l lists the
files whose formatting differs, -d prints the change as a unified diff
(file.orig → file). Either may be combined with -w. The exit status is 0
whether or not files differ; test for empty output in scripts:
  test -z "$(parasol fmt -l *.machine)"`,
	flags: declareFmt,
}

// declareFmt declares fmt's flags on fs and returns the function that runs it.
func declareFmt(e *env, fs *flag.FlagSet) func(files []string) error {
	write := fs.Bool("w", false, "write the result back to the file instead of printing it")
	list := fs.Bool("l", false, "list the files whose formatting differs from parasol's")
	showDiff := fs.Bool("d", false, "print the changes formatting would make as a unified diff")
	return func(files []string) error {
		if len(files) == 0 {
			return argsError("parasol fmt: no files given (- reads standard input)")
		}
		stdin := 0
		for _, f := range files {
			if f == eval.Stdin {
				stdin++
			}
		}
		switch {
		case stdin > 1:
			return usageError("parasol fmt: - (standard input) is given %d times; it can be read once", stdin)
		case stdin > 0 && *write:
			return usageError("parasol fmt: -w cannot write to standard input; drop -w to print the result")
		}
		var errs lang.Diagnostics
		for _, path := range files {
			name := eval.DisplayName(path)
			data, err := eval.ReadInput(path, 0)
			if err != nil {
				errs.Append(err)
				continue
			}
			f, err := parser.ParseFile(name, string(data))
			if err != nil {
				errs.Append(err)
				continue
			}
			if f.Legacy {
				errs.Append(fmt.Errorf("%s is in the Parasol I format; convert it with: parasol import %s", name, path))
				continue
			}
			out, err := formatChecked(f)
			if err != nil {
				errs.Append(err)
				continue
			}
			changed := out != string(data)
			if *list && changed {
				fmt.Fprintln(e.stdout, name)
			}
			if *showDiff && changed {
				e.stdout.Write(diff.Diff(name+".orig", data, name, []byte(out)))
			}
			if *write {
				if changed {
					if err := writeFileAtomic(path, []byte(out)); err != nil {
						errs.Append(err)
					}
				}
				continue
			}
			if !*list && !*showDiff {
				fmt.Fprint(e.stdout, out)
			}
		}
		if len(errs) > 0 {
			return errs
		}
		return nil
	}
}

// formatText is format.File; tests replace it by a faulty formatter to
// show that fmt refuses what does not mean the same.
var formatText = format.File

// formatterBug ends the message of a formatting that was refused.
const formatterBug = "; this is a bug in the parasol formatter (please report it with the file); nothing was written"

// formatChecked formats f, parses the result again and returns it only if
// it means the same as f and keeps f's comments in order; otherwise the
// error, positioned in f's source, says what formatting would break.
func formatChecked(f *lang.File) (string, error) {
	out := formatText(f)
	whole := lang.Pos{Src: f.Src}
	g, err := parser.ParseFile(f.Src.Name, out)
	if err != nil {
		msg := err.Error()
		var ds lang.Diagnostics
		var d *lang.Diagnostic
		if errors.As(err, &ds) && len(ds) > 0 {
			d = ds[0]
		}
		if d != nil || errors.As(err, &d) {
			msg = fmt.Sprintf("line %d of the formatted text: %s", d.Pos.Line, d.Msg)
		}
		return "", lang.Errorf(whole, "formatting would produce text that does not parse (%s)%s", msg, formatterBug)
	}
	if g.Legacy {
		return "", lang.Errorf(whole, "formatting would produce text taken for the Parasol I format%s", formatterBug)
	}
	if err := format.Check(f, g); err != nil {
		var d *lang.Diagnostic
		if errors.As(err, &d) {
			d.Msg += formatterBug
		}
		return "", err
	}
	return out, nil
}
