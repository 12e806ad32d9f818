package petplayer

import (
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestHandler(t *testing.T) {
	dir := t.TempDir()
	for name, body := range map[string]string{"pet.petpack": "PK", "PET.PETPACK": "PK", "Pet.PetPack": "PK", "index.html": "<!DOCTYPE html>", "player.wasm": "\x00asm", "wasm_exec.js": "//", ".secret": "no"} {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.Mkdir(filepath.Join(dir, "sub"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "sub", "x.js"), []byte("//"), 0o644); err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(Handler(dir))
	defer srv.Close()
	cases := []struct {
		method, path string
		code         int
		ctype        string
	}{
		{"GET", "/", 200, "text/html; charset=utf-8"},
		{"GET", "/player.wasm", 200, "application/wasm"},
		{"HEAD", "/wasm_exec.js", 200, "text/javascript; charset=utf-8"},
		{"GET", "/pet.petpack", 200, "application/vnd.agentpet.petpack+zip"},
		{"GET", "/PET.PETPACK", 200, "application/vnd.agentpet.petpack+zip"},
		{"HEAD", "/Pet.PetPack", 200, "application/vnd.agentpet.petpack+zip"},
		{"GET", "/missing.js", 404, ""},
		{"GET", "/.secret", 404, ""},
		{"GET", "/sub/x.js", 404, ""},
		{"GET", "/sub/", 404, ""},
		{"GET", "/index.html", 200, "text/html; charset=utf-8"},
		{"GET", "/../index.html", 400, ""},
		{"POST", "/index.html", 405, ""},
	}
	for _, c := range cases {
		req, _ := http.NewRequest(c.method, srv.URL+c.path, nil)
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		if resp.StatusCode != c.code {
			t.Errorf("%s %s: %d, want %d", c.method, c.path, resp.StatusCode, c.code)
		}
		if c.ctype != "" && resp.Header.Get("Content-Type") != c.ctype {
			t.Errorf("%s %s: Content-Type %q, want %q", c.method, c.path, resp.Header.Get("Content-Type"), c.ctype)
		}
		if resp.Header.Get("Content-Security-Policy") != ContentSecurityPolicy || resp.Header.Get("X-Content-Type-Options") != "nosniff" {
			t.Errorf("%s %s: headers %v", c.method, c.path, resp.Header)
		}
	}
}

// TestPageCarriesThePolicy keeps the page's meta policy the same as the
// header's, so the page is as closed when opened from another server.
func TestPageCarriesThePolicy(t *testing.T) {
	b, err := os.ReadFile("index.html")
	if err != nil {
		t.Fatal(err)
	}
	if want := `content="` + ContentSecurityPolicy + `"`; !containsString(string(b), want) {
		t.Fatalf("index.html lacks %s", want)
	}
}

func containsString(s, sub string) bool { return strings.Contains(s, sub) }
