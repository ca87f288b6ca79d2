package main

import (
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"testing"
	"time"

	"github.com/parasol-lang/parasol/internal/limits"
	"github.com/rogpeppe/go-internal/testscript"
)

// The CLI is tested as a user runs it: each testdata/script/*.txtar is a
// shell-like script (see the testscript package) whose `exec parasol …`
// runs this package's run function in a subprocess. Regenerate the expected
// files of failing `cmp` lines with: go test ./cmd/parasol -run TestScript -update
var update = flag.Bool("update", false, "rewrite the expected files of failing cmp commands in testdata/script")

func TestMain(m *testing.M) {
	testscript.Main(m, map[string]func(){
		"parasol": func() { os.Exit(runParasol(os.Args[1:])) },
		// parasol-misformatting KIND ARGS... runs parasol with a faulty
		// formatter (misformat_test.go).
		"parasol-misformatting": misformattingMain,
		// exits N parasol ARGS... runs parasol and succeeds only when its
		// exit status is N: `exec exits 2 parasol frobnicate`.
		"exits": func() {
			args := os.Args[1:]
			if len(args) < 2 || args[1] != "parasol" {
				fmt.Fprintln(os.Stderr, "usage: exits N parasol [ARGS...]")
				os.Exit(1)
			}
			want, err := strconv.Atoi(args[0])
			if err != nil {
				fmt.Fprintln(os.Stderr, "exits: bad status", args[0])
				os.Exit(1)
			}
			if got := runParasol(args[2:]); got != want {
				fmt.Fprintf(os.Stderr, "exits: parasol exited with status %d, want %d\n", got, want)
				os.Exit(1)
			}
			os.Exit(0)
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
		Cmds: map[string]func(ts *testscript.TestScript, neg bool, args []string){
			// sleep DURATION gives a background command time to start
			// before a script signals it.
			"sleep": func(ts *testscript.TestScript, neg bool, args []string) {
				if neg || len(args) != 1 {
					ts.Fatalf("usage: sleep DURATION")
				}
				d, err := time.ParseDuration(args[0])
				ts.Check(err)
				time.Sleep(d)
			},
		},
		// [race] is true under the race detector.
		Condition: func(cond string) (bool, error) {
			if cond == "race" {
				return raceEnabled, nil
			}
			return false, fmt.Errorf("unknown condition %q", cond)
		},
		// Every script starts with a copy of examples/ in its work
		// directory, so paths and messages read as a user would see them.
		Setup: func(e *testscript.Env) error {
			// Every command runs under a memory limit, so a hostile input
			// that slips past an estimate fails instead of exhausting CI.
			e.Setenv(limits.EnvVar, "1GB")
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
			if err := copyDir(filepath.Join(from, d.Name()), filepath.Join(to, d.Name())); err != nil {
				return err
			}
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
