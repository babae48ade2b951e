package providerfuncs

import (
	"testing"

	"github.com/zclconf/go-cty/cty"
)

func TestGoogleFunctions(t *testing.T) {
	const service = "projects/my-project/locations/us-central1/services/my-service"
	const instance = "https://www.googleapis.com/compute/v1/projects/my-project/zones/us-central1-c/instances/my-instance"
	const subnet = "projects/my-project/regions/us-central1/subnetworks/my-subnetwork"
	cases := []callCase{
		// The documented examples.
		{name: "location_from_id", args: strs("https://run.googleapis.com/v2/" + service), want: cty.StringVal("us-central1")},
		{name: "region_from_zone", args: strs("us-central1-b"), want: cty.StringVal("us-central1")},

		{name: "location_from_id", args: strs(service), want: cty.StringVal("us-central1")},
		{name: "location_from_id", args: strs("//run.googleapis.com/v2/" + service), want: cty.StringVal("us-central1")},
		{name: "location_from_id", comment: "(the first of two)", args: strs("projects/p/locations/one/locations/two/services/s"), want: cty.StringVal("one")},
		{name: "location_from_id", args: strs("zones/us-central1-c/instances/my-instance"), argErr: true,
			err: `The input string "zones/us-central1-c/instances/my-instance" doesn't contain the expected pattern "locations/{location}/".`},
		{name: "name_from_id", args: strs(instance), want: cty.StringVal("my-instance")},
		{name: "name_from_id", args: strs("my-instance"), argErr: true, err: `The input string "my-instance" doesn't contain the expected pattern "resourceType/{name}$".`},
		{name: "name_from_id", comment: "(a trailing slash)", args: strs(instance + "/"), argErr: true,
			err: `The input string "` + instance + `/" doesn't contain the expected pattern "resourceType/{name}$".`},
		{name: "project_from_id", args: strs(instance), want: cty.StringVal("my-project")},
		{name: "project_from_id", args: strs("projects/my-project"), argErr: true, err: `The input string "projects/my-project" doesn't contain the expected pattern "projects/{project}/".`},
		{name: "region_from_id", args: strs(subnet), want: cty.StringVal("us-central1")},
		{name: "region_from_id", args: strs(instance), argErr: true, err: `The input string "` + instance + `" doesn't contain the expected pattern "regions/{region}/".`},
		{name: "zone_from_id", args: strs(instance), want: cty.StringVal("us-central1-c")},
		{name: "zone_from_id", args: strs(subnet), argErr: true, err: `The input string "` + subnet + `" doesn't contain the expected pattern "zones/{zone}/".`},
		{name: "region_from_zone", args: strs("europe-west1-b"), want: cty.StringVal("europe-west1")},
		{name: "region_from_zone", args: strs("us-central1"), argErr: true, err: `The input string "us-central1" is not a valid zone name.`},
		{name: "region_from_zone", args: strs(""), argErr: true, err: "The input string cannot be empty."},
	}
	for _, src := range []string{"hashicorp/google", "hashicorp/google-beta"} {
		runCases(t, src, cases)
	}
}
