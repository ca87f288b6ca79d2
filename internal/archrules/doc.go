// Package archrules holds Parasol's import rules as a test, so that an
// arrow running the wrong way fails `go test ./...` rather than drifting
// into the code. The evaluator drives the runtime: eval compiles a
// machine into the runtime's network Spec (Machine.Spec) and a program
// into its schedule, and answers every query, analytically or by running
// the runtime; the runtime knows nothing of the language. The rules, each
// on the packages' own (non-test) imports:
//
//  1. runtime, and every package under it, depends on neither eval nor
//     parser (nor anything under them), directly or through another
//     package.
//  2. runtime uses lang only for the flat program schedule (Schedule,
//     SchedOp, SchedDep, SchedKind, Collective, the Op kinds, AnyRank,
//     AnyTag: lang/schedule.go) and for values and units (Value, Dim and
//     its dimensions, FormatNumber, FormatQuantity and the like), never
//     the AST: every lang.X that runtime's files name is on the list in
//     langAllowed.
//  3. lang, and the packages under it (the formatter, lang/format),
//     import no Parasol package outside lang but the leaf helpers under
//     internal/.
//  4. parser depends on neither eval nor runtime: it reads text into lang's
//     AST or schedules and evaluates nothing.
//  5. stdlib, and every package under it, depends on none of eval,
//     runtime and parser.
//  6. No package but cmd/parasol imports a package under cmd/: what the
//     CLI uses lives in the library.
//  7. No package but cmd/parasol imports lsp, the language server, and
//     no package but lsp imports the protocol libraries it is built on
//     (github.com/tliron/glsp, github.com/sourcegraph/jsonrpc2): the
//     library and the simulator do not carry them.
//
// Tests may cross these lines (runtime's external tests load machines
// through eval); what ships may not.
package archrules
