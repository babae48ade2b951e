package tablegen

import (
	"encoding/json"
	"testing"
)

// TestSchemas: a schema document decodes into each provider's resource and
// data source schemas, read as the generator's own block type.
func TestSchemas(t *testing.T) {
	doc := `{"format_version":"1.0","provider_schemas":{"registry.terraform.io/hashicorp/aws":{
  "resource_schemas":{"aws_s3_bucket":{"block":{"attributes":{"arn":{"type":"string","computed":true}}}}},
  "data_source_schemas":{"aws_region":{"block":{"attributes":{"name":{"type":"string","optional":true}}}}}}}}`
	type block struct {
		Block struct {
			Attributes map[string]struct {
				Computed bool `json:"computed"`
			} `json:"attributes"`
		} `json:"block"`
	}
	var s Schemas[block]
	if err := json.Unmarshal([]byte(doc), &s); err != nil {
		t.Fatal(err)
	}
	p := s.ProviderSchemas["registry.terraform.io/hashicorp/aws"]
	if !p.ResourceSchemas["aws_s3_bucket"].Block.Attributes["arn"].Computed {
		t.Errorf("arn: %+v", p.ResourceSchemas)
	}
	if a, ok := p.DataSourceSchemas["aws_region"].Block.Attributes["name"]; !ok || a.Computed {
		t.Errorf("name: %+v", p.DataSourceSchemas)
	}
}
