package motionqa

import (
	"bytes"
	"encoding/json"
)

// kv is one member of an ordered JSON object.
type kv struct {
	K string
	V interface{}
}

// obj is a JSON object written in the order of its members, so a report's
// keys come out in the authors' order rather than Go's map or field order.
type obj []kv

// MarshalJSON writes the members in order.
func (o obj) MarshalJSON() ([]byte, error) {
	var b bytes.Buffer
	b.WriteByte('{')
	for i, m := range o {
		if i > 0 {
			b.WriteByte(',')
		}
		k, err := json.Marshal(m.K)
		if err != nil {
			return nil, err
		}
		b.Write(k)
		b.WriteByte(':')
		v, err := json.Marshal(m.V)
		if err != nil {
			return nil, err
		}
		b.Write(v)
	}
	b.WriteByte('}')
	return b.Bytes(), nil
}

// encodeDoc is the on-disk form of a report or review: two-space indent and
// a final newline.
func encodeDoc(v interface{}) ([]byte, error) {
	b, err := json.MarshalIndent(v, "", "  ")
	if err != nil {
		return nil, err
	}
	return append(b, '\n'), nil
}
