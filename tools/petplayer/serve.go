// Package petplayer serves a petpack_player directory: the page, the
// WebAssembly runtime, wasm_exec.js and the pet's archive. The page itself
// (index.html, player.js, player.css) and the WebAssembly main
// (playerwasm/) live next to this file; the petpack_player rule puts them
// in one directory with the archive, and `petserve` serves it.
package petplayer

import (
	"net/http"
	"os"
	"path"
	"path/filepath"
	"strings"
	"time"

	"github.com/agentpet/rules_pet/runtime/petpack"
)

// ContentSecurityPolicy is sent with every response and repeated in the
// page's meta tag: scripts, styles, fetches and images only from the
// player's own origin (WebAssembly compilation allowed), nothing else.
const ContentSecurityPolicy = "default-src 'none'; script-src 'self' 'wasm-unsafe-eval'; connect-src 'self'; img-src 'self' blob:; style-src 'self'; base-uri 'none'; form-action 'none'"

// Handler serves the regular files directly in dir (no listing, no
// subdirectory, no dot file, no ".."), "/" as index.html, GET and HEAD only, each response with
// the policy above, nosniff and no caching (a rebuilt player shows at
// once).
func Handler(dir string) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		h := w.Header()
		h.Set("Content-Security-Policy", ContentSecurityPolicy)
		h.Set("X-Content-Type-Options", "nosniff")
		h.Set("Cache-Control", "no-store")
		if r.Method != http.MethodGet && r.Method != http.MethodHead {
			http.Error(w, "method not allowed", http.StatusMethodNotAllowed)
			return
		}
		if strings.Contains(r.URL.Path, "..") {
			http.Error(w, "bad path", http.StatusBadRequest)
			return
		}
		name := strings.TrimPrefix(path.Clean(r.URL.Path), "/")
		if name == "" {
			name = "index.html"
		}
		if strings.Contains(name, "/") || strings.HasPrefix(name, ".") {
			http.NotFound(w, r)
			return
		}
		f, err := os.Open(filepath.Join(dir, name))
		if err != nil {
			http.NotFound(w, r)
			return
		}
		defer f.Close()
		fi, err := f.Stat()
		if err != nil || !fi.Mode().IsRegular() {
			http.NotFound(w, r)
			return
		}
		// Extensions match in any case: section 2 checks .petpack so, and
		// the others are ours.
		switch strings.ToLower(path.Ext(name)) {
		case ".wasm":
			h.Set("Content-Type", "application/wasm")
		case ".js":
			h.Set("Content-Type", "text/javascript; charset=utf-8")
		case ".petpack":
			h.Set("Content-Type", petpack.MediaType)
		}
		http.ServeContent(w, r, name, time.Time{}, f)
	})
}
