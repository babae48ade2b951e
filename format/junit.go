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
}

type junitSuites struct {
	XMLName xml.Name     `xml:"testsuites"`
	Suites  []junitSuite `xml:"testsuite"`
}

type junitSuite struct {
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
	doc := junitSuites{}
	for _, fr := range rep.Files {
		s := junitSuite{Name: fr.Path, Tests: len(fr.File.Runs)}
		prevError := ""
		for _, rr := range fr.Runs {
			c := junitCase{Name: rr.Name, Classname: fr.Path}
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
		doc.Suites = append(doc.Suites, s)
	}
	b, err := xml.MarshalIndent(doc, "", "  ")
	if err != nil {
		return err
	}
	if _, err := io.WriteString(w, xml.Header[:len(xml.Header)-1]); err != nil {
		return err
	}
	_, err = w.Write(append(b, '\n'))
	return err
}

// diagnosticText is diagnostics as Terraform prints them, without colour.
func diagnosticText(diags hcl.Diagnostics, opts JUnitOptions) string {
	var b bytes.Buffer
	NewDiagnosticPrinter(&b, DiagnosticOptions{WorkDir: opts.WorkDir, Sandbox: opts.Sandbox}).Print(diags)
	return string(bytes.TrimSpace(b.Bytes()))
}
