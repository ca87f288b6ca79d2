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

// hostileCase is one input a careless user or script might send: the
// files it writes, the command line, the exit status and what stderr (or,
// with --json, stdout) must say. Every case must end with a clear,
// positioned error or a right answer: no panic, no hang, no NaN.
type hostileCase struct {
	name  string
	files map[string]string
	args  []string
	exit  int
	want  string // regexp over the output
}

func repeat(s string, n int) string { return strings.Repeat(s, n) }

// paramChain is `param p0 = p1 + 1` … `param pN-1 = 1`.
func paramChain(n int) string {
	var b strings.Builder
	b.WriteString("machine \"chain\" {\n")
	for i := 0; i < n-1; i++ {
		b.WriteString("\tparam p")
		b.WriteString(strconv.Itoa(i))
		b.WriteString(" = p")
		b.WriteString(strconv.Itoa(i + 1))
		b.WriteString(" + 1\n")
	}
	b.WriteString("\tparam p" + strconv.Itoa(n-1) + " = 1\n}\n")
	return b.String()
}

func machine(body string) string { return "machine \"m\" {\n" + body + "\n}\n" }

// hostileCases are built when TestHostileInputs runs, not at package
// initialisation: the testscript scripts run this test binary as parasol,
// and each of those processes would otherwise build the 250,000-param
// chain and the megabyte strings for nothing.
func hostileCases() []hostileCase {
	return []hostileCase{
		// Syntax garbage.
		{name: "binary", files: map[string]string{"m.machine": "\x7fELF\x02\x01\x01\x00\x00\x00\xff\xfe"},
			args: []string{"check", "m.machine"}, exit: 1, want: `m.machine:1:\d+: (invalid UTF-8|NUL byte).*not a text file`},
		{name: "byte order mark", files: map[string]string{"m.machine": "\uFEFF" + machine("param a = 1")},
			args: []string{"eval", "m.machine", "a"}, exit: 0, want: `^$`},
		{name: "unclosed block", files: map[string]string{"m.machine": "machine \"m\" {\n\tparam a = 1\n"},
			args: []string{"check", "m.machine"}, exit: 1, want: `m.machine:3:1: syntax error: unexpected end of input \(expected '}'\)`},
		{name: "extra braces", files: map[string]string{"m.machine": "machine \"m\" { param a = 1 }}}}\n"},
			args: []string{"check", "m.machine"}, exit: 1, want: `(?s)\Am.machine:1:28: syntax error: unexpected token '}'\n[^\n]*\n[^\n]*\^\n?\z`},
		{name: "look-alike letter", files: map[string]string{"m.machine": machine("param \u0430 = 1")},
			args: []string{"check", "m.machine"}, exit: 1, want: `m.machine:2:7: syntax error: unexpected character 'а' \(U\+0430\)`},
		{name: "deep nesting", files: map[string]string{"m.machine": machine("param a = " + repeat("(", 100000) + "1" + repeat(")", 100000))},
			args: []string{"check", "m.machine"}, exit: 1, want: `m.machine:2:\d+: nesting deeper than 200 levels`},
		{name: "long expression", files: map[string]string{"m.machine": machine("param a = " + repeat("1+", 300000) + "1")},
			args: []string{"check", "m.machine"}, exit: 1, want: `m.machine:2:\d+: expression longer than 10000 terms`},
		{name: "empty file", files: map[string]string{"m.machine": ""},
			args: []string{"eval", "m.machine", "1"}, exit: 1, want: `no machine in m.machine`},

		// Issue 26: a trace's rank beyond what a schedule can have was
		// an array of 2^31 offsets, allocated before the limit was checked.
		{name: "trace rank beyond the bound", files: map[string]string{"t.csv": "time,src,dst,bytes\n0,0,2147483645,8\n"},
			args: []string{"run", "--max-memory", "2GB", "std:xmp64", "t.csv"}, exit: 1, want: `^t.csv:2:5: dst 2147483645 is out of range: ranks are 0 to 16777215 \(a schedule has at most 16777216\)\n`},
		{name: "load pattern rank beyond the bound", files: map[string]string{"t.csv": "time,src,dst,bytes\n0,0,2147483645,8\n"},
			args: []string{"sim", "std:booksim-mesh", "--load", "0.1", "--pattern", "t.csv"}, exit: 1, want: `^t.csv:2:5: dst 2147483645 is out of range`},
		{name: "trace ranks beyond the memory limit", files: map[string]string{"t.csv": "time,src,dst,bytes\n0,0,16777215,8\n"},
			args: []string{"run", "--max-memory", "100MB", "std:xmp64", "t.csv"}, exit: 1, want: `^t.csv:2:5: dst 16777215 \(a schedule of 16777216 ranks\) needs about 268 MB; the limit is 100 MB, set --max-memory to raise it\n`},

		{name: "JSON trace key given twice", files: map[string]string{"t.jsonl": "{\"src\": 0, \"src\": 5, \"dst\": 1, \"bytes\": 8}\n"},
			args: []string{"run", "std:xmp64", "t.jsonl"}, exit: 1, want: `^t.jsonl:1:12: field src appears twice \(first at column 2\)\n`},
		{name: "GOAL num_ranks beyond the bound", files: map[string]string{"g.goal": "num_ranks 1000000000\nrank 0 {\nl1: calc 100\n}\n"},
			args: []string{"run", "std:xmp64", "g.goal"}, exit: 1, want: `^g.goal:1:11: num_ranks 1000000000 is out of range \(1 to 16777216, the most ranks a schedule can have\)\n`},

		// Parasol I corruption.
		{name: "legacy negative processor number", files: map[string]string{"p.machine": "machinename = \"x\"\nprocessor = 1\ntopology = 1\nlinknumber = 0\nlinkspeed = 1e7\nprocessortype0 = 1\nprocessornumber = -5.5\nprocessortype1 = 1\nprocessornumber = 1\n"},
			args: []string{"check", "p.machine"}, exit: 1, want: `p.machine:7:19: processornumber must be a whole number ≥ 0, got -5.5`},
		{name: "legacy header number", files: map[string]string{"p.machine": "machinename = \"x\"\nprocessor = 1e400\n"},
			args: []string{"check", "p.machine"}, exit: 1, want: `p.machine:2:13: processor expects a whole number from 0 to 2147483647, got 1e400`},
		{name: "legacy import of a rejected value", files: map[string]string{"p.machine": "machinename = \"x\"\nprocessor = 1\ntopology = 1\nlinknumber = 0\nlinkio = maybe\nlinkspeed = 1e7\nprocessortype0 = 1\nprocessornumber = 0\nprocessortype1 = 1\nprocessornumber = 1\n"},
			args: []string{"import", "p.machine"}, exit: 1, want: `p.machine:5:10: linkio expects yes, no, true, false, 1 or 0, got "maybe"`},

		// Semantic traps.
		{name: "negative latency", files: map[string]string{"m.machine": machine("topology t = ring(4) { latency = -1ns\n speed = 1MB/s }")},
			args: []string{"check", "m.machine"}, exit: 1, want: `m.machine:2:34: latency must not be negative, got -1ns`},
		{name: "division by zero", args: []string{"eval", "std:xmp64", "1/0"}, exit: 1,
			want: `^<query>:1:2: division by zero: 1 / 0\n`},
		{name: "square root of a negative number", args: []string{"eval", "std:xmp64", "sqrt(-1)"}, exit: 1,
			want: `^<query>:1:1: domain error: sqrt\(-1\) needs a number ≥ 0\n`},
		{name: "power overflow", args: []string{"eval", "std:xmp64", "10^400"}, exit: 1,
			want: `^<query>:1:3: overflow: 10 \^ 400 is beyond the largest number`},
		{name: "NaN latency", files: map[string]string{"m.machine": machine("topology t = ring(4) { latency = sqrt(-1) * 1ns\n speed = 1MB/s }")},
			args: []string{"sim", "m.machine", "--op", "transpose", "--size", "32"}, exit: 1, want: `m.machine:2:34: domain error: sqrt\(-1\) needs a number ≥ 0`},
		{name: "hops of a disconnected pair", files: map[string]string{"m.machine": machine("processor cpu { clock = 1GHz }\ntopology t {\n node 0 .. 3 = cpu\n speed = 1MB/s\n link 0 -- 1 { latency = 1ns }\n link 2 -- 3 { latency = 1ns }\n}")},
			args: []string{"eval", "m.machine", "hops(0, 3)"}, exit: 1, want: `^<query>:1:1: hops\(0, 3\): nodes 0 and 3 are not connected in topology t\n`},
		{name: "chain of 250,000 params", files: map[string]string{"m.machine": paramChain(250_000)},
			args: []string{"eval", "m.machine", "p0"}, exit: 0, want: `^$`},
		{name: "megabyte identifier", args: []string{"eval", "std:xmp64", repeat("x", 1<<20)}, exit: 1,
			want: `^<query>:1:1: unknown name x{44}…x{15}\n`},
		{name: "100,000-digit literal", args: []string{"eval", "std:xmp64", repeat("1", 100_000)}, exit: 1,
			want: `^<query>:1:1: the number 1{44}…1{15} is too large`},

		// CLI extremes.
		{name: "unknown command under --json", args: []string{"frobnicate", "--json"}, exit: 2,
			want: `^\{"error":\{"message":"parasol: unknown command \\"frobnicate\\"`},

		// Programs that expand past the memory limit are refused before
		// they are instantiated, at the loop, with the operations they
		// would make (64 ranks on std:xmp64: 64 × 10^9; the triangle
		// 64 × 10^5 × (10^5+1) / 2, estimated from its middle row; 10^9
		// on rank 0 and a barrier on each; 64 × (3 × 10^9 + 1)) and the
		// bytes, at the default limit (issue 26).
		{name: "a billion-iteration loop", files: map[string]string{"p.machine": "program big() {\n  for i in 1 .. 1000000000 { compute(1ns) }\n}\n"},
			args: []string{"run", "std:xmp64", "p.machine"}, exit: 1,
			want: `^p.machine:2:3: program big on 64 ranks expands to about 64000000000 operations, which needs about [\d.]+ TB; the limit is [\d.]+ [GMT]B, ` + defaultSource + `\n`},
		{name: "nested loops", files: map[string]string{"p.machine": "program big() {\n  for i in 1 .. 100000 { for j in 1 .. i { compute(1ns) } }\n}\n"},
			args: []string{"run", "std:xmp64", "p.machine"}, exit: 1,
			want: `^p.machine:2:3: program big on 64 ranks expands to about 3200\d{8} operations, which needs about [\d.]+ TB; the limit is [\d.]+ [GMT]B, ` + defaultSource + `\n`},
		{name: "a loop on rank 0 only", files: map[string]string{"p.machine": "program big() {\n  if rank == 0 {\n    for i in 1 .. 1000000000 { compute(1ns) }\n  }\n  barrier()\n}\n"},
			args: []string{"run", "std:xmp64", "p.machine"}, exit: 1,
			want: `^p.machine:3:5: program big on 64 ranks expands to about 1000000064 operations, which needs about [\d.]+ GB; the limit is [\d.]+ [GMT]B, ` + defaultSource + `\n`},
		{name: "ring with a billion iterations", files: map[string]string{"ring.machine": ringProgram},
			args: []string{"run", "std:xmp64", "ring.machine", "--arg", "iters=1000000000"}, exit: 1,
			want: `^ring.machine:8:2: program ring on 64 ranks expands to about 192000000064 operations, which needs about [\d.]+ TB; the limit is [\d.]+ [GMT]B, ` + defaultSource + `\n`},
	}
}

// defaultSource matches what follows the default limit in an error: where
// it comes from on this host, and what raises it.
const defaultSource = `(a quarter of physical memory \([\d.]+ [GMT]B\); set --max-memory to raise it[^\n]*|what the address-space limit leaves \(ulimit -v[^\n]*|the cgroup's memory limit \([^\n]*|the default where physical memory cannot be read; set --max-memory to raise it)`

// ringProgram is examples/programs/ring.machine.
const ringProgram = `# A ring: every rank passes a message of n bytes to its right-hand
# neighbour and receives one from its left, iters times, computing between
# the rounds. Run it on any machine: it imports none.

program ring(n: B = 1KB, iters = 4, work: s = 2us) {
	let right = mod(rank + 1, ranks)
	let left = mod(rank + ranks - 1, ranks)
	for i in 1 .. iters {
		# Even ranks send first and odd ranks receive first, so that a
		# rendezvous protocol cannot deadlock.
		if mod(rank, 2) == 0 {
			send(n, to: right, tag: i)
			recv(from: left, tag: i)
		} else {
			recv(from: left, tag: i)
			send(n, to: right, tag: i)
		}
		compute(work)
	}
	barrier()
}
`

func TestHostileInputs(t *testing.T) {
	for _, c := range hostileCases() {
		t.Run(c.name, func(t *testing.T) {
			dir := t.TempDir()
			for name, text := range c.files {
				if err := os.WriteFile(filepath.Join(dir, name), []byte(text), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			t.Chdir(dir)
			var stdout, stderr bytes.Buffer
			e := &env{stdin: strings.NewReader(""), stdout: &stdout, stderr: &stderr}
			code := run(e, c.args)
			out := stderr.String()
			if jsonRequested(c.args) {
				out = stdout.String()
			}
			if code != c.exit {
				t.Errorf("exit status %d, want %d\nstdout: %s\nstderr: %s", code, c.exit, clip(stdout.String()), clip(stderr.String()))
			}
			if !regexp.MustCompile(c.want).MatchString(out) {
				t.Errorf("output does not match %q:\n%s", c.want, clip(out))
			}
			if strings.Contains(stdout.String()+stderr.String(), "NaN") || strings.Contains(stderr.String(), "goroutine ") {
				t.Errorf("output holds NaN or a Go stack trace:\n%s", clip(stdout.String()+stderr.String()))
			}
		})
	}
}
