package main

import (
	"os"
	"regexp"
	"strconv"
	"strings"
	"testing"
)

// docs/ACYCLIC.md's count of undelivered messages in the deadlocking
// all-to-all is what its first command prints: it said 47 of 56 (the
// figure of runtime's test, with 256-byte messages) beside a command that
// prints 44 of 56.
func TestACYCLICUndeliveredCountIsWhatItsCommandPrints(t *testing.T) {
	doc, err := os.ReadFile("../../docs/ACYCLIC.md")
	if err != nil {
		t.Fatal(err)
	}
	text := strings.Join(strings.Fields(string(doc)), " ")
	m := regexp.MustCompile(`deadlocks \((\d+) of 56 messages undelivered with sim's default 32-byte messages, as the first command below prints`).FindStringSubmatch(text)
	if m == nil {
		t.Fatal("docs/ACYCLIC.md no longer states the undelivered count of its first command")
	}
	const cmd = "parasol sim examples/ring.machine --op alltoall --routing shortest "
	if !strings.Contains(string(doc), cmd) {
		t.Fatalf("docs/ACYCLIC.md no longer shows %q", cmd)
	}
	var out, errOut strings.Builder
	e := &env{stdin: strings.NewReader(""), stdout: &out, stderr: &errOut}
	if code := run(e, []string{"sim", "../../examples/ring.machine", "--op", "alltoall", "--routing", "shortest"}); code != exitDeadlock {
		t.Fatalf("exit status %d, want %d (deadlock): %s", code, exitDeadlock, errOut.String())
	}
	d := regexp.MustCompile(`delivered (\d+) messages; (\d+) undelivered`).FindStringSubmatch(out.String())
	if d == nil {
		t.Fatalf("no delivered/undelivered count in:\n%s", out.String())
	}
	if d[2] != m[1] {
		t.Errorf("docs/ACYCLIC.md says %s of 56 undelivered; the command prints %s", m[1], d[2])
	}
	// 56 messages in all: 8 processors, each to the 7 others.
	if delivered, _ := strconv.Atoi(d[1]); delivered+mustAtoi(t, d[2]) != 8*7 {
		t.Errorf("delivered %s and undelivered %s do not make 56", d[1], d[2])
	}
}

func mustAtoi(t *testing.T, s string) int {
	t.Helper()
	n, err := strconv.Atoi(s)
	if err != nil {
		t.Fatal(err)
	}
	return n
}
