// Package shape describes a planned value the way terraform show -json
// does, in three parts: its known parts (Known, a plan's "after"), where it
// is unknown (Unknown, "after_unknown") and where it is sensitive
// (Sensitive, "after_sensitive"). The output formats write them; tests of
// the evaluation compare values through them, in the recorded documents'
// terms.
package shape
