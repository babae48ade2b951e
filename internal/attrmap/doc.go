// Package attrmap lends the short-lived maps of attribute values that
// objects are built from. cty.ObjectVal and cty.MapVal copy the map they
// are given, so a map filled only to build one value is garbage at once;
// evaluation builds such a value for every object constructor, every
// merge and every reference context of every instance, and reusing the
// maps keeps that work away from the garbage collector.
package attrmap
