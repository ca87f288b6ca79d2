package editors

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"
)

// findNvim returns the nvim binary, installing Neovim with apt when asked
// to (PARASOL_NVIM_TEST=1) as root on a system with apt, or skips the
// test saying why.
func findNvim(t *testing.T) string {
	t.Helper()
	if p, err := exec.LookPath("nvim"); err == nil {
		return p
	}
	if os.Getenv("PARASOL_NVIM_TEST") != "1" {
		t.Skip("Neovim (nvim) is not installed; install it, or set PARASOL_NVIM_TEST=1 to have this test install it with apt (as root)")
	}
	apt, err := exec.LookPath("apt-get")
	if err != nil || os.Geteuid() != 0 {
		t.Skip("PARASOL_NVIM_TEST=1, but Neovim can be installed only as root with apt-get; install nvim to run this test")
	}
	for _, args := range [][]string{{"update"}, {"install", "-y", "--no-install-recommends", "neovim"}} {
		cmd := exec.Command(apt, args...)
		cmd.Env = append(os.Environ(), "DEBIAN_FRONTEND=noninteractive")
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("apt-get %s: %v\n%s", strings.Join(args, " "), err, out)
		}
	}
	p, err := exec.LookPath("nvim")
	if err != nil {
		t.Fatal("apt-get installed neovim, but nvim is not on PATH")
	}
	return p
}

// A headless Neovim with editors/nvim's configuration, as its README
// says to set it up, opens examples/ring.machine with switching misspelt:
// the filetype is parasol, parasol lsp publishes the diagnostic naming
// switching at the misspelt name (line 15, column 3, 0-based 14 and 2),
// and a hover on param n gives its value, 8.
func TestNeovimSeesTheDiagnosticAndTheHover(t *testing.T) {
	nvim := findNvim(t)
	dir := t.TempDir()
	bin := filepath.Join(dir, "parasol")
	build := exec.Command("go", "build", "-o", bin, "../cmd/parasol")
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	data, err := os.ReadFile("../examples/ring.machine")
	if err != nil {
		t.Fatal(err)
	}
	text := strings.Replace(string(data), "\t\tswitching = wormhole", "\t\tswiching = wormhole", 1)
	if text == string(data) {
		t.Fatal("examples/ring.machine no longer sets switching = wormhole")
	}
	file := filepath.Join(dir, "ring.machine")
	if err := os.WriteFile(file, []byte(text), 0o666); err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(text, "\n")
	hoverLine := -1
	for i, l := range lines {
		if strings.Contains(l, "param n = 8") {
			hoverLine = i
		}
	}
	nvimDir, _ := filepath.Abs("nvim")
	vimDir, _ := filepath.Abs("vim")
	out := filepath.Join(dir, "out.txt")
	init := strings.Join([]string{
		"vim.opt.runtimepath:append(" + strconv.Quote(vimDir) + ")",
		"vim.opt.runtimepath:append(" + strconv.Quote(nvimDir) + ")",
		"vim.g.parasol_lsp_cmd = { " + strconv.Quote(bin) + ", 'lsp' }",
	}, "\n")
	check := strings.Join([]string{
		"local buf = vim.api.nvim_get_current_buf()",
		"local res = { 'filetype ' .. vim.bo.filetype }",
		"vim.wait(20000, function() return #vim.diagnostic.get(buf) > 0 end, 50)",
		"for _, d in ipairs(vim.diagnostic.get(buf)) do",
		"  table.insert(res, 'diagnostic ' .. d.lnum .. ':' .. d.col .. ' ' .. (d.message:gsub('\\n', ' ')))",
		"end",
		"local params = { textDocument = { uri = vim.uri_from_bufnr(buf) }, position = { line = " + strconv.Itoa(hoverLine) + ", character = 8 } }",
		"local resp = vim.lsp.buf_request_sync(buf, 'textDocument/hover', params, 20000)",
		"for _, r in pairs(resp or {}) do",
		"  if r.result then table.insert(res, 'hover ' .. (r.result.contents.value:gsub('\\n', ' '))) end",
		"  if r.err then table.insert(res, 'error ' .. vim.inspect(r.err)) end",
		"end",
		"vim.fn.writefile(res, " + strconv.Quote(out) + ")",
		"vim.cmd('qa!')",
	}, "\n")
	initFile, checkFile := filepath.Join(dir, "init.lua"), filepath.Join(dir, "check.lua")
	os.WriteFile(initFile, []byte(init+"\n"), 0o666)
	os.WriteFile(checkFile, []byte(check+"\n"), 0o666)
	// The deadline only keeps a stuck editor from hanging the test.
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, nvim, "--headless", "-i", "NONE", "-u", initFile, file, "-c", "luafile "+checkFile)
	cmd.Env = append(os.Environ(), "HOME="+dir, "XDG_CONFIG_HOME="+dir, "XDG_DATA_HOME="+dir, "XDG_STATE_HOME="+dir, "XDG_CACHE_HOME="+dir)
	cmd.Dir = dir
	if b, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("nvim: %v\n%s", err, b)
	}
	got, err := os.ReadFile(out)
	if err != nil {
		t.Fatalf("Neovim wrote no result: %v", err)
	}
	res := string(got)
	for _, want := range []string{"filetype parasol", "diagnostic 14:2 unknown field swiching in topology r (did you mean \"switching\"?)", "hover **param n** = `8`"} {
		if !strings.Contains(res, want) {
			t.Errorf("Neovim saw:\n%s\nwant a line with %q", res, want)
		}
	}
}
