// Package probe measures real communication between hosts over TCP and
// describes what it measured as a machine: Serve runs on every host,
// Measure asks each host of a pair to time ping-pongs and message trains
// to the other, fits each link's latency and speed (eval/fit's linear
// model, T = t_s + t_w m) and Report.Machine writes the .machine file.
//
// The protocol is a JSON line per request on a fresh connection, then,
// on a data connection between two servers, binary frames: an op byte
// ('p' ping-pong, 't' train, 'q' quit), a 4-byte size and a 4-byte count,
// big-endian, followed by the payload. No privileges are needed: any
// unprivileged port serves.
package probe

import (
	"bufio"
	"context"
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"sort"
	"time"
)

// DefaultPort is the port serve listens on when none is given.
const DefaultPort = "7907"

// MaxMessage bounds a message's size, so that a stray client cannot make
// a server allocate without limit.
const MaxMessage = 64 << 20

// MaxTrain bounds the messages of a train, so that a stray client cannot
// keep a server echoing without end.
const MaxTrain = 1 << 20

// maxRequest bounds a request line, maxReply a reply line.
const (
	maxRequest = 64 << 10
	maxReply   = 16 << 20
)

// request is a control request: hello (is the server there) or measure
// (time ping-pongs and trains to Peer).
type request struct {
	Op         string `json:"op"`
	Peer       string `json:"peer,omitempty"`
	Sizes      []int  `json:"sizes,omitempty"`
	Reps       int    `json:"reps,omitempty"`
	TrainSizes []int  `json:"train_sizes,omitempty"`
	TrainCount int    `json:"train_count,omitempty"`
	TimeoutMS  int64  `json:"timeout_ms,omitempty"`
}

// reply answers a request; Error is set when it failed.
type reply struct {
	Error    string   `json:"error,omitempty"`
	Hostname string   `json:"hostname,omitempty"`
	PingPong []Sample `json:"pingpong,omitempty"`
	Trains   []Sample `json:"trains,omitempty"`
}

// Sample is the repeated timing of one message pattern: Count messages of
// Size bytes (a ping-pong's one-way time has Count 1; a train's time is
// from its first byte sent to the receiver's acknowledgement).
type Sample struct {
	Size    int       `json:"size"`
	Count   int       `json:"count"`
	Seconds []float64 `json:"seconds"`
}

// Median is the sample's median time: robust against the occasional
// descheduled repetition on a loaded host.
func (s Sample) Median() float64 {
	if len(s.Seconds) == 0 {
		return 0
	}
	v := append([]float64(nil), s.Seconds...)
	sort.Float64s(v)
	if n := len(v); n%2 == 1 {
		return v[n/2]
	} else {
		return (v[n/2-1] + v[n/2]) / 2
	}
}

// Serve answers requests on l until ctx ends or l fails.
func Serve(ctx context.Context, l net.Listener) error {
	go func() {
		<-ctx.Done()
		l.Close()
	}()
	for {
		c, err := l.Accept()
		if err != nil {
			if ctx.Err() != nil {
				return nil
			}
			var ne net.Error
			if errors.As(err, &ne) && ne.Timeout() {
				continue
			}
			return err
		}
		go serveConn(ctx, c)
	}
}

func serveConn(ctx context.Context, c net.Conn) {
	defer c.Close()
	c.SetReadDeadline(time.Now().Add(time.Minute))
	// A request is one short line: a client that sends more before its
	// newline is not a probe and is dropped, not buffered.
	r := bufio.NewReaderSize(c, maxRequest)
	line, err := r.ReadSlice('\n')
	if err != nil {
		return
	}
	var req request
	if err := json.Unmarshal(line, &req); err != nil {
		writeReply(c, reply{Error: "not a probe request: " + err.Error()})
		return
	}
	c.SetReadDeadline(time.Time{})
	switch req.Op {
	case "hello":
		writeReply(c, reply{Hostname: hostname()})
	case "echo":
		echo(r, c)
	case "measure":
		rep, err := measurePeer(ctx, req)
		if err != nil {
			rep.Error = err.Error()
		}
		writeReply(c, rep)
	default:
		writeReply(c, reply{Error: fmt.Sprintf("unknown request %q", req.Op)})
	}
}

func writeReply(w io.Writer, rep reply) {
	b, _ := json.Marshal(rep)
	w.Write(append(b, '\n'))
}

// echo is the far end of a data connection: it returns each ping-pong's
// payload and acknowledges each train with one byte.
func echo(r *bufio.Reader, w net.Conn) {
	var hdr [9]byte
	buf := []byte{}
	for {
		if _, err := io.ReadFull(r, hdr[:]); err != nil {
			return
		}
		size, count := int(binary.BigEndian.Uint32(hdr[1:])), int(binary.BigEndian.Uint32(hdr[5:]))
		if size > MaxMessage || count > MaxTrain {
			return
		}
		if len(buf) < size {
			buf = make([]byte, size)
		}
		switch hdr[0] {
		case 'p':
			if _, err := io.ReadFull(r, buf[:size]); err != nil {
				return
			}
			if _, err := w.Write(buf[:size]); err != nil {
				return
			}
		case 't':
			for i := 0; i < count; i++ {
				if _, err := io.ReadFull(r, buf[:size]); err != nil {
					return
				}
			}
			if _, err := w.Write([]byte{1}); err != nil {
				return
			}
		default:
			return
		}
	}
}

// now is the clock a measurement's durations are read from; deadlines
// stay on the wall clock. A test replaces it with a clock that the
// traffic itself advances, so that what a measurement yields is decided
// by the bytes sent, not by how busy the machine is.
var now = time.Now

// dataConn is the measuring end of a data connection.
type dataConn struct {
	c   net.Conn
	r   *bufio.Reader
	buf []byte
}

func dialData(ctx context.Context, addr string, deadline time.Time) (*dataConn, error) {
	d := net.Dialer{Deadline: deadline}
	c, err := d.DialContext(ctx, "tcp", addr)
	if err != nil {
		return nil, err
	}
	c.SetDeadline(deadline)
	b, _ := json.Marshal(request{Op: "echo"})
	if _, err := c.Write(append(b, '\n')); err != nil {
		c.Close()
		return nil, err
	}
	return &dataConn{c: c, r: bufio.NewReader(c)}, nil
}

func (d *dataConn) send(op byte, size, count int) error {
	var hdr [9]byte
	hdr[0] = op
	binary.BigEndian.PutUint32(hdr[1:], uint32(size))
	binary.BigEndian.PutUint32(hdr[5:], uint32(count))
	if len(d.buf) < size {
		d.buf = make([]byte, size)
	}
	if _, err := d.c.Write(hdr[:]); err != nil {
		return err
	}
	for i := 0; i < max(count, 1); i++ {
		if _, err := d.c.Write(d.buf[:size]); err != nil {
			return err
		}
	}
	return nil
}

// pingPong times one round trip of size bytes each way and returns half
// of it, the one-way time.
func (d *dataConn) pingPong(size int) (float64, error) {
	start := now()
	if err := d.send('p', size, 1); err != nil {
		return 0, err
	}
	if _, err := io.ReadFull(d.r, d.buf[:size]); err != nil {
		return 0, err
	}
	return now().Sub(start).Seconds() / 2, nil
}

// train times count messages of size bytes and the one-byte
// acknowledgement of the last.
func (d *dataConn) train(size, count int) (float64, error) {
	start := now()
	if err := d.send('t', size, count); err != nil {
		return 0, err
	}
	if _, err := d.r.ReadByte(); err != nil {
		return 0, err
	}
	return now().Sub(start).Seconds(), nil
}

// measurePeer runs a measure request: ping-pongs at every size, then
// trains, each repeated req.Reps times after one warm-up.
func measurePeer(ctx context.Context, req request) (reply, error) {
	timeout := time.Duration(req.TimeoutMS) * time.Millisecond
	if timeout <= 0 {
		timeout = 30 * time.Second
	}
	deadline := time.Now().Add(timeout)
	for _, s := range append(append([]int(nil), req.Sizes...), req.TrainSizes...) {
		if s < 0 || s > MaxMessage {
			return reply{}, fmt.Errorf("message size %d outside 0 .. %d bytes", s, MaxMessage)
		}
	}
	d, err := dialData(ctx, req.Peer, deadline)
	if err != nil {
		return reply{}, err
	}
	defer d.c.Close()
	reps := max(req.Reps, 1)
	var rep reply
	for _, size := range req.Sizes {
		rep.PingPong = append(rep.PingPong, Sample{Size: size, Count: 1})
	}
	for _, size := range req.TrainSizes {
		rep.Trains = append(rep.Trains, Sample{Size: size, Count: max(req.TrainCount, 1)})
	}
	// Repetitions go round the sizes rather than size after size, so that
	// a moment of load on the host slows one repetition of every size, not
	// every repetition of one, and the medians stay true to each other.
	for i := -1; i < reps; i++ {
		for j := range rep.PingPong {
			s := &rep.PingPong[j]
			t, err := d.pingPong(s.Size)
			if err != nil {
				return rep, timeoutError(err, timeout)
			}
			if i >= 0 {
				s.Seconds = append(s.Seconds, t)
			}
		}
		for j := range rep.Trains {
			s := &rep.Trains[j]
			t, err := d.train(s.Size, s.Count)
			if err != nil {
				return rep, timeoutError(err, timeout)
			}
			if i >= 0 {
				s.Seconds = append(s.Seconds, t)
			}
		}
	}
	d.send('q', 0, 0)
	return rep, nil
}

func timeoutError(err error, timeout time.Duration) error {
	var ne net.Error
	if errors.As(err, &ne) && ne.Timeout() {
		return fmt.Errorf("no answer within the pair's timeout of %s", timeout)
	}
	return err
}
