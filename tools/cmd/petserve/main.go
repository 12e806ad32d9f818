// Command petserve serves a petpack_player directory on 127.0.0.1 for a
// browser: `bazel run` on a petpack_player target runs it.
//
//	petserve --dir DIR [--port N]
//
// It prints the address to open and serves until interrupted.
package main

import (
	"flag"
	"fmt"
	"net"
	"net/http"
	"os"
	"strconv"

	"github.com/agentpet/rules_pet/tools/petplayer"
)

// defaultPort is the port petserve listens on unless --port says otherwise
// (0 picks a free one).
const defaultPort = 8642

func main() {
	fs := flag.NewFlagSet("petserve", flag.ContinueOnError)
	dir := fs.String("dir", "", "the player `DIR`")
	port := fs.Int("port", defaultPort, "the `PORT` on 127.0.0.1 (0: any free port)")
	if err := fs.Parse(os.Args[1:]); err != nil || *dir == "" || fs.NArg() != 0 {
		fmt.Fprintln(os.Stderr, "usage: petserve --dir DIR [--port N]")
		os.Exit(2)
	}
	if _, err := os.Stat(*dir + "/index.html"); err != nil {
		fmt.Fprintf(os.Stderr, "petserve: %s is not a player directory: %v\n", *dir, err)
		os.Exit(1)
	}
	ln, err := net.Listen("tcp", net.JoinHostPort("127.0.0.1", strconv.Itoa(*port)))
	if err != nil {
		fmt.Fprintf(os.Stderr, "petserve: %v\n", err)
		os.Exit(1)
	}
	fmt.Printf("petserve: serving the player on http://%s/ (Ctrl-C to stop)\n", ln.Addr())
	if err := http.Serve(ln, petplayer.Handler(*dir)); err != nil {
		fmt.Fprintf(os.Stderr, "petserve: %v\n", err)
		os.Exit(1)
	}
}
