// Package elements iterates the elements of a cty collection as
// cty.Value.ElementIterator does, with the same keys and elements in the
// same order, but without allocating for lists and tuples: cty's iterator
// makes a new number for the key of every element, even where the key is
// never read, and a for expression over a tuple in every instance of a
// resource pays that once per element per instance. It also walks values
// in place (Find) and builds sets of unmarked elements (Set) without the
// deep copies cty makes to look for marks.
package elements
