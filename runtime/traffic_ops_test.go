package runtime

import (
	"fmt"
	"math/bits"
	"slices"
	"strconv"
	"strings"
	"testing"
)

// seedPermutation computes seed 004 §4.1's permutations as the seed words
// them, on the b-digit binary label written most significant digit first:
// shuffle "circularly shifted by 1-bit" (d_i = s_(i-1 mod b)), transpose
// "a circular shift of an b-bit identifier by b/2" (d_i = s_(i+b/2 mod b)),
// bit-complement "each bit is negated", bit-reverse "the binary
// representation is reversed", and for the XK-XMP-64 "a circular shift of
// two, performed on the four most significant bits".
func seedPermutation(t *testing.T, op string, b int) []int {
	t.Helper()
	out := make([]int, 1<<b)
	for s := range out {
		l := fmt.Sprintf("%0*b", b, s) // l[0] is bit b-1
		var d string
		switch op {
		case "shuffle": // bit i-1 moves up to bit i; the top bit wraps to bit 0
			d = l[1:] + l[:1]
		case "transpose": // bit i+b/2 moves down to bit i
			k := b - b/2
			d = l[k:] + l[:k]
		case "bitcomp":
			d = strings.Map(func(r rune) rune { return '0' + '1' - r }, l)
		case "bitrev":
			r := []byte(l)
			slices.Reverse(r)
			d = string(r)
		case "xmp-transpose":
			if b != 6 {
				t.Fatalf("seed 004 defines its transpose on 64 cores only")
			}
			chip, core := l[:4], l[4:]
			d = chip[2:] + chip[:2] + core
		default:
			t.Fatalf("no seed definition of %s", op)
		}
		v, err := strconv.ParseUint(d, 2, 64)
		if err != nil {
			t.Fatal(err)
		}
		out[s] = int(v)
	}
	return out
}

// The bit permutations are seed 004 §4.1's: on 64 cores (the XK-XMP-64) and
// on 32, where b is odd and b/2 rounds down, every table equals the seed's
// wording computed on binary strings; every one is a permutation.
func TestBitPermutationsFollowSeed004(t *testing.T) {
	for _, tc := range []struct {
		op string
		P  int
	}{
		{"shuffle", 64}, {"transpose", 64}, {"bitcomp", 64}, {"bitrev", 64}, {"xmp-transpose", 64},
		{"shuffle", 32}, {"transpose", 32}, {"bitcomp", 32}, {"bitrev", 32},
		{"transpose", 2}, {"shuffle", 1},
	} {
		b := len(strconv.FormatInt(int64(tc.P), 2)) - 1
		got, err := permutation(tc.op, tc.P)
		if err != nil {
			t.Fatalf("%s on %d: %v", tc.op, tc.P, err)
		}
		if want := seedPermutation(t, tc.op, b); !slices.Equal(got, want) {
			t.Errorf("%s on %d processors:\n got %v\nwant %v", tc.op, tc.P, got, want)
		}
		seen := slices.Clone(got)
		slices.Sort(seen)
		for i, v := range seen {
			if v != i {
				t.Errorf("%s on %d processors is not a permutation: %v", tc.op, tc.P, got)
				break
			}
		}
	}
}

// Seed 004's transpose on the XK-XMP-64 differs from the generic one over
// six bits, so both names exist: core 0b000100 (chip 1, core 0) goes to
// chip 4 under the seed's and to 0b100000 under the generic rotation by 3.
func TestXmpTransposeIsNotTheGenericTranspose(t *testing.T) {
	xmp, err := permutation("xmp-transpose", 64)
	if err != nil {
		t.Fatal(err)
	}
	generic, err := permutation("transpose", 64)
	if err != nil {
		t.Fatal(err)
	}
	if xmp[0b000100] != 0b010000 || generic[0b000100] != 0b100000 {
		t.Errorf("xmp-transpose(4) = %d, transpose(4) = %d; want 16 and 32", xmp[4], generic[4])
	}
}

// The bit permutations refuse processor counts that are not powers of two,
// and other ops have no table.
func TestPermutationRefusals(t *testing.T) {
	for _, tc := range []struct {
		op   string
		P    int
		want string
	}{
		{"transpose", 48, "power-of-two number of processors, have 48"},
		{"xmp-transpose", 0, "power-of-two"},
		{"randperm", 64, "unknown op"},
	} {
		if _, err := permutation(tc.op, tc.P); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s on %d: %v, want %q", tc.op, tc.P, err, tc.want)
		}
	}
}

// On std:xmp64 the simulated permutations send exactly the seed's messages:
// one from each core whose destination is another core (a message to
// oneself is not sent), over as many links as the labels differ in bits
// (e-cube routing), the longest path the most bits any pair differs in.
func TestXmp64PermutationsSendTheSeedsMessages(t *testing.T) {
	spec := loadSpec(t, "std:xmp64")
	for _, op := range []string{"shuffle", "transpose", "xmp-transpose", "bitcomp", "bitrev"} {
		want := seedPermutation(t, op, 6)
		msgs, hops, most := 0, 0, 0
		for s, d := range want {
			if s != d {
				msgs++
				h := bits.OnesCount(uint(s ^ d))
				hops += h
				most = max(most, h)
			}
		}
		res := sim1(t, spec, Options{Op: op, Size: 32})
		if res.Messages != msgs || res.Hops.Max != most || !near(res.Hops.Mean, float64(hops)/float64(msgs), 1e-12) {
			t.Errorf("%s: %d messages, hops mean %g max %d; want %d, %g, %d", op, res.Messages, res.Hops.Mean, res.Hops.Max, msgs, float64(hops)/float64(msgs), most)
		}
	}
}
