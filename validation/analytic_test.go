package validation

import (
	"fmt"
	"math"
	"testing"

	"github.com/parasol-lang/parasol/eval"
)

// TestAnalytic evaluates the functions of std:analytic and compares them
// with the seed formulas written independently here. The library is used
// from a machine that imports it, as a user would.
func TestAnalytic(t *testing.T) {
	m, err := eval.LoadSource("user.machine", `import "std:analytic"
machine "user" {
	param x = 1
}`)
	if err != nil {
		t.Fatal(err)
	}
	const (
		a = 100e-9 // alpha
		B = 200e-9 // beta
		g = 500e-9 // gamma
		d = 1e-6   // delta
	)
	h, b := 3.0, 32.0
	tp := func(s float64) float64 { return math.Max(B+(h+b+1)*a, 2*B+(2*h+1)*a+2*s*d) }
	c4 := func(s float64) float64 { return (2*B + 2*s*d + (2*h+1)*a) / (B + (h+b+1)*a) }
	eq5 := func(n, c, s float64) float64 {
		if c < c4(s) {
			return c*g + n/(c*b)*(2*B+(2*h+1)*a+2*s*d) + (c-1)*(B+(h+b+1)*a)
		}
		return c*g + n/b*(B+(h+b+1)*a)
	}
	eq6 := func(n, c, l, s float64) float64 {
		if c < c4(s) {
			return l*c*g + n/(l*c*b)*(2*B+(2*h+1)*a+2*s*d) + (c-1)*(B+(h+b+1)*a)
		}
		return l*c*g + n/(l*b)*(B+(h+b+1)*a)
	}
	P := "3, 32, 100ns, 200ns"
	cases := []struct {
		expr string
		want float64
	}{}
	add := func(want float64, format string, args ...any) {
		cases = append(cases, struct {
			expr string
			want float64
		}{fmt.Sprintf(format, args...), want})
	}
	for s := 0; s <= 10; s++ {
		fs := float64(s)
		add(tp(fs), "c104_packet(%d, %s, 1us)", s, P)
		add(g+4096/b*tp(fs), "c104_message(4096, %d, %s, 500ns, 1us)", s, P)
		add(c4(fs), "c104_channels(%d, %s, 1us)", s, P)
		for c := 1; c <= 8; c++ {
			add(eq5(8192, float64(c), fs), "c104_multichannel(8192, %d, %d, %s, 500ns, 1us)", c, s, P)
			for _, l := range []int{1, 2, 4} {
				add(eq6(16384, float64(c), float64(l), fs), "c104_multilink(16384, %d, %d, %d, %s, 500ns, 1us)", c, l, s, P)
			}
		}
	}
	add(((b-h)*a-B)/(2*d), "c104_onset(%s, 1us)", P)
	add(1e-6+2e-9*1000+3e-9*6*1000, "simple_single(1000, 6, 1us, 2ns/1B, 3ns/1B)")
	add(2e-6+0.1e-6*4096, "simple_multi(4096, 2us, 0.1us/1B)")
	add(4*g, "c104_k1(4, 500ns)")
	add((B+(h+b+1)*a)/b, "c104_k2(%s)", P)
	// seed 001
	ts, th, tw := 10e-6, 1e-6, 50e-9
	for l := 1; l <= 9; l++ {
		fl := float64(l)
		add(ts+(1024*tw+th)*fl, "store_forward(1024, %d, 10us, 1us, 50ns/1B)", l)
		add(ts+1024*fl*tw, "store_forward_simple(1024, %d, 10us, 50ns/1B)", l)
		add(ts+fl*th+tw*1024, "cut_through(1024, %d, 10us, 1us, 50ns/1B)", l)
		tw1, tw2, r, so := 5e-9, 40e-9, 64.0, 8.0
		m := 4096.0
		add(ts+tw1*m+th*fl+tw2*(r+so)+(m/r-1)*tw2*(r+so), "packet_routing(4096, %d, 10us, 1us, 5ns/1B, 40ns/1B, 64, 8)", l)
		// the packet-routing identity of seed 001: = ts + th l + tw m
		add(ts+th*fl+(tw1+tw2*(1+so/r))*m, "packet_routing(4096, %d, 10us, 1us, 5ns/1B, 40ns/1B, 64, 8)", l)
	}
	add(5e-9+40e-9*(1+8.0/64), "packet_tw(5ns/1B, 40ns/1B, 64, 8) * 1B")
	add(ts+tw*1024, "simplified(1024, 10us, 50ns/1B)")
	add(tw*256/16, "effective_tw(50ns/1B, 256, 16) * 1B")
	add(ts+tw*256/16*1024, "congested(1024, 256, 16, 10us, 50ns/1B)")
	add(ts+tw*1024*16/4, "random_bound(1024, 256, 16, 10us, 50ns/1B)") // Example 2.15: sqrt(p)/4 on a 16x16 mesh
	add(ts+tw*1024, "random_bound(1024, 4, 16, 10us, 50ns/1B)")
	// seed 003
	for hh := 1; hh <= 8; hh++ {
		for _, l := range []int{0, 100, 4096} {
			add(30.5e-6+24.3e-6*float64(hh)+0.71e-6*float64(l*hh), "tiny_latency(%d, %d, 30.5us, 24.3us, 0us/1B, 0.71us/1B)", l, hh)
		}
	}
	add(54.8e-6+0.71e-6*64, "neighbour_latency(64, 54.8us, 0.71us/1B)")
	for _, c := range cases {
		v, err := m.Eval(c.expr)
		if err != nil {
			t.Errorf("%s: %v", c.expr, err)
			continue
		}
		if math.Abs(v.Num-c.want) > 1e-9*math.Abs(c.want)+1e-18 {
			t.Errorf("%s = %v, want %g", c.expr, v.Num, c.want)
		}
	}
	if v, err := m.Eval("c104_vcp_keeps_up(3, 32, 100ns, 200ns)"); err != nil || !v.Truth() {
		t.Errorf("c104_vcp_keeps_up: %v %v (4β = 800 ns ≤ 3.6 µs)", v, err)
	}
	if len(cases) < 300 {
		t.Fatalf("only %d cases", len(cases))
	}
}
