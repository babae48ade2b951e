// Package render turns values and types into text exactly as
// `terraform console` prints them: heredocs for multi-line strings,
// tolist/toset/tomap wrappers, typed nulls with a comment naming the type,
// "(known after apply)" for unknowns and "(sensitive value)" for secrets.
//
// It is a package of its own because both the CLI and library users (IDE
// hovers, test failure messages) want the console's rendering without the
// console.
package render
