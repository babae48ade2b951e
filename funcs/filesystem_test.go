package funcs

import (
	"os"
	"path/filepath"
	"strconv"
	"testing"

	"github.com/zclconf/go-cty/cty"

	"github.com/tfeval/tfeval/dialect"

	"github.com/tfeval/tfeval/internal/testfiles"
)

func TestFilesystem(t *testing.T) {
	dir := testfiles.Dir(t, map[string]string{
		"hello.txt":       "Hello World\n",
		"binary.bin":      "\xff\xfe",
		"files/a.txt":     "",
		"files/b.json":    "{}",
		"files/sub/c.txt": "",
	})
	for _, d := range []dialect.Dialect{dialect.Terraform, dialect.Tofu} {
		runCasesWith(t, Options{Dialect: d, BaseDir: dir}, []fnCase{
			{expr: `file("hello.txt")`, want: "<<EOT\nHello World\n\nEOT"},
			{expr: `file("./files/../hello.txt")`, want: "<<EOT\nHello World\n\nEOT"},
			{expr: `file("nope.txt")`, err: `Invalid value for "path" parameter: no file exists at "nope.txt"; this function works only with files`},
			{expr: `file(sensitive("nope.txt"))`, err: `no file exists at (sensitive value);`},
			{expr: `file(sensitive("hello.txt"))`, want: `(sensitive value)`},
			{expr: `file(unk_str)`, want: `(known after apply)`},
			{expr: `file("binary.bin")`, err: `Error in function call: Call to function "file" failed: contents of "binary.bin" are not valid UTF-8; use the filebase64 function`},
			{expr: `filebase64("binary.bin")`, want: `"//4="`},
			{expr: `filemd5("hello.txt")`, want: `"e59ff97941044f85df5297e1c302d260"`},
			{expr: `filesha256("hello.txt")`, want: `"d2a84f4b8b650937ec8f73cd8be2c74add5a911ba64df27458ed8229da804a26"`},
			{expr: `filebase64sha256("hello.txt")`, want: `"0qhPS4tlCTfsj3PNi+LHSt1akRumTfJ0WO2CKdqASiY="`},
			{expr: `fileexists("hello.txt")`, want: `true`},
			{expr: `fileexists("nope.txt")`, want: `false`},
			{expr: `fileexists("files")`, err: `Call to function "fileexists" failed: "files" is a directory, not a file.`},
			{expr: `fileexists("./files/../files")`, err: `failed: "files" is a directory, not a file.`},
			{expr: `fileset(".", "files/**/*.txt")`, want: "toset([\n  \"files/a.txt\",\n  \"files/sub/c.txt\",\n])"},
			{expr: `fileset("files", "*")`, want: "toset([\n  \"a.txt\",\n  \"b.json\",\n])"},
			// The same listing again, from the table's cache, with this call's marks.
			{expr: `fileset(sensitive("files"), "*")`, want: `(sensitive value)`},
			{expr: `fileset("files", "*")`, want: "toset([\n  \"a.txt\",\n  \"b.json\",\n])"},
			{expr: `fileset(".", "nomatch/*")`, want: `toset([])`},
			{expr: `fileset(".", "[")`, err: `failed to glob pattern "[": syntax error in pattern.`},
			{expr: `fileset("files", "[")`, err: `failed to glob pattern "files/[": syntax error in pattern.`},
			{expr: `file("./files/../nope.txt")`, err: `no file exists at "nope.txt";`},
			// A directory, read for its contents, and the hashing functions'
			// missing files and directories, as terraform v1.11.4 reports them:
			// the hashing functions fail with the system's error and name the
			// path even when it is sensitive.
			{expr: `file("files")`, err: `Invalid function argument: Invalid value for "path" parameter: failed to read file: read files: is a directory.`},
			{expr: `filebase64(sensitive("./files/"))`, err: `Invalid value for "path" parameter: failed to read file: read files: is a directory.`},
			{expr: `templatefile("files", {})`, err: `Invalid value for "path" parameter: failed to read file: read files: is a directory.`},
			{expr: `filemd5("nope.txt")`, err: `Error in function call: Call to function "filemd5" failed: open nope.txt: no such file or directory.`},
			{expr: `filesha256("./files/../nope.txt")`, err: `Call to function "filesha256" failed: open nope.txt: no such file or directory.`},
			{expr: `filebase64sha512(sensitive("nope.txt"))`, err: `Call to function "filebase64sha512" failed: open nope.txt: no such file or directory.`},
			{expr: `filesha1("files")`, err: `Error in function call: Call to function "filesha1" failed: read files: is a directory.`},
			{expr: `basename("foo/bar/baz.txt")`, want: `"baz.txt"`},
			{expr: `dirname("foo/bar/baz.txt")`, want: `"foo/bar"`},
			{expr: `pathexpand("relative/path")`, want: `"relative/path"`},
			{expr: `abspath("/already/abs")`, want: `"/already/abs"`},
			{expr: `abspath("files/../hello.txt")`, want: strconv.Quote(filepath.ToSlash(filepath.Join(dir, "hello.txt")))},
		})
	}
}

func TestFilesystemSandbox(t *testing.T) {
	outside := testfiles.Dir(t, map[string]string{"secret.txt": "top secret"})
	dir := testfiles.Dir(t, map[string]string{
		"mod/inside.txt": "fine",
		"other.txt":      "also fine",
	})
	if err := os.Symlink(filepath.Join(outside, "secret.txt"), filepath.Join(dir, "mod", "link.txt")); err != nil {
		t.Skip("symlinks unavailable:", err)
	}
	if err := os.Symlink(outside, filepath.Join(dir, "mod", "linkdir")); err != nil {
		t.Fatal(err)
	}
	sandbox := filepath.Join(dir, "mod")
	opts := Options{BaseDir: sandbox, Sandbox: sandbox}
	refused := "is outside the directory this evaluation may read"
	runCasesWith(t, opts, []fnCase{
		{expr: `file("inside.txt")`, want: `"fine"`},
		{expr: `file("../other.txt")`, err: refused},
		{expr: `file("` + filepath.ToSlash(filepath.Join(outside, "secret.txt")) + `")`, err: refused},
		{expr: `file("~/anything")`, err: refused},
		{expr: `file("link.txt")`, err: refused},
		{expr: `file("linkdir/secret.txt")`, err: refused},
		{expr: `file(sensitive("../other.txt"))`, err: `path (sensitive value) is outside`},
		{expr: `filemd5("../other.txt")`, err: refused},
		{expr: `fileexists("../other.txt")`, err: refused},
		{expr: `fileexists("../nope.txt")`, err: refused},
		{expr: `fileexists("nope.txt")`, want: `false`},
		{expr: `fileset("..", "*")`, err: refused},
		{expr: `fileset(".", "*.txt")`, err: refused},
		{expr: `fileset(".", "inside.*")`, want: "toset([\n  \"inside.txt\",\n])"},
		{expr: `templatefile("../other.txt", {})`, err: refused},
	})
}

// TestPlanReadsFilesOnce: within one plan a directory is listed once for
// a pattern and a file read once as text (files do not change during a
// plan), while a console session sees files that change between its calls.
func TestPlanReadsFilesOnce(t *testing.T) {
	for _, console := range []bool{false, true} {
		dir := testfiles.Dir(t, map[string]string{"lib/a.json": "{}", "t.tftpl": "one"})
		fns := Functions(Options{Dialect: dialect.Terraform, BaseDir: dir, ConsoleMode: console})
		call := func(name string, args ...cty.Value) cty.Value {
			v, err := fns[name].Call(args)
			if err != nil {
				t.Fatal(err)
			}
			return v
		}
		read := func() (int, string, string) {
			return call("fileset", cty.StringVal("lib"), cty.StringVal("*.json")).LengthInt(),
				call("file", cty.StringVal("t.tftpl")).AsString(),
				call("templatefile", cty.StringVal("t.tftpl"), cty.EmptyObjectVal).AsString()
		}
		n, text, rendered := read()
		if n != 1 || text != "one" || rendered != "one" {
			t.Fatalf("console %v: first reads give %d, %q, %q", console, n, text, rendered)
		}
		testfiles.Write(t, dir, map[string]string{"lib/b.json": "{}", "t.tftpl": "two"})
		wantN, wantText := 1, "one"
		if console {
			wantN, wantText = 2, "two"
		}
		if n, text, rendered := read(); n != wantN || text != wantText || rendered != wantText {
			t.Errorf("console %v: after the files changed: %d, %q, %q; want %d, %q", console, n, text, rendered, wantN, wantText)
		}
	}
}
