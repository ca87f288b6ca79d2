package probe

import (
	"bufio"
	"context"
	"encoding/binary"
	"encoding/json"
	"errors"
	"io"
	"net"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/parasol-lang/parasol/eval"
)

// rawRequest sends one request line on a fresh connection to host and
// returns the connection and a reader of its answers.
func rawRequest(t *testing.T, host string, req request) (net.Conn, *bufio.Reader) {
	t.Helper()
	c, err := net.Dial("tcp", host)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { c.Close() })
	c.SetDeadline(time.Now().Add(10 * time.Second))
	b, _ := json.Marshal(req)
	if _, err := c.Write(append(b, '\n')); err != nil {
		t.Fatal(err)
	}
	return c, bufio.NewReader(c)
}

// readLine reads one reply line.
func readLine(t *testing.T, r *bufio.Reader) reply {
	t.Helper()
	rep, err := decodeReply(r.ReadSlice('\n'))
	if err != nil && rep.Error == "" {
		t.Fatal(err)
	}
	return rep
}

// serveLimited starts one server that holds at most conns connections
// and frameLimit bytes of frames.
func serveLimited(t *testing.T, conns int, frameLimit int64) string {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	t.Cleanup(cancel)
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	go serveWith(ctx, l, conns, frameLimit)
	return l.Addr().String()
}

// A data connection declares its largest frame; a frame beyond it ends
// the connection before anything is allocated, a declaration beyond
// MaxMessage or beyond the server's memory is refused with the limit.
func TestServerBoundsFramesToTheDeclaredSize(t *testing.T) {
	host := serveLimited(t, 8, 1<<20)
	c, r := rawRequest(t, host, request{Op: "echo", MaxSize: 1024})
	if rep := readLine(t, r); rep.Error != "" {
		t.Fatalf("echo of 1 KiB frames refused: %s", rep.Error)
	}
	var hdr [9]byte
	hdr[0] = 'p'
	binary.BigEndian.PutUint32(hdr[1:], 64<<20)
	binary.BigEndian.PutUint32(hdr[5:], 1)
	c.Write(hdr[:])
	if n, err := r.Read(make([]byte, 1)); err != io.EOF {
		t.Errorf("a 64 MiB frame on a 1 KiB connection: read %d bytes, %v; want the connection closed", n, err)
	}

	for _, tc := range []struct {
		size int
		want string
	}{
		{MaxMessage + 1, "frames of 67108865 bytes outside 0 .. 67108864"},
		{900 << 10, "922 KB of message buffers would take the server's to 1.8 MB; its memory limit is 1.0 MB"},
	} {
		// The second holds its 900 KiB while the third asks for as much.
		_, r := rawRequest(t, host, request{Op: "echo", MaxSize: tc.size})
		rep := readLine(t, r)
		if tc.size == 900<<10 {
			_, r2 := rawRequest(t, host, request{Op: "echo", MaxSize: tc.size})
			rep = readLine(t, r2)
		}
		if !strings.Contains(rep.Error, tc.want) {
			t.Errorf("echo of %d-byte frames: error %q, want it to say %q", tc.size, rep.Error, tc.want)
		}
	}
}

// Connections beyond the server's bound are answered "busy" and closed;
// once the others go, it serves again.
func TestServerRefusesConnectionsBeyondItsBound(t *testing.T) {
	host := serveLimited(t, 3, 1<<20)
	var held []net.Conn
	for i := 0; i < 3; i++ {
		c, err := net.Dial("tcp", host)
		if err != nil {
			t.Fatal(err)
		}
		held = append(held, c)
	}
	// A held connection sends no request yet; the fourth is refused.
	_, err := call(context.Background(), host, request{Op: "hello"}, 5*time.Second)
	if err == nil || !strings.Contains(err.Error(), "server busy: it serves at most 3 connections at once") {
		t.Fatalf("a fourth connection: %v, want it refused as busy", err)
	}
	for _, c := range held {
		c.Close()
	}
	for try := 0; ; try++ {
		if _, err = call(context.Background(), host, request{Op: "hello"}, 5*time.Second); err == nil {
			break
		}
		if try == 50 {
			t.Fatalf("the server does not serve again once the connections closed: %v", err)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// A measure request's numbers are bounded before any work: huge
// repetitions, too many timings or bytes, a deadline beyond MaxTimeout;
// and a request gets its deadline even when the peer never answers.
func TestServerBoundsMeasureRequests(t *testing.T) {
	host := serveLimited(t, 8, 1<<30)
	sizes := []int{1, 1024, 4096}
	for _, tc := range []struct {
		name string
		req  request
		want string
	}{
		{"huge reps", request{Sizes: sizes, Reps: 2_000_000_000}, "2000000000 repetitions outside 1 .. 10000"},
		{"negative reps", request{Sizes: sizes, Reps: -1}, "-1 repetitions outside 1 .. 10000"},
		{"too many timings", request{Sizes: make([]int, 32), Reps: 10_000}, "are 320000 timings: at most 100000"},
		{"too many sizes", request{Sizes: make([]int, 33)}, "33 ping-pong sizes: at most 32"},
		{"too much traffic", request{Sizes: []int{MaxMessage}, Reps: 10_000}, "move 1.3 TB: at most 16 GB a request"},
		{"huge train", request{TrainSizes: []int{1}, TrainCount: MaxTrain + 1}, "trains of 1048577 messages outside"},
		{"negative size", request{TrainSizes: []int{-1024}}, "train message size -1024 outside"},
		{"endless deadline", request{Sizes: sizes, TimeoutMS: 1 << 50}, "timeout of 1125899906842624 ms outside 0 .. 600000 ms"},
	} {
		req := tc.req
		req.Op, req.Peer = "measure", host
		start := time.Now()
		_, err := call(context.Background(), host, req, 5*time.Second)
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: %v, want it to say %q", tc.name, err, tc.want)
		}
		if d := time.Since(start); d > 2*time.Second {
			t.Errorf("%s: refused after %s, want at once", tc.name, d)
		}
	}

	// A peer that takes the data connection and never answers: the
	// request ends at its deadline.
	mute, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer mute.Close()
	go func() {
		c, err := mute.Accept()
		if err == nil {
			defer c.Close()
			io.Copy(io.Discard, c)
		}
	}()
	_, err = call(context.Background(), host, request{Op: "measure", Peer: mute.Addr().String(), Sizes: sizes, TimeoutMS: 300}, 5*time.Second)
	if err == nil || !strings.Contains(err.Error(), "no answer within the pair's timeout of 300ms") {
		t.Errorf("a mute peer: %v, want the request's deadline", err)
	}
}

// fakePeer is a server that answers hello with hostname and a measure
// request with what answer makes of it, until the test ends.
func fakePeer(t *testing.T, hostname string, answer func(request) reply) string {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { l.Close() })
	go func() {
		for {
			c, err := l.Accept()
			if err != nil {
				return
			}
			c.SetDeadline(time.Now().Add(10 * time.Second))
			line, err := bufio.NewReader(c).ReadSlice('\n')
			var req request
			if err == nil && json.Unmarshal(line, &req) == nil {
				if req.Op == "hello" {
					writeReply(c, reply{Hostname: hostname})
				} else {
					writeReply(c, answer(req))
				}
			}
			c.Close()
		}
	}()
	return l.Addr().String()
}

// honest is the answer of a link of 20 µs and 1 GB/s, each time a little
// different.
func honest(req request) reply {
	var rep reply
	for _, s := range req.Sizes {
		sm := Sample{Size: s, Count: 1}
		for i := 0; i < req.Reps; i++ {
			sm.Seconds = append(sm.Seconds, 20e-6+float64(s)*1e-9+float64(i)*1e-8)
		}
		rep.PingPong = append(rep.PingPong, sm)
	}
	for _, s := range req.TrainSizes {
		sm := Sample{Size: s, Count: req.TrainCount}
		for i := 0; i < req.Reps; i++ {
			sm.Seconds = append(sm.Seconds, 20e-6+float64(s*req.TrainCount)*1e-9)
		}
		rep.Trains = append(rep.Trains, sm)
	}
	return rep
}

// Measure validates what peers say: a host name that is not one is
// refused (so a newline and a machine block in it never reach the
// file), and a pair whose answer holds sizes not asked for or times not
// positive fails, naming the host and what was wrong.
func TestMeasureRefusesBadAnswersFromPeers(t *testing.T) {
	injected := "evil\nmachine \"pwned\" {\n\tprocessor p {}\n}\n# "
	tests := []struct {
		name     string
		hostname string
		answer   func(request) reply
		want     string
	}{
		{"hostname with a machine block", injected, honest,
			`host 0 (127.0.0.1:PORT) answered badly: its host name "evil\nmachine \"pwned\" {\n\tprocessor p {}\n}\n# " is not a valid host name`},
		{"hostname with a space", "a b", honest, `its host name "a b" is not a valid host name`},
		{"negative size", "fake", func(req request) reply {
			rep := honest(req)
			rep.PingPong[1].Size = -1024
			return rep
		}, "pair 0-1 (127.0.0.1:PORT to 127.0.0.1:PEER) failed: host 0 answered badly: ping-pong sample 2 is of -1024 bytes, not the 4096 asked for (sizes asked: 1B, 4KiB, 64KiB, 256KiB)"},
		{"size 2^62", "fake", func(req request) reply {
			rep := honest(req)
			rep.PingPong = append(rep.PingPong, Sample{Size: 1 << 62, Count: 1, Seconds: []float64{1e-3}})
			return rep
		}, "host 0 answered badly: 5 ping-pong samples, 4 asked for"},
		{"zero train times", "fake", func(req request) reply {
			rep := honest(req)
			for i := range rep.Trains[0].Seconds {
				rep.Trains[0].Seconds[i] = 0
			}
			return rep
		}, "host 0 answered badly: train sample 1 (1KiB) time 1 is 0 s; a time must be positive and finite"},
		{"zero ping-pong times", "fake", func(req request) reply {
			rep := honest(req)
			rep.PingPong[0].Seconds[2] = 0
			return rep
		}, "ping-pong sample 1 (1B) time 3 is 0 s"},
		{"a train of other messages", "fake", func(req request) reply {
			rep := honest(req)
			rep.Trains[0].Count = 1
			return rep
		}, "train sample 1 (1KiB) is of 1 messages, not the 4 asked for"},
		{"too few repetitions", "fake", func(req request) reply {
			rep := honest(req)
			rep.PingPong[3].Seconds = rep.PingPong[3].Seconds[:1]
			return rep
		}, "ping-pong sample 4 (256KiB) has 1 times, not the 5 repetitions asked for"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			fake := fakePeer(t, tc.hostname, tc.answer)
			real := serve(t, 2)
			o := quickOptions()
			o.Timeout = 5 * time.Second
			r, err := Measure(context.Background(), []string{fake, real[0], real[1]}, o)
			if err != nil {
				t.Fatal(err)
			}
			want := strings.ReplaceAll(strings.ReplaceAll(tc.want, "127.0.0.1:PORT", fake), "127.0.0.1:PEER", real[0])
			if f := r.Failures(); !strings.Contains(f, want) {
				t.Errorf("failures:\n%s\nwant them to say:\n%s", f, want)
			}
			var bad *BadAnswer
			if err := r.Unreachable[0]; err == nil {
				if len(r.Pairs) == 0 || !errors.As(r.Pairs[0].Err, &bad) {
					t.Errorf("pair 0-1 is not refused as a bad answer: %v", r.Pairs[0].Err)
				}
			} else if !errors.As(err, &bad) {
				t.Errorf("host 0's error is not a bad answer: %v", err)
			}
			if len(r.Measured()) == 0 {
				t.Fatalf("the honest pair was not measured:\n%s", r.Failures())
			}
			// What is written of the rest describes one machine, the
			// measured one, and no time of the bad answer.
			for _, legacy := range []bool{false, true} {
				text := r.Machine("measured", legacy)
				file := filepath.Join(t.TempDir(), "probed.machine")
				if err := os.WriteFile(file, []byte(text), 0o644); err != nil {
					t.Fatal(err)
				}
				names, err := eval.MachineNames(file)
				if err != nil {
					t.Fatalf("legacy=%v: %v\n%s", legacy, err, text)
				}
				if len(names) != 1 || names[0] != "measured" {
					t.Errorf("legacy=%v: machines %v, want only the measured one:\n%s", legacy, names, text)
				}
				if strings.Contains(text, "inf") || strings.Contains(text, "\nmachine \"pwned\"") {
					t.Errorf("legacy=%v: the bad answer reached the file:\n%s", legacy, text)
				}
			}
		})
	}
}
