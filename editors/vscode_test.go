package editors

import (
	"bufio"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// The VS Code extension's manifest runs extension.js for parasol
// documents, and the language client depends on vscode-languageclient.
func TestVSCodeExtensionStartsTheLanguageServer(t *testing.T) {
	data, err := os.ReadFile("vscode/package.json")
	if err != nil {
		t.Fatal(err)
	}
	var pkg struct {
		Main             string            `json:"main"`
		ActivationEvents []string          `json:"activationEvents"`
		Dependencies     map[string]string `json:"dependencies"`
	}
	if err := json.Unmarshal(data, &pkg); err != nil {
		t.Fatal(err)
	}
	if pkg.Main != "./extension.js" || len(pkg.ActivationEvents) != 1 || pkg.ActivationEvents[0] != "onLanguage:parasol" {
		t.Errorf("main = %q, activationEvents = %v; want ./extension.js on onLanguage:parasol", pkg.Main, pkg.ActivationEvents)
	}
	if pkg.Dependencies["vscode-languageclient"] == "" {
		t.Errorf("dependencies = %v, want vscode-languageclient", pkg.Dependencies)
	}
}

// extension.js, run by Node with VS Code's modules replaced by stand-ins
// that record what it asks for, makes a language client for parasol
// documents that starts the configured binary with lsp (and
// --max-memory when configured); the command it names, run, answers
// initialize with the capabilities.
func TestVSCodeExtensionRunsParasolLSP(t *testing.T) {
	node, err := exec.LookPath("node")
	if err != nil {
		t.Skip("no node: the extension's script is not run")
	}
	dir := t.TempDir()
	bin := filepath.Join(dir, "parasol")
	if out, err := exec.Command("go", "build", "-o", bin, "../cmd/parasol").CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	ext, _ := filepath.Abs("vscode/extension.js")
	script := fmt.Sprintf(`
const Module = require('module');
const load = Module._load;
let made;
const config = {'server.path': %s, 'server.maxMemory': '1GB'};
Module._load = function (request, ...rest) {
	if (request === 'vscode') {
		return { workspace: { getConfiguration: (section) => ({ get: (k) => section === 'parasol' ? config[k] : undefined }) } };
	}
	if (request === 'vscode-languageclient/node') {
		return { LanguageClient: class {
			constructor(id, name, server, client) { made = { id, name, server, client }; }
			start() { return Promise.resolve(); }
			stop() {}
			dispose() {}
		} };
	}
	return load.call(this, request, ...rest);
};
const ext = require(%s);
const context = { subscriptions: [] };
ext.activate(context);
console.log(JSON.stringify({ made, subscriptions: context.subscriptions.length }));
`, strconv.Quote(bin), strconv.Quote(ext))
	out, err := exec.Command(node, "-e", script).CombinedOutput()
	if err != nil {
		t.Fatalf("node: %v\n%s", err, out)
	}
	var got struct {
		Made struct {
			ID     string `json:"id"`
			Server struct {
				Command string   `json:"command"`
				Args    []string `json:"args"`
			} `json:"server"`
			Client struct {
				DocumentSelector []map[string]string `json:"documentSelector"`
			} `json:"client"`
		} `json:"made"`
		Subscriptions int `json:"subscriptions"`
	}
	if err := json.Unmarshal(out, &got); err != nil {
		t.Fatalf("%v: %s", err, out)
	}
	m := got.Made
	if m.ID != "parasol" || m.Server.Command != bin || strings.Join(m.Server.Args, " ") != "lsp --max-memory 1GB" {
		t.Errorf("client = %+v, want parasol starting %s lsp --max-memory 1GB", m, bin)
	}
	if len(m.Client.DocumentSelector) != 1 || m.Client.DocumentSelector[0]["language"] != "parasol" || got.Subscriptions != 1 {
		t.Errorf("client options = %+v, subscriptions %d; want parasol documents, the client disposed with the extension", m.Client, got.Subscriptions)
	}
	// The command the extension starts answers initialize.
	cmd := exec.Command(m.Server.Command, m.Server.Args...)
	body := `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"capabilities":{}}}`
	cmd.Stdin = strings.NewReader(fmt.Sprintf("Content-Length: %d\r\n\r\n%s", len(body), body))
	res, err := cmd.Output()
	if err != nil {
		t.Fatalf("%s %s: %v", m.Server.Command, strings.Join(m.Server.Args, " "), err)
	}
	r := bufio.NewReader(strings.NewReader(string(res)))
	header, _ := r.ReadString('\n')
	if !strings.HasPrefix(header, "Content-Length: ") || !strings.Contains(string(res), `"hoverProvider":true`) {
		t.Errorf("the server answered %q, want the capabilities with hover", res)
	}
}
