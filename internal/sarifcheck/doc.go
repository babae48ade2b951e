// Package sarifcheck holds SARIF logs to what their readers require: the
// SARIF 2.1.0 schema's structure (Schema) and the rules GitHub code
// scanning applies when a log is uploaded (GitHub). It is for tests only.
package sarifcheck
