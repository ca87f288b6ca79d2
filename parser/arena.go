package parser

import (
	"unsafe"

	"github.com/parasol-lang/parasol/internal/slab"
	"github.com/parasol-lang/parasol/lang"
)

// arena hands out the syntax tree's most numerous nodes and lists from
// slabs, so that a large machine file costs a few allocations per hundred
// statements instead of several per statement. The slabs live as long as
// the tree does.
type arena struct {
	numbers  []lang.NumberLit
	idents   []lang.Ident
	binaries []lang.Binary
	calls    []lang.Call
	selects  []lang.Select
	fields   []lang.Field
	blocks   []lang.Block
	links    []lang.Link
	exprs    []lang.Expr
	stmts    []lang.Stmt

	// A Parasol I field whose value is a plain number, with its literal,
	// and link blocks held in one piece.
	numberFields []numberField
	linkPieces   *linkChunk
	linkPieceN   int // used of linkPieces.links

	// Lists under construction, nested ones above their parents'.
	exprStack []lang.Expr
	stmtStack []lang.Stmt
}

// numberField is a field and the number literal that is its value, in one
// record: a Parasol I link block is mostly such lines, and eval reads the
// literal right after the field.
type numberField struct {
	field lang.Field
	lit   lang.NumberLit
}

// linkNodes holds a Parasol I link block's nodes in one piece, for the
// commonest shape of block (eight fields after its header, all plain
// numbers): the block, its body and its fields with their literals. Their
// pointers to one another then stay within one allocation, which the
// garbage collector passes over without looking up, as it must look up a
// pointer to another: a file of a hundred thousand links holds some two
// million such pointers.
type linkNodes struct {
	block lang.Block
	body  [8]lang.Stmt
	lines [8]numberField
}

// minLinkLines is the fewest plain numbers of a link block after which the
// next is given a piece: a piece mostly empty would waste its room.
const minLinkLines = 6

// linkChunk is link pieces allocated together, with a copy of their
// file's Source for their positions to point at: a link's nineteen
// positions then point within the allocation like its other pointers,
// instead of each being looked up by the collector at the one Source
// (equal copies: see lang.Source.Same).
type linkChunk struct {
	src   lang.Source
	links [linkChunkLinks]linkNodes
}

// linkChunkLinks is the most link pieces one allocation holds: within the
// 128 KiB the collector scans as one piece, so that none of its pointers
// to itself is taken for a pointer elsewhere.
const linkChunkLinks = (120<<10 - int(unsafe.Sizeof(lang.Source{}))) / int(unsafe.Sizeof(linkNodes{}))

// linkPiece returns a zero link piece and the source its positions are
// to point at.
func (a *arena) linkPiece(src *lang.Source) (*linkNodes, *lang.Source) {
	if a.linkPieces == nil || a.linkPieceN == linkChunkLinks {
		a.linkPieces, a.linkPieceN = &linkChunk{src: *src}, 0
	}
	a.linkPieceN++
	return &a.linkPieces.links[a.linkPieceN-1], &a.linkPieces.src
}

// stmtSlab is the most statements one slab of the arena holds.
const stmtSlab = 2048

// alloc returns a zero T from slab. Slabs start small (a query makes a
// handful of nodes) and double up to a bound.
func alloc[T any](s *[]T) *T { return slab.Take(s, 512) }

// list copies items into slab and returns the copy, nil when there are no
// items; appending to it never overwrites a neighbour.
func list[T any](s *[]T, items []T) []T { return slab.Copy(s, items, stmtSlab) }

// exprList ends the expression list that starts at mark of exprStack.
func (a *arena) exprList(mark int) []lang.Expr {
	out := list(&a.exprs, a.exprStack[mark:])
	clear(a.exprStack[mark:])
	a.exprStack = a.exprStack[:mark]
	return out
}

// stmtList ends the statement list that starts at mark of stmtStack.
func (a *arena) stmtList(mark int) []lang.Stmt {
	out := list(&a.stmts, a.stmtStack[mark:])
	clear(a.stmtStack[mark:])
	a.stmtStack = a.stmtStack[:mark]
	return out
}
