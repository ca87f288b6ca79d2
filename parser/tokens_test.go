package parser

import (
	"fmt"
	"strings"
	"testing"
)

func TestTokensReadsWhatTheParserReads(t *testing.T) {
	text := "machine \"m\" { # c\n\tparam d = 20ns * 2 // x\n\ts = \"open\n}"
	var got []string
	Tokens(text, func(kind TokenKind, off, n int) {
		got = append(got, fmt.Sprintf("%d:%s", kind, text[off:off+n]))
	})
	want := []string{"3:machine", `1:"m"`, "5:{", "6:# c", "3:param", "4:d", "5:=", "2:20ns", "5:*", "2:2", "6:// x",
		"4:s", "5:=", `7:"open`, "5:}"}
	if strings.Join(got, " ") != strings.Join(want, " ") {
		t.Errorf("tokens:\n got %v\nwant %v", got, want)
	}
}
