package petpack

import (
	"errors"
	"io"

	"github.com/agentpet/rules_pet/runtime/petpack/internal/imagecheck"
)

// readPNGHeader opens a file-set node and parses its IHDR; a failure that
// breaks no rule of its own (an I/O error) is returned as such.
func readPNGHeader(fs *fileSet, n *node) (imagecheck.Header, *contentError, error) {
	if n.e.head != nil {
		return parseHeader(n.e.head)
	}
	rc, err := fs.src.open(n.e)
	if err != nil {
		return imagecheck.Header{}, nil, err
	}
	defer rc.Close()
	var b [imagecheck.HeaderLen]byte
	k, err := io.ReadFull(rc, b[:])
	var ce *contentError
	switch {
	case errors.As(err, &ce):
		return imagecheck.Header{}, ce, nil
	case err == io.EOF || err == io.ErrUnexpectedEOF:
		// short: imagecheck.ParseHeader says so
	case err != nil:
		return imagecheck.Header{}, nil, err
	}
	return parseHeader(b[:k])
}

func parseHeader(b []byte) (imagecheck.Header, *contentError, error) {
	h, err := imagecheck.ParseHeader(b)
	if err != nil {
		return h, &contentError{RulePNGHeaderInvalid, err.Error()}, nil
	}
	return h, nil, nil
}
