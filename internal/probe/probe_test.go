package probe

import (
	"context"
	"math"
	"net"
	"strings"
	"testing"
	"time"

	"github.com/parasol-lang/parasol/eval"
)

// Every pair is measured, and both descriptions load: the modern one and
// the Parasol I one, each giving a ping-pong time for every pair.
func TestMeasuredMachineLoadsInBothSyntaxes(t *testing.T) {
	hosts := serve(t, 3)
	r, err := Measure(context.Background(), hosts, quickOptions())
	if err != nil {
		t.Fatal(err)
	}
	if !r.Complete() || len(r.Pairs) != 3 {
		t.Fatalf("complete %v, %d pairs:\n%s", r.Complete(), len(r.Pairs), r.Failures())
	}
	// The CSV holds every median: 3 pairs × (4 sizes + 1 train).
	if rows := strings.Count(r.CSV(), "\n"); rows != 1+3*5 {
		t.Errorf("CSV has %d lines, want a header and 15 rows:\n%s", rows, r.CSV())
	}
	for _, legacy := range []bool{false, true} {
		text := r.Machine("loopback", legacy)
		m, err := eval.LoadSource("probed.machine", text)
		if err != nil {
			t.Fatalf("legacy=%v: %v\n%s", legacy, err, text)
		}
		if strings.Contains(text, "PARTIAL") {
			t.Errorf("a complete run is marked partial:\n%s", text)
		}
		for _, p := range r.Pairs {
			v, err := m.Call("MPI.send", "64KiB", p.B, p.A)
			if err != nil {
				t.Fatal(err)
			}
			want := p.Latency() + 65536/p.Speed()
			if math.Abs(v.Num-want) > 1e-3*want {
				t.Errorf("legacy=%v: MPI.send(64KiB, %d, %d) = %g s, the pair's fit gives %g s", legacy, p.B, p.A, v.Num, want)
			}
		}
	}
}

// A host that does not answer is reported by name and the description
// says it is partial; the pairs of the others are still measured.
func TestUnreachableHostMakesAPartialReport(t *testing.T) {
	hosts := serve(t, 2)
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	dead := l.Addr().String()
	l.Close() // nothing listens there now
	o := quickOptions()
	o.Timeout = 2 * time.Second
	r, err := Measure(context.Background(), append(hosts, dead), o)
	if err != nil {
		t.Fatal(err)
	}
	if r.Complete() || len(r.Measured()) != 1 {
		t.Fatalf("complete %v, %d measured", r.Complete(), len(r.Measured()))
	}
	if f := r.Failures(); !strings.Contains(f, "host 2 ("+dead+") unreachable: ") {
		t.Errorf("failures do not name the dead host:\n%s", f)
	}
	text := r.Machine("loopback", false)
	if !strings.HasPrefix(text, "# PARTIAL") {
		t.Errorf("a partial description does not say so first:\n%s", text)
	}
	if _, err := eval.LoadSource("partial.machine", text); err != nil {
		t.Errorf("the partial description does not load: %v", err)
	}
}

// A big host list measures a sample of the pairs in which every host
// takes part.
func TestSampleCoversEveryHost(t *testing.T) {
	var pairs [][2]int
	for a := 0; a < 40; a++ {
		for b := a + 1; b < 40; b++ {
			pairs = append(pairs, [2]int{a, b})
		}
	}
	got := sample(pairs, 40, 50, 1)
	if len(got) != 50 {
		t.Fatalf("%d pairs, want 50", len(got))
	}
	seen := map[int]bool{}
	dup := map[[2]int]bool{}
	for _, p := range got {
		seen[p[0]], seen[p[1]] = true, true
		if dup[p] {
			t.Errorf("pair %v twice", p)
		}
		dup[p] = true
	}
	if len(seen) != 40 {
		t.Errorf("%d of 40 hosts in the sample", len(seen))
	}
}

// A server refuses a message larger than MaxMessage instead of
// allocating it, and a request that is not JSON is answered with an error.
func TestServerRefusesOversizedAndMalformedRequests(t *testing.T) {
	hosts := serve(t, 1)
	_, err := call(context.Background(), hosts[0], request{Op: "measure", Peer: hosts[0], Sizes: []int{MaxMessage + 1}}, 5*time.Second)
	if err == nil || !strings.Contains(err.Error(), "outside 0 ..") {
		t.Errorf("oversized ping-pong: %v", err)
	}
	_, err = call(context.Background(), hosts[0], request{Op: "frobnicate"}, 5*time.Second)
	if err == nil || !strings.Contains(err.Error(), `unknown request "frobnicate"`) {
		t.Errorf("unknown request: %v", err)
	}
}

// A request line longer than a request can be is dropped, not buffered:
// the server closes the connection and goes on serving.
func TestServerDropsAnOverlongRequest(t *testing.T) {
	hosts := serve(t, 1)
	c, err := net.Dial("tcp", hosts[0])
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	c.SetDeadline(time.Now().Add(10 * time.Second))
	junk := make([]byte, 2*maxRequest)
	for i := range junk {
		junk[i] = 'x'
	}
	c.Write(junk) // may fail once the server has closed
	buf := make([]byte, 1)
	if n, err := c.Read(buf); err == nil {
		t.Errorf("the server answered an overlong request: %q", buf[:n])
	}
	if _, err := call(context.Background(), hosts[0], request{Op: "hello"}, 5*time.Second); err != nil {
		t.Errorf("the server stopped serving: %v", err)
	}
}
