package motionqa

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
)

// Size limits of evidence files (the authors' limits).
const (
	MaxEvidenceJSON     = 512 << 10
	MaxEvidenceArtifact = 32 << 20
)

// readEvidence reads a regular, non-symlinked file of at most max bytes.
func readEvidence(p string, max int64) ([]byte, error) {
	fi, err := os.Lstat(p)
	if err != nil {
		return nil, err
	}
	if fi.Mode()&os.ModeSymlink != 0 {
		return nil, fmt.Errorf("is a symbolic link")
	}
	if !fi.Mode().IsRegular() {
		return nil, fmt.Errorf("is not a regular file")
	}
	if fi.Size() > max {
		return nil, fmt.Errorf("is %d bytes, over the %d-byte limit", fi.Size(), max)
	}
	data, err := os.ReadFile(p)
	if err != nil {
		return nil, err
	}
	if int64(len(data)) > max {
		return nil, fmt.Errorf("grew over the %d-byte limit", max)
	}
	return data, nil
}

// decodeObject decodes a JSON object, keeping numbers exact. Fields beyond
// the ones read are accepted: other tools write more.
func decodeObject(data []byte) (map[string]interface{}, error) {
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	var v interface{}
	if err := dec.Decode(&v); err != nil {
		return nil, err
	}
	if dec.More() {
		return nil, fmt.Errorf("data after the JSON value")
	}
	o, ok := v.(map[string]interface{})
	if !ok {
		return nil, fmt.Errorf("not a JSON object")
	}
	return o, nil
}

// artifactPath resolves a report's relative artifact path inside root,
// refusing absolute paths, .. segments, backslashes and symlinks on the way.
func artifactPath(root, rel string) (string, error) {
	if rel == "" || strings.HasPrefix(rel, "/") || strings.Contains(rel, "\\") || strings.ContainsRune(rel, 0) {
		return "", fmt.Errorf("unsafe artifact path %q", rel)
	}
	for _, seg := range strings.Split(rel, "/") {
		if seg == ".." || seg == "" || seg == "." {
			return "", fmt.Errorf("unsafe artifact path %q", rel)
		}
	}
	p := root
	segs := strings.Split(rel, "/")
	for i, seg := range segs {
		p = filepath.Join(p, seg)
		fi, err := os.Lstat(p)
		if err != nil {
			return "", err
		}
		if fi.Mode()&os.ModeSymlink != 0 {
			return "", fmt.Errorf("artifact path %q goes through a symbolic link", rel)
		}
		if i < len(segs)-1 && !fi.IsDir() {
			return "", fmt.Errorf("artifact path %q: %s is not a directory", rel, seg)
		}
	}
	return p, nil
}

func str(v interface{}) (string, bool) {
	s, ok := v.(string)
	return s, ok
}

func objOf(v interface{}) map[string]interface{} {
	o, _ := v.(map[string]interface{})
	return o
}

// intOf reads a non-negative JSON integer.
func intOf(v interface{}) (int64, bool) {
	n, ok := v.(json.Number)
	if !ok {
		return 0, false
	}
	i, err := n.Int64()
	if err != nil || i < 0 {
		return 0, false
	}
	return i, true
}
