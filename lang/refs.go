package lang

import (
	"fmt"
	"math/big"

	"github.com/hashicorp/hcl/v2"
	"github.com/zclconf/go-cty/cty"

	"github.com/tfeval/tfeval/config"
	"github.com/tfeval/tfeval/dialect"
)

// refKind says what kind of object a reference names.
type refKind int

const (
	refVar refKind = iota
	refLocal
	refModule
	refResource
	refPath
	refTerraform
	refCount
	refEach
	refSelf
)

// reference is one parsed reference: the object a traversal starts with and
// what remains of the traversal after it.
type reference struct {
	kind refKind
	root string // the root symbol as written ("terraform" or "tofu", "resource", ...)
	name string // variable, local, attribute or module call name; resource name

	mode config.ResourceMode // resources
	typ  string              // resources

	key    cty.Value // instance key of module or resource, cty.NilVal when absent
	output string    // module output name, "" when the whole call or instance is referenced

	rng       hcl.Range     // range of the part naming the object
	remaining hcl.Traversal // traversal after the object
	trav      hcl.Traversal
}

// addr is a short text for the referenced object, used in dependency keys and messages.
func (r *reference) addr() string {
	switch r.kind {
	case refVar:
		return "var." + r.name
	case refLocal:
		return "local." + r.name
	case refModule:
		return "module." + r.name
	case refResource:
		switch r.mode {
		case config.DataResourceMode:
			return "data." + r.typ + "." + r.name
		case config.EphemeralResourceMode:
			return "ephemeral." + r.typ + "." + r.name
		}
		return r.typ + "." + r.name
	}
	return r.root + "." + r.name
}

func invalidRef(rng hcl.Range, detail string) *hcl.Diagnostic {
	return &hcl.Diagnostic{Severity: hcl.DiagError, Summary: "Invalid reference", Detail: detail, Subject: rng.Ptr()}
}

// parseRef turns a traversal into a reference. A nil reference without
// errors means the traversal names nothing the language resolves (a type
// keyword given to convert()). A reference may come back together with errors
// (a bare "var"), as Terraform then also looks the object up.
func parseRef(trav hcl.Traversal, d dialect.Dialect) (*reference, hcl.Diagnostics) {
	return parseRefIn(new(reference), trav, d)
}

// parseRefIn is parseRef filling in ref, so that the references of many
// traversals can be made in one allocation (parseRefs).
func parseRefIn(ref *reference, trav hcl.Traversal, d dialect.Dialect) (*reference, hcl.Diagnostics) {
	var diags hcl.Diagnostics
	root := trav.RootName()
	rootRange := trav[0].SourceRange()
	*ref = reference{root: root, trav: trav}

	switch root {
	case "count", "each", "local", "path", "var", "terraform", "tofu":
		if root == "tofu" && d != dialect.Tofu {
			break
		}
		switch root {
		case "count":
			ref.kind = refCount
		case "each":
			ref.kind = refEach
		case "local":
			ref.kind = refLocal
		case "path":
			ref.kind = refPath
		case "var":
			ref.kind = refVar
		default:
			ref.kind = refTerraform
		}
		ref.rng = rootRange
		if len(trav) < 2 {
			diags = append(diags, invalidRef(rootRange, fmt.Sprintf("The %q object cannot be accessed directly. Instead, access one of its attributes.", root)))
			return ref, diags
		}
		attr, ok := trav[1].(hcl.TraverseAttr)
		if !ok {
			diags = append(diags, invalidRef(trav[1].SourceRange(), fmt.Sprintf("The %q object does not support this operation.", root)))
			return nil, diags
		}
		ref.name = attr.Name
		ref.rng = hcl.RangeBetween(rootRange, attr.SrcRange)
		ref.remaining = trav[2:]
		return ref, nil

	case "self":
		ref.kind = refSelf
		ref.rng = rootRange
		ref.remaining = trav[1:]
		return ref, nil

	case "module":
		ref.kind = refModule
		if len(trav) < 2 {
			diags = append(diags, invalidRef(rootRange, `The "module" object cannot be accessed directly. Instead, access one of its attributes.`))
			return nil, diags
		}
		attr, ok := trav[1].(hcl.TraverseAttr)
		if !ok {
			diags = append(diags, invalidRef(trav[1].SourceRange(), `The "module" object does not support this operation.`))
			return nil, diags
		}
		ref.name = attr.Name
		ref.rng = hcl.RangeBetween(rootRange, attr.SrcRange)
		rest := trav[2:]
		if len(rest) > 0 {
			if idx, ok := rest[0].(hcl.TraverseIndex); ok {
				key, err := instanceKey(idx.Key)
				if err != nil {
					diags = append(diags, &hcl.Diagnostic{Severity: hcl.DiagError, Summary: "Invalid index key", Detail: fmt.Sprintf("Invalid index for module instance: %s.", err), Subject: idx.SrcRange.Ptr()})
					return nil, diags
				}
				ref.key = key
				ref.rng = hcl.RangeBetween(ref.rng, idx.SrcRange)
				rest = rest[1:]
			}
		}
		if len(rest) > 0 {
			if a, ok := rest[0].(hcl.TraverseAttr); ok {
				ref.output = a.Name
				ref.rng = hcl.RangeBetween(ref.rng, a.SrcRange)
				rest = rest[1:]
			} else if ref.key != cty.NilVal {
				diags = append(diags, invalidRef(rest[0].SourceRange(), "Module instance objects do not support this operation."))
				return nil, diags
			}
		}
		ref.remaining = rest
		return ref, nil

	case "data", "resource", "ephemeral":
		mode, what := config.ManagedResourceMode, "resource type and the resource name"
		switch root {
		case "data":
			mode, what = config.DataResourceMode, "data source type and the resource name"
		case "ephemeral":
			mode, what = config.EphemeralResourceMode, "ephemeral resource type and the resource name"
		}
		if len(trav) < 3 {
			diags = append(diags, invalidRef(trav.SourceRange(), fmt.Sprintf("The %q object must be followed by two attribute names: the %s.", root, what)))
			return nil, diags
		}
		return parseResourceRef(ref, mode, trav[1:], rootRange)

	case "template", "lazy", "arg":
		diags = append(diags, &hcl.Diagnostic{Severity: hcl.DiagError, Summary: "Reserved symbol name", Detail: fmt.Sprintf("The symbol name %q is reserved for use in a future Terraform version. If you are using a provider that already uses this as a resource type name, add the prefix \"resource.\" to force interpretation as a resource type name.", root), Subject: rootRange.Ptr()})
		return nil, diags
	}

	if d == dialect.Terraform && len(trav) == 1 {
		switch root {
		case "string", "number", "bool", "any":
			return nil, nil
		}
	}
	if len(trav) < 2 {
		diags = append(diags, invalidRef(rootRange, "A reference to a resource type must be followed by at least one attribute access, specifying the resource name."))
		return nil, diags
	}
	return parseResourceRef(ref, config.ManagedResourceMode, trav, rootRange)
}

// parseResourceRef parses TYPE.NAME[KEY]... (trav starts at TYPE).
func parseResourceRef(ref *reference, mode config.ResourceMode, trav hcl.Traversal, start hcl.Range) (*reference, hcl.Diagnostics) {
	var diags hcl.Diagnostics
	ref.kind = refResource
	ref.mode = mode
	var typeName string
	switch tt := trav[0].(type) {
	case hcl.TraverseRoot:
		typeName = tt.Name
	case hcl.TraverseAttr:
		typeName = tt.Name
	default:
		diags = append(diags, invalidRef(trav[0].SourceRange(), "A reference to a resource type must be followed by at least one attribute access, specifying the resource name."))
		return nil, diags
	}
	nameStep, ok := trav[1].(hcl.TraverseAttr)
	if !ok {
		detail := "A reference to a resource type must be followed by at least one attribute access, specifying the resource name."
		switch mode {
		case config.DataResourceMode:
			detail = "A data resource name is required."
		case config.EphemeralResourceMode:
			detail = "An ephemeral resource name is required."
		}
		diags = append(diags, invalidRef(trav[1].SourceRange(), detail))
		return nil, diags
	}
	ref.typ = typeName
	ref.name = nameStep.Name
	ref.rng = hcl.RangeBetween(start, nameStep.SrcRange)
	rest := trav[2:]
	if len(rest) > 0 {
		if idx, ok := rest[0].(hcl.TraverseIndex); ok {
			key, err := instanceKey(idx.Key)
			if err != nil {
				diags = append(diags, &hcl.Diagnostic{Severity: hcl.DiagError, Summary: "Invalid index key", Detail: fmt.Sprintf("Invalid index for resource instance: %s.", err), Subject: idx.SrcRange.Ptr()})
				return nil, diags
			}
			ref.key = key
			ref.rng = hcl.RangeBetween(ref.rng, idx.SrcRange)
			rest = rest[1:]
		}
	}
	ref.remaining = rest
	return ref, nil
}

// instanceKey validates an index used as an instance key: a whole number or a string.
func instanceKey(v cty.Value) (cty.Value, error) {
	if v.IsMarked() {
		v, _ = v.Unmark()
	}
	if !v.IsKnown() || v.IsNull() {
		return cty.NilVal, fmt.Errorf("key must be known and not null")
	}
	switch v.Type() {
	case cty.String:
		return v, nil
	case cty.Number:
		bf := v.AsBigFloat()
		if !bf.IsInt() {
			return cty.NilVal, fmt.Errorf("key must be a whole number")
		}
		i, _ := bf.Int64()
		return cty.NumberVal(new(big.Float).SetInt64(i)), nil
	}
	return cty.NilVal, fmt.Errorf("key must be a string or a number")
}

// ReferenceRange parses trav as a reference to an object of a module, as
// Terraform's reference parser does: the range of the part that names the
// object (local.NAME, TYPE.NAME[KEY], module.NAME.OUTPUT, self), or the
// errors of a traversal that names none ("Invalid reference", "Reserved
// symbol name"). ok is false for a traversal that is no reference to the
// language (a bare type keyword).
func ReferenceRange(trav hcl.Traversal, d dialect.Dialect) (rng hcl.Range, diags hcl.Diagnostics, ok bool) {
	ref, diags := parseRef(trav, d)
	if diags.HasErrors() {
		return hcl.Range{}, diags, true
	}
	if ref == nil {
		return hcl.Range{}, nil, false
	}
	return ref.rng, nil, true
}
