// Package testfiles writes the small module trees that tests across the
// repository evaluate: files given by path and content, written into a
// directory the test owns. It is for tests only.
package testfiles
