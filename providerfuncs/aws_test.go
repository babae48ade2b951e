package providerfuncs

import (
	"testing"

	"github.com/zclconf/go-cty/cty"
)

func TestAWSFunctions(t *testing.T) {
	arnObject := func(partition, service, region, account, resource string) cty.Value {
		return cty.ObjectVal(map[string]cty.Value{
			"partition":  cty.StringVal(partition),
			"service":    cty.StringVal(service),
			"region":     cty.StringVal(region),
			"account_id": cty.StringVal(account),
			"resource":   cty.StringVal(resource),
		})
	}
	runCases(t, "hashicorp/aws", []callCase{
		// The documented examples.
		{name: "arn_parse", args: strs("arn:aws:iam::444455556666:role/example"), want: arnObject("aws", "iam", "", "444455556666", "role/example")},
		{name: "arn_build", args: strs("aws", "iam", "", "444455556666", "role/example"), want: cty.StringVal("arn:aws:iam::444455556666:role/example")},
		{name: "trim_iam_role_path", args: strs("arn:aws:iam::444455556666:role/with/path/example"), want: cty.StringVal("arn:aws:iam::444455556666:role/example")},

		{name: "arn_parse", comment: "(the resource keeps its colons)", args: strs("arn:aws-cn:logs:cn-north-1:123:log-group:/x:*"),
			want: arnObject("aws-cn", "logs", "cn-north-1", "123", "log-group:/x:*")},
		{name: "arn_parse", args: strs("invalid"), err: "arn: invalid prefix"},
		{name: "arn_parse", args: strs("arn:aws:s3:::"), want: arnObject("aws", "s3", "", "", "")},
		{name: "arn_parse", args: strs("arn:aws:s3::bucket"), err: "arn: not enough sections"},
		{name: "trim_iam_role_path", args: strs("arn:aws:iam::444455556666:role/example"), want: cty.StringVal("arn:aws:iam::444455556666:role/example")},
		{name: "trim_iam_role_path", args: strs("foo"), err: "arn: invalid prefix"},
		{name: "trim_iam_role_path", args: strs("arn:aws:s3:::bucket/foo"), err: `service must be "iam"`},
		{name: "trim_iam_role_path", args: strs("arn:aws:iam:us-east-1:444455556666:role/example"), err: "region must be empty"},
		{name: "trim_iam_role_path", args: strs("arn:aws:iam::444455556666:policy/example"), err: `resource must begin with "role/"`},
		{name: "user_agent", args: strs("test-module", "0.0.1", "test comment"), want: cty.StringVal("test-module/0.0.1 (test comment)")},
		{name: "user_agent", args: strs("test-module", "", "test comment"), want: cty.StringVal("test-module (test comment)")},
		{name: "user_agent", args: strs("test-module", "0.0.1", ""), want: cty.StringVal("test-module/0.0.1")},
		{name: "user_agent", args: strs("", "1", "c"), err: "product_name must be set"},
	})
}
