package tests

// quickstart is the README's example module.
const quickstart = "../testdata/examples/quickstart"
