package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"runtime/debug"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/parasol-lang/parasol/eval/results"
	"github.com/parasol-lang/parasol/internal/limits"
	"github.com/parasol-lang/parasol/lang"
)

// serveCmd is parasol serve.
var serveCmd = &command{
	name:    "serve",
	summary: "answer eval, sim, compare and run queries over HTTP with JSON",
	args:    "[flags]",
	doc: `
Serve answers the queries of the command line over HTTP, for performance
predictors written in any language. POST /v1/COMMAND, for COMMAND check,
eval, sim, compare, route or run, takes a JSON object whose keys are the
command's flags and arguments and answers exactly what
'parasol COMMAND --json' prints for them (JSON lines: one object, or one
per expression or diagnostic):
  "machine"   the MACHINE argument: std:NAME or a file
  "exprs"     eval's expressions (a list), "primitive" compare's,
              "program" run's, "src" and "dst" route's, "files" check's
  "set"       a list of PATH=VALUE, as --set; every other flag by its name:
              "op", "size", "load", "runs", "seed", "routing", "arg", …
              (a flag whose name is an argument's is "--NAME": "--machine")
Values are strings, numbers, booleans for switches, and lists for flags
that repeat. GET /openapi.json describes every endpoint and key (OpenAPI
3.1, made from the commands' flags).

  curl -s localhost:7878/v1/eval -d '{"machine": "std:xmp64", "set": ["h_off=400ns"], "exprs": ["MPI.barrier()"]}'

Errors are the command line's JSON errors ({"error": {"file", "line",
"col", "message", …}}) with status 400 for bad input (a request key or
value, a machine, an expression), 403 for a file the server may not read,
413 for a body over --max-body, 422 for a simulation that deadlocked, 408
for a request over --timeout and 503 when --max-concurrent requests are
already running. Each request runs under --timeout, and under the memory
limit --max-memory divided by --max-concurrent (a topology, simulation or
file whose estimate exceeds it is refused with the figure), so that the
requests together stay within --max-memory. Loaded machines are kept, up
to --cache of them, the least recently used dropped first; one is used
again while its files' texts, imports included, and its --set are the same.

There is no authentication: anyone who can reach the address can make the
server compute for up to --timeout at a time and read the machine and
program files it names. So it listens on 127.0.0.1 unless --addr says
otherwise, reads only files inside its working directory (and std:
machines) unless --allow-files, and refuses flags that name a file to read
or write (--plot, --pattern, --timeline, …) unless --allow-files.`,
	flags: declareServe,
}

// servedCommands are the commands parasol serve answers, at /v1/NAME.
var servedCommands = []string{"check", "eval", "sim", "compare", "route", "run"}

// serverFlags are the flags a request may not give: the server answers
// JSON and sets the memory limit.
var serverFlags = map[string]string{
	"json":       "the server always answers JSON",
	"format":     "the server always answers JSON",
	"max-memory": "the server sets each request's memory limit (serve --max-memory divided by --max-concurrent)",
}

// serveOptions are parasol serve's flags.
type serveOptions struct {
	addr          string
	timeout       time.Duration
	maxConcurrent int
	maxBody       int64
	cache         int
	allowFiles    bool
	// perRequest is the memory limit of one request, in bytes.
	perRequest int64
}

func declareServe(e *env, fs *flag.FlagSet) func(args []string) error {
	var o serveOptions
	fs.StringVar(&o.addr, "addr", "127.0.0.1:7878", "listen on `HOST:PORT` (port 0: any free port, printed on stderr); an address other than localhost lets anyone on the network use the server, which has no authentication")
	fs.DurationVar(&o.timeout, "timeout", time.Minute, "the time limit of one request, a `DURATION` such as 30s: a request still running then is answered 408")
	fs.IntVar(&o.maxConcurrent, "max-concurrent", 2, "how many requests may run at once; one more is answered 503 at once")
	maxBody := sizeFlag(1<<20, 1)
	fs.Var(&maxBody, "max-body", "the largest request body, a `SIZE`: a larger one is answered 413")
	fs.IntVar(&o.cache, "cache", 32, "how many loaded machines to keep (by their files' texts and --set), the least recently used dropped first; 0 keeps none")
	fs.BoolVar(&o.allowFiles, "allow-files", false, "let requests name any file the server can read, and give flags that read or write files (--plot, --pattern, --measured, …); without it, only files inside the working directory are read")
	maxMemory := memoryFlag()
	fs.Var(&maxMemory, "max-memory", "bound the memory all requests together may use, a `SIZE`; each request gets this divided by --max-concurrent (default: $"+limits.EnvVar+", else a quarter of physical memory or what ulimit -v and the cgroup leave)")
	return func(args []string) error {
		if len(args) > 0 {
			return argsError("parasol serve: takes no arguments, got %s", strings.Join(args, " "))
		}
		if o.maxConcurrent < 1 {
			return usageError("parasol serve: --max-concurrent must be at least 1, got %d", o.maxConcurrent)
		}
		if o.timeout <= 0 {
			return usageError("parasol serve: --timeout must be positive, got %v", o.timeout)
		}
		if o.cache < 0 {
			return usageError("parasol serve: --cache must be 0 or more, got %d", o.cache)
		}
		o.maxBody = maxBody.bytes()
		total := maxMemory.bytes()
		if total == 0 {
			total = limits.Default()
			debug.SetMemoryLimit(total)
		}
		o.perRequest = total / int64(o.maxConcurrent)
		// Commands load and simulate under the default limit: the
		// request's share.
		limits.SetDefault(o.perRequest)
		s, err := newServer(o)
		if err != nil {
			return err
		}
		ln, err := net.Listen("tcp", o.addr)
		if err != nil {
			return fmt.Errorf("parasol serve: %v", err)
		}
		fmt.Fprintf(e.stderr, "parasol serve: listening on http://%s (no authentication; each request: %v, %s of memory; %d at once)\n",
			ln.Addr(), o.timeout, sizeText(o.perRequest), o.maxConcurrent)
		if host, _, _ := net.SplitHostPort(ln.Addr().String()); !net.ParseIP(host).IsLoopback() {
			fmt.Fprintf(e.stderr, "parasol serve: warning: %s is reachable from other machines, and anyone who reaches it can use the server\n", ln.Addr())
		}
		// A client that sends or reads slowly holds a connection, not a
		// request's slot, and not for longer than a request may run.
		hs := &http.Server{Handler: s, ReadHeaderTimeout: 10 * time.Second, ReadTimeout: o.timeout,
			WriteTimeout: o.timeout + 10*time.Second, IdleTimeout: 2 * time.Minute}
		ctx, stop := e.interruptible()
		defer stop()
		go func() {
			<-ctx.Done()
			shut, cancel := context.WithTimeout(context.Background(), 5*time.Second)
			defer cancel()
			hs.Shutdown(shut) //nolint:errcheck // closing: nothing to tell
		}()
		if err := hs.Serve(ln); err != nil && !errors.Is(err, http.ErrServerClosed) {
			return fmt.Errorf("parasol serve: %v", err)
		}
		return nil
	}
}

// server answers parasol serve's requests.
type server struct {
	opts     serveOptions
	slots    chan struct{} // one per running request
	machines *machineCache
	wd       string // the working directory, symbolic links resolved
	openapi  []byte
}

func newServer(o serveOptions) (*server, error) {
	wd, err := os.Getwd()
	if err == nil {
		wd, err = filepath.EvalSymlinks(wd)
	}
	if err != nil {
		return nil, fmt.Errorf("parasol serve: the working directory: %v", err)
	}
	doc, err := json.MarshalIndent(openAPI(o), "", "  ")
	if err != nil {
		return nil, err
	}
	return &server{opts: o, slots: make(chan struct{}, o.maxConcurrent), machines: newMachineCache(o.cache), wd: wd, openapi: append(doc, '\n')}, nil
}

// requestError is a request the server refuses before running it: its
// HTTP status and the message of its JSON error.
type requestError struct {
	status    int
	msg       string
	line, col int // in the request's body, when the error has a place there
	// key is the request's key the error is about, if any: the error
	// is placed at it.
	key string
}

func (r *requestError) Error() string { return r.msg }

func badRequest(format string, args ...any) error {
	return refuse(http.StatusBadRequest, fmt.Sprintf(format, args...))
}

// refuse is a request refused with status and msg.
func refuse(status int, msg string) *requestError {
	return &requestError{status: status, msg: msg}
}

// ServeHTTP routes: GET /openapi.json, POST /v1/COMMAND.
func (s *server) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	switch {
	case r.URL.Path == "/openapi.json":
		if r.Method != http.MethodGet && r.Method != http.MethodHead {
			writeError(w, refuse(http.StatusMethodNotAllowed, "GET /openapi.json"))
			return
		}
		w.Header().Set("Content-Type", "application/json")
		w.Write(s.openapi) //nolint:errcheck // the client went away
	case strings.HasPrefix(r.URL.Path, "/v1/"):
		name := strings.TrimPrefix(r.URL.Path, "/v1/")
		if !slices.Contains(servedCommands, name) {
			writeError(w, refuse(http.StatusNotFound, fmt.Sprintf("no endpoint /v1/%s%s; there are /v1/%s", name,
				lang.DidYouMean(name, servedCommands), strings.Join(servedCommands, ", /v1/"))))
			return
		}
		if r.Method != http.MethodPost {
			writeError(w, refuse(http.StatusMethodNotAllowed, fmt.Sprintf("POST /v1/%s with a JSON object of its flags", name)))
			return
		}
		s.command(w, r, commandNamed(name))
	default:
		writeError(w, refuse(http.StatusNotFound, fmt.Sprintf("no endpoint %s; there are POST /v1/%s and GET /openapi.json", r.URL.Path, strings.Join(servedCommands, ", /v1/"))))
	}
}

// writeError answers err as a JSON error line with its status.
func writeError(w http.ResponseWriter, err *requestError) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(err.status)
	results.NewEncoder(w).Encode(jsonError{Error: &jsonDiag{File: "<request>", Line: err.line, Col: err.col, Message: err.msg}}) //nolint:errcheck // the client went away
}

// outcome is what running a command gave: its exit status and output.
type outcome struct {
	code int
	out  []byte
}

// command runs c on the request's keys as its command line with --json.
func (s *server) command(w http.ResponseWriter, r *http.Request, c *command) {
	data, body, err := readRequest(w, r, s.opts.maxBody)
	if err == nil {
		var args []string
		args, err = s.commandLine(c, body)
		if err == nil {
			s.run(w, r, c, args)
			return
		}
	}
	var re *requestError
	if !errors.As(err, &re) {
		re = refuse(http.StatusBadRequest, err.Error())
	}
	if off := keyOffset(data, re.key); re.key != "" && off >= 0 {
		re.line, re.col = lineCol(data, off)
	}
	writeError(w, re)
}

// run runs c's command line under the request's time limit and a slot.
func (s *server) run(w http.ResponseWriter, r *http.Request, c *command, args []string) {
	select {
	case s.slots <- struct{}{}:
	default:
		w.Header().Set("Retry-After", "1")
		writeError(w, refuse(http.StatusServiceUnavailable, fmt.Sprintf("busy: %d requests are running, the most serve --max-concurrent allows; try again", s.opts.maxConcurrent)))
		return
	}
	ctx, cancel := context.WithTimeout(r.Context(), s.opts.timeout)
	defer cancel()
	done := make(chan outcome, 1)
	go func() {
		// The slot is held until the command ends, even when its
		// request was answered at the deadline.
		defer func() { <-s.slots }()
		defer func() {
			if p := recover(); p != nil {
				done <- outcome{code: -1, out: fmt.Appendf(nil, "internal error: %v", p)}
			}
		}()
		var out, errs bytes.Buffer
		e := &env{stdin: strings.NewReader(""), stdout: &out, stderr: &errs, ctx: ctx, machines: s.machines}
		code := report(e, args, c.exec(e, c.name, args))
		if code != exitOK && out.Len() == 0 {
			// An error printed as text only: made a JSON error.
			results.NewEncoder(&out).Encode(jsonError{Error: &jsonDiag{Message: strings.TrimSpace(errs.String())}}) //nolint:errcheck // a buffer
		}
		done <- outcome{code, out.Bytes()}
	}()
	var res outcome
	select {
	case res = <-done:
	case <-ctx.Done():
	}
	if errors.Is(ctx.Err(), context.DeadlineExceeded) {
		writeError(w, refuse(http.StatusRequestTimeout, fmt.Sprintf("the request ran longer than its time limit, %v (serve --timeout)", s.opts.timeout)))
		return
	}
	if ctx.Err() != nil {
		return // the client went away
	}
	status := http.StatusOK
	switch res.code {
	case exitOK:
	case exitInput, exitUsage:
		status = http.StatusBadRequest
	case exitDeadlock:
		status = http.StatusUnprocessableEntity
	case exitInterrupted:
		status = http.StatusServiceUnavailable // the server is stopping
	default:
		writeError(w, refuse(http.StatusInternalServerError, string(res.out)))
		return
	}
	ct := "application/json"
	if bytes.Count(res.out, []byte("\n")) > 1 {
		ct = "application/x-ndjson" // JSON lines
	}
	w.Header().Set("Content-Type", ct)
	w.Header().Set("Parasol-Exit-Status", strconv.Itoa(res.code))
	w.WriteHeader(status)
	w.Write(res.out) //nolint:errcheck // the client went away
}

// readRequest reads a request's JSON object, at most limit bytes of it,
// and returns its text and the object.
func readRequest(w http.ResponseWriter, r *http.Request, limit int64) ([]byte, map[string]any, error) {
	data, err := io.ReadAll(http.MaxBytesReader(w, r.Body, limit))
	if err != nil {
		var mb *http.MaxBytesError
		if errors.As(err, &mb) {
			return nil, nil, refuse(http.StatusRequestEntityTooLarge, fmt.Sprintf("the request body is larger than %s (serve --max-body)", sizeText(limit)))
		}
		return nil, nil, badRequest("reading the request: %v", err)
	}
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	var body map[string]any
	err = dec.Decode(&body)
	if err == nil && dec.More() {
		err = errors.New("more after the request's object")
	}
	if err != nil {
		off := dec.InputOffset()
		var se *json.SyntaxError
		var te *json.UnmarshalTypeError
		switch {
		case errors.As(err, &se):
			off = se.Offset - 1 // the offset after the character that is wrong
		case errors.As(err, &te):
			off, err = te.Offset-1, errors.New("the request must be a JSON object of flags and arguments")
		case errors.Is(err, io.ErrUnexpectedEOF):
			off, err = int64(len(data)), errors.New("the request's JSON ends before its object does")
		case errors.Is(err, io.EOF):
			err = errors.New("an empty request: it must be a JSON object of flags and arguments")
		}
		line, col := lineCol(data, int(min(max(off, 0), int64(len(data)))))
		return data, nil, &requestError{status: http.StatusBadRequest, msg: err.Error(), line: line, col: col}
	}
	if body == nil {
		return data, nil, badRequest("the request must be a JSON object of flags and arguments, not null")
	}
	return data, body, nil
}

// lineCol is the line and column (in bytes, from 1) of offset off in data.
func lineCol(data []byte, off int) (line, col int) {
	before := data[:off]
	line = 1 + bytes.Count(before, []byte("\n"))
	return line, off - bytes.LastIndexByte(before, '\n')
}

// sizeText is a number of bytes with its unit, as the CLI prints sizes.
func sizeText(n int64) string { return lang.FormatQuantitySig(float64(n), lang.SizeDim, 3) }
