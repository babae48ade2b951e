package lang

import (
	"encoding/json"

	"github.com/hashicorp/hcl/v2"
	"github.com/zclconf/go-cty/cty"
	ctyjson "github.com/zclconf/go-cty/cty/json"

	"github.com/tfeval/tfeval/config"
	"github.com/tfeval/tfeval/internal/shape"
)

// testDocument is what the recorded corpus holds of a plan (the `eval
// -json` document's content, which package format writes): diagnostics,
// root outputs and resource instances, in show -json's terms. Tests of the
// evaluation compare results through it.
type testDocument struct {
	Diagnostics []testDiagnostic      `json:"diagnostics"`
	Outputs     map[string]testOutput `json:"outputs"`
	Resources   []testResource        `json:"resources"`
}

type testDiagnostic struct {
	Severity string `json:"severity"`
	Summary  string `json:"summary"`
	Detail   string `json:"detail"`
}

type testOutput struct {
	Sensitive bool             `json:"sensitive"`
	Unknown   any              `json:"unknown"`
	Type      json.RawMessage  `json:"type,omitempty"`
	Value     *json.RawMessage `json:"value,omitempty"`
}

type testResource struct {
	Address        string `json:"address"`
	Mode           string `json:"mode"`
	Type           string `json:"type"`
	Name           string `json:"name"`
	After          any    `json:"after"`
	AfterUnknown   any    `json:"after_unknown"`
	AfterSensitive any    `json:"after_sensitive"`
	Placeholder    bool   `json:"placeholder,omitempty"`
}

// newTestDocument describes a result (nil when evaluation did not run)
// with the given diagnostics.
func newTestDocument(r *Result, diags hcl.Diagnostics) *testDocument {
	doc := &testDocument{Diagnostics: []testDiagnostic{}, Outputs: map[string]testOutput{}, Resources: []testResource{}}
	for _, d := range diags {
		sev := "error"
		if d.Severity == hcl.DiagWarning {
			sev = "warning"
		}
		doc.Diagnostics = append(doc.Diagnostics, testDiagnostic{sev, d.Summary, d.Detail})
	}
	if r == nil || r.Root() == nil {
		return doc
	}
	root := r.Root()
	for name, v := range root.Outputs {
		decl := root.Config.Module.Outputs[name]
		o := testOutput{Sensitive: decl != nil && decl.Sensitive, Unknown: false}
		if !v.IsWhollyKnown() {
			o.Unknown = shape.Unknown(v)
		} else {
			uv, _ := v.UnmarkDeep()
			ty := uv.Type()
			if uv.IsNull() {
				ty, uv = cty.DynamicPseudoType, cty.NullVal(cty.DynamicPseudoType)
			}
			o.Type, _ = ctyjson.MarshalType(ty)
			vj, _ := ctyjson.Marshal(uv, ty)
			raw := json.RawMessage(vj)
			o.Value = &raw
		}
		doc.Outputs[name] = o
	}
	for _, ri := range r.Resources {
		mode := "managed"
		if ri.Mode == config.DataResourceMode {
			mode = "data"
		}
		doc.Resources = append(doc.Resources, testResource{
			Address: ri.Addr, Mode: mode, Type: ri.Type, Name: ri.Name,
			After: shape.Known(ri.Value), AfterUnknown: shape.Unknown(ri.Value), AfterSensitive: shape.Sensitive(ri.Value),
			Placeholder: ri.Placeholder,
		})
	}
	return doc
}
