package parser

import (
	"fmt"
	"io"
	"slices"
	"strings"
	"testing"
	"testing/iotest"

	"github.com/parasol-lang/parasol/lang"
)

func TestReadGOALReadsSchedgenText(t *testing.T) {
	tests := []struct {
		name, text, want string
	}{
		{"schedgen dissemination, two ranks", `num_ranks 2

rank 0 {
l1: send 1b to 1 tag 0
l2: recv 1b from 1 tag 0
l2 requires l1
}

rank 1 {
l1: send 1b to 0 tag 0
l2: recv 1b from 0 tag 0
}
`, "r0: l1=send(1>1#0) l2=recv(1<1#0 rl1);r1: l1=send(1>0#0) l2=recv(1<0#0);"},
		{"any source and tag, cpu and nic suffixes, irequires", `num_ranks 3
rank 1 {
l1: recv 8b from -1 tag -1 cpu 1 nic 0
l2: calc 100 cpu 2
l3: send 65536b to 2 tag 7
l2 irequires l1
l3 requires l2
}
`, "r0:;r1: l1=recv(8<-1#-1 cpu1) l2=calc(100ns cpu2 il1) l3=send(65536>2#7 rl2);r2:;"},
		{"comments, blank lines, tabs and CRLF", "// a GOAL file\r\nnum_ranks 1 /* one */\r\n\r\nrank 0 {\r\n\tl1: calc 5 // five\r\n/* a comment\r\n   over lines */\r\n}\r\n",
			"r0: l1=calc(5ns);"},
		{"statements on one line, as the issue writes them", "num_ranks 2\nrank 0 { l1: send 8b to 1 tag 0; l2: calc 100; l2 requires l1 }\nrank 1 { recv 8b from 0 tag 0 }\n",
			"r0: l1=send(8>1#0) l2=calc(100ns rl1);r1: recv=recv(8<0#0);"},
		{"a dependency before its labels", "num_ranks 1\nrank 0 {\nl2 requires l1\nl1: calc 1\nl2: calc 2\n}\n",
			"r0: l1=calc(1ns) l2=calc(2ns rl1);"},
		{"labels are local to their rank", "num_ranks 2\nrank 0 {\nx: calc 1\n}\nrank 1 {\nx: calc 2\ny: calc 3\ny requires x\n}\n",
			"r0: x=calc(1ns);r1: x=calc(2ns) y=calc(3ns rx);"},
		{"a rank without a block has no operations", "num_ranks 3\nrank 2 {\nl1: calc 1\n}\n", "r0:;r1:;r2: l1=calc(1ns);"},
		{"tag omitted is tag 0", "num_ranks 2\nrank 0 {\nl1: send 0b to 1\n}\n", "r0: l1=send(0>1#0);r1:;"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s, err := ReadGOAL(strings.NewReader(tt.text), "t.goal", 0)
			if err != nil {
				t.Fatalf("ReadGOAL: %v", err)
			}
			if got := goalOps(s); got != tt.want {
				t.Errorf("got  %s\nwant %s", got, tt.want)
			}
			if len(s.RankStart) != s.Ranks+1 || len(s.DepStart) != len(s.Ops)+1 {
				t.Errorf("RankStart %d for %d ranks, DepStart %d for %d ops", len(s.RankStart), s.Ranks, len(s.DepStart), len(s.Ops))
			}
		})
	}
}

func TestReadGOALReportsEveryError(t *testing.T) {
	tests := []struct {
		name, text string
		want       []string // each must appear in the error text
	}{
		{"undefined label", "num_ranks 1\nrank 0 {\nl1: calc 1\nl1 requires l9\n}\n",
			[]string{"t.goal:4:13: undefined label l9 in rank 0", "    l1 requires l9\n                ^~"}},
		{"rank out of range", "num_ranks 2\nrank 0 {\nl1: send 1b to 2 tag 0\n}\nrank 5 {\n}\n",
			[]string{"t.goal:3:16: rank 2 is out of range: num_ranks is 2, so ranks are 0 to 1", "t.goal:5:6: rank 5 is out of range"}},
		{"a cycle within a rank", "num_ranks 1\nrank 0 {\na: calc 1\nb: calc 1\nc: calc 1\nb requires a\nc requires b\na requires c\n}\n",
			[]string{"t.goal:8:12: dependency cycle in rank 0: a requires c requires b requires a", "    a requires c\n               ^"}},
		{"self dependency", "num_ranks 1\nrank 0 {\na: calc 1\na irequires a\n}\n",
			[]string{"t.goal:4:1: a depends on itself"}},
		{"syntax errors on several lines, each reported", "num_ranks 2\nrank 0 {\nl1: send 8 to 1 tag 0\nl2: recv 8b to 1\nl3: wait 3\nl4 needs l3\n}\n",
			[]string{`3:12: unexpected "to" (expected "b" after the size`, `4:13: unexpected "to" (expected "from")`, `5:5: unexpected "wait" (expected "send", "recv" or "calc")`, `6:4: unexpected "needs" (expected ':', "requires" or "irequires")`}},
		{"negative peer and tag on a send", "num_ranks 2\nrank 0 {\nsend 1b to -1\nsend 1b to 1 tag -1\n}\n",
			[]string{"3:12: a destination rank cannot be negative", "4:18: a tag cannot be negative"}},
		{"duplicate label", "num_ranks 1\nrank 0 {\nl1: calc 1\nl1: calc 2\n}\n", []string{"4:5: label l1 is defined twice in rank 0 (first at line 3)"}},
		{"missing num_ranks", "rank 0 {\n}\n", []string{"1:1: rank block before num_ranks"}},
		{"unclosed rank", "num_ranks 1\nrank 0 {\nl1: calc 1\n", []string{"rank 0 has no closing '}' at the end of the schedule"}},
		{"ranks out of order", "num_ranks 3\nrank 2 {\n}\nrank 1 {\n}\n", []string{"4:6: rank 1 comes after rank 2: ranks must appear in increasing order"}},
		{"operation outside a rank", "num_ranks 1\nl1: calc 1\n", []string{"2:5: calc outside a rank block"}},
		{"numbers too large", "num_ranks 1\nrank 0 {\ncalc 99999999999999999999\nsend 1b to 0 tag 9223372036854775808\nrecv 1b from 0 cpu 256\n}\n",
			[]string{"3:6: a time in nanoseconds 99999999999999999999 is too large (the largest is 9223372036854775807)", "4:18: a tag 9223372036854775808 is too large (the largest is 9223372036854775807)", "5:20: cpu 256 is out of range"}},
		{"stray character", "num_ranks 1\nrank 0 {\nl1: calc 1 $\n}\n", []string{`3:12: unexpected "$" (expected the end of the line)`}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := ReadGOAL(strings.NewReader(tt.text), "t.goal", 0)
			if err == nil {
				t.Fatal("no error")
			}
			for _, w := range tt.want {
				if !strings.Contains(err.Error(), w) {
					t.Errorf("error lacks %q:\n%v", w, err)
				}
			}
		})
	}
}

func TestReadGOALBoundsErrorsAndMemory(t *testing.T) {
	var b strings.Builder
	b.WriteString("num_ranks 1\nrank 0 {\n")
	for i := 0; i < 1000; i++ {
		b.WriteString("l1: bogus\n")
	}
	b.WriteString("}\n")
	_, err := ReadGOAL(strings.NewReader(b.String()), "t.goal", 0)
	if ds, ok := err.(lang.Diagnostics); !ok || len(ds) != MaxErrors {
		t.Errorf("got %T with %d diagnostics, want %d", err, len(err.(lang.Diagnostics)), MaxErrors)
	}

	// A schedule beyond the memory limit is refused while it is read.
	_, err = ReadGOAL(&repeatReader{head: "num_ranks 1\nrank 0 {\n", line: "calc 1\n", n: 1 << 20}, "big.goal", 1<<20)
	if err == nil || !strings.Contains(err.Error(), "set --max-memory to raise it") {
		t.Errorf("got %v, want a memory limit error", err)
	}
	// Issue 26: num_ranks 1000000000 with one rank was a 4 GB table at
	// the default limit; ranks are bounded as every schedule's are.
	_, err = ReadGOAL(strings.NewReader("num_ranks 1000000000\nrank 0 {\nl1: calc 1\n}\n"), "t.goal", 0)
	if want := "t.goal:1:11: num_ranks 1000000000 is out of range (1 to 16777216, the most ranks a schedule can have)"; err == nil || !strings.HasPrefix(err.Error(), want) {
		t.Errorf("got %v, want %q", err, want)
	}
	// Within the bound, the rank table (4 bytes a rank and one) is
	// checked against the limit before it is allocated.
	_, err = ReadGOAL(strings.NewReader("num_ranks 16777216\n"), "t.goal", 32e6)
	if want := "t.goal:1:11: a schedule of 16777216 ranks needs about 67 MB; the limit is 32 MB"; err == nil || !strings.HasPrefix(err.Error(), want) {
		t.Errorf("got %v, want %q", err, want)
	}
	_, err = ReadGOAL(strings.NewReader("num_ranks 1\n"+strings.Repeat("x", MaxGOALLine+10)), "t.goal", 0)
	if err == nil || !strings.Contains(err.Error(), "t.goal:2:1: line longer than") {
		t.Errorf("got %v, want a long line error", err)
	}
}

func FuzzReadGOAL(f *testing.F) {
	for _, s := range []string{
		"num_ranks 2\nrank 0 {\nl1: send 8b to 1 tag 0\nl2: calc 100\nl2 requires l1\n}\nrank 1 {\nl1: recv 8b from -1 tag -1\n}\n",
		"num_ranks 1\nrank 0 { a: calc 1; b: calc 2 cpu 1 nic 0; b irequires a; a requires b }\n",
		"num_ranks 3 /* x\n*/ rank 2 {\n// c\n}",
		"num_ranks 1\nrank 0 {\nl2 requires l1\n}\n",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, text string) {
		s, err := ReadGOAL(strings.NewReader(text), "f.goal", 64<<20)
		if err != nil {
			if _, ok := err.(lang.Diagnostics); !ok {
				t.Fatalf("error is %T, not diagnostics: %v", err, err)
			}
			return
		}
		if len(s.RankStart) != s.Ranks+1 || len(s.DepStart) != len(s.Ops)+1 {
			t.Fatalf("RankStart %d for %d ranks, DepStart %d for %d ops", len(s.RankStart), s.Ranks, len(s.DepStart), len(s.Ops))
		}
		// The general reader, spaced out of fastLine's form, reads it alike.
		if len(text) < MaxGOALLine/2 {
			g, err := ReadGOAL(strings.NewReader(spaced(text)), "f.goal", 64<<20)
			if err != nil {
				t.Fatalf("spaced out: %v", err)
			}
			if d := sameSchedule(s, g); d != "" {
				t.Fatalf("spaced out, the %s differ", d)
			}
		}
		for i, op := range s.Ops {
			r := s.RankOf(i)
			if op.Kind != lang.OpCalc && (op.Peer < -1 || int(op.Peer) >= s.Ranks || op.Kind == lang.OpSend && op.Peer < 0) {
				t.Fatalf("op %d: peer %d of %d ranks", i, op.Peer, s.Ranks)
			}
			for _, d := range s.DepsOf(i) {
				if d.Op < 0 || int(d.Op) >= len(s.Ops) || s.RankOf(int(d.Op)) != r || int(d.Op) == i {
					t.Fatalf("op %d of rank %d depends on op %d", i, r, d.Op)
				}
			}
		}
	})
}

func TestReadGOALReportsABrokenOperationOnce(t *testing.T) {
	// l1's line is wrong; the dependencies on l1 raise no second error.
	text := "num_ranks 2\nrank 0 {\nl1: send 8 to 1\nl2: calc 1\nl2 requires l1\nl3 requires l1\nl1 requires l2\n}\n"
	_, err := ReadGOAL(strings.NewReader(text), "t.goal", 0)
	ds, ok := err.(lang.Diagnostics)
	if !ok || len(ds) != 1 || !strings.Contains(ds[0].Error(), `t.goal:3:12: unexpected "to"`) {
		t.Errorf("got %v, want one error at line 3", err)
	}
}

func TestReadGOALSkipsABlockWhoseRankIsInError(t *testing.T) {
	tests := []struct {
		name, text string
		want       []string // the errors, in order, each the start of one
	}{
		{"a rank twice", "num_ranks 2\nrank 0 {\nl1: send 8b to 1 tag 0\n}\nrank 0 {\nl2: calc 5\nl3: calc 5\nl3 requires l2\n}\nrank 1 {\nl1: recv 8b from 0 tag 0\n}\n",
			[]string{"t.goal:5:6: rank 0 appears twice"}},
		{"a rank out of range, its block on one line", "num_ranks 2\nrank 3 { l1: calc 5 }\nrank 1 { l2: calc 5; l3: send 1b to 7 }\n",
			[]string{"t.goal:2:6: rank 3 is out of range", "t.goal:3:37: rank 7 is out of range"}},
		{"ranks out of order, the skipped block unclosed", "num_ranks 3\nrank 2 {\n}\nrank 1 {\nl1: calc 5\nrank 2 {\n}\n",
			[]string{"t.goal:4:6: rank 1 comes after rank 2", "t.goal:6:6: rank 2 appears twice"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := ReadGOAL(strings.NewReader(tt.text), "t.goal", 0)
			ds, ok := err.(lang.Diagnostics)
			if !ok {
				t.Fatalf("got %v, want diagnostics", err)
			}
			if len(ds) != len(tt.want) {
				t.Fatalf("%d errors, want %d:\n%v", len(ds), len(tt.want), err)
			}
			for i, w := range tt.want {
				if !strings.HasPrefix(ds[i].Error(), w) {
					t.Errorf("error %d is %q, want it to start %q", i, ds[i].Error(), w)
				}
			}
		})
	}
}

// GOAL tags up to 2^63 - 1 are accepted (LogGOPSim takes them; issue 26).
// An operation's Tag stays an int32: tags above it are renumbered to
// numbers no other tag has, so that equal tags match and different ones
// do not, whatever their low 32 bits.
func TestReadGOALBigTags(t *testing.T) {
	text := `num_ranks 2
rank 0 {
a: send 8b to 1 tag 9223372036854775807
b: send 8b to 1 tag 5
c: send 8b to 1 tag 4294967301
d: send 8b to 1 tag 0
e: send 8b to 1 tag 2147483647
}
rank 1 {
f: recv 8b from 0 tag 4294967301
g: recv 8b from 0 tag 9223372036854775807
h: recv 8b from 0 tag -1
i: recv 8b from 0 tag 2147483648
}
`
	s, err := ReadGOAL(strings.NewReader(text), "t.goal", 0)
	if err != nil {
		t.Fatal(err)
	}
	tag := map[string]int32{}
	for _, op := range s.Ops {
		tag[s.Labels[op.Label]] = op.Tag
	}
	// 4294967301 is 2^32 + 5: its low 32 bits are tag 5's.
	same := [][2]string{{"a", "g"}, {"c", "f"}}
	for _, p := range same {
		if tag[p[0]] != tag[p[1]] {
			t.Errorf("%s and %s have the same GOAL tag but Tags %d and %d", p[0], p[1], tag[p[0]], tag[p[1]])
		}
	}
	if tag["b"] != 5 || tag["d"] != 0 || tag["e"] != 2147483647 || tag["h"] != lang.AnyTag {
		t.Errorf("tags within an int32 changed: %v", tag)
	}
	distinct := map[int32]string{}
	for _, l := range []string{"a", "b", "c", "d", "e", "i"} {
		if tag[l] < 0 {
			t.Errorf("%s: Tag %d, want a tag ≥ 0 (AnyTag matches only those)", l, tag[l])
		}
		if o, dup := distinct[tag[l]]; dup {
			t.Errorf("%s and %s have different GOAL tags but the same Tag %d", o, l, tag[l])
		}
		distinct[tag[l]] = l
	}
}

// A reader that tells its size (a file, a strings.Reader) has the
// schedule's arrays sized from it; the schedule is the one read without a
// size, under the default limit and under one too small for the sized
// arrays but not for the schedule.
func TestReadGOALSizedFromItsInputReadsTheSameSchedule(t *testing.T) {
	var b strings.Builder
	const ranks, rounds = 2048, 16
	fmt.Fprintf(&b, "num_ranks %d\n", ranks)
	for r := 0; r < ranks; r++ {
		fmt.Fprintf(&b, "rank %d {\n", r)
		for k := 0; k < rounds; k++ {
			fmt.Fprintf(&b, "l%d: send 1b to %d tag 0\nl%d: recv 1b from %d tag 0\n", 2*k+1, (r+1<<k)%ranks, 2*k+2, (r-1<<k+ranks*rounds)%ranks)
			if k > 0 {
				fmt.Fprintf(&b, "l%d requires l%d\n", 2*k+1, 2*k)
			}
		}
		b.WriteString("}\n")
	}
	text := b.String()
	if ops := int64(len(text)) / goalBytesPerOp; ops < 1<<16 {
		t.Fatalf("the text gives a hint of %d operations, too few to size by", ops)
	}
	read := func(r io.Reader, limit int64) *lang.Schedule {
		s, err := ReadGOAL(r, "d.goal", limit)
		if err != nil {
			t.Fatal(err)
		}
		return s
	}
	want := read(struct{ io.Reader }{strings.NewReader(text)}, 0)
	if len(want.Ops) != ranks*rounds*2 || len(want.Deps) != ranks*(rounds-1) {
		t.Fatalf("%d operations, %d dependencies; want %d and %d", len(want.Ops), len(want.Deps), ranks*rounds*2, ranks*(rounds-1))
	}
	for _, limit := range []int64{0, 8 << 20} {
		got := read(strings.NewReader(text), limit)
		if !slices.Equal(got.Ops, want.Ops) || !slices.Equal(got.Deps, want.Deps) || !slices.Equal(got.DepStart, want.DepStart) ||
			!slices.Equal(got.RankStart, want.RankStart) || !slices.Equal(got.Labels, want.Labels) {
			t.Errorf("limit %d: the schedule read with a size differs from the one read without", limit)
		}
	}
}

// TestReadGOALNumberedLabelsAreLabelsAsAnyOther reads a schedule whose
// labels are schedgen's l<n> (found by number) and the same schedule with
// every label renamed to a word (found by text): the schedules are the
// same apart from the labels' names. l01 and l1, L1 and l1, l65536 and
// l6553 are different labels of either kind.
func TestReadGOALNumberedLabelsAreLabelsAsAnyOther(t *testing.T) {
	const text = `num_ranks 2
rank 0 {
l1: send 8b to 1 tag 0
l01: calc 5
L1: recv 8b from 1 tag 1
l65536: calc 7
l6553: calc 9
l0: calc 1
l01 requires l1
L1 irequires l01
l65536 requires L1
l6553 requires l65536
l0 requires l6553
}
rank 1 {
l1: recv 8b from 0 tag 0
l2: send 8b to 0 tag 1
l2 requires l1
}
`
	renamed := text
	for _, r := range []struct{ from, to string }{
		{"l65536", "sixtyfive"}, {"l6553", "sixtyfour"}, {"l01", "zeroone"}, {"L1", "capital"},
		{"l1", "one"}, {"l2", "two"}, {"l0", "zero"},
	} {
		renamed = strings.ReplaceAll(renamed, r.from, r.to)
	}
	a, err := ReadGOAL(strings.NewReader(text), "n.goal", 0)
	if err != nil {
		t.Fatal(err)
	}
	b, err := ReadGOAL(strings.NewReader(renamed), "w.goal", 0)
	if err != nil {
		t.Fatal(err)
	}
	if len(a.Ops) != 8 || len(a.Deps) != 6 || len(a.Labels) != 7 {
		t.Fatalf("%d operations, %d dependencies, %d labels; want 8, 6 and 7", len(a.Ops), len(a.Deps), len(a.Labels))
	}
	if !slices.Equal(a.Ops, b.Ops) || !slices.Equal(a.Deps, b.Deps) || !slices.Equal(a.DepStart, b.DepStart) || !slices.Equal(a.RankStart, b.RankStart) {
		t.Errorf("numbered labels:\n%+v\n%+v\nwords:\n%+v\n%+v", a.Ops, a.Deps, b.Ops, b.Deps)
	}
	// A dependency on a label of the rank's that is not defined is still
	// reported, whichever kind it is.
	for _, label := range []string{"l7", "l07"} {
		_, err := ReadGOAL(strings.NewReader("num_ranks 1\nrank 0 {\nl1: calc 1\nl1 requires "+label+"\n}\n"), "u.goal", 0)
		if err == nil || !strings.Contains(err.Error(), label) {
			t.Errorf("requires %s: %v; want it named as undefined", label, err)
		}
	}
}

// The line reader gives every line of its stream, without its '\n', as
// splitting the text at '\n' does: lines across its 64 KB buffer, longer
// than it, empty, the last one without a line end, a '\r' kept; however
// the reader hands out its bytes (one at a time, or the last with EOF).
// A line of MaxGOALLine bytes and its '\n' is too long, one of
// MaxGOALLine - 1 is not (as when bufio read them).
func TestLineReaderGivesEveryLine(t *testing.T) {
	var b strings.Builder
	for i := range 9000 {
		fmt.Fprintf(&b, "l%d: send %db to 3 tag 0\r\n\n", i, i*i)
		if i%1000 == 7 {
			b.WriteString(strings.Repeat("x", 70000+i) + "\n")
		}
	}
	b.WriteString("last")
	text := b.String()
	want := strings.Split(text, "\n")
	for name, r := range map[string]func() io.Reader{
		"whole":      func() io.Reader { return strings.NewReader(text) },
		"a byte":     func() io.Reader { return iotest.OneByteReader(strings.NewReader(text)) },
		"last + EOF": func() io.Reader { return iotest.DataErrReader(strings.NewReader(text)) },
		"halves":     func() io.Reader { return iotest.HalfReader(strings.NewReader(text)) },
	} {
		l := newLineReader(r())
		for k, w := range want {
			got, err := l.next()
			if err != nil || string(got) != w || l.n != k+1 {
				t.Fatalf("%s: line %d: got %.20q, %v (line number %d), want %.20q", name, k+1, got, err, l.n, w)
			}
		}
		if _, err := l.next(); err != io.EOF {
			t.Errorf("%s: after the last line: %v, want EOF", name, err)
		}
	}
	for _, c := range []struct {
		n    int
		long bool
	}{{MaxGOALLine - 1, false}, {MaxGOALLine, true}} {
		l := newLineReader(strings.NewReader("a\n" + strings.Repeat("y", c.n) + "\nb\n"))
		l.next()
		got, err := l.next()
		if c.long != (err == errLongLine) || !c.long && len(got) != c.n || l.n != 2 {
			t.Errorf("a line of %d bytes: %d bytes, %v at line %d", c.n, len(got), err, l.n)
		}
	}
	l := newLineReader(iotest.TimeoutReader(strings.NewReader(strings.Repeat("z", 1000) + "\nw")))
	if got, err := l.next(); err != nil || len(got) != 1000 {
		t.Errorf("before the error: %d bytes, %v", len(got), err)
	}
	if _, err := l.next(); err != iotest.ErrTimeout {
		t.Errorf("a failing reader: %v, want its error", err)
	}
}
