package funcs

import (
	"encoding/base64"
	"errors"
	"fmt"
	"hash"
	"io/fs"
	"os"
	"path/filepath"
	"unicode/utf8"

	homedir "github.com/mitchellh/go-homedir"
	"github.com/zclconf/go-cty/cty"
	"github.com/zclconf/go-cty/cty/function"

	"github.com/tfeval/tfeval/internal/sandbox"
)

// filesystemFunctions read files; templatestring templates may not call them.
var filesystemFunctions = []string{
	"file", "fileexists", "fileset", "filebase64", "filebase64sha256", "filebase64sha512",
	"filemd5", "filesha1", "filesha256", "filesha512", "templatefile",
}

// resolvePath turns a file function's path argument into the file to open:
// ~ expanded, relative paths joined to BaseDir, cleaned, and kept inside
// the sandbox when one is set.
func (e *env) resolvePath(path string, m cty.ValueMarks) (string, error) {
	expanded, err := homedir.Expand(path)
	if err != nil {
		return "", fmt.Errorf("failed to expand ~: %w", err)
	}
	if !filepath.IsAbs(expanded) {
		expanded = filepath.Join(e.opts.BaseDir, expanded)
	}
	expanded = filepath.Clean(expanded)
	if err := e.checkSandbox(expanded, path, m); err != nil {
		return "", err
	}
	return expanded, nil
}

// displayPath is a path argument as Terraform names it in messages: ~
// expanded and cleaned, but relative paths left relative, because Terraform
// joins them to its base directory ".", not to an absolute directory.
func displayPath(given string) string {
	if expanded, err := homedir.Expand(given); err == nil {
		given = expanded
	}
	return filepath.Clean(given)
}

// checkSandbox refuses a path whose real location, after following
// symlinks, is not inside the sandbox.
func (e *env) checkSandbox(resolved, given string, m cty.ValueMarks) error {
	if e.boxErr != nil {
		return function.NewArgErrorf(0, "%s", e.boxErr)
	}
	ok, err := e.box.Contains(resolved)
	if err != nil {
		return function.NewArgErrorf(0, "cannot resolve path %s: %s", redactIfSensitive(given, m), err)
	}
	if !ok {
		return function.NewArgErrorf(0, "path %s is outside the directory this evaluation may read (%s); file functions only read files inside it", redactIfSensitive(given, m), e.box.Root())
	}
	return nil
}

// openFile opens the regular file a path argument names. Anything else (a
// FIFO, a device such as /dev/stdin, a directory) is refused before it is
// opened, since opening or reading it could block forever.
//
// A missing file or a directory is reported in Terraform's words, which
// differ by function: the functions that read a file's contents (file,
// filebase64, templatefile) call the argument invalid, and the hashing
// functions (filemd5, filesha*, filebase64sha*; hashing true) fail with the
// operating system's error, naming the path even when it is sensitive.
func (e *env) openFile(path string, m cty.ValueMarks, hashing bool) (fs.File, fs.FileInfo, error) {
	resolved, err := e.resolvePath(path, m)
	if err != nil {
		return nil, nil, err
	}
	f, fi, err := e.box.Open(resolved)
	if err != nil {
		if os.IsNotExist(err) {
			if hashing {
				return nil, nil, fmt.Errorf("open %s: no such file or directory", displayPath(path))
			}
			return nil, nil, function.NewArgErrorf(0, "no file exists at %s; this function works only with files that are distributed as part of the configuration source code, so if this file will be created by a resource in this configuration you must instead obtain this result from an attribute of that resource", redactIfSensitive(displayPath(path), m))
		}
		if errors.Is(err, sandbox.ErrDirectory) {
			if hashing {
				return nil, nil, fmt.Errorf("read %s: is a directory", displayPath(path))
			}
			return nil, nil, function.NewArgErrorf(0, "failed to read file: read %s: is a directory", displayPath(path))
		}
		if errors.Is(err, sandbox.ErrNotRegular) {
			return nil, nil, function.NewArgErrorf(0, "%s is not a regular file; file functions read only regular files, since reading a device or a pipe could block forever", redactIfSensitive(displayPath(path), m))
		}
		return nil, nil, err
	}
	return f, fi, nil
}

// readFile returns the contents of the file a path argument names.
func (e *env) readFile(path string, m cty.ValueMarks) ([]byte, error) {
	src, _, err := e.readFileInfo(path, m)
	return src, err
}

// readFileInfo is readFile that also describes the file read.
func (e *env) readFileInfo(path string, m cty.ValueMarks) ([]byte, fs.FileInfo, error) {
	f, fi, err := e.openFile(path, m, false)
	if err != nil {
		return nil, nil, err
	}
	defer f.Close()
	src, err := readLimited(f, fi.Size(), e.limits.MaxFileSize, redactIfSensitive(displayPath(path), m))
	return src, fi, err
}

// readUTF8File is readFile for functions that need text.
// In a plan, where files do not change, the text of each path is read
// once: a module whose instances render the same templates reads each
// file once, not once per instance and call.
func (e *env) readUTF8File(path string, m cty.ValueMarks) (string, error) {
	// A console session lasts while files change; a plan does not.
	cache := !e.opts.ConsoleMode
	if text, ok := e.texts.get(path); ok && cache {
		return text, nil
	}
	// Another table given the same Cache may have read the file; this
	// table's sandbox is checked first all the same.
	var resolved string
	if e.shared != nil {
		var err error
		if resolved, err = e.resolvePath(path, m); err != nil {
			return "", err
		}
		if fi, err := e.box.Stat(resolved); err == nil && fi.Mode().IsRegular() {
			if text, ok := e.shared.text(resolved, fi); ok {
				e.texts.put(path, text, len(text))
				return text, nil
			}
		}
	}
	src, fi, err := e.readFileInfo(path, m)
	if err != nil {
		return "", err
	}
	if !utf8.Valid(src) {
		return "", fmt.Errorf("contents of %s are not valid UTF-8; use the filebase64 function to obtain the Base64 encoded contents or the other file functions (e.g. filemd5, filesha256) to obtain file hashing results instead", redactIfSensitive(displayPath(path), m))
	}
	text := string(src)
	if cache {
		e.texts.put(path, text, len(text))
		if e.shared != nil {
			e.shared.putText(resolved, text, fi)
		}
	}
	return text, nil
}

// maxCachedTextBytes bounds the file texts one table keeps.
const maxCachedTextBytes = 32 << 20

// fileFunc reads a file as text (file) or as Base64 (filebase64).
func (e *env) fileFunc(asBase64 bool) function.Function {
	return function.New(&function.Spec{
		Params:       []function.Parameter{{Name: "path", Type: cty.String, AllowMarked: true}},
		Type:         function.StaticReturnType(cty.String),
		RefineResult: refineNotNull,
		Impl: func(args []cty.Value, _ cty.Type) (cty.Value, error) {
			p, m := args[0].Unmark()
			if asBase64 {
				src, err := e.readFile(p.AsString(), m)
				if err != nil {
					return cty.UnknownVal(cty.String), err
				}
				return cty.StringVal(base64.StdEncoding.EncodeToString(src)).WithMarks(m), nil
			}
			s, err := e.readUTF8File(p.AsString(), m)
			if err != nil {
				return cty.UnknownVal(cty.String), err
			}
			return cty.StringVal(s).WithMarks(m), nil
		},
	})
}

// fileHashFunc builds filemd5/filesha*/filebase64sha*: a digest of a file's
// bytes, streamed so that large files need no memory.
func (e *env) fileHashFunc(newHash func() hash.Hash, enc func([]byte) string) function.Function {
	return function.New(&function.Spec{
		Params:       []function.Parameter{{Name: "path", Type: cty.String, AllowMarked: true}},
		Type:         function.StaticReturnType(cty.String),
		RefineResult: refineNotNull,
		Impl: func(args []cty.Value, _ cty.Type) (cty.Value, error) {
			p, m := args[0].Unmark()
			f, _, err := e.openFile(p.AsString(), m, true)
			if err != nil {
				return cty.UnknownVal(cty.String), err
			}
			defer f.Close()
			h := newHash()
			if err := e.hashFile(f, h); err != nil {
				return cty.UnknownVal(cty.String), err
			}
			return cty.StringVal(enc(h.Sum(nil))).WithMarks(m), nil
		},
	})
}

// fileExistsFunc reports whether a regular file exists; directories and
// other special files are errors.
func (e *env) fileExistsFunc() function.Function {
	return function.New(&function.Spec{
		Params:       []function.Parameter{{Name: "path", Type: cty.String, AllowMarked: true}},
		Type:         function.StaticReturnType(cty.Bool),
		RefineResult: refineNotNull,
		Impl: func(args []cty.Value, _ cty.Type) (cty.Value, error) {
			p, m := args[0].Unmark()
			path, err := e.resolvePath(p.AsString(), m)
			if err != nil {
				return cty.UnknownVal(cty.Bool), err
			}
			fi, err := e.box.Stat(path)
			if err != nil {
				if os.IsNotExist(err) {
					return cty.False.WithMarks(m), nil
				}
				return cty.UnknownVal(cty.Bool).WithMarks(m), fmt.Errorf("failed to stat %s", redactIfSensitive(displayPath(p.AsString()), m))
			}
			if fi.Mode().IsRegular() {
				return cty.True.WithMarks(m), nil
			}
			if fi.IsDir() {
				return cty.False, fmt.Errorf("%s is a directory, not a file", redactIfSensitive(displayPath(p.AsString()), m))
			}
			return cty.False, fmt.Errorf("%s is not a regular file, but %q", redactIfSensitive(displayPath(p.AsString()), m), fi.Mode().Type().String())
		},
	})
}

// fileSetFunc lists the regular files under a directory that match a glob
// (with ** for any depth), relative to that directory, slash-separated.
func (e *env) fileSetFunc() function.Function {
	return function.New(&function.Spec{
		Params: []function.Parameter{
			{Name: "path", Type: cty.String, AllowMarked: true},
			{Name: "pattern", Type: cty.String, AllowMarked: true},
		},
		Type:         function.StaticReturnType(cty.Set(cty.String)),
		RefineResult: refineNotNull,
		Impl: func(args []cty.Value, _ cty.Type) (cty.Value, error) {
			pathArg, pathMarks := args[0].Unmark()
			patternArg, patternMarks := args[1].Unmark()
			allMarks := []cty.ValueMarks{pathMarks, patternMarks}
			unknown := cty.UnknownVal(cty.Set(cty.String))
			path := pathArg.AsString()
			if !filepath.IsAbs(path) {
				path = filepath.Join(e.opts.BaseDir, path)
			}
			if err := e.checkSandbox(filepath.Clean(path), pathArg.AsString(), pathMarks); err != nil {
				return unknown, err
			}
			pattern := filepath.Join(path, patternArg.AsString())
			// Matches are checked against the sandbox as they are found,
			// so tables sharing a Cache share listings only within the
			// same sandbox.
			key := e.box.Root() + "\x00" + path + "\x00" + pattern
			// A console session lasts while files change; a plan does not.
			cache := !e.opts.ConsoleMode
			vals, seen := e.filesets.get(key)
			if seen && cache {
				return fileSetResult(vals, allMarks), nil
			}
			matches, err := e.glob(pattern)
			if err != nil {
				return unknown, fmt.Errorf("failed to glob pattern %s: %w", redactIfSensitive(filepath.Join(pathArg.AsString(), patternArg.AsString()), allMarks...), err)
			}
			for _, match := range matches {
				fi, err := e.box.Stat(match)
				if err != nil {
					return unknown, fmt.Errorf("failed to stat (%s): %w", redactIfSensitive(match, allMarks...), err)
				}
				if !fi.Mode().IsRegular() {
					continue
				}
				if err := e.checkSandbox(match, match, pathMarks); err != nil {
					return unknown, err
				}
				rel, err := filepath.Rel(path, match)
				if err != nil {
					return unknown, fmt.Errorf("failed to trim path of match (%s): %w", redactIfSensitive(match, allMarks...), err)
				}
				vals = append(vals, cty.StringVal(filepath.ToSlash(rel)))
			}
			if cache {
				size := len(key)
				for _, v := range vals {
					size += len(v.AsString())
				}
				e.filesets.put(key, vals, size)
			}
			return fileSetResult(vals, allMarks), nil
		},
	})
}

// fileSetResult is the set of fileset's matches, with the arguments' marks.
func fileSetResult(vals []cty.Value, allMarks []cty.ValueMarks) cty.Value {
	if len(vals) == 0 {
		return cty.SetValEmpty(cty.String).WithMarks(allMarks...)
	}
	return cty.SetVal(vals).WithMarks(allMarks...)
}

// absPathFunc makes a path absolute against the working directory, which is
// BaseDir: Terraform runs in that directory, so its process directory and
// BaseDir coincide, while a library caller's process may be elsewhere.
func (e *env) absPathFunc() function.Function {
	return function.New(&function.Spec{
		Params:       []function.Parameter{{Name: "path", Type: cty.String}},
		Type:         function.StaticReturnType(cty.String),
		RefineResult: refineNotNull,
		Impl: func(args []cty.Value, _ cty.Type) (cty.Value, error) {
			p := args[0].AsString()
			if !filepath.IsAbs(p) {
				p = filepath.Join(e.opts.BaseDir, p)
			}
			abs, err := filepath.Abs(p)
			if err != nil {
				return cty.UnknownVal(cty.String), fmt.Errorf("failed to get absolute path: %w", err)
			}
			return cty.StringVal(filepath.ToSlash(abs)), nil
		},
	})
}

// pathExpandFunc replaces a leading ~ with the home directory.
var pathExpandFunc = function.New(&function.Spec{
	Params:       []function.Parameter{{Name: "path", Type: cty.String}},
	Type:         function.StaticReturnType(cty.String),
	RefineResult: refineNotNull,
	Impl: func(args []cty.Value, _ cty.Type) (cty.Value, error) {
		p, err := homedir.Expand(args[0].AsString())
		if err != nil {
			return cty.UnknownVal(cty.String), err
		}
		return cty.StringVal(p), nil
	},
})

// basenameFunc is the last element of a path.
var basenameFunc = function.New(&function.Spec{
	Params:       []function.Parameter{{Name: "path", Type: cty.String}},
	Type:         function.StaticReturnType(cty.String),
	RefineResult: refineNotNull,
	Impl: func(args []cty.Value, _ cty.Type) (cty.Value, error) {
		return cty.StringVal(filepath.Base(args[0].AsString())), nil
	},
})

// dirnameFunc is a path without its last element.
var dirnameFunc = function.New(&function.Spec{
	Params:       []function.Parameter{{Name: "path", Type: cty.String}},
	Type:         function.StaticReturnType(cty.String),
	RefineResult: refineNotNull,
	Impl: func(args []cty.Value, _ cty.Type) (cty.Value, error) {
		return cty.StringVal(filepath.Dir(args[0].AsString())), nil
	},
})
