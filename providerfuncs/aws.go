package providerfuncs

import (
	"errors"
	"strings"

	"github.com/zclconf/go-cty/cty"
	"github.com/zclconf/go-cty/cty/function"
)

// The functions of the hashicorp/aws provider. The ARN functions read and
// write ARNs as the AWS SDK for Go's arn package does.
var awsFunctions = map[string]function.Function{
	"arn_parse": newFunction(stringParams("arn"), arnObjectType, func(args []cty.Value) (cty.Value, error) {
		a, err := parseARN(args[0].AsString())
		if err != nil {
			return cty.NilVal, err
		}
		return cty.ObjectVal(map[string]cty.Value{
			"partition":  cty.StringVal(a.partition),
			"service":    cty.StringVal(a.service),
			"region":     cty.StringVal(a.region),
			"account_id": cty.StringVal(a.accountID),
			"resource":   cty.StringVal(a.resource),
		}), nil
	}),
	"arn_build": newFunction(stringParams("partition", "service", "region", "account_id", "resource"), cty.String, func(args []cty.Value) (cty.Value, error) {
		return cty.StringVal(arn{args[0].AsString(), args[1].AsString(), args[2].AsString(), args[3].AsString(), args[4].AsString()}.String()), nil
	}),
	"trim_iam_role_path": newFunction(stringParams("arn"), cty.String, func(args []cty.Value) (cty.Value, error) {
		a, err := parseARN(args[0].AsString())
		switch {
		case err != nil:
			return cty.NilVal, err
		case a.service != "iam":
			return cty.NilVal, errors.New(`service must be "iam"`)
		case a.region != "":
			return cty.NilVal, errors.New("region must be empty")
		case !strings.HasPrefix(a.resource, "role/"):
			return cty.NilVal, errors.New(`resource must begin with "role/"`)
		}
		a.resource = "role/" + a.resource[strings.LastIndexByte(a.resource, '/')+1:]
		return cty.StringVal(a.String()), nil
	}),
	"user_agent": newFunction(stringParams("product_name", "product_version", "comment"), cty.String, func(args []cty.Value) (cty.Value, error) {
		name, version, comment := args[0].AsString(), args[1].AsString(), args[2].AsString()
		if name == "" {
			return cty.NilVal, errors.New("product_name must be set")
		}
		if version != "" {
			name += "/" + version
		}
		if comment != "" {
			name += " (" + comment + ")"
		}
		return cty.StringVal(name), nil
	}),
}

// arnObjectType is the object arn_parse returns.
var arnObjectType = cty.Object(map[string]cty.Type{
	"partition":  cty.String,
	"service":    cty.String,
	"region":     cty.String,
	"account_id": cty.String,
	"resource":   cty.String,
})

// arn is an Amazon Resource Name:
// arn:PARTITION:SERVICE:REGION:ACCOUNT:RESOURCE.
type arn struct {
	partition, service, region, accountID, resource string
}

func (a arn) String() string {
	return "arn:" + a.partition + ":" + a.service + ":" + a.region + ":" + a.accountID + ":" + a.resource
}

// parseARN splits an ARN into its sections, the resource keeping any
// further colons, with the SDK's error texts.
func parseARN(s string) (arn, error) {
	if !strings.HasPrefix(s, "arn:") {
		return arn{}, errors.New("arn: invalid prefix")
	}
	sections := strings.SplitN(s, ":", 6)
	if len(sections) != 6 {
		return arn{}, errors.New("arn: not enough sections")
	}
	return arn{sections[1], sections[2], sections[3], sections[4], sections[5]}, nil
}
