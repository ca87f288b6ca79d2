package main

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// failingWriter is a stdout whose reader has gone (a closed pipe).
type failingWriter struct{}

func (failingWriter) Write([]byte) (int, error) { return 0, errors.New("broken pipe") }

// Issue 26: a plot was lost when stdout was a closed pipe. The plot is
// written whatever becomes of stdout, and an error writing the plot is
// reported even when stdout fails too.
func TestPlotIsWrittenWhenStdoutFails(t *testing.T) {
	cmds := map[string][]string{
		"sim":        {"sim", "std:xmp64", "--op", "randperm", "--json"},
		"sim --load": {"sim", "std:booksim-mesh", "--op", "uniform", "--size", "32", "--load", "0.05,0.1", "--measure", "200ns", "--warmup", "100ns", "--json"},
		"compare":    {"compare", "std:xmp64", "MPI.allreduce", "--size", "64", "--json"},
		"sim text":   {"sim", "std:xmp64", "--op", "randperm"},
		"run":        {"run", "--simulate", "std:xmp64", "../../examples/programs/ring.machine"},
		"sweep":      {"sweep", "std:xmp64", "--op", "send", "--size", "32,64,128", "--format", "csv"},
		"sweep json": {"sweep", "std:xmp64", "--op", "send", "--size", "32,64", "--json"},
	}
	for name, args := range cmds {
		t.Run(name, func(t *testing.T) {
			dir := t.TempDir()
			file := filepath.Join(dir, "p.svg")
			var errOut bytes.Buffer
			e := &env{stdin: strings.NewReader(""), stdout: failingWriter{}, stderr: &errOut}
			run(e, append(slicesClone(args), "--plot", file))
			if fi, err := os.Stat(file); err != nil || fi.Size() == 0 {
				t.Errorf("no plot written (%v); stderr: %s", err, errOut.String())
			}

			errOut.Reset()
			bad := filepath.Join(dir, "no such dir", "p.svg")
			code := run(e, append(slicesClone(args), "--plot", bad))
			if code == 0 || !strings.Contains(errOut.String(), "--plot") {
				t.Errorf("exit status %d, stderr %q; want the failed --plot reported", code, errOut.String())
			}
		})
	}
}

func slicesClone(s []string) []string { return append([]string(nil), s...) }
