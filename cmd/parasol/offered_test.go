package main

import (
	"strings"
	"testing"
)

func TestLoadListReadsSharesRatesListsAndRanges(t *testing.T) {
	for _, c := range []struct {
		in     string
		shares []float64
		rates  []float64
	}{
		{"0.3", []float64{0.3}, nil},
		{"1", []float64{1}, nil},
		{"0.05:0.6:0.05", []float64{0.05, 0.1, 0.15, 0.2, 0.25, 0.3, 0.35, 0.4, 0.45, 0.5, 0.55, 0.6}, nil},
		{"0.1:0.35:0.1", []float64{0.1, 0.2, 0.3}, nil},
		{"0.1, 0.2,0.5", []float64{0.1, 0.2, 0.5}, nil},
		{"500MB/s", nil, []float64{500e6}},
		{"1GB/s:3GB/s:1GB/s", nil, []float64{1e9, 2e9, 3e9}},
	} {
		var l loadList
		if err := l.Set(c.in); err != nil {
			t.Errorf("%q: %v", c.in, err)
			continue
		}
		var shares, rates []float64
		for _, p := range l.points {
			if p.Fraction > 0 {
				shares = append(shares, p.Fraction)
			} else {
				rates = append(rates, p.Rate)
			}
		}
		if !equalFloats(shares, c.shares) || !equalFloats(rates, c.rates) {
			t.Errorf("%q: shares %v, rates %v; want %v, %v", c.in, shares, rates, c.shares, c.rates)
		}
	}
}

func TestLoadListRefusesWhatIsNoLoad(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{"0", "from 0 (excluded) to 1"},
		{"1.01", "from 0 (excluded) to 1"},
		{"-0.5", "from 0 (excluded) to 1"},
		{"fast", "a share of the injection bandwidth (0.3) or a rate"},
		{"4KB", "got a size"},
		{"0.1:0.5", "FROM:TO:STEP"},
		{"0.5:0.1:0.1", "runs up"},
		{"0.1:1GB/s:0.1", "all shares or all rates"},
		{"0.001:1:0.0000001", "at most 1000"},
		{"0B/s", "above 0"},
	} {
		var l loadList
		err := l.Set(c.in)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%q: err = %v, want one saying %q", c.in, err, c.want)
		}
	}
}

func equalFloats(a, b []float64) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

// FuzzLoadList checks that whatever --load is given, it is refused with a
// reason or read as points that are loads: shares in (0, 1] or rates
// above 0, at most maxLoadPoints of them.
func FuzzLoadList(f *testing.F) {
	for _, s := range []string{"0.3", "0.05:0.6:0.05", "1GB/s:3GB/s:1GB/s", "0.1,0.2", "1e-300:1:1e-300", ":", "0.1:0.2:0", "NaN", "1:1:1"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		var l loadList
		if err := l.Set(s); err != nil {
			return
		}
		if len(l.points) == 0 || len(l.points) > maxLoadPoints {
			t.Fatalf("%q: %d points", s, len(l.points))
		}
		for _, p := range l.points {
			if !(p.Fraction > 0 && p.Fraction <= 1 && p.Rate == 0) && !(p.Rate > 0 && p.Fraction == 0) {
				t.Fatalf("%q: point %+v is no load", s, p)
			}
		}
	})
}
