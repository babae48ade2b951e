// Package tablegen is the command line the generators of tfeval's tables
// of provider schemas share (internal/setblockgen, internal/computedgen):
// a -provider and a -version flag, one schema document read from the file
// named, and the generated Go file written to standard output.
package tablegen
