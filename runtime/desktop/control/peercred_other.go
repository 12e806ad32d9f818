//go:build !linux
// +build !linux

package control

import (
	"errors"
	"net"
)

// peerUID refuses every peer where SO_PEERCRED is not available: a
// control channel whose peers cannot be checked stays closed.
func peerUID(*net.UnixConn) (uint32, error) {
	return 0, errors.New("peer credentials are not supported on this system")
}
