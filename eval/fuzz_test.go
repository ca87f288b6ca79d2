package eval_test

import (
	"fmt"
	"math"
	"os"
	"path/filepath"
	"runtime/metrics"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/parasol-lang/parasol/eval"
	"github.com/parasol-lang/parasol/lang"
	"github.com/parasol-lang/parasol/lang/format"
	"github.com/parasol-lang/parasol/parser"
	"github.com/rogpeppe/go-internal/txtar"
)

// fuzzMachine is the fixed machine fuzzed queries run against: params,
// functions, recursion, model sections, a generated and an explicit
// topology.
const fuzzMachine = `machine "fz" {
	param h_in = 70ns
	param h_off = 200ns
	param n = 8
	sq(x) = x * x
	fact(k) = if k <= 1 then 1 else k * fact(k - 1)
	processor cpu {
		name = "CPU"
		createjob = 1.2us
		clock = 400MHz
		float_timings { mul = 10ns }
	}
	switch c104 { delay = 1us }
	topology main = hypercube(3) {
		node = cpu
		link(d) { latency = if d < 2 then h_in else h_off }
		speed = 400Mbit/s
	}
	topology star {
		node 0 .. 3 = cpu
		node 100 = c104
		speed = 20Mbit/s
		for i in 0 .. 3 { link i -- 100 { latency = 5ns * (i + 1) } }
	}
	modelsection MPI {
		send(m: B, src, dst) = h_in + m / 50MB/s + hops(src, dst) * h_off
		barrier() = 2 * h_in + 4 * h_off
		bcast(m, p) = sum(i in 1 .. log2(p), send(m, 0, i))
	}
}
`

var fixed struct {
	once sync.Once
	m    *eval.Machine
	err  error
}

func fixedMachine(t *testing.T) *eval.Machine {
	fixed.once.Do(func() { fixed.m, fixed.err = eval.LoadSource("fixed.machine", fuzzMachine) })
	if fixed.err != nil {
		t.Fatal(fixed.err)
	}
	return fixed.m
}

// noFiles keeps fuzzed imports away from the file system.
func noFiles(path string) ([]byte, error) { return nil, os.ErrNotExist }

// hangLimit is a watchdog, not a time budget: an evaluation that runs this
// long is taken for a hang (the evaluator bounds steps, depth and sizes).
const hangLimit = 60 * time.Second

// heapLimit guards the machine the fuzzer runs on: a fuzzed source can ask
// for a topology of millions of nodes. Going past it is a finding.
const heapLimit = 3 << 30

// watchHeap panics (ending the fuzz worker, so the input is recorded) when
// the heap grows past heapLimit before stop is closed.
func watchHeap(stop <-chan struct{}, src string) {
	sample := []metrics.Sample{{Name: "/memory/classes/heap/objects:bytes"}}
	tick := time.NewTicker(50 * time.Millisecond)
	defer tick.Stop()
	for {
		select {
		case <-stop:
			return
		case <-tick.C:
			metrics.Read(sample)
			if sample[0].Value.Kind() == metrics.KindUint64 && sample[0].Value.Uint64() > heapLimit {
				panic(fmt.Sprintf("heap past %d GiB while loading:\n%s", heapLimit>>30, src))
			}
		}
	}
}

// FuzzEval loads a fuzzed machine source and evaluates a fuzzed query against
// it and against a fixed machine; the query is also tried as a --set
// override. Errors are fine; panics and hangs are not.
func FuzzEval(f *testing.F) {
	for _, s := range evalSeeds(f) {
		f.Add(s.src, s.query)
	}
	f.Fuzz(func(t *testing.T, src, query string) {
		m0 := fixedMachine(t)
		done := make(chan struct{})
		go watchHeap(done, src)
		go func() {
			defer close(done)
			if m, err := eval.LoadSource("fuzz.machine", src, eval.WithReadFile(noFiles)); err == nil {
				if msg := firstNotFinite(m); msg != "" {
					t.Errorf("%s\n--- source ---\n%s", msg, src)
				}
				v, err := m.Eval(query)
				if msg := notFinite(query, v, err); msg != "" {
					t.Errorf("%s\n--- source ---\n%s", msg, src)
				}
			} else {
				_ = err.Error()
			}
			v, err := m0.Eval(query)
			if err != nil {
				_ = err.Error()
			}
			if msg := notFinite(query, v, err); msg != "" {
				t.Errorf("%s on the fixed machine", msg)
			}
			if set, err := eval.ParseSet(query); err == nil {
				if d, err := m0.Derive(set); err == nil {
					_ = d.Fields()
				}
			}
		}()
		select {
		case <-done:
		case <-time.After(hangLimit):
			t.Fatalf("no result after %v\n--- source ---\n%s\n--- query ---\n%s", hangLimit, src, query)
		}
	})
}

type evalSeed struct{ src, query string }

func uniqueSources(seeds []evalSeed) []string {
	var out []string
	seen := map[string]bool{}
	for _, s := range seeds {
		if !seen[s.src] {
			seen[s.src] = true
			out = append(out, s.src)
		}
	}
	return out
}

// evalSeeds pairs the examples, the standard machines and the golden inputs
// with queries: the golden tests' own (but not those that run into the step
// limit, which take seconds) and a few common ones, two per file, so that
// the seeds run in a few seconds as an ordinary test.
func evalSeeds(tb testing.TB) []evalSeed {
	tb.Helper()
	common := []string{"nodes", "diameter", "h_in + 1ns", "MPI.barrier()", "processor(cpu).clock",
		"topology(100).link(0).linkspeed=5MB/s", "h_in=100ns", "PVM.send(1KB, 43, 45)", "MPI.bcast(32, 8)"}
	var out []evalSeed
	k := 0
	for _, pat := range []string{"../examples/*.machine", "../stdlib/machines/*.machine"} {
		files, _ := filepath.Glob(pat)
		for _, f := range files {
			data, err := os.ReadFile(f)
			if err != nil {
				tb.Fatal(err)
			}
			for range 2 {
				out = append(out, evalSeed{string(data), common[k%len(common)]})
				k++
			}
		}
	}
	files, _ := filepath.Glob("testdata/golden/*.txtar")
	for _, f := range files {
		ar, err := txtar.ParseFile(f)
		if err != nil {
			tb.Fatal(err)
		}
		var src, want string
		queries := common[:2]
		for _, af := range ar.Files {
			switch af.Name {
			case "input.machine":
				src = string(af.Data)
			case "queries":
				queries = strings.Split(strings.TrimSpace(string(af.Data)), "\n")
			case "want":
				want = string(af.Data)
			}
		}
		for _, q := range queries {
			if slow(want, q) {
				continue
			}
			out = append(out, evalSeed{src, q})
		}
	}
	if len(out) == 0 {
		tb.Fatal("no seeds")
	}
	return out
}

// slow reports whether the golden want says query q ran into the step limit.
func slow(want, q string) bool {
	_, after, ok := strings.Cut(want, q+" => ")
	if !ok {
		return false
	}
	answer, _, _ := strings.Cut(after, " => ")
	return strings.Contains(answer, "steps")
}

// A long but flat expression (1,000,000 terms, a 2 MB file, far below
// parser.MaxSourceBytes) or a long chain of unary operators is not bounded
// by the parser's nesting limit, and compiling it would recurse once per
// term until the process died with "fatal error: stack overflow" (not a
// recoverable panic). The parser bounds an expression at parser.MaxTerms
// operands and prefix operators, so loading such a file must return that
// error, with a position, instead. From the command line:
//
//	python3 -c "print('machine \"m\" {\n\tparam x = ' + '+'.join(['1']*1000000) + '\n}')" > long.machine
//	parasol check long.machine
func TestLongExpressionNoStackOverflow(t *testing.T) {
	want := fmt.Sprintf("expression longer than %d terms", parser.MaxTerms)
	for name, x := range map[string]string{
		"sum":   strings.Repeat("1 + ", 1_000_000) + "1",
		"unary": strings.Repeat("-", 1_000_000) + "1",
		"not":   strings.Repeat("not ", 1_000_000) + "true",
	} {
		_, err := eval.LoadSource(name+".machine", "machine \"m\" {\n\tparam x = "+x+"\n}\n")
		if err == nil || !strings.HasPrefix(err.Error(), name+".machine:2:") || !strings.Contains(err.Error(), want) {
			t.Errorf("%s: error %v, want %s:2:…: %s", name, err, name+".machine", want)
		}
	}
}

// The Parasol I reader takes a model primitive's parameter list with its
// units: an unknown unit (a typo, or "n:>> B") is an error at the
// primitive, as in the modern syntax, instead of an argument scaled by
// zero (PVM.recv(3) was 0s without an error), and a known one scales the
// argument.
func TestLegacyParamUnit(t *testing.T) {
	const bad = "machinename = \"A\"\nmodelsection = PVM\nrecv(n: xyz) = 50us + n * 1ns\n"
	_, err := eval.LoadSource("legacy.machine", bad)
	if err == nil || !strings.HasPrefix(err.Error(), `legacy.machine:3:1: unknown unit "xyz" for parameter n`) {
		t.Errorf("parameter unit xyz: got %v, want legacy.machine:3:1: unknown unit \"xyz\" for parameter n", err)
	}

	const good = "machinename = \"A\"\nmodelsection = PVM\nrecv(n: B) = 50us + n * 1ns / 1B\n"
	m, err := eval.LoadSource("legacy.machine", good)
	if err != nil {
		t.Fatal(err)
	}
	for _, q := range []string{"PVM.recv(3)", "PVM.recv(3B)"} {
		v, err := m.Eval(q)
		if err != nil {
			t.Fatalf("%s: %v", q, err)
		}
		if want := 50e-6 + 3e-9; math.Abs(v.Num-want) > 1e-15 || v.String() != "50.003us" {
			t.Errorf("%s = %v (%g), want 50.003us: the argument counted in bytes", q, v, v.Num)
		}
	}
}

// FuzzFuncCall is a differential test of the two ways to call a function:
// the embedding API's Func.Call, which compiles a body specialised to the
// argument types (and reuses it on the next call), and Eval of the call
// written as text. For every function of a fuzzed machine, called with
// fuzzed numbers, both must give the same value, or both an error.
func FuzzFuncCall(f *testing.F) {
	for _, src := range uniqueSources(evalSeeds(f)) {
		f.Add(src, 3.0, 1024.0, 5.0)
	}
	f.Add(fuzzMachine, 64.0, 0.0, 7.0)
	f.Add(fuzzMachine, -2.5, 1e300, 0.0)
	f.Fuzz(func(t *testing.T, src string, a, b, c float64) {
		for _, x := range []float64{a, b, c} {
			if math.IsNaN(x) || math.IsInf(x, 0) {
				return // not writable as text
			}
		}
		m, err := eval.LoadSource("fuzz.machine", src, eval.WithReadFile(noFiles))
		if err != nil {
			return
		}
		nums := []float64{a, b, c}
		stop, res := make(chan struct{}), make(chan string, 1)
		go watchHeap(stop, src)
		go func() {
			defer close(stop)
			res <- compareCalls(m, nums)
		}()
		select {
		case msg := <-res:
			if msg != "" {
				t.Fatalf("%s\n--- source ---\n%s", msg, src)
			}
		case <-time.After(hangLimit):
			t.Fatalf("no result after %v\n--- source ---\n%s", hangLimit, src)
		}
	})
}

// compareCalls calls every function of m with arguments taken from nums in
// turn, through Func.Call (twice) and through Eval, and describes the first
// disagreement.
func compareCalls(m *eval.Machine, nums []float64) string {
	k := 0
	for _, fd := range m.Fields() {
		if !fd.Func {
			continue
		}
		fn, err := m.Func(fd.Path)
		if err != nil {
			continue
		}
		args := make([]lang.Value, len(fd.Params))
		text := make([]string, len(fd.Params))
		for i := range args {
			x := nums[k%len(nums)]
			k++
			args[i] = lang.Num(x)
			text[i] = strconv.FormatFloat(x, 'g', -1, 64)
		}
		call := fd.Path + "(" + strings.Join(text, ", ") + ")"
		want, werr := m.Eval(call)
		if msg := notFinite(call, want, werr); msg != "" {
			return msg
		}
		for round := 1; round <= 2; round++ {
			got, gerr := fn.Call(args...)
			if (gerr != nil) != (werr != nil) {
				return fmt.Sprintf("%s: Func.Call (call %d) gives %v, error %v; Eval gives %v, error %v", call, round, got, gerr, want, werr)
			}
			if werr == nil && !sameValue(got, want) {
				return fmt.Sprintf("%s: Func.Call (call %d) = %v (%#v), Eval = %v (%#v)", call, round, got, got, want, want)
			}
		}
	}
	return ""
}

func sameValue(a, b lang.Value) bool {
	if a.Kind != b.Kind || a.Dim != b.Dim {
		return false
	}
	if a.Kind != lang.Number {
		return a.Equal(b)
	}
	if math.IsNaN(a.Num) && math.IsNaN(b.Num) || a.Num == b.Num {
		return true
	}
	return math.Abs(a.Num-b.Num) <= 1e-12*math.Max(math.Abs(a.Num), math.Abs(b.Num))
}

// FuzzFormatMeaning checks that formatting keeps meaning: a query and its
// canonical form (format.Expr) evaluate alike on the fixed machine, and
// a machine source and its canonical form (format.File; for Parasol I, the
// output of `parasol import`) load alike, with the same value in every
// field.
func FuzzFormatMeaning(f *testing.F) {
	seeds := evalSeeds(f)
	for _, src := range uniqueSources(seeds) {
		f.Add(src, "")
	}
	for _, s := range seeds {
		f.Add("", s.query)
	}
	f.Add(fuzzMachine, "-2^2 + (-2)^2 - 2^3^2 / (1 - 3) * -h_in / 1ns")
	f.Add(fuzzMachine, "not 1 < 2 and (if n > 2 then true else false) or h_in == 70ns")
	f.Fuzz(func(t *testing.T, src, query string) {
		m0 := fixedMachine(t)
		stop, res := make(chan struct{}), make(chan result, 1)
		go watchHeap(stop, src)
		go func() {
			defer close(stop)
			r := sameQuery(m0, query)
			if r.fail == "" {
				r = sameMachine(src)
			}
			res <- r
		}()
		select {
		case r := <-res:
			if r.skip != "" {
				t.Skip(r.skip)
			}
			if r.fail != "" {
				t.Fatal(r.fail)
			}
		case <-time.After(hangLimit):
			t.Fatalf("no result after %v\n--- source ---\n%s\n--- query ---\n%s", hangLimit, src, query)
		}
	})
}

type result struct{ skip, fail string }

func sameQuery(m *eval.Machine, query string) result {
	e, err := parser.ParseExpr("<query>", query)
	if err != nil {
		return result{}
	}
	canon := format.Expr(e)
	v1, err1 := m.Eval(query)
	v2, err2 := m.Eval(canon)
	if (err1 != nil) != (err2 != nil) || err1 == nil && !sameValue(v1, v2) {
		return result{fail: fmt.Sprintf("query %q = %v (error %v), formatted %q = %v (error %v)", query, v1, err1, canon, v2, err2)}
	}
	return result{}
}

func sameMachine(src string) result {
	file, err := parser.ParseFile("fuzz.machine", src)
	if err != nil {
		return result{}
	}
	legacy := file.Legacy
	if legacy {
		file = eval.Modernize(file)
	}
	canon := format.File(file)
	m1, err1 := eval.LoadSource("fuzz.machine", src, eval.WithReadFile(noFiles))
	if err1 != nil {
		return result{}
	}
	m2, err2 := eval.LoadSource("fuzz.machine", canon, eval.WithReadFile(noFiles))
	fail := ""
	if err2 != nil {
		fail = fmt.Sprintf("the source loads, its canonical form does not: %v", err2)
	} else {
		f1, f2 := m1.Fields(), m2.Fields()
		if len(f1) != len(f2) {
			fail = fmt.Sprintf("%d fields, %d in the canonical form", len(f1), len(f2))
		}
		for i := 0; fail == "" && i < len(f1); i++ {
			a, b := f1[i], f2[i]
			if a.Path != b.Path || a.Func != b.Func || strings.Join(a.Params, ",") != strings.Join(b.Params, ",") || !sameValue(a.Value, b.Value) {
				fail = fmt.Sprintf("field %s = %v, in the canonical form %s = %v", a.Path, a.Value, b.Path, b.Value)
			}
		}
	}
	if fail == "" {
		return result{}
	}
	return result{fail: fmt.Sprintf("%s\n--- source ---\n%s\n--- canonical ---\n%s", fail, src, canon)}
}
