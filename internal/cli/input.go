package cli

import (
	"bufio"
	"fmt"
	"io"
	"strings"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclsyntax"
	"golang.org/x/term"

	"github.com/tfeval/tfeval/dialect"
)

// Console prompts: the first line of an expression, and its continuation
// lines while brackets or a heredoc are open.
const (
	promptFirst = "> "
	promptMore  = ". "
)

// lineSource gives console input one line at a time.
type lineSource interface {
	// readLine returns the next line without its newline, or io.EOF.
	readLine(prompt string) (string, error)
}

// scannedLines reads lines from a plain reader, writing the prompt to w
// when w is not nil (a terminal without a line editor).
type scannedLines struct {
	sc *bufio.Scanner
	w  io.Writer
}

func newScannedLines(r io.Reader, prompt io.Writer) *scannedLines {
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 0, 64*1024), 64*1024*1024)
	return &scannedLines{sc: sc, w: prompt}
}

func (s *scannedLines) readLine(prompt string) (string, error) {
	if s.w != nil {
		fmt.Fprint(s.w, prompt)
	}
	if !s.sc.Scan() {
		if err := s.sc.Err(); err != nil {
			return "", err
		}
		return "", io.EOF
	}
	return s.sc.Text(), nil
}

// editedLines reads lines with x/term's line editor, which keeps a history
// recalled with the arrow keys. The terminal is raw only while a line is
// being read, so values and diagnostics print normally in between.
type editedLines struct {
	t       *term.Terminal
	makeRaw func() (restore func(), err error)
}

func newEditedLines(in io.Reader, out io.Writer, makeRaw func() (func(), error)) *editedLines {
	rw := struct {
		io.Reader
		io.Writer
	}{in, out}
	return &editedLines{t: term.NewTerminal(rw, promptFirst), makeRaw: makeRaw}
}

func (e *editedLines) readLine(prompt string) (string, error) {
	restore, err := e.makeRaw()
	if err != nil {
		return "", err
	}
	defer restore()
	e.t.SetPrompt(prompt)
	line, err := e.t.ReadLine()
	if err == term.ErrPasteIndicator {
		err = nil
	}
	return line, err
}

// readExpression reads one console input: a line, and further lines while
// the text so far is open. Terraform's console (in tfeval, which reads on
// where terraform console would read one line) continues while brackets,
// braces, parentheses, template sequences or a heredoc are unclosed, and
// evaluates what there is at the end of the input, which then reports what
// is unclosed. OpenTofu's continues while the lines so far open more
// brackets, braces and parentheses than they close, or after a line that
// ends in a backslash (which it drops), and at the end of the input
// evaluates nothing of what is still open. It returns io.EOF when there is
// nothing to evaluate.
func readExpression(src lineSource, d dialect.Dialect) (string, error) {
	line, err := src.readLine(promptFirst)
	if err != nil {
		return "", err
	}
	if d == dialect.Tofu {
		return readTofuExpression(src, line)
	}
	text := line
	for inputOpen(text) {
		more, err := src.readLine(promptMore)
		if err != nil {
			break // end of input: evaluate what there is, which reports what is unclosed
		}
		text += "\n" + more
	}
	return text, nil
}

// readTofuExpression reads the rest of an OpenTofu console input whose
// first line is line: each line trimmed, and its brackets counted alone.
func readTofuExpression(src lineSource, line string) (string, error) {
	var lines []string
	var open [3]int // braces, brackets, parentheses
	for {
		line = strings.TrimSpace(line)
		escaped := strings.HasSuffix(line, `\`) && !strings.HasSuffix(line, `\\`)
		line = strings.TrimSuffix(line, `\`)
		if line != "" {
			lines = append(lines, line)
			toks, _ := hclsyntax.LexConfig([]byte(line), "<console-input>", hcl.InitialPos)
			for _, t := range toks {
				switch t.Type {
				case hclsyntax.TokenOBrace:
					open[0]++
				case hclsyntax.TokenCBrace:
					open[0]--
				case hclsyntax.TokenOBrack:
					open[1]++
				case hclsyntax.TokenCBrack:
					open[1]--
				case hclsyntax.TokenOParen:
					open[2]++
				case hclsyntax.TokenCParen:
					open[2]--
				}
			}
		}
		// Too many closing brackets of any kind close the input: the
		// parser reports them.
		if !escaped && (open[0] < 0 || open[1] < 0 || open[2] < 0 || open[0]+open[1]+open[2] == 0) {
			return strings.Join(lines, "\n"), nil
		}
		var err error
		if line, err = src.readLine(promptMore); err != nil {
			return "", io.EOF // still open: OpenTofu evaluates none of it
		}
	}
}

// inputOpen reports whether an expression's text has an unclosed bracket,
// brace, parenthesis, template sequence or heredoc, so more lines belong to it.
func inputOpen(text string) bool {
	// A heredoc marker is only recognised at the end of a line.
	toks, _ := hclsyntax.LexExpression([]byte(text+"\n"), "<console-input>", hcl.InitialPos)
	depth, heredocs := 0, 0
	for _, t := range toks {
		switch t.Type {
		case hclsyntax.TokenOBrace, hclsyntax.TokenOBrack, hclsyntax.TokenOParen,
			hclsyntax.TokenTemplateInterp, hclsyntax.TokenTemplateControl:
			depth++
		case hclsyntax.TokenCBrace, hclsyntax.TokenCBrack, hclsyntax.TokenCParen, hclsyntax.TokenTemplateSeqEnd:
			depth--
		case hclsyntax.TokenOHeredoc:
			heredocs++
		case hclsyntax.TokenCHeredoc:
			heredocs--
		}
	}
	return depth > 0 || heredocs > 0
}
