package main

import (
	"bytes"
	"encoding/json"
	"regexp"
	"strings"
	"testing"

	"github.com/parasol-lang/parasol/eval/results"
)

// jsonNumberToken finds the numbers of JSON text outside its strings
// (strings are matched first and skipped).
var jsonNumberToken = regexp.MustCompile(`"(?:[^"\\]|\\.)*"|-?\d+(?:\.\d+)?(?:[eE][-+]?\d+)?`)

// significant counts a number's significant digits.
func significant(num string) int {
	mant, _, _ := strings.Cut(strings.ToLower(strings.TrimPrefix(num, "-")), "e")
	digits := strings.Trim(strings.Replace(mant, ".", "", 1), "0")
	if !strings.Contains(mant, ".") {
		return len(strings.TrimLeft(mant, "0")) // an integer: every digit counts
	}
	return len(digits)
}

func TestJSONResultsHoldNoFloatNoise(t *testing.T) {
	for _, args := range [][]string{
		{"eval", "--json", "../../examples/parasol1.machine", "PVM.send(4KB, 43, 47)", "PVM.broadcast(1KB, 8)", "Express.concat(1KB, 8)", "PVM.send(1KB, 43, 45)", "avgdist"},
		{"eval", "--json", "std:xmp64", "MPI.send(1KB, 0, 5)", "avgdist", "diameter / 3"},
		{"sim", "--json", "std:xmp64", "--op", "transpose", "--runs", "3", "--link-loads"},
		{"sim", "--json", "../../examples/ring.machine", "--op", "randperm", "--size", "1000", "--runs", "4"},
		{"compare", "--json", "std:xmp64", "MPI.allreduce", "--size", "100", "--runs", "3"},
	} {
		var out, errOut bytes.Buffer
		if code := run(&env{stdin: strings.NewReader(""), stdout: &out, stderr: &errOut}, args); code != 0 {
			t.Fatalf("parasol %s: exit %d\n%s", strings.Join(args, " "), code, errOut.String())
		}
		floats := 0
		for _, line := range strings.Split(strings.TrimSpace(out.String()), "\n") {
			if !json.Valid([]byte(line)) {
				t.Fatalf("parasol %s: not JSON: %s", strings.Join(args, " "), line)
			}
			for _, tok := range jsonNumberToken.FindAllString(line, -1) {
				if tok[0] == '"' || !strings.ContainsAny(tok, ".eE") {
					continue
				}
				floats++
				if n := significant(tok); n > results.Digits {
					t.Errorf("parasol %s: %s has %d significant digits", strings.Join(args, " "), tok, n)
				}
			}
		}
		if floats == 0 {
			t.Errorf("parasol %s: no float in the output to check:\n%s", strings.Join(args, " "), out.String())
		}
	}
}

func TestSignificantDigits(t *testing.T) {
	for _, c := range []struct {
		num  string
		want int
	}{
		{"1.9699999999999998e-06", 17},
		{"0.00000197", 3},
		{"-1.5e+21", 2},
		{"100", 3},
		{"0.1", 1},
		{"400000000", 9},
	} {
		if got := significant(c.num); got != c.want {
			t.Errorf("significant(%s) = %d, want %d", c.num, got, c.want)
		}
	}
}
