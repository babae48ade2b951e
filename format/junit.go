package format

import (
	"bytes"
	"encoding/xml"
	"fmt"
	"io"
	"strconv"
	"time"

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
	XMLName  xml.Name      `xml:"testsuite"`
	Name     string        `xml:"name,attr"`
	Tests    int           `xml:"tests,attr"`
	Skipped  int           `xml:"skipped,attr"`
	Failures int           `xml:"failures,attr"`
	Errors   int           `xml:"errors,attr"`
	Cases    []junitCase   `xml:"testcase"`
	Stderr   *junitMessage `xml:"system-err,omitempty"`
}

type junitCase struct {
	Name      string        `xml:"name,attr"`
	Classname string        `xml:"classname,attr"`
	Time      string        `xml:"time,attr,omitempty"`
	Timestamp string        `xml:"timestamp,attr,omitempty"`
	Skipped   *junitMessage `xml:"skipped,omitempty"`
	Failure   *junitMessage `xml:"failure,omitempty"`
	Error     *junitMessage `xml:"error,omitempty"`
	Stderr    *junitMessage `xml:"system-err,omitempty"`
}

type junitMessage struct {
	Message string `xml:"message,attr,omitempty"`
	Body    string `xml:",cdata"`
}

// WriteJUnitXML writes a test report as the JUnit XML report terraform
// test -junit-xml writes: a test suite per file, a test case per run,
// with a failure (the failed assertions), an error (the errors) or a skip,
// the run's other diagnostics as its standard error, and a file's own
// errors as the suite's. A run skipped for want of a provider is a skipped
// case whose message names the provider.
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
		fileErrors := fr.Status == tftest.Error && fr.Diagnostics.HasErrors()
		for i, rr := range fr.Runs {
			c := junitCase{Name: rr.Name, Classname: name}
			if !rr.Started.IsZero() {
				c.Time = strconv.FormatFloat(rr.Elapsed.Seconds(), 'f', -1, 64)
				c.Timestamp = rr.Started.UTC().Format(time.RFC3339)
			}
			var failed, rest hcl.Diagnostics
			for _, d := range rr.Diagnostics {
				if d.Summary == "Test assertion failed" && d.Severity == hcl.DiagError {
					failed = append(failed, d)
				} else {
					rest = append(rest, d)
				}
			}
			switch rr.Status {
			case tftest.Fail:
				s.Failures++
				c.Failure = &junitMessage{Message: failureMessage(failed, len(rr.Run.Asserts)), Body: junitText(failed, opts)}
			case tftest.Error:
				s.Errors++
				var errs, warnings hcl.Diagnostics
				for _, d := range rr.Diagnostics {
					if d.Severity == hcl.DiagError {
						errs = append(errs, d)
					} else {
						warnings = append(warnings, d)
					}
				}
				c.Error = &junitMessage{Message: "Encountered an error", Body: junitText(errs, opts)}
				rest = warnings
			case tftest.Skip:
				s.Skipped++
				c.Skipped = skipDetails(fr, i, fileErrors)
			}
			if len(rest) > 0 && rr.Status != tftest.Skip {
				c.Stderr = &junitMessage{Body: junitText(rest, opts)}
			}
			s.Cases = append(s.Cases, c)
		}
		if len(fr.Runs) == 0 && fr.File != nil {
			// The file's own errors kept every run from starting: each
			// is a test case without a verdict, as in Terraform's report.
			for _, run := range fr.File.Runs {
				s.Cases = append(s.Cases, junitCase{Name: run.Name, Classname: name})
			}
		}
		if fileErrors {
			s.Stderr = &junitMessage{Body: junitText(fr.Diagnostics, opts)}
		}
		suites = append(suites, s)
	}
	if len(suites) == 0 {
		return nil, nil
	}
	return xml.MarshalIndent(suites, "  ", "  ")
}

// failureMessage is a failed run's message: how many of its assertions
// failed, and the first one's error message.
func failureMessage(failed hcl.Diagnostics, asserts int) string {
	switch len(failed) {
	case 0:
		return ""
	case 1:
		return fmt.Sprintf("1 of %d assertions failed: %s", asserts, failed[0].Detail)
	}
	return fmt.Sprintf("%d of %d assertions failed, including: %s", len(failed), asserts, failed[0].Detail)
}

// skipDetails says why run i of a file was skipped: for want of a
// provider or something else tfeval cannot know, or, as Terraform says,
// after an earlier run errored or for the file's own errors.
func skipDetails(fr *tftest.FileResult, i int, fileErrors bool) *junitMessage {
	rr := fr.Runs[i]
	switch {
	case rr.NeedsProvider != "":
		return &junitMessage{Message: "Needs provider " + rr.NeedsProvider, Body: rr.SkipReason}
	case rr.SkipReason != "":
		return &junitMessage{Message: "Not run by tfeval", Body: rr.SkipReason}
	case fr.Status != tftest.Error:
		return &junitMessage{}
	}
	for j := i; j >= 0; j-- {
		if fr.Runs[j].Status == tftest.Error {
			return &junitMessage{Message: "Testcase skipped due to a previous testcase error", Body: fmt.Sprintf("Previous testcase %q ended in error, which caused the remaining tests in the file to be skipped", fr.Runs[j].Name)}
		}
	}
	if fileErrors {
		return &junitMessage{Message: "Testcase skipped due to file-level errors"}
	}
	return &junitMessage{}
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
	// Without a newline at the end, as terraform test writes it.
	b.WriteString("</testsuites>")
	_, err := w.Write(b.Bytes())
	return err
}

// junitText is diagnostics as Terraform writes them into a JUnit report:
// without colour, each after a blank line, detail wrapped to 80 columns.
func junitText(diags hcl.Diagnostics, opts JUnitOptions) string {
	if len(diags) == 0 {
		return ""
	}
	var b bytes.Buffer
	NewDiagnosticPrinter(&b, DiagnosticOptions{WorkDir: opts.WorkDir, Sandbox: opts.Sandbox, Root: opts.Root, Width: 80}).Print(diags)
	return "\n" + string(bytes.TrimSpace(b.Bytes())) + "\n"
}
