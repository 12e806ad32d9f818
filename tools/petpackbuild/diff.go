package petpackbuild

import (
	"bytes"
	"fmt"
	"io"

	"github.com/agentpet/rules_pet/internal/petpackzip"
)

// FirstDifference says where two archives first differ, in the terms a
// person fixing a golden needs: the first entry present in one and not the
// other, or whose content differs, in archive order; or, when every entry
// agrees, the first differing byte (a header or directory field). It
// returns "" for equal bytes. The archives are build outputs, not untrusted
// input, but a damaged one is reported rather than trusted. The archives
// are not validated (a stale golden must stay diffable), only opened by the
// strict ZIP reader under the validator's container budgets.
func FirstDifference(got, want []byte) string {
	if bytes.Equal(got, want) {
		return ""
	}
	g, gerr := entriesByOrder(got)
	w, werr := entriesByOrder(want)
	switch {
	case gerr != nil:
		return fmt.Sprintf("the first archive does not open: %v", gerr)
	case werr != nil:
		return fmt.Sprintf("the second archive does not open: %v", werr)
	}
	for i := 0; i < len(g) || i < len(w); i++ {
		switch {
		case i >= len(g):
			return fmt.Sprintf("entry %s is only in the second archive", w[i].name)
		case i >= len(w):
			return fmt.Sprintf("entry %s is only in the first archive", g[i].name)
		case g[i].name != w[i].name:
			return fmt.Sprintf("entry %d is %s in the first archive and %s in the second", i, g[i].name, w[i].name)
		case !bytes.Equal(g[i].data, w[i].data):
			return fmt.Sprintf("entry %s: content differs (%d bytes, %d bytes)", g[i].name, len(g[i].data), len(w[i].data))
		}
	}
	n := len(got)
	if len(want) < n {
		n = len(want)
	}
	for i := 0; i < n; i++ {
		if got[i] != want[i] {
			return fmt.Sprintf("every entry agrees; byte %d of the archive differs (a header field)", i)
		}
	}
	return fmt.Sprintf("every entry agrees; the archives are %d and %d bytes long", len(got), len(want))
}

type namedData struct {
	name string
	data []byte
}

func entriesByOrder(b []byte) ([]namedData, error) {
	za, err := petpackzip.Open(bytes.NewReader(b), int64(len(b)))
	if err != nil {
		return nil, err
	}
	entries := za.Entries()
	out := make([]namedData, 0, len(entries))
	for _, f := range entries {
		rc, err := f.Open()
		if err != nil {
			return nil, fmt.Errorf("%s: %w", f.Name, err)
		}
		data, err := io.ReadAll(io.LimitReader(rc, 1<<30))
		rc.Close()
		if err != nil {
			return nil, fmt.Errorf("%s: %w", f.Name, err)
		}
		out = append(out, namedData{f.Name, data})
	}
	return out, nil
}
