package format

import (
	"encoding/json"
	"testing"

	"github.com/tfeval/tfeval/lang"
)

// Rule results are grouped by instance and by configuration object, each
// with the status of its rules together and the messages of failed ones.
func TestPlanChecks(t *testing.T) {
	results := []lang.CheckResult{
		{Object: "check.c", Kind: lang.CheckAssertion, Index: 0, Status: lang.CheckFail, ErrorMessage: "bad"},
		{Object: "check.c", Kind: lang.CheckAssertion, Index: 1, Status: lang.CheckPass},
		{Object: `module.m["a"].var.v`, Module: `module.m["a"]`, Kind: lang.CheckValidation, Status: lang.CheckPass},
		{Object: `module.m["b"].var.v`, Module: `module.m["b"]`, Kind: lang.CheckValidation, Status: lang.CheckUnknown},
		{Object: "terraform_data.x[1]", Kind: lang.CheckPostcondition, Status: lang.CheckPass},
		{Object: "data.d.k", Kind: lang.CheckPrecondition, Status: lang.CheckError},
		{Object: "output.o", Kind: lang.CheckPrecondition, Status: lang.CheckPass},
	}
	b, _ := json.Marshal(planChecks(results))
	want := `[` +
		`{"address":{"kind":"check","name":"c","to_display":"check.c"},"status":"fail","instances":[{"address":{"to_display":"check.c"},"status":"fail","problems":[{"message":"bad"}]}]},` +
		`{"address":{"kind":"resource","mode":"data","type":"d","name":"k","to_display":"data.d.k"},"status":"error","instances":[{"address":{"to_display":"data.d.k"},"status":"error"}]},` +
		`{"address":{"kind":"var","module":"module.m","name":"v","to_display":"module.m.var.v"},"status":"unknown","instances":[{"address":{"module":"module.m[\"a\"]","to_display":"module.m[\"a\"].var.v"},"status":"pass"},{"address":{"module":"module.m[\"b\"]","to_display":"module.m[\"b\"].var.v"},"status":"unknown"}]},` +
		`{"address":{"kind":"output_value","name":"o","to_display":"output.o"},"status":"pass","instances":[{"address":{"to_display":"output.o"},"status":"pass"}]},` +
		`{"address":{"kind":"resource","mode":"managed","type":"terraform_data","name":"x","to_display":"terraform_data.x"},"status":"pass","instances":[{"address":{"instance_key":1,"to_display":"terraform_data.x[1]"},"status":"pass"}]}` +
		`]`
	if string(b) != want {
		t.Errorf("checks\n got %s\nwant %s", b, want)
	}
}
