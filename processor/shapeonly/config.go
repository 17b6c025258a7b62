package shapeonly

import (
	"errors"
	"fmt"
	"slices"
	"time"

	"github.com/agentotel/agentotel/internal/agentspan"
	"github.com/agentotel/agentotel/internal/annotation"
	"github.com/agentotel/agentotel/internal/countsonly"
)

// Config is the shapeonly processor's configuration.
type Config struct {
	// DataClassAttribute is the tool-span attribute naming the data class of the tool's data.
	DataClassAttribute string `mapstructure:"data_class_attribute"`
	// ShapedClasses are the data classes whose values are withheld.
	ShapedClasses []string `mapstructure:"shaped_classes"`
	// Tools gives a data class by tool name, for SDKs that cannot set span attributes.
	Tools map[string]string `mapstructure:"tools"`
	// KeptKeys are the keys whose string values survive shaping.
	KeptKeys []string `mapstructure:"kept_keys"`
	// StructuralKeys are attributes of a data-class tool span left untouched: names, ids, operation,
	// model, token counts and status. The default covers every supported convention.
	StructuralKeys []string `mapstructure:"structural_keys"`
	// TaintOutputs also withholds the text of model outputs produced after a data-class result entered
	// the transcript.
	TaintOutputs bool `mapstructure:"taint_outputs"`
	// MaxValueBytes and MaxDepth bound the JSON a value may hold; past them the value is withheld whole.
	MaxValueBytes int `mapstructure:"max_value_bytes"`
	MaxDepth      int `mapstructure:"max_depth"`
	// MaxTrackedCalls and TrackedCallTTL bound the memory of data-class call ids and of tool names
	// learnt from span attributes, kept across batches so later transcripts are shaped too.
	MaxTrackedCalls int           `mapstructure:"max_tracked_calls"`
	TrackedCallTTL  time.Duration `mapstructure:"tracked_call_ttl"`

	// prevent unkeyed literal initialization
	_ struct{}
}

// Upper limits: past these a setting is a typo, not a choice.
const (
	maxDepthLimit       = 1024
	maxValueBytesLimit  = 256 << 20
	maxTrackedCallLimit = 10_000_000
)

// The default structural keys include agentguard's verdicts: written on tool spans before shapeonly
// runs, they describe the call, not its data, and alerting reads them.
func createDefaultConfig() *Config {
	return &Config{
		DataClassAttribute: "tool.data_class",
		ShapedClasses:      []string{"customer"},
		Tools:              map[string]string{},
		KeptKeys:           countsonly.DefaultKeptKeys(),
		StructuralKeys:     append(agentspan.StructuralKeys(), annotation.Keys()...),
		MaxValueBytes:      4 << 20,
		MaxDepth:           64,
		MaxTrackedCalls:    100_000,
		TrackedCallTTL:     time.Hour,
	}
}

// Validate reports every problem at once, each with its field and what is allowed.
func (c *Config) Validate() error {
	var errs []error
	if c.DataClassAttribute == "" {
		errs = append(errs, errors.New("data_class_attribute: must name a span attribute, e.g. tool.data_class"))
	}
	if len(c.ShapedClasses) == 0 {
		errs = append(errs, errors.New("shaped_classes: must list at least one data class, e.g. [customer]"))
	}
	if slices.Contains(c.ShapedClasses, "") {
		errs = append(errs, errors.New("shaped_classes: entries must be non-empty"))
	}
	for tool, class := range c.Tools {
		if tool == "" || class == "" {
			errs = append(errs, fmt.Errorf("tools: %q: %q: tool name and data class must both be non-empty", tool, class))
		}
	}
	if slices.Contains(c.KeptKeys, "") {
		errs = append(errs, errors.New("kept_keys: entries must be non-empty"))
	}
	if slices.Contains(c.StructuralKeys, "") {
		errs = append(errs, errors.New("structural_keys: entries must be non-empty"))
	}
	if c.MaxValueBytes <= 0 || c.MaxValueBytes > maxValueBytesLimit {
		errs = append(errs, fmt.Errorf("max_value_bytes: %d: must be between 1 and %d", c.MaxValueBytes, maxValueBytesLimit))
	}
	if c.MaxDepth <= 0 || c.MaxDepth > maxDepthLimit {
		errs = append(errs, fmt.Errorf("max_depth: %d: must be between 1 and %d", c.MaxDepth, maxDepthLimit))
	}
	if c.MaxTrackedCalls <= 0 || c.MaxTrackedCalls > maxTrackedCallLimit {
		errs = append(errs, fmt.Errorf("max_tracked_calls: %d: must be between 1 and %d", c.MaxTrackedCalls, maxTrackedCallLimit))
	}
	if c.TrackedCallTTL <= 0 {
		errs = append(errs, fmt.Errorf("tracked_call_ttl: %s: must be a positive duration, e.g. 1h", c.TrackedCallTTL))
	}
	return errors.Join(errs...)
}
