package manifest

import (
	"errors"
	"fmt"
	"io"
	"os"
)

// RuleUnreadable: (tools only; ReadFile reports it) the file cannot be read
// at all: missing, a directory, no permission.
const RuleUnreadable Rule = "manifest_unreadable"

// FileError is a manifest file that was rejected: the *Error of the parse,
// or RuleUnreadable with Line 0, prefixed with the file's name.
type FileError struct {
	// Path is the file as the caller named it.
	Path string
	// Err is the parse error; Err.Line is 0 for RuleUnreadable.
	Err *Error
	// Cause is the I/O error behind RuleUnreadable, nil otherwise.
	Cause error
}

// Error formats the tools' `FILE:LINE: RULE: message` (`FILE: RULE: message`
// when no line applies).
func (e *FileError) Error() string {
	if e.Err.Line == 0 {
		return fmt.Sprintf("%s: %s: %s", e.Path, e.Err.Rule, e.Err.Msg)
	}
	return e.Path + ":" + e.Err.Error()
}

// Unwrap returns the I/O error of an unreadable file, so errors.Is finds
// fs.ErrNotExist, and the *Error of a rejected text otherwise.
func (e *FileError) Unwrap() error {
	if e.Cause != nil {
		return e.Cause
	}
	return e.Err
}

// ReadFile reads and parses the manifest at path. It reads at most one byte
// more than MaxFileBytes, so an oversized file is rejected without being held
// whole. Every failure is a *FileError.
func ReadFile(path string) (*Manifest, error) {
	data, err := readBounded(path, MaxFileBytes+1)
	if err != nil {
		msg := err.Error()
		var pe *os.PathError
		if errors.As(err, &pe) {
			msg = pe.Err.Error() // the path is already in the prefix
		}
		return nil, &FileError{Path: path, Err: &Error{Rule: RuleUnreadable, Msg: msg}, Cause: err}
	}
	m, err := Parse(data)
	if err != nil {
		return nil, &FileError{Path: path, Err: err.(*Error)}
	}
	return m, nil
}

func readBounded(path string, max int64) ([]byte, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return io.ReadAll(io.LimitReader(f, max))
}
