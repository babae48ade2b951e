package providerfuncs

import (
	"errors"
	"fmt"
	"regexp"
	"strings"

	"github.com/zclconf/go-cty/cty"
	"github.com/zclconf/go-cty/cty/function"
)

// The ID functions of the hashicorp/google and hashicorp/google-beta
// providers: each *_from_id function takes a resource's ID, self link or full
// resource name and returns one of its elements.
var googleFunctions = map[string]function.Function{
	"location_from_id": idElementFunction(`locations/([^/]+)/`, "locations/{location}/"),
	"name_from_id":     idElementFunction(`/([^/]+)$`, "resourceType/{name}$"),
	"project_from_id":  idElementFunction(`projects/([^/]+)/`, "projects/{project}/"),
	"region_from_id":   idElementFunction(`regions/([^/]+)/`, "regions/{region}/"),
	"zone_from_id":     idElementFunction(`zones/([^/]+)/`, "zones/{zone}/"),
	"region_from_zone": newFunction(stringParams("zone"), cty.String, func(args []cty.Value) (cty.Value, error) {
		zone := args[0].AsString()
		if zone == "" {
			return cty.NilVal, function.NewArgError(0, errors.New("The input string cannot be empty."))
		}
		parts := strings.Split(zone, "-")
		if len(parts) < 3 {
			return cty.NilVal, function.NewArgError(0, fmt.Errorf("The input string \"%s\" is not a valid zone name.", zone))
		}
		return cty.StringVal(strings.Join(parts[:len(parts)-1], "-")), nil
	}),
}

// idElementFunction returns the first match of the pattern's group in the
// id argument; an id without a match is an error of the argument, which
// names the pattern as the provider writes it.
func idElementFunction(pattern, written string) function.Function {
	re := regexp.MustCompile(pattern)
	return newFunction(stringParams("id"), cty.String, func(args []cty.Value) (cty.Value, error) {
		id := args[0].AsString()
		m := re.FindStringSubmatch(id)
		if m == nil {
			return cty.NilVal, function.NewArgError(0, fmt.Errorf("The input string \"%s\" doesn't contain the expected pattern \"%s\".", id, written))
		}
		return cty.StringVal(m[1]), nil
	})
}
