package server

import (
	"embed"
	"io/fs"
	"net/http"
)

// webFiles are the page at / (and /web): a form that speaks typed text with any voice,
// blend, language and speed through kokoro's WebSocket, highlights each word as it is heard,
// and stops the speech (barge-in) showing what was heard. Embedded: no CDN, no build step.
//
//go:embed web
var webFiles embed.FS

// webRoot serves the page at / and /web, and its files under /web/; any other path is a 404
// as before the page existed.
func (s *Server) webRoot(notFound http.HandlerFunc) http.HandlerFunc {
	sub, _ := fs.Sub(webFiles, "web")
	files := http.StripPrefix("/web/", http.FileServerFS(sub))
	return func(w http.ResponseWriter, r *http.Request) {
		switch {
		case r.URL.Path == "/" || r.URL.Path == "/web":
			if allowMethod(w, r, http.MethodGet) {
				w.Header().Set("Cache-Control", "no-cache")
				http.ServeFileFS(w, r, sub, "index.html")
			}
		case len(r.URL.Path) > len("/web/") && r.URL.Path[:len("/web/")] == "/web/":
			if allowMethod(w, r, http.MethodGet) {
				files.ServeHTTP(w, r)
			}
		default:
			notFound(w, r)
		}
	}
}
