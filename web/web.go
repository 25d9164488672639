// Package web serves Factbase's web UI: a page for a person's memory (and an
// operator's view of any user) over the same HTTP API that programs use. The page is
// an html/template with a little plain JavaScript and CSS, embedded in the binary: no
// CDN, no external fonts, no build step. Tabs appear as the API offers their feature
// (the page reads /openapi.json).
package web

import (
	"embed"
	"html/template"
	"io/fs"
	"net/http"
)

//go:embed assets
var assets embed.FS

var page = template.Must(template.ParseFS(assets, "assets/index.html"))

// Options configure the UI handler.
type Options struct {
	// NoAuth: the API needs no key (loopback only), so the page does not ask for one.
	NoAuth bool
	// Version is shown in the footer.
	Version string
}

// Handler serves the page at "/" and its assets under "/ui/".
func Handler(o Options) http.Handler {
	mux := http.NewServeMux()
	sub, _ := fs.Sub(assets, "assets")
	files := http.FileServerFS(sub)
	mux.Handle("GET /ui/", http.StripPrefix("/ui/", files))
	mux.HandleFunc("GET /{$}", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		w.Header().Set("Content-Security-Policy", "default-src 'self'; img-src 'self' data:; style-src 'self'; script-src 'self'; connect-src 'self'; frame-ancestors 'none'")
		w.Header().Set("X-Frame-Options", "DENY") // for browsers without frame-ancestors
		w.Header().Set("X-Content-Type-Options", "nosniff")
		w.Header().Set("Referrer-Policy", "no-referrer")
		_ = page.Execute(w, o)
	})
	return mux
}
