//go:generate go tool -modfile=../../internal/tools/go.mod mdatagen metadata.yaml

package agentguard
