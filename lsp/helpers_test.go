package lsp

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/parasol-lang/parasol/lang"
	"github.com/parasol-lang/parasol/lang/format"
)

// A client speaks to a server over pipes as an editor does: each message
// framed by a Content-Length header, written and read here by hand (not
// by the library the server uses), so the framing is tested too.
type client struct {
	t     testing.TB
	w     io.WriteCloser
	msgs  chan message
	held  []message // notifications read while waiting for a response
	id    int
	done  chan error
	ended bool
}

// message is any JSON-RPC message: a response (ID, Result, Error) or a
// notification (Method, Params).
type message struct {
	ID     *int            `json:"id"`
	Method string          `json:"method"`
	Params json.RawMessage `json:"params"`
	Result json.RawMessage `json:"result"`
	Error  *struct {
		Code    int    `json:"code"`
		Message string `json:"message"`
	} `json:"error"`
}

// hang bounds the wait for a message: a server that does not answer
// fails the test instead of hanging it (not a measure of speed).
const hang = 30 * time.Second

// start runs a server on pipes and initializes it.
func start(t testing.TB) *client {
	inR, inW := io.Pipe()
	outR, outW := io.Pipe()
	c := &client{t: t, w: inW, msgs: make(chan message, 64), done: make(chan error, 1)}
	go func() {
		err := Serve(context.Background(), inR, outW, Options{Format: formatFile, Version: "test"})
		outW.Close()
		c.done <- err
	}()
	go c.read(bufio.NewReader(outR))
	t.Cleanup(func() { c.close() })
	return c
}

// read parses the server's messages: headers up to an empty line, then
// exactly Content-Length bytes of JSON.
func (c *client) read(r *bufio.Reader) {
	defer close(c.msgs)
	for {
		n := -1
		for {
			line, err := r.ReadString('\n')
			if err != nil {
				return
			}
			if !strings.HasSuffix(line, "\r\n") {
				c.msgs <- message{Method: "bad header line " + strconv.Quote(line)}
				return
			}
			line = strings.TrimSuffix(line, "\r\n")
			if line == "" {
				break
			}
			if v, ok := strings.CutPrefix(line, "Content-Length: "); ok {
				n, err = strconv.Atoi(v)
				if err != nil {
					c.msgs <- message{Method: "bad Content-Length " + v}
					return
				}
			}
		}
		body := make([]byte, n)
		if _, err := io.ReadFull(r, body); err != nil {
			return
		}
		var m message
		if err := json.Unmarshal(body, &m); err != nil {
			m = message{Method: "bad JSON: " + string(body)}
		}
		c.msgs <- m
	}
}

// write sends one framed message.
func (c *client) write(v any) {
	c.t.Helper()
	body, err := json.Marshal(v)
	if err != nil {
		c.t.Fatal(err)
	}
	if _, err := fmt.Fprintf(c.w, "Content-Length: %d\r\n\r\n%s", len(body), body); err != nil {
		c.t.Fatal(err)
	}
}

// next is the next message from the server.
func (c *client) next() message {
	c.t.Helper()
	select {
	case m, ok := <-c.msgs:
		if !ok {
			c.t.Fatal("the server closed its output")
		}
		if strings.HasPrefix(m.Method, "bad ") {
			c.t.Fatal(m.Method)
		}
		return m
	case <-time.After(hang):
		c.t.Fatal("no message from the server")
	}
	return message{}
}

// call sends a request and returns its result, failing on an error.
func (c *client) call(method string, params, result any) {
	c.t.Helper()
	if err := c.try(method, params, result); err != nil {
		c.t.Fatalf("%s: %v", method, err)
	}
}

// try sends a request and returns its error response, if any.
func (c *client) try(method string, params, result any) error {
	c.t.Helper()
	c.id++
	id := c.id
	c.write(map[string]any{"jsonrpc": "2.0", "id": id, "method": method, "params": params})
	for {
		m := c.next()
		if m.ID == nil || m.Method != "" {
			c.held = append(c.held, m)
			continue
		}
		if *m.ID != id {
			c.t.Fatalf("response to request %d while waiting for %d", *m.ID, id)
		}
		if m.Error != nil {
			return fmt.Errorf("error %d: %s", m.Error.Code, m.Error.Message)
		}
		if result != nil {
			if err := json.Unmarshal(m.Result, result); err != nil {
				c.t.Fatalf("%s: %v in %s", method, err, m.Result)
			}
		}
		return nil
	}
}

// notify sends a notification.
func (c *client) notify(method string, params any) {
	c.t.Helper()
	c.write(map[string]any{"jsonrpc": "2.0", "method": method, "params": params})
}

// close ends the session as an editor does: shutdown, exit.
func (c *client) close() {
	if c.ended {
		return
	}
	c.ended = true
	c.try("shutdown", nil, nil)
	c.notify("exit", nil)
	select {
	case err := <-c.done:
		if err != nil {
			c.t.Errorf("Serve: %v", err)
		}
	case <-time.After(hang):
		c.t.Error("the server did not end after exit")
	}
	c.w.Close()
}

// Protocol shapes, as the client reads them.
type (
	position struct {
		Line      int `json:"line"`
		Character int `json:"character"`
	}
	span struct {
		Start position `json:"start"`
		End   position `json:"end"`
	}
	diagnostic struct {
		Range    span   `json:"range"`
		Severity int    `json:"severity"`
		Message  string `json:"message"`
		Related  []struct {
			Location struct {
				URI   string `json:"uri"`
				Range span   `json:"range"`
			} `json:"location"`
			Message string `json:"message"`
		} `json:"relatedInformation"`
	}
	published struct {
		URI         string       `json:"uri"`
		Version     int          `json:"version"`
		Diagnostics []diagnostic `json:"diagnostics"`
	}
	location struct {
		URI   string `json:"uri"`
		Range span   `json:"range"`
	}
	textEdit struct {
		Range   span   `json:"range"`
		NewText string `json:"newText"`
	}
	symbol struct {
		Name     string   `json:"name"`
		Detail   string   `json:"detail"`
		Kind     int      `json:"kind"`
		Children []symbol `json:"children"`
	}
)

// initialize starts the session and returns the server's capabilities.
func (c *client) initialize() map[string]any {
	c.t.Helper()
	var res struct {
		Capabilities map[string]any `json:"capabilities"`
	}
	c.call("initialize", map[string]any{"processId": nil, "rootUri": nil, "capabilities": map[string]any{}}, &res)
	c.notify("initialized", map[string]any{})
	return res.Capabilities
}

// open opens a document and returns the diagnostics published for it.
func (c *client) open(uri, text string) []diagnostic {
	c.t.Helper()
	c.notify("textDocument/didOpen", map[string]any{"textDocument": map[string]any{
		"uri": uri, "languageId": "parasol", "version": 1, "text": text}})
	return c.published(uri)
}

// change replaces a document's text and returns its new diagnostics.
func (c *client) change(uri, text string, version int) []diagnostic {
	c.t.Helper()
	c.notify("textDocument/didChange", map[string]any{
		"textDocument":   map[string]any{"uri": uri, "version": version},
		"contentChanges": []any{map[string]any{"text": text}}})
	return c.published(uri)
}

func (c *client) published(uri string) []diagnostic {
	c.t.Helper()
	return c.publishedFor(uri).Diagnostics
}

// publishedFor waits for the next diagnostics published for uri (those
// held first), holding those for other documents.
func (c *client) publishedFor(uri string) published {
	c.t.Helper()
	take := func(m message) (published, bool) {
		var p published
		if m.Method != "textDocument/publishDiagnostics" {
			return p, false
		}
		if err := json.Unmarshal(m.Params, &p); err != nil {
			c.t.Fatal(err)
		}
		return p, p.URI == uri
	}
	for i, m := range c.held {
		if p, ok := take(m); ok {
			c.held = append(c.held[:i], c.held[i+1:]...)
			return p
		}
	}
	for {
		m := c.next()
		if p, ok := take(m); ok {
			return p
		}
		c.held = append(c.held, m)
	}
}

// at is the request parameters naming a position of a document.
func at(uri string, p position) map[string]any {
	return map[string]any{"textDocument": map[string]any{"uri": uri}, "position": p}
}

// hover returns the hover text at p ("" for none).
func (c *client) hover(uri string, p position) string {
	c.t.Helper()
	var h *struct {
		Contents struct {
			Value string `json:"value"`
		} `json:"contents"`
	}
	c.call("textDocument/hover", at(uri, p), &h)
	if h == nil {
		return ""
	}
	return h.Contents.Value
}

// fixture reads a file of testdata and returns its file: URI and text.
func fixture(t testing.TB, name string) (string, string) {
	t.Helper()
	path, err := filepath.Abs(filepath.Join("testdata", name))
	if err != nil {
		t.Fatal(err)
	}
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return pathURI(path), string(data)
}

// find is the position of the n-th (from 0) occurrence of word in text,
// plus shift characters (ASCII text).
func find(t testing.TB, text, word string, n, shift int) position {
	t.Helper()
	off := -1
	for i := 0; i <= n; i++ {
		j := strings.Index(text[off+1:], word)
		if j < 0 {
			t.Fatalf("%q occurs %d times, not %d", word, i, n+1)
		}
		off += 1 + j
	}
	off += shift
	line := strings.Count(text[:off], "\n")
	return position{Line: line, Character: off - (strings.LastIndex(text[:off], "\n") + 1)}
}

// formatFile is the formatter, unchecked: the command line gives the
// server its checked one.
func formatFile(f *lang.File) (string, error) { return format.File(f), nil }

// checkCompletion inserts a line, insert, at byte at of text, the open
// document uri, completes at its end and reports each word of want the
// completion does not offer.
func (c *client) checkCompletion(t *testing.T, uri, text string, at int, what, insert string, want []string) {
	t.Helper()
	edited := text[:at] + insert + "\n" + text[at:]
	c.change(uri, edited, 2)
	var list struct {
		Items []struct {
			Label string `json:"label"`
		} `json:"items"`
	}
	c.call("textDocument/completion", at2(uri, find(t, edited, insert, 0, len(insert))), &list)
	got := map[string]bool{}
	for _, it := range list.Items {
		got[it.Label] = true
	}
	for _, w := range want {
		if !got[w] {
			t.Errorf("completion of %s: %q missing from %d items", what, w, len(list.Items))
		}
	}
}
