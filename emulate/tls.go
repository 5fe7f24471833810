package emulate

import (
	"crypto"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/tls"
	"crypto/x509"
	"crypto/x509/pkix"
	"encoding/pem"
	"errors"
	"fmt"
	"math/big"
	"net"
	"os"
	"path/filepath"
	"slices"
	"time"
)

// Files of the emulator's certificate authority in its TLS directory. Clients trust CAFile
// (AWS_CA_BUNDLE and the like); the key stays beside it, readable by its owner only, so that
// the same authority signs the certificate of every later run and clients keep trusting it.
const (
	CAFile    = "ca.pem"
	CAKeyFile = "ca-key.pem"
)

// caLifetime is how long the authority is valid; it is made again a month before it ends.
const caLifetime = 5 * 365 * 24 * time.Hour

// TLS is what `kokoro emulate --tls` serves with: a certificate for the emulator's host names,
// signed by a local authority whose certificate is CAPath.
type TLS struct {
	Config *tls.Config // the server's: the certificate, ALPN h2 and http/1.1
	CAPath string
}

// NewTLS loads the certificate authority in dir, making it (and dir) when there is none or it
// is about to expire, and issues a server certificate for hosts (names or IP addresses;
// localhost, 127.0.0.1 and ::1 are always included). The server certificate lives in memory
// only: each run issues its own.
func NewTLS(dir string, hosts []string, now time.Time) (*TLS, error) {
	ca, key, err := loadCA(dir, now)
	if err != nil {
		ca, key, err = makeCA(dir, now)
		if err != nil {
			return nil, err
		}
	}
	leafKey, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		return nil, fmt.Errorf("tls: %w", err)
	}
	tmpl := &x509.Certificate{
		SerialNumber: serial(),
		Subject:      pkix.Name{CommonName: "kokoro emulate"},
		NotBefore:    now.Add(-time.Hour),
		NotAfter:     now.Add(90 * 24 * time.Hour),
		KeyUsage:     x509.KeyUsageDigitalSignature,
		ExtKeyUsage:  []x509.ExtKeyUsage{x509.ExtKeyUsageServerAuth},
	}
	for _, h := range slices.Compact(slices.Sorted(slices.Values(append(hosts, "localhost", "127.0.0.1", "::1")))) {
		if h == "" {
			continue
		}
		if ip := net.ParseIP(h); ip != nil {
			if !ip.IsUnspecified() {
				tmpl.IPAddresses = append(tmpl.IPAddresses, ip)
			}
			continue
		}
		tmpl.DNSNames = append(tmpl.DNSNames, h)
	}
	if ca.NotAfter.Before(tmpl.NotAfter) {
		tmpl.NotAfter = ca.NotAfter
	}
	der, err := x509.CreateCertificate(rand.Reader, tmpl, ca, &leafKey.PublicKey, key)
	if err != nil {
		return nil, fmt.Errorf("tls: issue the server certificate: %w", err)
	}
	cert := tls.Certificate{Certificate: [][]byte{der, ca.Raw}, PrivateKey: leafKey}
	return &TLS{
		Config: &tls.Config{Certificates: []tls.Certificate{cert}, MinVersion: tls.VersionTLS12},
		CAPath: filepath.Join(dir, CAFile),
	}, nil
}

func serial() *big.Int {
	n, _ := rand.Int(rand.Reader, new(big.Int).Lsh(big.NewInt(1), 120))
	return n
}

func loadCA(dir string, now time.Time) (*x509.Certificate, crypto.Signer, error) {
	certPEM, err := os.ReadFile(filepath.Join(dir, CAFile))
	if err != nil {
		return nil, nil, err
	}
	keyPEM, err := os.ReadFile(filepath.Join(dir, CAKeyFile))
	if err != nil {
		return nil, nil, err
	}
	cb, _ := pem.Decode(certPEM)
	kb, _ := pem.Decode(keyPEM)
	if cb == nil || kb == nil {
		return nil, nil, errors.New("tls: the authority's files are not PEM")
	}
	ca, err := x509.ParseCertificate(cb.Bytes)
	if err != nil {
		return nil, nil, err
	}
	key, err := x509.ParseECPrivateKey(kb.Bytes)
	if err != nil {
		return nil, nil, err
	}
	if !ca.IsCA || now.Add(30*24*time.Hour).After(ca.NotAfter) {
		return nil, nil, errors.New("tls: the authority expires soon")
	}
	return ca, key, nil
}

func makeCA(dir string, now time.Time) (*x509.Certificate, crypto.Signer, error) {
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return nil, nil, fmt.Errorf("tls: %w", err)
	}
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		return nil, nil, fmt.Errorf("tls: %w", err)
	}
	tmpl := &x509.Certificate{
		SerialNumber:          serial(),
		Subject:               pkix.Name{CommonName: "kokoro emulate local CA"},
		NotBefore:             now.Add(-time.Hour),
		NotAfter:              now.Add(caLifetime),
		KeyUsage:              x509.KeyUsageCertSign | x509.KeyUsageCRLSign,
		BasicConstraintsValid: true,
		IsCA:                  true,
		MaxPathLenZero:        true,
	}
	der, err := x509.CreateCertificate(rand.Reader, tmpl, tmpl, &key.PublicKey, key)
	if err != nil {
		return nil, nil, fmt.Errorf("tls: make the authority: %w", err)
	}
	ca, err := x509.ParseCertificate(der)
	if err != nil {
		return nil, nil, err
	}
	kder, err := x509.MarshalECPrivateKey(key)
	if err != nil {
		return nil, nil, err
	}
	if err := os.WriteFile(filepath.Join(dir, CAKeyFile), pem.EncodeToMemory(&pem.Block{Type: "EC PRIVATE KEY", Bytes: kder}), 0o600); err != nil {
		return nil, nil, fmt.Errorf("tls: %w", err)
	}
	if err := os.WriteFile(filepath.Join(dir, CAFile), pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: der}), 0o644); err != nil {
		return nil, nil, fmt.Errorf("tls: %w", err)
	}
	return ca, key, nil
}
