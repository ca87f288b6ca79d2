package probe

import (
	"context"
	"net"
	"testing"
	"time"
)

// serve starts n servers on loopback ports the OS chooses.
func serve(t *testing.T, n int) []string {
	return serveVia(t, n, func(l net.Listener) net.Listener { return l })
}

// serveVia is serve with each server's listener passed through wrap.
func serveVia(t *testing.T, n int, wrap func(net.Listener) net.Listener) []string {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	t.Cleanup(cancel)
	var hosts []string
	for i := 0; i < n; i++ {
		l, err := net.Listen("tcp", "127.0.0.1:0")
		if err != nil {
			t.Fatal(err)
		}
		go Serve(ctx, wrap(l), 0)
		hosts = append(hosts, l.Addr().String())
	}
	return hosts
}

// quickOptions measures few sizes and repetitions, enough for the
// tests' loopback servers.
func quickOptions() Options {
	o := DefaultOptions()
	o.Sizes = []int{1, 4 << 10, 64 << 10, 256 << 10}
	o.Reps = 5
	o.TrainSizes = []int{1 << 10}
	o.TrainCount = 4
	o.Timeout = 20 * time.Second
	return o
}
