package funcs

import (
	"testing"
	"time"

	"github.com/tfeval/tfeval/dialect"
)

func TestDatetime(t *testing.T) {
	bothDialects(t, []fnCase{
		{expr: `formatdate("EEEE, DD-MMM-YY hh:mm:ss ZZZ", "2018-01-02T23:12:01Z")`, want: `"Tuesday, 02-Jan-18 23:12:01 UTC"`},
		{expr: `timeadd("2017-11-22T00:00:00Z", "-1h30m")`, want: `"2017-11-21T22:30:00Z"`},
		{expr: `timecmp("2017-11-22T00:00:00Z", "2017-11-22T01:00:00Z")`, want: `-1`},
		{expr: `timecmp("2017-11-22T01:00:00+01:00", "2017-11-22T00:00:00Z")`, want: `0`},
		{expr: `timecmp("bad", "2017-11-22T00:00:00Z")`, err: `Invalid value for "timestamp_a" parameter: not a valid RFC3339 timestamp: cannot use "bad" as year.`},
		{expr: `timecmp("2017-11-22T00:00:00Z", "2017-11-22")`, err: `Invalid value for "timestamp_b" parameter: not a valid RFC3339 timestamp: missing required time introducer 'T'.`},
		{expr: `timecmp("2017-11-22T00:00:00", "2017-11-22T00:00:00Z")`, err: `not a valid RFC3339 timestamp: end of string before UTC offset.`},
		{expr: `timecmp(unk_str, "2017-11-22T00:00:00Z")`, want: `(known after apply)`},
		{expr: `plantimestamp()`, err: `There is no function named "plantimestamp".`},
	})
	fixed := time.Date(2024, 5, 6, 7, 8, 9, 0, time.FixedZone("X", 3600))
	runCasesWith(t, Options{Now: func() time.Time { return fixed }}, []fnCase{
		{expr: `timestamp()`, want: `"2024-05-06T06:08:09Z"`},
		{expr: `plantimestamp()`, want: `(known after apply)`},
		{expr: `plantimestamp() == null`, want: `false`},
		{expr: `type`, err: `Unknown variable`},
	})
	runCasesWith(t, Options{Dialect: dialect.Tofu, PlanTimestamp: fixed.UTC()}, []fnCase{
		{expr: `plantimestamp()`, want: `"2024-05-06T06:08:09Z"`},
		{expr: `type(1)`, err: `There is no function named "type".`},
	})
}
