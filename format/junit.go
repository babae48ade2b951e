package format

import (
	"bytes"
	"encoding/xml"
	"fmt"
	"io"
	"strconv"

	"github.com/hashicorp/hcl/v2"

	"github.com/tfeval/tfeval/tftest"
)

// JUnitOptions say where the diagnostics JUnit XML quotes read their
// source excerpts from.
type JUnitOptions struct {
	WorkDir, Sandbox string
	// Root, when not empty, is the module the report is of, in a report of
	// many (relative to WorkDir): suites and classes are named by the
	// module's path and the file's, and file names in diagnostics too.
	Root string
}

type junitSuite struct {
	XMLName  xml.Name    `xml:"testsuite"`
	Name     string      `xml:"name,attr"`
	Tests    int         `xml:"tests,attr"`
	Skipped  int         `xml:"skipped,attr"`
	Failures int         `xml:"failures,attr"`
	Errors   int         `xml:"errors,attr"`
	Cases    []junitCase `xml:"testcase"`
}

type junitCase struct {
	Name      string        `xml:"name,attr"`
	Classname string        `xml:"classname,attr"`
	Time      string        `xml:"time,attr,omitempty"`
	Failure   *junitMessage `xml:"failure,omitempty"`
	Error     *junitMessage `xml:"error,omitempty"`
	Skipped   *junitMessage `xml:"skipped,omitempty"`
}

type junitMessage struct {
	Message string `xml:"message,attr"`
	Body    string `xml:",cdata"`
}

// WriteJUnitXML writes a test report as the JUnit XML report terraform
// test -junit-xml writes: a test suite per file, a test case per run,
// with a failure (the failed assertions), an error or a skip and the
// run's diagnostics as Terraform prints them. A run skipped for want of
// a provider is a skipped case whose message names the provider.
func WriteJUnitXML(w io.Writer, rep *tftest.Report, opts JUnitOptions) error {
	suites, err := JUnitSuites(rep, opts)
	if err != nil {
		return err
	}
	return WriteJUnitXMLDocument(w, suites)
}

// JUnitSuites are the test suites of a report as WriteJUnitXML writes
// them, without the document around them: what WriteJUnitXMLDocument
// joins into one report of many modules.
func JUnitSuites(rep *tftest.Report, opts JUnitOptions) ([]byte, error) {
	var suites []junitSuite
	for _, fr := range rep.Files {
		name := fr.Path
		if opts.Root != "" && opts.Root != "." {
			name = opts.Root + "/" + name
		}
		s := junitSuite{Name: name, Tests: len(fr.File.Runs)}
		prevError := ""
		for _, rr := range fr.Runs {
			c := junitCase{Name: rr.Name, Classname: name}
			if rr.Status != tftest.Skip {
				c.Time = strconv.FormatFloat(rr.Elapsed.Seconds(), 'f', -1, 64)
			}
			body := "\n" + diagnosticText(rr.Diagnostics, opts) + "\n"
			switch rr.Status {
			case tftest.Fail:
				s.Failures++
				failed, first := 0, ""
				for _, a := range rr.Assertions {
					if a.Status == tftest.Fail {
						if failed == 0 {
							first = a.ErrorMessage
						}
						failed++
					}
				}
				c.Failure = &junitMessage{Message: fmt.Sprintf("%d of %d assertions failed: %s", failed, len(rr.Assertions), first), Body: body}
			case tftest.Error:
				s.Errors++
				prevError = rr.Name
				c.Error = &junitMessage{Message: "Encountered an error", Body: body}
			case tftest.Skip:
				s.Skipped++
				switch {
				case rr.NeedsProvider != "":
					c.Skipped = &junitMessage{Message: "Needs provider " + rr.NeedsProvider, Body: rr.SkipReason}
				case rr.SkipReason != "":
					c.Skipped = &junitMessage{Message: "Not run by tfeval", Body: rr.SkipReason}
				default:
					c.Skipped = &junitMessage{Message: "Testcase skipped due to a previous testcase error", Body: fmt.Sprintf("Previous testcase %q ended in error, which caused the remaining tests in the file to be skipped", prevError)}
				}
			}
			s.Cases = append(s.Cases, c)
		}
		suites = append(suites, s)
	}
	if len(suites) == 0 {
		return nil, nil
	}
	return xml.MarshalIndent(suites, "  ", "  ")
}

// WriteJUnitXMLDocument writes a JUnit XML report of the test suites
// JUnitSuites made, in the order given.
func WriteJUnitXMLDocument(w io.Writer, suites ...[]byte) error {
	var b bytes.Buffer
	// As terraform test writes it: the XML declaration and the document
	// on one line.
	b.WriteString(xml.Header[:len(xml.Header)-1] + "<testsuites>")
	empty := true
	for _, s := range suites {
		if len(s) == 0 {
			continue
		}
		b.WriteString("\n")
		b.Write(s)
		empty = false
	}
	if !empty {
		b.WriteString("\n")
	}
	b.WriteString("</testsuites>\n")
	_, err := w.Write(b.Bytes())
	return err
}

// diagnosticText is diagnostics as Terraform prints them, without colour.
func diagnosticText(diags hcl.Diagnostics, opts JUnitOptions) string {
	var b bytes.Buffer
	NewDiagnosticPrinter(&b, DiagnosticOptions{WorkDir: opts.WorkDir, Sandbox: opts.Sandbox, Root: opts.Root}).Print(diags)
	return string(bytes.TrimSpace(b.Bytes()))
}
