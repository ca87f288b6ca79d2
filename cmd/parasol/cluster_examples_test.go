package main

import (
	"bytes"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
)

// The cluster examples run as their schedulers would run them: one process
// per array task or pod, with the scheduler's index in the environment; the
// merged shards must be exactly the unsharded sweep.
func TestClusterExamplesMergeIntoTheWholeSweep(t *testing.T) {
	for _, c := range []struct {
		file, env string
		count     int
		extraEnv  map[string]string
	}{
		{"sweep.slurm", "SLURM_ARRAY_TASK_ID", 4, map[string]string{"SLURM_ARRAY_TASK_COUNT": "4", "SLURM_ARRAY_TASK_MIN": "0"}},
		{"sweep-job.yaml", "JOB_COMPLETION_INDEX", 4, nil},
	} {
		t.Run(c.file, func(t *testing.T) {
			args := sweepCommand(t, filepath.Join("../../examples/cluster", c.file))
			whole := runCapture(t, unsharded(t, args))
			dir := t.TempDir()
			var shards []string
			for i := range c.count {
				t.Setenv(c.env, strconv.Itoa(i))
				for k, v := range c.extraEnv {
					t.Setenv(k, v)
				}
				f := filepath.Join(dir, "shard-"+strconv.Itoa(i)+".jsonl")
				if err := os.WriteFile(f, runCapture(t, args), 0o644); err != nil {
					t.Fatal(err)
				}
				shards = append(shards, f)
			}
			os.Unsetenv(c.env)
			merged := runCapture(t, append([]string{"merge"}, shards...))
			if !bytes.Equal(merged, whole) {
				t.Errorf("merged shards differ from the unsharded sweep:\n%s\n---\n%s", clip(string(merged)), clip(string(whole)))
			}
		})
	}
}

// unsharded is the example's command without --shard auto and --shards N:
// the whole sweep. A job's command must ask for its shard.
func unsharded(t *testing.T, args []string) []string {
	t.Helper()
	var out []string
	auto := false
	for i := 0; i < len(args); i++ {
		switch args[i] {
		case "--shard":
			auto = auto || args[i+1] == "auto"
			i++
		case "--shards":
			i++
		default:
			out = append(out, args[i])
		}
	}
	if !auto {
		t.Fatalf("parasol %s: a job array's sweep without --shard auto runs the whole sweep in every task", strings.Join(args, " "))
	}
	return out
}

var sweepLine = regexp.MustCompile(`parasol (sweep [^>]*)>`)

// sweepCommand finds the example's parasol sweep command line, without its
// redirection.
func sweepCommand(t *testing.T, path string) []string {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	text := strings.ReplaceAll(string(data), "\n              ", " ") // YAML folded lines
	m := sweepLine.FindStringSubmatch(text)
	if m == nil {
		t.Fatalf("%s: no parasol sweep command", path)
	}
	args, err := splitWords(m[1])
	if err != nil {
		t.Fatal(err)
	}
	return args
}

func runCapture(t *testing.T, args []string) []byte {
	t.Helper()
	var stdout, stderr bytes.Buffer
	e := &env{stdin: strings.NewReader(""), stdout: &stdout, stderr: &stderr}
	if code := run(e, args); code != 0 {
		t.Fatalf("parasol %s: exit %d\n%s", strings.Join(args, " "), code, stderr.String())
	}
	return stdout.Bytes()
}
