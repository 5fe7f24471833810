package emulate_test

import (
	"bytes"
	"crypto/x509"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/kokoro-sm/kokoro/emulate"
)

// TestTLSKeepsItsAuthority: the certificate authority is made once and reused, so a client
// that trusts ca.pem keeps trusting later runs; each run's server certificate verifies
// against it for the loopback names and the listen host (and no other), and the authority's
// key is its owner's alone.
func TestTLSKeepsItsAuthority(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "tls")
	now := time.Now()
	a, err := emulate.NewTLS(dir, []string{"emu.example"}, now)
	if err != nil {
		t.Fatal(err)
	}
	caPEM, _ := os.ReadFile(a.CAPath)
	b, err := emulate.NewTLS(dir, nil, now.Add(time.Hour))
	if err != nil {
		t.Fatal(err)
	}
	if again, _ := os.ReadFile(b.CAPath); !bytes.Equal(caPEM, again) {
		t.Fatal("a second run made a new authority")
	}
	if st, err := os.Stat(filepath.Join(dir, emulate.CAKeyFile)); err != nil || st.Mode().Perm() != 0o600 {
		t.Fatalf("key file: %v %v", st, err)
	}
	pool := x509.NewCertPool()
	if !pool.AppendCertsFromPEM(caPEM) {
		t.Fatal("ca.pem holds no certificate")
	}
	leaf, err := x509.ParseCertificate(a.Config.Certificates[0].Certificate[0])
	if err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{"localhost", "127.0.0.1", "::1", "emu.example"} {
		if _, err := leaf.Verify(x509.VerifyOptions{DNSName: name, Roots: pool, CurrentTime: now}); err != nil {
			t.Errorf("%s: %v", name, err)
		}
	}
	if _, err := leaf.Verify(x509.VerifyOptions{DNSName: "other.example", Roots: pool, CurrentTime: now}); err == nil {
		t.Error("the certificate verifies for a name it was not issued for")
	}
}
