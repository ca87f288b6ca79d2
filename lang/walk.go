package lang

// Inspect traverses an expression depth first, as go/ast's Inspect does:
// it calls f(e); if that returns true, it inspects each of e's operands in
// source order (a call's function, then its arguments; a sum's bounds, then
// its body), followed by a call of f(nil). A nil e is not visited; a
// literal or a name has no operands.
//
// It is the one place that knows which expressions hold which: an analysis
// handles the nodes it cares about in f and lets Inspect descend through
// the rest. One that needs a scope of its own for a node (a sum's
// variable) handles that node's operands itself and returns false.
func Inspect(e Expr, f func(Expr) bool) {
	if e == nil || !f(e) {
		return
	}
	switch e := e.(type) {
	case *Unary:
		Inspect(e.X, f)
	case *Binary:
		Inspect(e.X, f)
		Inspect(e.Y, f)
	case *Cond:
		Inspect(e.If, f)
		Inspect(e.Then, f)
		Inspect(e.Else, f)
	case *Call:
		Inspect(e.Fn, f)
		for _, a := range e.Args {
			Inspect(a, f)
		}
	case *Select:
		Inspect(e.X, f)
	case *Sum:
		Inspect(e.From, f)
		Inspect(e.To, f)
		Inspect(e.Body, f)
	case *NamedArg:
		Inspect(e.X, f)
	}
	f(nil)
}
