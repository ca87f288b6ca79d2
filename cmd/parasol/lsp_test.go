package main

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"net/url"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// The contract of parasol lsp, as a script outside the repository uses
// it: on stdin, initialize, open a document with swiching = wormhole in a
// topology, hover on a param's name, shutdown and exit; on stdout, the
// capabilities, a diagnostic naming switching and the param's value with
// its unit (delta = 2us), framed with Content-Length headers; exit status
// 0.
func TestLSPContract(t *testing.T) {
	path, err := filepath.Abs("lsp-contract.machine") // need not exist: the editor's text is used
	if err != nil {
		t.Fatal(err)
	}
	uri := (&url.URL{Scheme: "file", Path: filepath.ToSlash(path)}).String()
	text := "machine \"m\" {\n\tparam delta = 2us\n\ttopology t = ring(4) {\n\t\tswiching = wormhole\n\t\tlatency = delta\n\t\tspeed = 1GB/s\n\t}\n}\n"
	var in bytes.Buffer
	send := func(v map[string]any) {
		v["jsonrpc"] = "2.0"
		body, _ := json.Marshal(v)
		fmt.Fprintf(&in, "Content-Length: %d\r\n\r\n%s", len(body), body)
	}
	send(map[string]any{"id": 1, "method": "initialize", "params": map[string]any{"capabilities": map[string]any{}}})
	send(map[string]any{"method": "initialized", "params": map[string]any{}})
	send(map[string]any{"method": "textDocument/didOpen", "params": map[string]any{"textDocument": map[string]any{
		"uri": uri, "languageId": "parasol", "version": 1, "text": text}}})
	send(map[string]any{"id": 2, "method": "textDocument/hover", "params": map[string]any{
		"textDocument": map[string]any{"uri": uri}, "position": map[string]any{"line": 1, "character": 8}}})
	send(map[string]any{"id": 3, "method": "shutdown"})
	send(map[string]any{"method": "exit"})

	var out, errs bytes.Buffer
	code := run(&env{stdin: &in, stdout: &out, stderr: &errs}, []string{"lsp"})
	if code != 0 {
		t.Fatalf("parasol lsp exited %d: %s", code, errs.String())
	}
	msgs := readFrames(t, &out)
	var caps map[string]any
	var diags []struct {
		Message string `json:"message"`
	}
	hover := ""
	for _, m := range msgs {
		switch {
		case m.ID != nil && *m.ID == 1:
			var r struct {
				Capabilities map[string]any `json:"capabilities"`
			}
			json.Unmarshal(m.Result, &r)
			caps = r.Capabilities
		case m.Method == "textDocument/publishDiagnostics":
			var p struct {
				Diagnostics []struct {
					Message string `json:"message"`
				} `json:"diagnostics"`
			}
			json.Unmarshal(m.Params, &p)
			diags = p.Diagnostics
		case m.ID != nil && *m.ID == 2:
			var h struct {
				Contents struct {
					Value string `json:"value"`
				} `json:"contents"`
			}
			json.Unmarshal(m.Result, &h)
			hover = h.Contents.Value
		}
	}
	for _, k := range []string{"hoverProvider", "completionProvider", "definitionProvider", "referencesProvider", "documentFormattingProvider", "documentSymbolProvider"} {
		if v, ok := caps[k]; !ok || v == false {
			t.Errorf("initialize does not advertise %s: %v", k, caps)
		}
	}
	if len(diags) != 1 || !strings.Contains(diags[0].Message, "switching") {
		t.Errorf("diagnostics = %+v, want one naming switching", diags)
	}
	if !strings.Contains(hover, "delta") || !strings.Contains(hover, "2us") {
		t.Errorf("hover on delta = %q, want its value 2us", hover)
	}
}

type lspMessage struct {
	ID     *int            `json:"id"`
	Method string          `json:"method"`
	Params json.RawMessage `json:"params"`
	Result json.RawMessage `json:"result"`
}

// readFrames splits the server's output into its messages, checking each
// header.
func readFrames(t *testing.T, r io.Reader) []lspMessage {
	t.Helper()
	br := bufio.NewReader(r)
	var out []lspMessage
	for {
		line, err := br.ReadString('\n')
		if err == io.EOF && line == "" {
			return out
		}
		n, err := strconv.Atoi(strings.TrimSuffix(strings.TrimPrefix(line, "Content-Length: "), "\r\n"))
		if err != nil || !strings.HasSuffix(line, "\r\n") {
			t.Fatalf("bad header %q", line)
		}
		if blank, _ := br.ReadString('\n'); blank != "\r\n" {
			t.Fatalf("header not ended by an empty line: %q", blank)
		}
		body := make([]byte, n)
		if _, err := io.ReadFull(br, body); err != nil {
			t.Fatal(err)
		}
		var m lspMessage
		if err := json.Unmarshal(body, &m); err != nil {
			t.Fatalf("%v: %s", err, body)
		}
		out = append(out, m)
	}
}
