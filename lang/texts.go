package lang

import (
	"fmt"

	"github.com/hashicorp/hcl/v2"

	"github.com/tfeval/tfeval/config"
	"github.com/tfeval/tfeval/dialect"
)

// texts holds the diagnostic wordings that differ between Terraform and OpenTofu.
type texts struct{ d dialect.Dialect }

func (ev *evaluator) texts() texts { return texts{ev.opts.Dialect} }

func (t texts) tofu() bool { return t.d == dialect.Tofu }

func (t texts) terraformAttr(root, name string) string {
	if t.tofu() {
		return fmt.Sprintf("The %q object does not have an attribute named %q. The only supported attribute is %s.workspace, the name of the currently-selected workspace.", root, name, root)
	}
	return fmt.Sprintf("The %q object does not have an attribute named %q. The only supported attributes are terraform.workspace, the name of the currently-selected workspace, and terraform.applying, a boolean which is true only during apply.", root, name)
}

func (t texts) undeclaredResource(ref *reference, mi *ModuleInstance) *hcl.Diagnostic {
	kind := map[config.ResourceMode]string{config.ManagedResourceMode: "managed resource", config.DataResourceMode: "data resource", config.EphemeralResourceMode: "ephemeral resource"}[ref.mode]
	article := "A"
	if ref.mode == config.EphemeralResourceMode {
		article = "An"
	}
	detail := fmt.Sprintf("%s %s %q %q has not been declared in %s.", article, kind, ref.typ, ref.name, moduleDesc(mi))
	if t.tofu() {
		detail = fmt.Sprintf("There is no %s %q %q definition in %s.", kind, ref.typ, ref.name, moduleDesc(mi))
	}
	if ref.mode == config.ManagedResourceMode {
		if _, ok := mi.Config.Module.DataResources["data."+ref.typ+"."+ref.name]; ok {
			detail += fmt.Sprintf(" Did you mean the data resource data.%s.%s?", ref.typ, ref.name)
		}
	}
	return &hcl.Diagnostic{Severity: hcl.DiagError, Summary: "Reference to undeclared resource", Detail: detail, Subject: ref.rng.Ptr()}
}

func (t texts) countUnknown(addr string) string {
	if t.tofu() {
		return fmt.Sprintf("The \"count\" value depends on resource attributes that cannot be determined until apply, so OpenTofu cannot predict how many instances will be created.\n\nTo work around this, use the planning option -exclude=%s to first apply without this object, and then apply normally to converge.", addr)
	}
	return `The "count" value depends on resource attributes that cannot be determined until apply, so Terraform cannot predict how many instances will be created. To work around this, use the -target argument to first apply only the resources that the count depends on.`
}

func (t texts) forEachUnknown(addr string, isMap bool) string {
	what := "set includes values derived from"
	if isMap {
		what = "map includes keys derived from"
	}
	if t.tofu() {
		return fmt.Sprintf("The \"for_each\" %s resource attributes that cannot be determined until apply, and so OpenTofu cannot determine the full set of keys that will identify the instances of this resource.\n\nWhen working with unknown values in for_each, it's better to use a map value where the keys are defined statically in your configuration and where only the values contain apply-time results.\n\nAlternatively, you could use the planning option -exclude=%s to first apply without this object, and then apply normally to converge.", what, addr)
	}
	return fmt.Sprintf("The \"for_each\" %s resource attributes that cannot be determined until apply, and so Terraform cannot determine the full set of keys that will identify the instances of this resource.\n\nWhen working with unknown values in for_each, it's better to use a map value where the keys are defined statically in your configuration and where only the values contain apply-time results.\n\nAlternatively, you could use the -target planning option to first apply only the resources that the for_each value depends on, and then apply a second time to fully converge.", what)
}

func (t texts) outputSensitive() string {
	return fmt.Sprintf("To reduce the risk of accidentally exporting sensitive data that was intended to be only internal, %s requires that any root module output containing sensitive data be explicitly marked as sensitive, to confirm your intent.\n\nIf you do intend to export this data, annotate the output value as sensitive by adding the following argument:\n    sensitive = true", t.d.Product())
}

func (t texts) ephemeralRootOutput() (string, string) {
	if t.tofu() {
		return "Invalid output configuration", "Root modules are not allowed to have outputs defined as ephemeral"
	}
	return "Ephemeral output not allowed", "Ephemeral outputs are not allowed in context of a root module"
}

func (t texts) ephemeralOutputValue() (string, string) {
	if t.tofu() {
		return "Output does not allow ephemeral value", "The value that was generated for the output is ephemeral, but it is not configured to allow one."
	}
	return "Ephemeral value not allowed", "This output value is not declared as returning an ephemeral value, so it cannot be set to a result derived from an ephemeral value."
}

func (t texts) ephemeralAttr(attr string) (string, string) {
	if t.tofu() {
		return "Ephemeral value used in non-ephemeral context", fmt.Sprintf("Attribute %q is referencing an ephemeral value but ephemeral values can be referenced only by other ephemeral attributes or by write-only ones.", "."+attr)
	}
	return "Invalid use of ephemeral value", fmt.Sprintf("Ephemeral values are not valid for %q, because it is not a write-only attribute and must be persisted to state.", attr)
}
