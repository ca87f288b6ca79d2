package probe

import (
	"context"
	"math"
	"net"
	"sync/atomic"
	"testing"
	"time"

	"github.com/parasol-lang/parasol/eval"
)

// virtualLink is a loopback network whose time is kept by its traffic:
// a server's every write advances the clock by a round trip of that
// many bytes, 2(latency + bytes × perByte), before the bytes go out.
// Only the far end's answer moves the clock, and a measurer reads the
// clock before it sends and after the answer has arrived, so each
// ping-pong takes exactly latency + size × perByte one way however
// loaded the machine is.
type virtualLink struct {
	latency, perByte time.Duration
	elapsed          atomic.Int64 // nanoseconds
}

func (v *virtualLink) now() time.Time {
	return time.Unix(0, 0).Add(time.Duration(v.elapsed.Load()))
}

type virtualListener struct {
	net.Listener
	link *virtualLink
}

func (l virtualListener) Accept() (net.Conn, error) {
	c, err := l.Listener.Accept()
	if err != nil {
		return nil, err
	}
	return virtualConn{c, l.link}, nil
}

type virtualConn struct {
	net.Conn
	link *virtualLink
}

func (c virtualConn) Write(b []byte) (int, error) {
	c.link.elapsed.Add(int64(2 * (c.link.latency + time.Duration(len(b))*c.link.perByte)))
	return c.Conn.Write(b)
}

// serveVirtual starts n servers on the link and makes it the clock that
// measurements read until the test ends.
func serveVirtual(t *testing.T, n int, link *virtualLink) []string {
	t.Helper()
	now = link.now
	t.Cleanup(func() { now = time.Now })
	return serveVia(t, n, func(l net.Listener) net.Listener { return virtualListener{l, link} })
}

// The probe's promise, checked where timing cannot waver: the machine it
// writes from ping-pongs at some sizes predicts a fresh ping-pong at a
// size it did not measure, and both are the link's own time. (Over real
// TCP on a loaded 2-core machine the two medians, taken at different
// moments, were seen twice apart: the scheduler, not the code, decided.)
func TestProbedMachinePredictsAnUnmeasuredSize(t *testing.T) {
	tests := []struct {
		name             string
		latency, perByte time.Duration
		size             int
	}{
		{"fast link, size between measured ones", 30 * time.Microsecond, time.Nanosecond, 512 << 10},
		{"slow link, size beyond the largest", 2 * time.Millisecond, 80 * time.Nanosecond, 3 << 20},
		{"latency-bound, small size", 250 * time.Microsecond, 3 * time.Nanosecond, 100},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			link := &virtualLink{latency: tc.latency, perByte: tc.perByte}
			hosts := serveVirtual(t, 3, link)
			o := quickOptions()
			o.Sizes = []int{1, 4 << 10, 64 << 10, 256 << 10, 1 << 20}
			r, err := Measure(context.Background(), hosts, o)
			if err != nil {
				t.Fatal(err)
			}
			if !r.Complete() {
				t.Fatalf("incomplete:\n%s", r.Failures())
			}
			m, err := eval.LoadSource("probed.machine", r.Machine("virtual", false))
			if err != nil {
				t.Fatal(err)
			}
			v, err := m.Call("MPI.send", tc.size, 0, 1)
			if err != nil {
				t.Fatal(err)
			}
			fresh, err := PingPong(context.Background(), hosts[1], tc.size, 5, 20*time.Second)
			if err != nil {
				t.Fatal(err)
			}
			want := (tc.latency + time.Duration(tc.size)*tc.perByte).Seconds()
			if math.Abs(fresh-want) > 1e-9*want {
				t.Errorf("a fresh ping-pong of %d bytes takes %g s one way, the link %g s", tc.size, fresh, want)
			}
			// The description gives latency and speed to 4 significant
			// digits, so the prediction may be off by a few parts in 10⁴.
			if math.Abs(v.Num-want) > 1e-3*want {
				t.Errorf("MPI.send(%d, 0, 1) predicts %g s, the link takes %g s", tc.size, v.Num, want)
			}
		})
	}
}
