package benchgen

// providerSchema is the `terraform providers schema -json` document for the
// made-up provider bench/mock: one resource, mock_thing, with a set block
// rule and a list block setting, enough for the components' dynamic blocks.
const providerSchema = `{
  "format_version": "1.0",
  "provider_schemas": {
    "registry.terraform.io/bench/mock": {
      "provider": {
        "version": 0,
        "block": {
          "attributes": {
            "region": {"type": "string", "description_kind": "plain", "optional": true}
          },
          "description_kind": "plain"
        }
      },
      "resource_schemas": {
        "mock_thing": {
          "version": 0,
          "block": {
            "attributes": {
              "id": {"type": "string", "description_kind": "plain", "computed": true},
              "name": {"type": "string", "description_kind": "plain", "optional": true},
              "size": {"type": "number", "description_kind": "plain", "optional": true},
              "tags": {"type": ["map", "string"], "description_kind": "plain", "optional": true}
            },
            "block_types": {
              "rule": {
                "nesting_mode": "set",
                "block": {
                  "attributes": {
                    "port": {"type": "number", "description_kind": "plain", "optional": true},
                    "proto": {"type": "string", "description_kind": "plain", "optional": true}
                  },
                  "description_kind": "plain"
                }
              },
              "setting": {
                "nesting_mode": "list",
                "block": {
                  "attributes": {
                    "name": {"type": "string", "description_kind": "plain", "optional": true},
                    "value": {"type": "string", "description_kind": "plain", "optional": true}
                  },
                  "description_kind": "plain"
                }
              }
            },
            "description_kind": "plain"
          }
        }
      }
    }
  }
}
`
