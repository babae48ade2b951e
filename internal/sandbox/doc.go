// Package sandbox is the one place where tfeval decides whether a file may
// be read, and reads it without the ways a file can hang a reader.
//
// A Dir is the directory an evaluation may read (the -sandbox option),
// resolved once: a relative path against the working directory Terraform
// would run in (-chdir, Options.WorkDir), and symbolic links followed, so
// that the loader, the variables files, the file functions and the
// diagnostics printer all mean the same directory. A path is inside it when
// its real location, every symbolic link followed, is; so "..", absolute
// paths and links to files or directories outside cannot leave it.
//
// Open refuses anything but a regular file before opening it for reading
// (opening a FIFO blocks until a writer comes, and a device such as
// /dev/zero or /dev/stdin never ends), and opens without blocking, so that
// a file replaced by a FIFO between the check and the open still cannot
// hang the reader. It applies whether or not a sandbox is set.
package sandbox
