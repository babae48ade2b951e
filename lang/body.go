package lang

import (
	"slices"
	"strings"
	"sync"

	"github.com/hashicorp/hcl/v2"
)

// guardedBody is a configuration body whose attribute expressions are
// evaluated through the limiter's guarded, accelerated copies. It also
// remembers its content for each schema, so the instances of a resource
// read the body's syntax once instead of once each.
type guardedBody struct {
	hcl.Body
	lim *limiter

	mu      sync.RWMutex
	entries []*contentEntry
	// plans are the iterator plans made for this body as a dynamic
	// block's content (blockDecoder.iteratorPlan).
	plans []planEntry
}

// planEntry is the iterator plan of a body for one decoder and iterator
// name; plan nil when the body needs the iterator object.
type planEntry struct {
	dec      *blockDecoder
	iterator string
	plan     *iteratorPlan
}

// iteratorPlan returns the remembered plan for dec and iterator.
func (b *guardedBody) iteratorPlan(dec *blockDecoder, iterator string) (*iteratorPlan, bool) {
	b.mu.RLock()
	defer b.mu.RUnlock()
	for _, e := range b.plans {
		if e.dec == dec && e.iterator == iterator {
			return e.plan, true
		}
	}
	return nil, false
}

func (b *guardedBody) rememberPlan(dec *blockDecoder, iterator string, plan *iteratorPlan) {
	b.mu.Lock()
	defer b.mu.Unlock()
	if len(b.plans) < maxContentEntries {
		b.plans = append(b.plans, planEntry{dec, iterator, plan})
	}
}

// maxContentEntries bounds the schemas one body remembers; hcldec and
// dynblock ask for very few.
const maxContentEntries = 8

// contentEntry is the content of a body for one schema, guarded.
type contentEntry struct {
	attrs   map[string]bool // attribute name → required
	blocks  map[string]int  // block type → number of labels
	partial bool
	content *hcl.BodyContent
	remain  hcl.Body
}

func newGuardedBody(body hcl.Body, lim *limiter) *guardedBody {
	return &guardedBody{Body: body, lim: lim}
}

func (b *guardedBody) Content(schema *hcl.BodySchema) (*hcl.BodyContent, hcl.Diagnostics) {
	if e := b.find(schema, false); e != nil {
		return e.content, nil
	}
	content, diags := b.Body.Content(schema)
	if len(diags) != 0 {
		content, diags = b.Body.Content(sortedSchema(schema))
	}
	guarded := b.guardContent(content)
	if len(diags) == 0 {
		b.remember(schema, false, guarded, nil)
	}
	return guarded, diags
}

// sortedSchema is schema with its attributes and blocks in name order. hcl
// suggests, for an argument the schema does not accept, the first close
// name in the schema's order, and hcldec builds schemas from a map: with
// the names sorted, "Did you mean" names the same one every run.
func sortedSchema(schema *hcl.BodySchema) *hcl.BodySchema {
	out := &hcl.BodySchema{
		Attributes: slices.Clone(schema.Attributes),
		Blocks:     slices.Clone(schema.Blocks),
	}
	slices.SortStableFunc(out.Attributes, func(a, b hcl.AttributeSchema) int { return strings.Compare(a.Name, b.Name) })
	slices.SortStableFunc(out.Blocks, func(a, b hcl.BlockHeaderSchema) int { return strings.Compare(a.Type, b.Type) })
	return out
}

func (b *guardedBody) PartialContent(schema *hcl.BodySchema) (*hcl.BodyContent, hcl.Body, hcl.Diagnostics) {
	if e := b.find(schema, true); e != nil {
		return e.content, e.remain, nil
	}
	content, remain, diags := b.Body.PartialContent(schema)
	if len(diags) != 0 {
		content, remain, diags = b.Body.PartialContent(sortedSchema(schema))
	}
	guarded := b.guardContent(content)
	if remain != nil {
		remain = newGuardedBody(remain, b.lim)
	}
	if len(diags) == 0 {
		b.remember(schema, true, guarded, remain)
	}
	return guarded, remain, diags
}

func (b *guardedBody) JustAttributes() (hcl.Attributes, hcl.Diagnostics) {
	attrs, diags := b.Body.JustAttributes()
	return b.guardAttributes(attrs), diags
}

// guardContent copies content with guarded expressions and guarded bodies.
func (b *guardedBody) guardContent(content *hcl.BodyContent) *hcl.BodyContent {
	if content == nil {
		return nil
	}
	out := &hcl.BodyContent{Attributes: b.guardAttributes(content.Attributes), MissingItemRange: content.MissingItemRange}
	if content.Blocks != nil {
		out.Blocks = make(hcl.Blocks, len(content.Blocks))
		// The copies are made in one allocation rather than one each.
		copies := make([]hcl.Block, len(content.Blocks))
		for i, blk := range content.Blocks {
			copies[i] = *blk
			copies[i].Body = newGuardedBody(blk.Body, b.lim)
			out.Blocks[i] = &copies[i]
		}
	}
	return out
}

func (b *guardedBody) guardAttributes(attrs hcl.Attributes) hcl.Attributes {
	if attrs == nil {
		return nil
	}
	out := make(hcl.Attributes, len(attrs))
	// The copies are made in one allocation rather than one each.
	copies, i := make([]hcl.Attribute, len(attrs)), 0
	for name, a := range attrs {
		copies[i] = *a
		copies[i].Expr = b.lim.guardExpr(a.Expr)
		out[name] = &copies[i]
		i++
	}
	return out
}

// find returns the remembered content for schema, compared as sets since
// hcldec lists a schema's attributes in map order.
func (b *guardedBody) find(schema *hcl.BodySchema, partial bool) *contentEntry {
	b.mu.RLock()
	defer b.mu.RUnlock()
next:
	for _, e := range b.entries {
		if e.partial != partial || len(e.attrs) != len(schema.Attributes) || len(e.blocks) != len(schema.Blocks) {
			continue
		}
		for _, a := range schema.Attributes {
			if req, ok := e.attrs[a.Name]; !ok || req != a.Required {
				continue next
			}
		}
		for _, blk := range schema.Blocks {
			if n, ok := e.blocks[blk.Type]; !ok || n != len(blk.LabelNames) {
				continue next
			}
		}
		return e
	}
	return nil
}

func (b *guardedBody) remember(schema *hcl.BodySchema, partial bool, content *hcl.BodyContent, remain hcl.Body) {
	e := &contentEntry{attrs: make(map[string]bool, len(schema.Attributes)), blocks: make(map[string]int, len(schema.Blocks)), partial: partial, content: content, remain: remain}
	for _, a := range schema.Attributes {
		if _, dup := e.attrs[a.Name]; dup {
			return
		}
		e.attrs[a.Name] = a.Required
	}
	for _, blk := range schema.Blocks {
		if _, dup := e.blocks[blk.Type]; dup {
			return
		}
		e.blocks[blk.Type] = len(blk.LabelNames)
	}
	b.mu.Lock()
	defer b.mu.Unlock()
	if len(b.entries) < maxContentEntries {
		b.entries = append(b.entries, e)
	}
}
