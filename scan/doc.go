// Package scan is the repository scan: it finds the root modules of a
// directory tree, as a CI linter pointed at the top of a repository must,
// and runs work on every root in parallel while reporting in a stable
// order.
//
// Find walks the tree below a directory and lists every module directory
// (one holding .tf, .tf.json, and in OpenTofu .tofu or .tofu.json files),
// skipping hidden directories (.terraform and .git among them) and the
// Exclude patterns. A root is a module directory that no other module
// directory of the tree calls through a local source: a module used only
// as a child is evaluated through its callers, not alone. Options.AllDirs
// makes every module directory a root instead. Symbolic links to
// directories are not followed (the directories they name are scanned in
// place when they are inside the tree); one that leads out of the tree, or
// to a directory it is inside of, is reported once. An unreadable
// directory is a warning and the rest is scanned; the walk is bounded by
// Options.MaxDirs and stops when its context is done.
//
// Each runs a function on every root on up to a given number of goroutines
// and yields the results in root order as each and those before it are
// done, holding at most a few results that wait for an earlier one; a
// root whose work panics yields an "Internal error" diagnostic instead of
// ending the process. Once the roots' live heap has grown past LargeHeap,
// Each starts a root only when no other runs: such roots keep the CPUs
// busy by themselves, and two at once would hold twice the memory.
// EachCrowded also holds a root back, while a given function says so,
// until one of those running ends: the command line asks its collector's
// Pacer (gcpace.Pacer.Crowded) whether one more root in flight would take
// the heap past twice what the largest root would hold on its own.
// EachHeld gives each root a step function its evaluation calls with the
// resource instances it has expanded so far: a root past LargeRoot waits
// there until the roots before it have ended, so two large roots that
// started together do not run on side by side.
//
// The caches that make a scan cheaper than one run per root (a
// config.ModuleCache so each module directory is parsed once per path it
// is reached by, and a funcs.Cache so each file function input is read and
// decoded once) are the caller's: package tfeval's EvaluateRoots and the
// command line share one of each across the roots of a scan, and drop
// from it, as each root is reported, the module directories that
// Tree.LastReached says no later root reaches.
package scan
