package eval

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/parasol-lang/parasol/internal/golden"
	"github.com/parasol-lang/parasol/lang"
	"github.com/rogpeppe/go-internal/txtar"
)

// TestProgramGolden runs each testdata/programs/*.txtar: the programs of
// "input.machine" are instantiated on its first machine (or "machine NAME"
// in "options") with the options' "ranks N", "map HOW", "arg NAME=VALUE"
// and "program NAME" lines, and the schedule, operation by operation, or
// the errors must equal "want". Run with -update to regenerate.
func TestProgramGolden(t *testing.T) {
	golden.Run(t, "testdata/programs/*.txtar", runProgramGolden)
}

func runProgramGolden(t *testing.T, ar *txtar.Archive) string {
	files := map[string][]byte{}
	for _, f := range ar.Files {
		files[f.Name] = f.Data
	}
	opts := []Option{WithReadFile(func(p string) ([]byte, error) {
		if b, ok := files[filepath.ToSlash(p)]; ok {
			return b, nil
		}
		return nil, os.ErrNotExist
	})}
	var so ScheduleOptions
	mapping, program := "", ""
	for _, line := range lines(golden.Section(ar, "options")) {
		k, v, _ := strings.Cut(line, " ")
		switch k {
		case "machine":
			opts = append(opts, WithMachine(v))
		case "ranks":
			n, err := strconv.Atoi(v)
			if err != nil {
				t.Fatal(err)
			}
			so.Ranks = n
		case "map":
			mapping = v
		case "program":
			program = v
		case "arg":
			name, val, _ := strings.Cut(v, "=")
			if so.Args == nil {
				so.Args = map[string]string{}
			}
			so.Args[name] = val
		default:
			t.Fatalf("unknown option %q", line)
		}
	}
	m, err := Load("input.machine", opts...)
	if err != nil {
		return fmt.Sprintf("load error:\n%s\n", err)
	}
	if program == "" {
		program = m.Programs()[0]
	}
	p, err := m.Program(program)
	if err != nil {
		return fmt.Sprintf("error:\n%s\n", err)
	}
	if mapping != "" {
		if so.Map, err = MapRanks(m, so.Ranks, mapping, 1); err != nil {
			return fmt.Sprintf("map error:\n%s\n", err)
		}
	}
	s, err := p.Schedule(m, so)
	if err != nil {
		return fmt.Sprintf("error:\n%s\n", err)
	}
	return dumpSchedule(s)
}

// dumpSchedule prints a schedule one operation a line: its index, rank,
// kind and figures, its label and its prerequisites (i~ for a start).
func dumpSchedule(s *lang.Schedule) string {
	var b strings.Builder
	fmt.Fprintf(&b, "%s: %d ranks, map %v\n", s.Name, s.Ranks, s.Map)
	for r := 0; r < s.Ranks; r++ {
		for i := int(s.RankStart[r]); i < int(s.RankStart[r+1]); i++ {
			op := s.Ops[i]
			fmt.Fprintf(&b, "%d r%d %s", i, r, op.Kind)
			switch op.Kind {
			case lang.OpCalc:
				fmt.Fprintf(&b, " %s", lang.FormatQuantity(op.Time, lang.TimeDim))
			case lang.OpSend, lang.OpRecv:
				fmt.Fprintf(&b, " %dB peer %d tag %d", op.Bytes, op.Peer, op.Tag)
			case lang.OpColl:
				c := s.Colls[op.Peer]
				fmt.Fprintf(&b, " #%d %s %dB root %d of %d", op.Peer, c.Name, c.Bytes, c.Root, c.Ranks)
				if c.Algorithm != "" {
					fmt.Fprintf(&b, " by %s", c.Algorithm)
				}
			}
			fmt.Fprintf(&b, " %q line %d", s.LabelOf(i), op.Line)
			if deps := s.DepsOf(i); len(deps) > 0 {
				b.WriteString(" after")
				for _, d := range deps {
					fmt.Fprintf(&b, " %d", d.Op)
					if d.Start {
						b.WriteString("~")
					}
				}
			}
			b.WriteByte('\n')
		}
	}
	return b.String()
}

// loadTest loads a machine and its programs from text.
func loadTest(t *testing.T, text string) *Machine {
	t.Helper()
	m, err := LoadSource("t.machine", text)
	if err != nil {
		t.Fatal(err)
	}
	return m
}

const fourCPUs = `machine "m" {
	processor cpu { float_timings { mul = 2ns } }
	topology t = chain(4) { latency = 1us; speed = 1MB/s }
}
program first { barrier() }
program second(n: B = 1KB) { send(n, to: mod(rank + 1, ranks)); recv() }
`

func TestMapRanksPlacesRanksOnProcessors(t *testing.T) {
	m := loadTest(t, fourCPUs)
	dir := t.TempDir()
	file := filepath.Join(dir, "map.txt")
	if err := os.WriteFile(file, []byte("# placement\n3\n\n2 # two\n1\n0\n3\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		how   string
		ranks int
		want  []int
	}{
		{"linear", 0, []int{0, 1, 2, 3}},
		{"", 6, []int{0, 1, 2, 3, 0, 1}},
		{"mod(rank * 3, 4)", 4, []int{0, 3, 2, 1}},
		{"if rank < 2 then 3 else 0", 3, []int{3, 3, 0}},
		{file, 5, []int{3, 2, 1, 0, 3}},
	} {
		got, err := MapRanks(m, tc.ranks, tc.how, 1)
		if err != nil {
			t.Errorf("%s: %v", tc.how, err)
			continue
		}
		if fmt.Sprint(got) != fmt.Sprint(tc.want) {
			t.Errorf("%s on %d ranks: %v, want %v", tc.how, tc.ranks, got, tc.want)
		}
	}
}

func TestMapRanksRandomIsAPermutationDrawnFromTheSeed(t *testing.T) {
	m := loadTest(t, fourCPUs)
	a, err := MapRanks(m, 8, "random", 7)
	if err != nil {
		t.Fatal(err)
	}
	b, _ := MapRanks(m, 8, "random", 7)
	if fmt.Sprint(a) != fmt.Sprint(b) {
		t.Errorf("the same seed placed %v, then %v", a, b)
	}
	seen := map[int]int{}
	for r, p := range a {
		seen[p]++
		if r >= 4 && p != a[r-4] {
			t.Errorf("ranks past the processor count repeat the permutation: %v", a)
		}
	}
	if len(seen) != 4 {
		t.Errorf("8 ranks on 4 processors use %d of them: %v", len(seen), a)
	}
}

func TestMapRanksRefusesBadPlacements(t *testing.T) {
	m := loadTest(t, fourCPUs)
	dir := t.TempDir()
	file := filepath.Join(dir, "short.txt")
	if err := os.WriteFile(file, []byte("1\nx\n9\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	one := filepath.Join(dir, "one.txt")
	if err := os.WriteFile(one, []byte("2\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct{ how, want string }{
		{"rank + 1", "--map gives rank 3 a number (4); it must give a processor index from 0 to 3"},
		{"rank * 1us", "--map gives rank 0 a time"},
		{"rnak", `unknown name rnak (did you mean "rank"?)`},
		{file, "short.txt:2:1: expected a processor id, got \"x\""},
		{file, "short.txt:3:1: 9 is no processor of machine \"m\""},
		{one, "one.txt places 1 rank; the program runs on 4"},
	} {
		_, err := MapRanks(m, 4, tc.how, 1)
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: %v, want an error containing %q", tc.how, err, tc.want)
		}
	}
}

func TestProgramsOfAMachineAndOfAFile(t *testing.T) {
	m := loadTest(t, fourCPUs)
	if got := fmt.Sprint(m.Programs()); got != "[first second]" {
		t.Errorf("Programs() = %s", got)
	}
	if _, err := m.Program("secnd"); err == nil || !strings.Contains(err.Error(), `did you mean "second"?`) {
		t.Errorf("Program(secnd): %v", err)
	}
	files := map[string]string{
		"m.machine":    fourCPUs,
		"prog.machine": "import \"m.machine\"\nprogram third(k = 2) { compute(k * float.mul) }\n",
	}
	read := WithReadFile(func(p string) ([]byte, error) {
		if s, ok := files[filepath.Base(p)]; ok {
			return []byte(s), nil
		}
		return nil, os.ErrNotExist
	})
	p, err := LoadProgram("prog.machine", read)
	if err != nil {
		t.Fatal(err)
	}
	if p.Name() != "third" || fmt.Sprint(p.Params()) != "[{k  2}]" {
		t.Errorf("LoadProgram gave %s with %v", p.Name(), p.Params())
	}
	if p, err = LoadProgram("prog.machine", read, WithProgram("second")); err != nil || p.Name() != "second" {
		t.Errorf("WithProgram(second): %v", err)
	}
	if _, err = LoadProgram("prog.machine", read, WithProgram("fourth")); err == nil || !strings.Contains(err.Error(), "no program fourth") {
		t.Errorf("WithProgram(fourth): %v", err)
	}
	s, err := p.Schedule(m, ScheduleOptions{Ranks: 2, Args: map[string]string{"n": "2 * 8"}})
	if err != nil {
		t.Fatal(err)
	}
	// The receive from any source has no size before running.
	if got := dumpSchedule(s); !strings.Contains(got, "0 r0 send 16B peer 1 tag 0") || !strings.Contains(got, "1 r0 recv 0B peer -1 tag -1") {
		t.Errorf("schedule:\n%s", got)
	}
}

func TestParseProgramBodyChecksStatementsOnTheMachine(t *testing.T) {
	m := loadTest(t, fourCPUs)
	p, err := ParseProgramBody(m, "if rank == 0 { compute(10us) } barrier()")
	if err != nil {
		t.Fatal(err)
	}
	s, err := p.Schedule(m, ScheduleOptions{})
	if err != nil {
		t.Fatal(err)
	}
	want := "main: 4 ranks, map [0 1 2 3]\n" +
		`0 r0 calc 10us "compute(10us)" line 1` + "\n" +
		`1 r0 coll #0 barrier 0B root 0 of 4 "barrier()" line 1 after 0` + "\n" +
		`2 r1 coll #0 barrier 0B root 0 of 4 "barrier()" line 1` + "\n" +
		`3 r2 coll #0 barrier 0B root 0 of 4 "barrier()" line 1` + "\n" +
		`4 r3 coll #0 barrier 0B root 0 of 4 "barrier()" line 1` + "\n"
	if got := dumpSchedule(s); got != want {
		t.Errorf("schedule:\n%s\nwant:\n%s", got, want)
	}
	for _, tc := range []struct{ text, want string }{
		{"compute(10us", "<program>:1:13: syntax error: unexpected end of input"},
		{"send(1KB)", "<program>:1:1: send needs to:"},
		{"compute(2 * double.mul)", ""},
		{"x = 1", "<program>:1:1: syntax error: expected a statement such as compute(…)"},
	} {
		_, err := ParseProgramBody(m, tc.text)
		if tc.want == "" {
			if err != nil {
				t.Errorf("%s: %v", tc.text, err)
			}
			continue
		}
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: %v, want an error containing %q", tc.text, err, tc.want)
		}
	}
}

func TestCheckReportsProgramErrorsOnEachMachine(t *testing.T) {
	_, ds := Inspect("t.machine", WithReadFile(func(string) ([]byte, error) {
		return []byte(fourCPUs + "program third { compute(rnak * 1us) }\nprogram first { }\n"), nil
	}))
	got := ds.Error()
	for _, want := range []string{`t.machine:7:25: unknown name rnak (did you mean "rank"?)`, "t.machine:8:1: program first is defined twice"} {
		if !strings.Contains(got, want) {
			t.Errorf("check gave\n%s\nwant %q", got, want)
		}
	}
}

func TestCheckOfAProgramFileUsesTheMachinesItImports(t *testing.T) {
	files := map[string]string{
		"m.machine":    fourCPUs,
		"prog.machine": "import \"m.machine\"\nprogram third { compute(2 * flot.mul) }\n",
	}
	_, ds := Inspect("prog.machine", WithReadFile(func(p string) ([]byte, error) {
		if s, ok := files[filepath.Base(p)]; ok {
			return []byte(s), nil
		}
		return nil, os.ErrNotExist
	}))
	if got, want := ds.Error(), `prog.machine:2:29: unknown name flot`; !strings.Contains(got, want) {
		t.Errorf("check gave\n%s\nwant %q", got, want)
	}
}

func TestProgramInstantiationIsBounded(t *testing.T) {
	m := loadTest(t, fourCPUs)
	defer func(n int64) { maxProgramSteps = n }(maxProgramSteps)
	maxProgramSteps = 1000
	p, err := ParseProgramBody(m, "for i in 1 .. 100 {\n\tfor j in 1 .. 100 { }\n}")
	if err != nil {
		t.Fatal(err)
	}
	_, err = p.Schedule(m, ScheduleOptions{})
	if want := "<program>:2:2: the program runs more than 1000 statements and loop iterations on its 4 ranks together"; err == nil || !strings.Contains(err.Error(), want) {
		t.Errorf("got %v, want %q", err, want)
	}
	p, err = ParseProgramBody(m, "for i in 1 .. 1000 { compute(1us) }")
	if err != nil {
		t.Fatal(err)
	}
	maxProgramSteps = MaxProgramSteps
	m, err = LoadSource("t.machine", fourCPUs, WithMaxMemory(64<<10))
	if err != nil {
		t.Fatal(err)
	}
	// Refused before it is instantiated: 4 ranks × 1000 operations of
	// 52 B each (schedOpBytes: the operation, a dependency, an offset).
	_, err = p.Schedule(m, ScheduleOptions{})
	if want := "<program>:1:1: program main on 4 ranks expands to about 4000 operations, which needs about 208 KB; the limit is 66 KB"; err == nil || !strings.Contains(err.Error(), want) {
		t.Errorf("got %v, want %q", err, want)
	}
	// Loops nested deeper than the estimate looks are checked as the
	// schedule grows.
	p, err = ParseProgramBody(m, strings.Repeat("for k in 1 .. 1 { ", maxEstimateDepth)+"for i in 1 .. 1000 { compute(1us) }"+strings.Repeat(" }", maxEstimateDepth))
	if err != nil {
		t.Fatal(err)
	}
	_, err = p.Schedule(m, ScheduleOptions{})
	if want := "program main on 4 ranks, at 1261 operations so far of about 4000 at the rate of its first rank, needs about 208 KB"; err == nil || !strings.Contains(err.Error(), want) {
		t.Errorf("got %v, want %q", err, want)
	}
}

func TestAProgramNeedsAMachineWithProcessors(t *testing.T) {
	m := loadTest(t, "machine \"m\" { param x = 1 }\n")
	_, err := ParseProgramBody(m, "barrier()")
	if want := `<program>:1:1: machine "m" has no topology, so no processors to run ranks on`; err == nil || !strings.Contains(err.Error(), want) {
		t.Errorf("got %v, want %q", err, want)
	}
	if _, err := MapRanks(m, 2, "linear", 0); err == nil || !strings.Contains(err.Error(), "no topology") {
		t.Errorf("MapRanks: %v", err)
	}
}

func TestStatementArgumentInErrorGivesOneDiagnostic(t *testing.T) {
	m := loadTest(t, fourCPUs)
	for _, tc := range []struct {
		text string
		want []string
	}{
		{"send(1KB, to: nope)", []string{"<program>:1:15: unknown name nope"}},
		{"send(1KB, to: 2KB)", []string{"<program>:1:15: send: the rank must be a whole number, got a size"}},
		{"let h = irecv(from: nope, size: 1)\nwait(h)", []string{"<program>:1:21: unknown name nope"}},
		{"let h = isend(1KB, to: nope)\nwait(h)", []string{"<program>:1:24: unknown name nope"}},
		{"send(1KB, tag: 1)", []string{"<program>:1:1: send needs to:"}},
		{"send(1KB, to: nope, to: 1)", []string{"<program>:1:15: unknown name nope", "<program>:1:21: to: is given twice"}},
	} {
		_, err := ParseProgramBody(m, tc.text)
		var ds lang.Diagnostics
		if !errors.As(err, &ds) {
			t.Errorf("%s: %v, want diagnostics", tc.text, err)
			continue
		}
		if len(ds) != len(tc.want) {
			t.Errorf("%s: %d diagnostics, want %d:\n%v", tc.text, len(ds), len(tc.want), err)
			continue
		}
		for i, w := range tc.want {
			if got := ds[i].Error(); !strings.HasPrefix(got, w) {
				t.Errorf("%s: diagnostic %d is %q, want it to start %q", tc.text, i, got, w)
			}
		}
	}
}
