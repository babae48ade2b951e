// Package marks defines the cty value marks tfeval attaches to values:
// sensitive and ephemeral data, values a test run drew where a provider
// would draw them at random, the console-only type() result, and the Unread
// marks on unknown values that say what tfeval could not know and why (a
// provider's computed attribute, a data source, a module not installed, a
// variable without a value). Every package that creates or inspects such
// values uses these, so a mark set by a function is recognised by the
// evaluator, the renderer and every output format.
package marks
