package main

import (
	"flag"
	"os"
	"path/filepath"
	"testing"

	"github.com/rogpeppe/go-internal/testscript"
)

// The CLI is tested as a user runs it: each testdata/script/*.txtar is a
// shell-like script (see the testscript package) whose `exec parasol …`
// runs this package's run function in a subprocess. Regenerate the expected
// files of failing `cmp` lines with: go test ./cmd/parasol -run TestScript -update
var update = flag.Bool("update", false, "rewrite the expected files of failing cmp commands in testdata/script")

func TestMain(m *testing.M) {
	testscript.Main(m, map[string]func(){
		"parasol": func() {
			e := &env{stdin: os.Stdin, stdout: os.Stdout, stderr: os.Stderr, isTerminal: false}
			os.Exit(run(e, os.Args[1:]))
		},
	})
}

func TestScript(t *testing.T) {
	examples, err := filepath.Abs("../../examples")
	if err != nil {
		t.Fatal(err)
	}
	testscript.Run(t, testscript.Params{
		Dir:                 "testdata/script",
		RequireExplicitExec: true,
		UpdateScripts:       *update,
		// Every script starts with a copy of examples/ in its work
		// directory, so paths and messages read as a user would see them.
		Setup: func(e *testscript.Env) error {
			return copyDir(examples, filepath.Join(e.WorkDir, "examples"))
		},
	})
}

func copyDir(from, to string) error {
	if err := os.MkdirAll(to, 0o777); err != nil {
		return err
	}
	entries, err := os.ReadDir(from)
	if err != nil {
		return err
	}
	for _, d := range entries {
		if d.IsDir() {
			continue
		}
		data, err := os.ReadFile(filepath.Join(from, d.Name()))
		if err != nil {
			return err
		}
		if err := os.WriteFile(filepath.Join(to, d.Name()), data, 0o666); err != nil {
			return err
		}
	}
	return nil
}
