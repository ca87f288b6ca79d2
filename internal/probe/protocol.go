// Package probe measures real communication between hosts over TCP and
// describes what it measured as a machine: Serve runs on every host,
// Measure asks each host of a pair to time ping-pongs and message trains
// to the other, fits each link's latency and speed (eval/fit's linear
// model, T = t_s + t_w m) and Report.Machine writes the .machine file.
//
// The protocol is a JSON line per request on a fresh connection, then,
// on a data connection between two servers (an echo request, which
// declares its largest frame and is answered with a reply line), binary
// frames: an op byte ('p' ping-pong, 't' train, 'q' quit), a 4-byte size
// and a 4-byte count, big-endian, followed by the payload. No privileges
// are needed: any unprivileged port serves. Nothing a client or a peer
// says is trusted unbounded: the constants below bound every request,
// and Measure refuses answers other than those it asked for.
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
	"sync"
	"time"

	"github.com/parasol-lang/parasol/internal/limits"
)

// DefaultPort is the port serve listens on when none is given.
const DefaultPort = "7907"

// What a server trusts and what it bounds. A server has no
// authentication: whoever reaches its port can ask it to measure, so
// every number in a request is bounded before it is used, and the memory
// a request can make a server hold is checked against the memory limit
// (internal/limits) before it is allocated.
const (
	// MaxMessage bounds a message's size.
	MaxMessage = 64 << 20
	// MaxTrain bounds the messages of a train.
	MaxTrain = 1 << 20
	// MaxReps bounds a measure request's repetitions of each size.
	MaxReps = 10_000
	// MaxSizes bounds the ping-pong sizes, and the train sizes, of one
	// measure request.
	MaxSizes = 32
	// MaxSamples bounds the timings one measure request returns:
	// repetitions × (ping-pong sizes + train sizes).
	MaxSamples = 100_000
	// MaxWork bounds the bytes one measure request moves, warm-up
	// included: (reps + 1) × (2 × the ping-pong sizes + the trains' bytes).
	MaxWork = 16_000_000_000
	// MaxTimeout bounds the deadline a request may ask for; without one
	// a request has DefaultTimeout.
	MaxTimeout     = 10 * time.Minute
	DefaultTimeout = 30 * time.Second
	// MaxConnections bounds the connections a server holds at once; the
	// excess is answered "busy" and closed.
	MaxConnections = 32
)

// maxRequest bounds a request line, maxReply a reply line; requestWait
// is how long a server waits for a request line, replyWait for a client
// to take a reply.
const (
	maxRequest  = 64 << 10
	maxReply    = 16 << 20
	requestWait = 10 * time.Second
	replyWait   = 30 * time.Second
)

// request is a control request: hello (is the server there), measure
// (time ping-pongs and trains to Peer) or echo (open a data connection
// whose frames are at most MaxSize bytes).
type request struct {
	Op         string `json:"op"`
	Peer       string `json:"peer,omitempty"`
	Sizes      []int  `json:"sizes,omitempty"`
	Reps       int    `json:"reps,omitempty"`
	TrainSizes []int  `json:"train_sizes,omitempty"`
	TrainCount int    `json:"train_count,omitempty"`
	TimeoutMS  int64  `json:"timeout_ms,omitempty"`
	MaxSize    int    `json:"max_size,omitempty"`
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

// server is the state one Serve shares between its connections: the
// connections it may hold and the frame memory it may allocate.
type server struct {
	conns  chan struct{}
	limit  int64 // bytes of frame buffers, over all connections
	mu     sync.Mutex
	frames int64
}

// Serve answers requests on l until ctx ends or l fails: at most
// MaxConnections at once, the frame buffers of all of them within
// maxMemory bytes (limits.Default() when 0).
func Serve(ctx context.Context, l net.Listener, maxMemory int64) error {
	return serveWith(ctx, l, MaxConnections, limits.Or(maxMemory))
}

func serveWith(ctx context.Context, l net.Listener, conns int, frameLimit int64) error {
	s := &server{conns: make(chan struct{}, conns), limit: frameLimit}
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
		select {
		case s.conns <- struct{}{}:
			go func() {
				defer func() { <-s.conns }()
				s.serveConn(ctx, c)
			}()
		default:
			// A fresh connection's socket buffer takes a short reply
			// at once; the deadline keeps a refusal from ever
			// holding up the accepting loop.
			c.SetWriteDeadline(time.Now().Add(time.Second))
			writeReply(c, reply{Error: fmt.Sprintf("server busy: it serves at most %d connections at once; try again later", cap(s.conns))})
			c.Close()
		}
	}
}

// reserve takes n bytes of frame memory from the server's budget, or
// says why not; release gives them back.
func (s *server) reserve(what string, n int64) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.frames+n > s.limit {
		return fmt.Errorf("%s: %s of message buffers would take the server's to %s; its memory limit is %s (busy: try again later)",
			what, limits.FormatSize(n), limits.FormatSize(s.frames+n), limits.FormatSize(s.limit))
	}
	s.frames += n
	return nil
}

func (s *server) release(n int64) {
	s.mu.Lock()
	s.frames -= n
	s.mu.Unlock()
}

func (s *server) serveConn(ctx context.Context, c net.Conn) {
	defer c.Close()
	c.SetReadDeadline(time.Now().Add(requestWait))
	// A request is one short line: a client that sends more before its
	// newline is not a probe and is dropped, not buffered.
	r := bufio.NewReaderSize(c, maxRequest)
	line, err := r.ReadSlice('\n')
	if err != nil {
		return
	}
	var req request
	if err := json.Unmarshal(line, &req); err != nil {
		c.SetWriteDeadline(time.Now().Add(replyWait))
		writeReply(c, reply{Error: "not a probe request: " + err.Error()})
		return
	}
	if req.Op == "echo" {
		s.echo(r, c, req)
		return
	}
	var rep reply
	switch req.Op {
	case "hello":
		rep.Hostname = hostname()
	case "measure":
		var err error
		if rep, err = s.measurePeer(ctx, req); err != nil {
			rep.Error = err.Error()
		}
	default:
		rep.Error = fmt.Sprintf("unknown request %q", req.Op)
	}
	c.SetWriteDeadline(time.Now().Add(replyWait))
	writeReply(c, rep)
}

func writeReply(w io.Writer, rep reply) {
	b, _ := json.Marshal(rep)
	w.Write(append(b, '\n'))
}

// timeoutOf is a request's deadline, or why it cannot have it.
func timeoutOf(ms int64) (time.Duration, error) {
	if ms < 0 || ms > MaxTimeout.Milliseconds() {
		return 0, fmt.Errorf("timeout of %d ms outside 0 .. %d ms", ms, MaxTimeout.Milliseconds())
	}
	if ms == 0 {
		return DefaultTimeout, nil
	}
	return time.Duration(ms) * time.Millisecond, nil
}

// echo is the far end of a data connection: it returns each ping-pong's
// payload and acknowledges each train with one byte. It first answers
// the echo request with a reply line: empty, or why it is refused (frames
// larger than MaxMessage, or beyond the server's memory). A frame larger
// than the request declared ends the connection, and so does its
// deadline.
func (s *server) echo(r *bufio.Reader, w net.Conn, req request) {
	timeout, err := timeoutOf(req.TimeoutMS)
	if err == nil && (req.MaxSize < 0 || req.MaxSize > MaxMessage) {
		err = fmt.Errorf("frames of %d bytes outside 0 .. %d", req.MaxSize, MaxMessage)
	}
	if err == nil {
		err = s.reserve("echo", int64(req.MaxSize))
	}
	w.SetDeadline(time.Now().Add(timeout))
	if err != nil {
		writeReply(w, reply{Error: err.Error()})
		return
	}
	defer s.release(int64(req.MaxSize))
	writeReply(w, reply{})
	var hdr [9]byte
	buf := []byte{}
	for {
		if _, err := io.ReadFull(r, hdr[:]); err != nil {
			return
		}
		size, count := int(binary.BigEndian.Uint32(hdr[1:])), int(binary.BigEndian.Uint32(hdr[5:]))
		if size > req.MaxSize || count > MaxTrain {
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

// dialData opens a data connection to addr for frames of at most
// maxSize bytes, and reads the server's consent.
func dialData(ctx context.Context, addr string, maxSize int, timeout time.Duration) (*dataConn, error) {
	deadline := time.Now().Add(timeout)
	d := net.Dialer{Deadline: deadline}
	c, err := d.DialContext(ctx, "tcp", addr)
	if err != nil {
		return nil, err
	}
	c.SetDeadline(deadline)
	b, _ := json.Marshal(request{Op: "echo", MaxSize: maxSize, TimeoutMS: timeout.Milliseconds()})
	if _, err := c.Write(append(b, '\n')); err != nil {
		c.Close()
		return nil, err
	}
	dc := &dataConn{c: c, r: bufio.NewReader(c)}
	if _, err := decodeReply(dc.r.ReadSlice('\n')); err != nil {
		c.Close()
		return nil, timeoutError(err, timeout)
	}
	return dc, nil
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

// checkRequest says why a measure request asks for more than a server
// gives, naming the field, its value and the bound.
func checkRequest(req request) error {
	if req.Peer == "" {
		return errors.New("measure request without a peer")
	}
	if _, err := timeoutOf(req.TimeoutMS); err != nil {
		return err
	}
	if req.Reps < 0 || req.Reps > MaxReps {
		return fmt.Errorf("%d repetitions outside 1 .. %d", req.Reps, MaxReps)
	}
	if req.TrainCount < 0 || req.TrainCount > MaxTrain {
		return fmt.Errorf("trains of %d messages outside 1 .. %d", req.TrainCount, MaxTrain)
	}
	for _, l := range []struct {
		what  string
		sizes []int
	}{{"ping-pong", req.Sizes}, {"train", req.TrainSizes}} {
		if len(l.sizes) > MaxSizes {
			return fmt.Errorf("%d %s sizes: at most %d", len(l.sizes), l.what, MaxSizes)
		}
		for _, s := range l.sizes {
			if s < 0 || s > MaxMessage {
				return fmt.Errorf("%s message size %d outside 0 .. %d bytes", l.what, s, MaxMessage)
			}
		}
	}
	reps, count := max(req.Reps, 1), max(req.TrainCount, 1)
	if n := reps * (len(req.Sizes) + len(req.TrainSizes)); n > MaxSamples {
		return fmt.Errorf("%d repetitions of %d sizes are %d timings: at most %d a request", reps, len(req.Sizes)+len(req.TrainSizes), n, MaxSamples)
	}
	var round int64
	for _, s := range req.Sizes {
		round += 2 * int64(s)
	}
	for _, s := range req.TrainSizes {
		round += int64(count) * int64(s)
	}
	if work := limits.Mul(int64(reps+1), round); work > MaxWork {
		return fmt.Errorf("%d repetitions and a warm-up of these sizes move %s: at most %s a request", reps, limits.FormatSize(work), limits.FormatSize(MaxWork))
	}
	return nil
}

// measurePeer runs a measure request: ping-pongs at every size, then
// trains, each repeated req.Reps times after one warm-up, all within the
// request's deadline.
func (s *server) measurePeer(ctx context.Context, req request) (reply, error) {
	if err := checkRequest(req); err != nil {
		return reply{}, err
	}
	timeout, _ := timeoutOf(req.TimeoutMS)
	largest := 0
	for _, size := range append(append([]int(nil), req.Sizes...), req.TrainSizes...) {
		largest = max(largest, size)
	}
	if err := s.reserve("measure", int64(largest)); err != nil {
		return reply{}, err
	}
	defer s.release(int64(largest))
	ctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	d, err := dialData(ctx, req.Peer, largest, timeout)
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
