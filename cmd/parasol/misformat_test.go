package main

import (
	"fmt"
	"os"
	"regexp"
	"strings"

	"github.com/parasol-lang/parasol/lang"
	"github.com/parasol-lang/parasol/lang/format"
)

// misformattingMain runs parasol with a formatter that has a bug of the
// kind named by its first argument, so that scripts can show that fmt
// refuses to print or write what does not mean the same as the file:
// `exec parasol-misformatting change-meaning fmt -w m.machine`.
func misformattingMain() {
	if len(os.Args) < 2 {
		fmt.Fprintln(os.Stderr, "usage: parasol-misformatting change-meaning|drop-comment|break-syntax ARGS...")
		os.Exit(2)
	}
	kind := os.Args[1]
	formatText = func(f *lang.File) string {
		out := format.File(f)
		switch kind {
		case "change-meaning":
			return strings.Replace(out, " + ", " - ", 1)
		case "drop-comment":
			return regexp.MustCompile(`[ \t]*#[^\n]*`).ReplaceAllString(out, "")
		case "break-syntax":
			return strings.Replace(out, "}", "", 1)
		}
		fmt.Fprintln(os.Stderr, "parasol-misformatting: unknown kind", kind)
		os.Exit(2)
		return ""
	}
	os.Exit(runParasol(os.Args[2:]))
}
