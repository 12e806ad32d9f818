package gazelle

import (
	"bufio"
	"bytes"
	"fmt"
	"strings"
)

// specFile is the file in a pet's directory that gives its petpack strings.
const specFile = "petpack.spec"

// maxSpecBytes bounds what is read of a spec file: a handful of short lines.
const maxSpecBytes = 64 * 1024

// specError is a rejected spec file line, formatted `FILE:LINE: message`.
type specError struct {
	path string
	line int
	msg  string
}

func (e *specError) Error() string { return fmt.Sprintf("%s:%d: %s", e.path, e.line, e.msg) }

// parseSpec reads a spec file: one `key = value` a line, blank lines and
// lines starting with `#` ignored. Keys are pet_id and the specKeys; each
// may appear once. path names the file in errors.
func parseSpec(path string, data []byte) (map[string]string, error) {
	if len(data) > maxSpecBytes {
		return nil, &specError{path, 0, fmt.Sprintf("larger than %d bytes", maxSpecBytes)}
	}
	spec := map[string]string{}
	sc := bufio.NewScanner(bytes.NewReader(data))
	sc.Buffer(make([]byte, 0, 4096), maxSpecBytes+1)
	for n := 1; sc.Scan(); n++ {
		line := strings.TrimSpace(sc.Text())
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		eq := strings.IndexByte(line, '=')
		if eq < 0 {
			return nil, &specError{path, n, fmt.Sprintf("%q is not `key = value`", line)}
		}
		key, value := strings.TrimSpace(line[:eq]), strings.TrimSpace(line[eq+1:])
		if key != "pet_id" && !isSpecKey(key) {
			return nil, &specError{path, n, fmt.Sprintf("unknown key %q (known: pet_id, %s)", key, strings.Join(specKeys, ", "))}
		}
		if _, dup := spec[key]; dup {
			return nil, &specError{path, n, fmt.Sprintf("%s given twice", key)}
		}
		if value == "" {
			return nil, &specError{path, n, fmt.Sprintf("%s has no value", key)}
		}
		spec[key] = value
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return spec, nil
}
