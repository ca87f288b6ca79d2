package main

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"flag"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"runtime/debug"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/parasol-lang/parasol/eval"
	"github.com/parasol-lang/parasol/internal/limits"
)

// cli runs parasol's command line in this process and returns what it
// printed on standard output and its exit status.
func cli(args ...string) ([]byte, int) {
	var out, errOut bytes.Buffer
	e := &env{stdin: strings.NewReader(""), stdout: &out, stderr: &errOut}
	code := run(e, args)
	return out.Bytes(), code
}

// testServeOptions are a server's options for a test: generous limits.
func testServeOptions() serveOptions {
	return serveOptions{addr: "127.0.0.1:0", timeout: time.Minute, maxConcurrent: 2, maxBody: 1 << 20, cache: 8}
}

// newTestServer serves s on a real listener (httptest's, on 127.0.0.1)
// for the test.
func newTestServer(t *testing.T, o serveOptions) (*server, string) {
	t.Helper()
	s, err := newServer(o)
	if err != nil {
		t.Fatal(err)
	}
	hs := httptest.NewServer(s)
	t.Cleanup(hs.Close)
	return s, hs.URL
}

// post sends body to url's path and returns the response's status and body.
func post(t *testing.T, url, path, body string) (int, []byte) {
	t.Helper()
	resp, err := http.Post(url+path, "application/json", strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	data, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatal(err)
	}
	return resp.StatusCode, data
}

// startServe runs the command line parasol serve --addr 127.0.0.1:0 with
// more flags in this process, until the test ends, and returns its URL,
// read from the line it prints on standard error.
func startServe(t *testing.T, flags ...string) string {
	t.Helper()
	// serve sets the process's memory limits; the test leaves them as
	// it found them.
	prev := debug.SetMemoryLimit(-1)
	ctx, cancel := context.WithCancel(context.Background())
	r, w := io.Pipe()
	done := make(chan int)
	go func() {
		e := &env{stdin: strings.NewReader(""), stdout: io.Discard, stderr: w, ctx: ctx}
		done <- run(e, append([]string{"serve", "--addr", "127.0.0.1:0", "--max-memory", "1GB"}, flags...))
		w.Close()
	}()
	t.Cleanup(func() {
		cancel()
		if code := <-done; code != 0 {
			t.Errorf("parasol serve: exit status %d", code)
		}
		debug.SetMemoryLimit(prev)
		limits.SetDefault(0)
	})
	sc := bufio.NewScanner(r)
	if !sc.Scan() {
		t.Fatalf("parasol serve printed nothing: %v", sc.Err())
	}
	go io.Copy(io.Discard, r) //nolint:errcheck // draining
	m := regexp.MustCompile(`listening on (http://127\.0\.0\.1:\d+)`).FindStringSubmatch(sc.Text())
	if m == nil {
		t.Fatalf("parasol serve said %q, not where it listens", sc.Text())
	}
	return m[1]
}

// TestServeAnswersWhatTheCLIPrints holds the contract: each endpoint's
// body is byte for byte what the command line prints with --json for the
// same flags, errors included, over a real listener.
func TestServeAnswersWhatTheCLIPrints(t *testing.T) {
	_, url := newTestServer(t, testServeOptions())
	for _, c := range []struct {
		path, body string
		cli        []string
		status     int
	}{
		// The issue's own example.
		{"/v1/eval", `{"machine": "std:xmp64", "set": ["h_off=400ns"], "exprs": ["MPI.barrier()"]}`,
			[]string{"eval", "--json", "--set", "h_off=400ns", "std:xmp64", "MPI.barrier()"}, 200},
		{"/v1/eval", `{"machine": "std:xmp64", "exprs": ["nodes", "MPI.send(1KB, 0, 5)", "-diameter"]}`,
			[]string{"eval", "--json", "std:xmp64", "nodes", "MPI.send(1KB, 0, 5)", "--", "-diameter"}, 200},
		{"/v1/eval", `{"machine": "std:xmp64", "exprs": ["MPI.barier()"]}`,
			[]string{"eval", "--json", "std:xmp64", "MPI.barier()"}, 400},
		{"/v1/sim", `{"machine": "std:xmp64", "op": "transpose", "size": "1KB", "runs": 3, "seed": 7}`,
			[]string{"sim", "--json", "std:xmp64", "--op", "transpose", "--size", "1KB", "--runs", "3", "--seed", "7"}, 200},
		{"/v1/sim", `{"machine": "std:xmp64", "op": "uniform", "load": 0.2, "seed": 2, "switching": "wormhole"}`,
			[]string{"sim", "--json", "std:xmp64", "--op", "uniform", "--load", "0.2", "--seed", "2", "--switching", "wormhole"}, 200},
		{"/v1/sim", `{"machine": "std:xmp64", "op": "scater"}`,
			[]string{"sim", "--json", "std:xmp64", "--op", "scater"}, 400},
		{"/v1/compare", `{"machine": "std:xmp64", "primitive": "MPI.send", "size": 4096, "runs": 2}`,
			[]string{"compare", "--json", "std:xmp64", "MPI.send", "--size", "4096", "--runs", "2"}, 200},
		{"/v1/run", `{"machine": "std:xmp64", "program": "if rank == 0 { compute(10us) } barrier()", "seed": 3}`,
			[]string{"run", "--json", "--seed", "3", "std:xmp64", "if rank == 0 { compute(10us) } barrier()"}, 200},
		{"/v1/run", `{"machine": "std:xmp64", "program": "send(16B, to: mod(rank+1, ranks)) recv(from: mod(rank+ranks-1, ranks))", "analytic": true}`,
			[]string{"run", "--json", "--analytic", "std:xmp64", "send(16B, to: mod(rank+1, ranks)) recv(from: mod(rank+ranks-1, ranks))"}, 200},
		{"/v1/route", `{"machine": "std:xmp64", "src": "0", "dst": "5"}`,
			[]string{"route", "--json", "std:xmp64", "0", "5"}, 200},
	} {
		want, code := cli(c.cli...)
		if (code == 0) != (c.status == 200) {
			t.Fatalf("parasol %s: exit status %d: %s", strings.Join(c.cli, " "), code, want)
		}
		// Twice: the second from the cache of machines.
		for range 2 {
			status, got := post(t, url, c.path, c.body)
			if status != c.status || !bytes.Equal(got, want) {
				t.Errorf("POST %s %s: %d\n%s\nwant %d, what parasol %s prints:\n%s", c.path, c.body, status, clip(string(got)), c.status, strings.Join(c.cli, " "), clip(string(want)))
			}
		}
	}
}

// TestServeRefusesBadRequests: each mistake in a request is a JSON error
// with a status of 4xx, saying what was wrong and where.
func TestServeRefusesBadRequests(t *testing.T) {
	dir := t.TempDir()
	outside := filepath.Join(dir, "a.machine")
	if err := os.WriteFile(outside, []byte("machine a { }\n"), 0o666); err != nil {
		t.Fatal(err)
	}
	_, url := newTestServer(t, testServeOptions())
	for _, c := range []struct {
		path, body string
		status     int
		message    string
		line, col  int
	}{
		{"/v1/eval", `{"machine": "std:xmp64", "sett": ["h_off=1ns"]}`, 400, `/v1/eval has no key "sett" (did you mean "set"?)`, 1, 26},
		{"/v1/eval", "{\"machine\": \"std:xmp64\",\n \"exprs\": [\"nodes\"]", 400, "the request's JSON ends before its object does", 2, 20},
		{"/v1/eval", "{\"machine\": \"std:xmp64\",\n \"exprs\": [nodes]}", 400, "invalid character 'o' in literal null", 2, 13},
		{"/v1/eval", `["std:xmp64"]`, 400, "the request must be a JSON object", 1, 1},
		{"/v1/eval", `{"machine": "std:xmp64", "exprs": ["nodes"], "json": false}`, 400, `key "json": the server always answers JSON`, 1, 46},
		{"/v1/sim", `{"machine": "std:xmp64", "op": "transpose", "runs": true}`, 400, `key "runs": takes a whole number, not true or false`, 1, 45},
		{"/v1/sim", `{"machine": "std:xmp64", "op": ["transpose"]}`, 400, `key "op": takes one value, not a list`, 1, 26},
		{"/v1/run", `{"program": "barrier()"}`, 400, `key "program" needs "machine"`, 1, 2},
		{"/v1/sweep", `{}`, 404, "no endpoint /v1/sweep", 0, 0},
		{"/v1/eval", `{"machine": "` + outside + `", "exprs": ["nodes"]}`, 403, "is outside the server's working directory", 1, 2},
		{"/v1/eval", `{"machine": "-", "exprs": ["nodes"]}`, 403, "the server's standard input", 1, 2},
		{"/v1/sim", `{"machine": "std:xmp64", "op": "transpose", "plot": "x.svg"}`, 403, "--allow-files", 1, 45},
	} {
		status, got := post(t, url, c.path, c.body)
		var e jsonError
		if err := json.Unmarshal(got, &e); err != nil || e.Error == nil {
			t.Errorf("POST %s %s: %d %s: not a JSON error: %v", c.path, c.body, status, got, err)
			continue
		}
		if status != c.status || !strings.Contains(e.Error.Message, c.message) || e.Error.Line != c.line || e.Error.Col != c.col {
			t.Errorf("POST %s %s: %d %s\nwant %d, a message holding %q at %d:%d", c.path, c.body, status, got, c.status, c.message, c.line, c.col)
		}
	}
}

// TestServeAllowFiles: with --allow-files, a file outside the working
// directory is read, and answered as the command line answers it.
func TestServeAllowFiles(t *testing.T) {
	o := testServeOptions()
	o.allowFiles = true
	_, url := newTestServer(t, o)
	machine, err := filepath.Abs("../../examples/programs/ring.machine")
	if err != nil {
		t.Fatal(err)
	}
	want, code := cli("run", "--json", "std:xmp64", machine, "--arg", "n=1KB")
	if code != 0 {
		t.Fatalf("parasol run: exit status %d: %s", code, want)
	}
	status, got := post(t, url, "/v1/run", `{"machine": "std:xmp64", "program": "`+machine+`", "arg": "n=1KB"}`)
	if status != 200 || !bytes.Equal(got, want) {
		t.Errorf("POST /v1/run: %d %s\nwant 200 %s", status, clip(string(got)), clip(string(want)))
	}

	// A simulation that deadlocks (seed 003's one-packet buffers under
	// store and forward, sim_packet_buffers_deadlock.txtar) is 422, with
	// the command line's report.
	ring, err := filepath.Abs("../../examples/ring.machine")
	if err != nil {
		t.Fatal(err)
	}
	want, code = cli("sim", "--json", ring, "--op", "tornado", "--size", "4096", "--routing", "shortest", "--switching", "saf", "--set", "topology(r).buffer=1")
	if code != exitDeadlock {
		t.Fatalf("parasol sim: exit status %d, want %d: %s", code, exitDeadlock, want)
	}
	status, got = post(t, url, "/v1/sim", `{"machine": "`+ring+`", "op": "tornado", "size": 4096, "routing": "shortest", "switching": "saf", "set": "topology(r).buffer=1"}`)
	if status != http.StatusUnprocessableEntity || !bytes.Equal(got, want) {
		t.Errorf("POST /v1/sim deadlocking: %d %s\nwant 422 %s", status, clip(string(got)), clip(string(want)))
	}
}

// TestServeLimits: a body over --max-body is 413, a request past its
// deadline 408, one beyond --max-concurrent 503; each a JSON error
// naming the limit.
func TestServeLimits(t *testing.T) {
	o := testServeOptions()
	o.maxBody = 64
	o.maxConcurrent = 1
	s, url := newTestServer(t, o)
	status, got := post(t, url, "/v1/eval", `{"machine": "std:xmp64", "exprs": ["nodes", "links", "diameter", "avgdist"]}`)
	if status != http.StatusRequestEntityTooLarge || !strings.Contains(string(got), "larger than 64B (serve --max-body)") {
		t.Errorf("a body of 80 bytes under --max-body 64B: %d %s", status, got)
	}

	s.slots <- struct{}{} // a request running
	status, got = post(t, url, "/v1/eval", `{"machine": "std:xmp64", "exprs": ["nodes"]}`)
	if status != http.StatusServiceUnavailable || !strings.Contains(string(got), "the most serve --max-concurrent allows") {
		t.Errorf("a second request under --max-concurrent 1: %d %s", status, got)
	}
	<-s.slots
	if status, got = post(t, url, "/v1/eval", `{"machine": "std:xmp64", "exprs": ["nodes"]}`); status != 200 {
		t.Errorf("the request alone: %d %s", status, got)
	}

	// A simulation of many runs takes far longer than a microsecond.
	o = testServeOptions()
	o.timeout = time.Microsecond
	_, url = newTestServer(t, o)
	status, got = post(t, url, "/v1/sim", `{"machine": "std:xmp64", "op": "randperm", "runs": 500}`)
	if status != http.StatusRequestTimeout || !strings.Contains(string(got), "longer than its time limit, 1µs (serve --timeout)") {
		t.Errorf("a simulation under --timeout 1us: %d %s", status, got)
	}
}

// TestServeCacheSeesEdits: a cached machine is used again only while its
// file's text is the same; an edited file is loaded again.
func TestServeCacheSeesEdits(t *testing.T) {
	t.Chdir(t.TempDir())
	write := func(text string) {
		if err := os.WriteFile("m.machine", []byte(text), 0o666); err != nil {
			t.Fatal(err)
		}
	}
	write("machine m {\n  param x = 1us\n}\n")
	_, url := newTestServer(t, testServeOptions())
	body := `{"machine": "m.machine", "exprs": ["x"]}`
	for _, want := range []string{`"value":0.000001`, `"value":0.000001`} {
		if _, got := post(t, url, "/v1/eval", body); !strings.Contains(string(got), want) {
			t.Errorf("x: %s, want %s", got, want)
		}
	}
	write("machine m {\n  param x = 2us\n}\n")
	if _, got := post(t, url, "/v1/eval", body); !strings.Contains(string(got), `"value":0.000002`) {
		t.Errorf("x after the edit: %s, want 2us", got)
	}
}

// TestMachineCacheEvictsTheLeastRecentlyUsed: a cache of two keeps the
// two machines used last.
func TestMachineCacheEvictsTheLeastRecentlyUsed(t *testing.T) {
	c := newMachineCache(2)
	loads := 0
	use := func(spec string) {
		m, err := c.load(spec, func() (*eval.Machine, error) { loads++; return eval.Load(spec) })
		if err != nil || m == nil {
			t.Fatal(err)
		}
	}
	for _, spec := range []string{"std:xmp64", "std:loggp", "std:xmp64", "std:ipsc1", "std:xmp64", "std:loggp"} {
		use(spec)
	}
	// Loaded: xmp64, loggp, ipsc1 (dropping loggp, used before xmp64), and
	// loggp again (dropping ipsc1, used before xmp64).
	if loads != 4 {
		t.Errorf("%d loads, want 4: xmp64, loggp, ipsc1 and loggp again after ipsc1 evicted it", loads)
	}
}

// TestServeOpenAPIDescribesEveryFlag: /openapi.json has a property for
// every argument and flag of each served command (the server's own left
// out), typed as the flag takes it, and no other.
func TestServeOpenAPIDescribesEveryFlag(t *testing.T) {
	_, url := newTestServer(t, testServeOptions())
	resp, err := http.Get(url + "/openapi.json")
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	var doc struct {
		OpenAPI string `json:"openapi"`
		Paths   map[string]struct {
			Post struct {
				RequestBody struct {
					Content map[string]struct {
						Schema struct {
							Properties map[string]struct {
								Type any `json:"type"`
							} `json:"properties"`
							Required []string `json:"required"`
						} `json:"schema"`
					} `json:"content"`
				} `json:"requestBody"`
			} `json:"post"`
		} `json:"paths"`
	}
	if err := json.NewDecoder(resp.Body).Decode(&doc); err != nil {
		t.Fatal(err)
	}
	if doc.OpenAPI != "3.1.0" {
		t.Errorf("openapi %q, want 3.1.0", doc.OpenAPI)
	}
	for _, name := range servedCommands {
		p, ok := doc.Paths["/v1/"+name]
		if !ok {
			t.Errorf("no path /v1/%s", name)
			continue
		}
		props := p.Post.RequestBody.Content["application/json"].Schema.Properties
		fs := newFlagSet(name)
		commandNamed(name).flags(&env{}, fs)
		n := 0
		fs.VisitAll(func(f *flag.Flag) {
			if _, ok := serverFlags[f.Name]; ok {
				return
			}
			n++
			prop, ok := props[f.Name]
			if !ok {
				prop, ok = props["--"+f.Name]
			}
			if !ok {
				t.Errorf("/v1/%s: flag --%s has no property", name, f.Name)
				return
			}
			isBool := prop.Type == "boolean"
			if _, b := f.Value.(interface{ IsBoolFlag() bool }); b != isBool {
				t.Errorf("/v1/%s: --%s is typed %v", name, f.Name, prop.Type)
			}
		})
		words, _ := usageWords(commandNamed(name).args)
		if len(props) != n+len(words) {
			t.Errorf("/v1/%s: %d properties, want %d flags and %d arguments", name, len(props), n, len(words))
		}
	}
	// The keys the issue names.
	for path, keys := range map[string][]string{
		"/v1/eval":    {"machine", "set", "exprs"},
		"/v1/sim":     {"machine", "op", "size", "load", "runs", "seed", "set"},
		"/v1/compare": {"machine", "primitive", "size", "runs", "seed"},
		"/v1/run":     {"machine", "program", "seed", "arg"},
	} {
		props := doc.Paths[path].Post.RequestBody.Content["application/json"].Schema.Properties
		for _, k := range keys {
			if _, ok := props[k]; !ok {
				t.Errorf("%s has no key %q", path, k)
			}
		}
		if !slices.Contains(doc.Paths[path].Post.RequestBody.Content["application/json"].Schema.Required, "machine") {
			t.Errorf("%s does not require machine", path)
		}
	}
}

// TestServeCommandLine runs parasol serve itself and queries it with
// curl, as a user would, when curl is installed.
func TestServeCommandLine(t *testing.T) {
	url := startServe(t, "--max-concurrent", "1")
	curl, err := exec.LookPath("curl")
	if err != nil {
		t.Skip("curl is not installed")
	}
	// The example of serve --help, sent to this server.
	var example []string
	for _, line := range strings.Split(serveCmd.doc, "\n") {
		if line = strings.TrimSpace(line); strings.HasPrefix(line, "curl ") {
			words, err := splitWords(strings.Replace(line, "localhost:7878", url, 1))
			if err != nil {
				t.Fatal(err)
			}
			example = words[1:]
		}
	}
	if example == nil {
		t.Fatal("serve --help has no curl example")
	}
	want, _ := cli("eval", "--json", "--set", "h_off=400ns", "std:xmp64", "MPI.barrier()")
	got, err := exec.Command(curl, example...).Output()
	if err != nil || !bytes.Equal(got, want) {
		t.Errorf("curl %s: %v\n%s\nwant\n%s", strings.Join(example, " "), err, got, want)
	}
}

// TestServePythonClient runs examples/clients/sad.py against a live
// server: each value it prints is the one parasol eval gives.
func TestServePythonClient(t *testing.T) {
	python, err := exec.LookPath("python3")
	if err != nil {
		t.Skip("python3 is not installed")
	}
	url := startServe(t)
	var stderr bytes.Buffer
	cmd := exec.Command(python, "../../examples/clients/sad.py", "--url", url)
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("sad.py: %v\n%s%s", err, out, stderr.String())
	}
	// It ends with a typo, to show an error with its place.
	if want := `parasol: 400: <query>:1:5: MPI has no field barier (did you mean "barrier"?)`; strings.TrimSpace(stderr.String()) != want {
		t.Errorf("sad.py's error: %q, want %q", stderr.String(), want)
	}
	// Each line is EXPR = VALUE UNIT (with --set SETS).
	lines := strings.Split(strings.TrimSpace(string(out)), "\n")
	if len(lines) < 4 {
		t.Fatalf("sad.py printed %d lines, want one per query:\n%s", len(lines), out)
	}
	for _, line := range lines {
		m := regexp.MustCompile(`^(\S+) (.+) = (\S+) (\S*)$`).FindStringSubmatch(line)
		if m == nil {
			t.Errorf("sad.py printed %q, not MACHINE EXPR = VALUE UNIT", line)
			continue
		}
		machine, expr, value, unit := m[1], m[2], m[3], m[4]
		args := []string{"eval", "--json"}
		if strings.Contains(line, "MPI.barrier()") {
			args = append(args, "--set", "h_off=400ns")
		}
		want, code := cli(append(args, machine, expr)...)
		var v jsonValue
		if code != 0 || json.Unmarshal(want, &v) != nil {
			t.Fatalf("parasol eval %s %s: %d %s", machine, expr, code, want)
		}
		// Python writes a float as the shortest text that reads back as
		// it, so the same JSON number reads back as the same float64.
		got, err := strconv.ParseFloat(value, 64)
		if err != nil || got != v.Value.(float64) || v.Unit != unit {
			t.Errorf("sad.py: %s = %s %s, parasol eval: %v %s", expr, value, unit, v.Value, v.Unit)
		}
	}
}

// TestServeConcurrentRequests: requests running at once, sharing cached
// machines, each answer what the command line prints for it alone.
func TestServeConcurrentRequests(t *testing.T) {
	o := testServeOptions()
	o.maxConcurrent = 8
	_, url := newTestServer(t, o)
	bodies := []string{
		`{"machine": "std:xmp64", "op": "transpose", "seed": 1}`,
		`{"machine": "std:xmp64", "op": "transpose", "seed": 2}`,
		`{"machine": "std:xmp64", "op": "uniform", "load": 0.3, "seed": 3}`,
		`{"machine": "std:xmp64", "op": "transpose", "seed": 1, "set": ["h_off=400ns"]}`,
	}
	wants := [][]string{
		{"sim", "--json", "std:xmp64", "--op", "transpose", "--seed", "1"},
		{"sim", "--json", "std:xmp64", "--op", "transpose", "--seed", "2"},
		{"sim", "--json", "std:xmp64", "--op", "uniform", "--load", "0.3", "--seed", "3"},
		{"sim", "--json", "std:xmp64", "--op", "transpose", "--seed", "1", "--set", "h_off=400ns"},
	}
	got := make([][]byte, 2*len(bodies))
	var wg sync.WaitGroup
	for i := range got {
		wg.Go(func() {
			status, body := post(t, url, "/v1/sim", bodies[i%len(bodies)])
			if status != 200 {
				t.Errorf("POST %s: %d %s", bodies[i%len(bodies)], status, body)
			}
			got[i] = body
		})
	}
	wg.Wait()
	for i, body := range got {
		want, _ := cli(wants[i%len(wants)]...)
		if !bytes.Equal(body, want) {
			t.Errorf("POST %s answered, at once with others:\n%s\nwant\n%s", bodies[i%len(bodies)], clip(string(body)), clip(string(want)))
		}
	}
}

// TestServeMemoryLimitPerRequest: each request gets --max-memory divided
// by --max-concurrent, and a topology whose estimate exceeds that share is
// refused with the figure, as the command line refuses it.
func TestServeMemoryLimitPerRequest(t *testing.T) {
	url := startServe(t, "--max-memory", "256MB", "--max-concurrent", "4")
	status, got := post(t, url, "/v1/eval", `{"machine": "std:booksim-mesh", "set": ["k=3000"], "exprs": ["nodes"]}`)
	// mesh(3000, 3000): nine million nodes, about 1.2 GB; 256 MB / 4.
	if status != 400 || !strings.Contains(string(got), `"message":"mesh(3000, 3000) needs about 1.2 GB; the limit is 64 MB`) {
		t.Errorf("a 1.2 GB topology under 256MB/4: %d %s", status, clip(string(got)))
	}
	if status, got = post(t, url, "/v1/eval", `{"machine": "std:booksim-mesh", "set": ["k=30"], "exprs": ["nodes"]}`); status != 200 || !strings.Contains(string(got), `"value":900,`) {
		t.Errorf("a 900-node mesh under 256MB/4: %d %s", status, clip(string(got)))
	}
}
