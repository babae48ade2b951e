package config

import (
	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclsyntax"

	"github.com/tfeval/tfeval/override"
)

// VisibleContent returns what a body holds without knowing its schema:
// every attribute and block as written, less those a decoder already took
// out of it with PartialContent (a remainder hclsyntax body still holds
// those, only hidden). JSON bodies cannot tell attributes from blocks
// without a schema, so everything in them comes back as an attribute.
func VisibleContent(body hcl.Body) *hcl.BodyContent {
	if body == nil {
		return &hcl.BodyContent{}
	}
	schema := &hcl.BodySchema{}
	seenAttrs, seenBlocks := map[string]bool{}, map[string]bool{}
	var collect func(body hcl.Body)
	collect = func(body hcl.Body) {
		if base, over, ok := override.Layers(body); ok {
			// A body an override file was merged into: what either has.
			collect(base)
			collect(over)
			return
		}
		if sb, ok := body.(*hclsyntax.Body); ok {
			for name := range sb.Attributes {
				if !seenAttrs[name] {
					seenAttrs[name] = true
					schema.Attributes = append(schema.Attributes, hcl.AttributeSchema{Name: name})
				}
			}
			for _, b := range sb.Blocks {
				if !seenBlocks[b.Type] {
					seenBlocks[b.Type] = true
					schema.Blocks = append(schema.Blocks, hcl.BlockHeaderSchema{Type: b.Type, LabelNames: make([]string, len(b.Labels))})
				}
			}
			return
		}
		attrs, _ := body.JustAttributes()
		for name := range attrs {
			if !seenAttrs[name] {
				seenAttrs[name] = true
				schema.Attributes = append(schema.Attributes, hcl.AttributeSchema{Name: name})
			}
		}
	}
	collect(body)
	content, _, _ := body.PartialContent(schema)
	return content
}

// BodyTraversals lists every reference in a body whose schema is not known
// (provisioner and connection blocks): all attributes, nested blocks
// included, in source order, meta-arguments left out.
func BodyTraversals(body hcl.Body) []hcl.Traversal {
	content := VisibleContent(body)
	var travs []hcl.Traversal
	for _, attr := range sortedAttributes(content.Attributes) {
		travs = append(travs, attr.Expr.Variables()...)
	}
	for _, b := range content.Blocks {
		travs = append(travs, BodyTraversals(b.Body)...)
	}
	return travs
}

// checkDestroyProvisionerRefs enforces that a destroy-time provisioner and
// its connection refer only to the resource itself: during destroy the
// other objects may already be gone.
func checkDestroyProvisionerRefs(p *Provisioner) hcl.Diagnostics {
	if p.When != "destroy" {
		return nil
	}
	refs := exprRefs(p.Config)
	if p.Connection != nil {
		refs = append(refs, exprRefs(p.Connection.Config)...)
	}
	return destroyTimeRefs(refs)
}

// checkDestroyConnection applies the same rule to a resource's own
// connection block when one of its provisioners runs at destroy time.
func checkDestroyConnection(r *Resource) hcl.Diagnostics {
	if r.Managed == nil || r.Managed.Connection == nil {
		return nil
	}
	for _, p := range r.Managed.Provisioners {
		if p.When == "destroy" {
			return destroyTimeRefs(exprRefs(r.Managed.Connection.Config))
		}
	}
	return nil
}

// exprRef is a reference together with the expression that makes it.
type exprRef struct {
	trav hcl.Traversal
	expr hcl.Range
}

// exprRefs lists the references of a body as BodyTraversals does, each with
// the range of the whole expression holding it: that is where Terraform
// points a destroy-time provisioner's bad reference, once per reference.
func exprRefs(body hcl.Body) []exprRef {
	content := VisibleContent(body)
	var refs []exprRef
	for _, attr := range sortedAttributes(content.Attributes) {
		for _, t := range attr.Expr.Variables() {
			refs = append(refs, exprRef{trav: t, expr: attr.Expr.Range()})
		}
	}
	for _, b := range content.Blocks {
		refs = append(refs, exprRefs(b.Body)...)
	}
	return refs
}

// destroyTimeRefs reports the references a destroy-time configuration may
// not make.
func destroyTimeRefs(refs []exprRef) hcl.Diagnostics {
	var diags hcl.Diagnostics
	for _, ref := range refs {
		t := ref.trav
		switch t.RootName() {
		case "self", "path", "terraform":
			continue
		case "count", "each":
			if len(t) > 1 {
				if a, ok := t[1].(hcl.TraverseAttr); ok && (a.Name == "index" || a.Name == "key") {
					continue
				}
			}
		}
		diags = append(diags, &hcl.Diagnostic{
			Severity: hcl.DiagError,
			Summary:  "Invalid reference from destroy provisioner",
			Detail: "Destroy-time provisioners and their connection configurations may only reference attributes of the related resource, via 'self', 'count.index', or 'each.key'.\n\n" +
				"References to other resources during the destroy phase can cause dependency cycles and interact poorly with create_before_destroy.",
			Subject: ref.expr.Ptr(),
		})
	}
	return diags
}
