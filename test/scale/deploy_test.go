// Copyright The agentotel Authors
// SPDX-License-Identifier: Apache-2.0

//go:build scale

package scale

import (
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/x509"
	"crypto/x509/pkix"
	"encoding/pem"
	"math/big"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/agentotel/agentotel/internal/agentgen"
	"github.com/agentotel/agentotel/internal/annotation"
	"github.com/agentotel/agentotel/test/internal/collectortest"
)

// TestDeployedTiersOverMutualTLS runs the shipped tier1.yaml and tier2.yaml unchanged but for their listen
// addresses, with the hop between them on mutual TLS, and checks that the raw hop admits only tier 1:
// plaintext and a client without a certificate are refused, while tier 1's traffic arrives at the backend
// judged and shaped.
func TestDeployedTiersOverMutualTLS(t *testing.T) {
	pki := newPKI(t)
	sink := collectortest.Start(t, collectortest.FileSink, nil)

	t.Setenv("TLS_CERT_FILE", pki.serverCert)
	t.Setenv("TLS_KEY_FILE", pki.serverKey)
	t.Setenv("TLS_CLIENT_CA_FILE", pki.ca)
	t.Setenv("BACKEND_ENDPOINT", sink.GRPC)
	t.Setenv("BACKEND_TLS_INSECURE", "true")
	tier2Addr := collectortest.FreeAddr(t)
	tier2 := collectortest.Start(t, deployTemplate(t, "tier2.yaml", func(cfg map[string]any) {
		collectortest.Set(cfg, "receivers.otlp.protocols.grpc.endpoint", "{{.Listen}}")
	}), map[string]string{"Listen": tier2Addr})

	// Plaintext straight to tier 2 is refused.
	out, err := exec.Command(collectortest.Agentgen(t), "-endpoint", tier2Addr, "-timeout", "3s").CombinedOutput()
	assert.Error(t, err, "a plaintext client must not reach tier 2: %s", out)

	t.Setenv("TIER2_HOSTS", "["+tier2Addr+"]")
	t.Setenv("TIER2_CA_FILE", pki.ca)

	// A tier 1 without a client certificate: tier 2 refuses the handshake and nothing arrives.
	anonLog := filepath.Join(t.TempDir(), "anon.log")
	anon := collectortest.Start(t, tier1Template(t, "tier1.yaml"), map[string]string{"LogFile": anonLog})
	anon.Send("grpc", "-scenario", "seeds", "-seed", "1")
	var refusal string
	collectortest.Eventually(t, "tier 1 to report the refused handshake", func() bool {
		for _, l := range readLog(t, anonLog) {
			if l.Endpoint == tier2Addr && strings.HasPrefix(l.Msg, "Exporting failed") {
				refusal = l.Error
				return true
			}
		}
		return false
	})
	assert.Zero(t, sink.Metric(metricAccepted, nil), "tier 2 accepts nothing from a client without a certificate")
	assert.Zero(t, tier2.Metric(metricAccepted, nil))
	anon.Kill() // its queue would retry until max_elapsed_time

	// Tier 1 with its client certificate.
	t.Setenv("TIER2_CERT_FILE", pki.clientCert)
	t.Setenv("TIER2_KEY_FILE", pki.clientKey)
	t1 := collectortest.Start(t, tier1Template(t, "tier1.yaml"), map[string]string{"LogFile": filepath.Join(t.TempDir(), "tier1.log")})
	sent := sentSpans(t, t1.Send("grpc", "-scenario", "seeds", "-seed", "2"))
	got := waitDelivered(t, sent, 30*time.Second, []*collectortest.Collector{t1}, []*collectortest.Collector{tier2},
		[]*collectortest.Collector{sink})
	// agentgen gives run i of -scenario seeds the random seed seed+i; the support run is the fourth.
	support, err := agentgen.Generate("support", agentgen.Options{Seed: 2 + 3})
	require.NoError(t, err)
	assert.Equal(t, sent, got.spans)
	annotated := 0
	for _, note := range got.notes {
		if note[annotation.Step] != "" {
			annotated++
		}
	}
	raw, err := os.ReadFile(sink.Output)
	require.NoError(t, err)
	withheldValues := strings.Count(string(raw), withheld)
	assert.Positive(t, annotated, "agentguard judged the tool spans on tier 2")
	assert.Positive(t, withheldValues, "shapeonly withheld customer values on tier 2")
	require.NotEmpty(t, support.Secrets)
	for _, secret := range support.Secrets {
		assert.NotContains(t, string(raw), secret, "a customer value left tier 2")
	}
	t.Logf("mTLS hop: plaintext refused; certificate-less tier 1 refused (%s); %d spans through tier 1 -> tier 2 -> backend, "+
		"%d tool spans annotated, %d %q placeholders, none of the support run's %d customer values", refusal, sent, annotated, withheldValues, withheld, len(support.Secrets))
}

// pki is a throwaway CA with a server certificate for 127.0.0.1 and a client certificate, in PEM files.
type pki struct{ ca, serverCert, serverKey, clientCert, clientKey string }

func newPKI(t *testing.T) pki {
	t.Helper()
	dir := t.TempDir()
	write := func(name, typ string, der []byte) string {
		path := filepath.Join(dir, name)
		require.NoError(t, os.WriteFile(path, pem.EncodeToMemory(&pem.Block{Type: typ, Bytes: der}), 0o600))
		return path
	}
	caKey, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	require.NoError(t, err)
	caTpl := &x509.Certificate{
		SerialNumber: big.NewInt(1), Subject: pkix.Name{CommonName: "agentotel test CA"},
		NotBefore: time.Now().Add(-time.Hour), NotAfter: time.Now().Add(time.Hour),
		IsCA: true, BasicConstraintsValid: true, KeyUsage: x509.KeyUsageCertSign,
	}
	caDER, err := x509.CreateCertificate(rand.Reader, caTpl, caTpl, &caKey.PublicKey, caKey)
	require.NoError(t, err)
	caCert, err := x509.ParseCertificate(caDER)
	require.NoError(t, err)
	p := pki{ca: write("ca.crt", "CERTIFICATE", caDER)}
	leaf := func(name string, serial int64, usage x509.ExtKeyUsage) (string, string) {
		key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
		require.NoError(t, err)
		tpl := &x509.Certificate{
			SerialNumber: big.NewInt(serial), Subject: pkix.Name{CommonName: name},
			NotBefore: time.Now().Add(-time.Hour), NotAfter: time.Now().Add(time.Hour),
			KeyUsage: x509.KeyUsageDigitalSignature, ExtKeyUsage: []x509.ExtKeyUsage{usage},
			IPAddresses: []net.IP{net.ParseIP("127.0.0.1")}, DNSNames: []string{"localhost"},
		}
		der, err := x509.CreateCertificate(rand.Reader, tpl, caCert, &key.PublicKey, caKey)
		require.NoError(t, err)
		keyDER, err := x509.MarshalECPrivateKey(key)
		require.NoError(t, err)
		return write(name+".crt", "CERTIFICATE", der), write(name+".key", "EC PRIVATE KEY", keyDER)
	}
	p.serverCert, p.serverKey = leaf("tier2", 2, x509.ExtKeyUsageServerAuth)
	p.clientCert, p.clientKey = leaf("tier1", 3, x509.ExtKeyUsageClientAuth)
	return p
}
