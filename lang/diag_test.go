package lang

import (
	"errors"
	"math/rand/v2"
	"strconv"
	"strings"
	"testing"
	"unicode/utf8"
)

// naiveDistance is the textbook edit distance, the reference for the
// banded one.
func naiveDistance(a, b []rune) int {
	prev := make([]int, len(b)+1)
	cur := make([]int, len(b)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(a); i++ {
		cur[0] = i
		for j := 1; j <= len(b); j++ {
			cost := 1
			if a[i-1] == b[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
		}
		prev, cur = cur, prev
	}
	return prev[len(b)]
}

// TestBandedDistanceAgreesWithTheTextbook: within a limit, the banded edit
// distance is exact, and beyond it says limit+1.
func TestBandedDistanceAgreesWithTheTextbook(t *testing.T) {
	tests := []struct{ a, b string }{
		{"", ""}, {"", "abc"}, {"abc", ""}, {"kitten", "sitting"}, {"h_inn", "h_in"},
		{"createjb", "createjob"}, {"abcdef", "fedcba"}, {"µs", "us"}, {"flaw", "lawn"},
	}
	r := rand.New(rand.NewPCG(1, 2))
	for range 2000 {
		a := make([]rune, r.IntN(9))
		b := make([]rune, r.IntN(9))
		for i := range a {
			a[i] = rune('a' + r.IntN(3))
		}
		for i := range b {
			b[i] = rune('a' + r.IntN(3))
		}
		tests = append(tests, struct{ a, b string }{string(a), string(b)})
	}
	var buf distBuf
	for _, tt := range tests {
		a, b := []rune(tt.a), []rune(tt.b)
		want := naiveDistance(a, b)
		for limit := 0; limit <= 9; limit++ {
			got := buf.within(a, b, limit)
			if want <= limit && got != want || want > limit && got != limit+1 {
				t.Fatalf("within(%q, %q, %d) = %d; the distance is %d", tt.a, tt.b, limit, got, want)
			}
		}
	}
}

// TestSuggestionsAreBoundedInCost: a megabyte name among thousands of
// candidates, or a name among megabyte candidates, is answered at once
// (the old quadratic distance took over a minute), and the usual typos are
// still found.
func TestSuggestionsAreBoundedInCost(t *testing.T) {
	huge := strings.Repeat("x", 1<<20)
	cands := []string{"createjob", "h_in", huge[:1<<19], huge + "y"}
	for i := range 5000 {
		cands = append(cands, strings.Repeat("x", i%100))
	}
	tests := []struct{ name, want string }{
		{huge, ""},
		{huge[:1<<19] + "z", ""},
		{"createjb", "createjob"},
		{"h_inn", "h_in"},
		{strings.Repeat("x", maxSuggestLen-1) + "z", strings.Repeat("x", maxSuggestLen-1)},
		{strings.Repeat("x", maxSuggestLen) + "z", ""}, // longer than any typo worth fixing
	}
	for _, tt := range tests {
		if got := Suggest(tt.name, cands); got != tt.want {
			t.Errorf("Suggest(%s) = %s, want %q", Excerpt(tt.name), Excerpt(got), tt.want)
		}
	}
}

// TestExcerptKeepsBothEnds: long text is cut to MaxExcerpt runes around
// "…", keeping its start and end whole runes; short text is unchanged.
func TestExcerptKeepsBothEnds(t *testing.T) {
	tests := []struct{ in, want string }{
		{"", ""},
		{"h_in", "h_in"},
		{strings.Repeat("a", MaxExcerpt), strings.Repeat("a", MaxExcerpt)},
		{strings.Repeat("a", MaxExcerpt+1), strings.Repeat("a", 44) + "…" + strings.Repeat("a", 15)},
		{strings.Repeat("a", 44) + strings.Repeat("b", 1000) + strings.Repeat("c", 15), strings.Repeat("a", 44) + "…" + strings.Repeat("c", 15)},
		{strings.Repeat("µ", 1000), strings.Repeat("µ", 44) + "…" + strings.Repeat("µ", 15)},
	}
	for _, tt := range tests {
		got := Excerpt(tt.in)
		if got != tt.want {
			t.Errorf("Excerpt(%d runes) = %q, want %q", utf8.RuneCountInString(tt.in), got, tt.want)
		}
		if !utf8.ValidString(got) {
			t.Errorf("Excerpt cut a rune: %q", got)
		}
	}
}

// TestMessagesEchoBoundedInput: a diagnostic that quotes user text (a
// 100,000-digit literal, a line of a binary file given as input) stays
// short, in its message and in its snippet, and the caret stays under the
// column it names.
func TestMessagesEchoBoundedInput(t *testing.T) {
	digits := strings.Repeat("1", 100_000)
	passwd := "root:x:0:0:root:/root:/bin/bash" + strings.Repeat(":daemon:/usr/sbin/nologin", 4000)
	tests := []struct {
		name string
		d    *Diagnostic
	}{
		{"literal in the message", Errorf(Pos{}, "%q is not a number", digits)},
		{"error in the message", Errorf(Pos{}, "cannot read: %v", errors.New(passwd))},
	}
	for _, tt := range tests {
		if out := tt.d.Error(); len(out) > 2*MaxArgLen || !strings.Contains(out, "…") {
			t.Errorf("%s: %d bytes:\n%.300s", tt.name, len(out), out)
		}
	}
	// Short arguments and other kinds pass through whole.
	if got := Errorf(Pos{}, "%s %d %v", "abc", 12345, 1.5).Msg; got != "abc 12345 1.5" {
		t.Errorf("short arguments changed: %q", got)
	}

	src := NewSource("passwd", passwd+"\nsecond line\n")
	for _, col := range []int{1, 5, 60, 3000, utf8.RuneCountInString(passwd)} {
		pos := src.PosAt(col - 1)
		out := Errorf(pos, "syntax error").Error()
		lines := strings.Split(out, "\n")
		if len(lines) != 3 {
			t.Fatalf("col %d: %d lines:\n%s", col, len(lines), out)
		}
		text, caret := []rune(lines[1]), []rune(lines[2])
		if len(text) > snippetWidth+4+2 {
			t.Errorf("col %d: the snippet is %d runes", col, len(text))
		}
		// The caret is under the character at col.
		at := len(caret) - 1
		if caret[at] != '^' || at >= len(text) || text[at] != []rune(passwd)[col-1] {
			t.Errorf("col %d: caret not under %q:\n%s", col, []rune(passwd)[col-1], out)
		}
	}
}

// TestSnippetCaretWithWideRunesAndTabs: columns count runes and a tab is
// one column, so the caret stays under its character on a cut line full of
// multi-byte runes and tabs.
func TestSnippetCaretWithWideRunesAndTabs(t *testing.T) {
	line := strings.Repeat("µ\t", 200) + "X" + strings.Repeat("ü", 200)
	src := NewSource("w", line)
	col := utf8.RuneCountInString(strings.Repeat("µ\t", 200)) + 1
	out := Errorf(src.PosAt(strings.Index(line, "X")), "here").Error()
	if !strings.Contains(out, "w:1:"+strconv.Itoa(col)+": here") {
		t.Fatalf("wrong position:\n%s", out)
	}
	lines := strings.Split(out, "\n")
	text, caret := []rune(lines[1]), []rune(lines[2])
	if at := len(caret) - 1; text[at] != 'X' {
		t.Errorf("caret under %q, not X:\n%s", text[at], out)
	}
}

func TestSuggest(t *testing.T) {
	cands := []string{"createjob", "jobswitch", "branchdelay", "h_in", "h_off"}
	for in, want := range map[string]string{"createjb": "createjob", "h_inn": "h_in", "branchdely": "branchdelay", "zzzzzz": ""} {
		if got := Suggest(in, cands); got != want {
			t.Errorf("Suggest(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestDiagnosticRendering(t *testing.T) {
	src := NewSource("m.machine", "machine \"m\" {\n\tparam x = 1ns + 1B\n}\n")
	d := Errorf(src.PosAt(strings.Index(src.Text, "+")), "cannot add a time and a size")
	want := "m.machine:2:16: cannot add a time and a size\n     param x = 1ns + 1B\n                   ^"
	if got := d.Error(); got != want {
		t.Errorf("got\n%s\nwant\n%s", got, want)
	}
	var ds Diagnostics
	ds.Add(src.PosAt(30), "second")
	ds.Add(src.PosAt(2), "first")
	ds.Add(src.PosAt(2), "first")
	err := ds.Err()
	if n := len(err.(Diagnostics)); n != 2 {
		t.Errorf("%d diagnostics after dedup, want 2", n)
	}
	if !strings.HasPrefix(err.Error(), "m.machine:1:3: first") {
		t.Errorf("diagnostics not sorted: %v", err)
	}
	long := NewSource("l", strings.Repeat("x", 5000)+"!")
	if out := Errorf(long.PosAt(5000), "here").Error(); len(out) > 400 || !strings.Contains(out, "!") {
		t.Errorf("a long line is not cut around the column: %d bytes", len(out))
	}
}
