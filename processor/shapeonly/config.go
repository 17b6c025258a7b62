// Copyright The agentotel Authors
// SPDX-License-Identifier: Apache-2.0

package shapeonly

import (
	"fmt"
	"slices"
	"sort"
	"strings"
	"time"

	"go.opentelemetry.io/collector/component"

	"github.com/agentotel/agentotel/internal/agentspan"
	"github.com/agentotel/agentotel/internal/confighint"
	"github.com/agentotel/agentotel/internal/countsonly"
	"github.com/agentotel/agentotel/internal/toolname"
)

// Config is the shapeonly processor's configuration.
type Config struct {
	// DataClassAttribute is the span attribute naming the data class of a tool's data: on the tool
	// span, or on a span wrapping tool spans.
	DataClassAttribute string `mapstructure:"data_class_attribute"`
	// ShapedClasses are the data classes whose values are withheld. Classes compare case-insensitively,
	// trimmed of surrounding spaces.
	ShapedClasses []string `mapstructure:"shaped_classes"`
	// UnshapedClasses are data classes that tools may name and whose values stay. A class in tools
	// must be in shaped_classes or here, so a misspelt class is an error, not silently unshaped data.
	UnshapedClasses []string `mapstructure:"unshaped_classes"`
	// Tools gives a data class by tool name, for SDKs that cannot set span attributes. Tool names
	// compare case-insensitively, trimmed of surrounding spaces.
	Tools map[string]string `mapstructure:"tools"`
	// KeptKeys are the keys whose string values survive shaping, and which content matching leaves
	// alone.
	KeptKeys []string `mapstructure:"kept_keys"`
	// StructuralKeys are attributes kept on data-class spans in addition to the built-in ones (every
	// registered convention's names, ids, operation, model, tokens, status and correlation ids, and
	// agentguard's annotations), which cannot be removed.
	StructuralKeys []string `mapstructure:"structural_keys"`
	// RunAttributes group a run across traces: the first of them present on a span (or its resource),
	// or on any span of its trace, names the run. What a run's data-class calls withheld is searched
	// for in every later trace of the run. Their values are kept.
	RunAttributes []string `mapstructure:"run_attributes"`
	// Conventions declares the attribute names of SDKs agentotel does not ship.
	Conventions []agentspan.Declared `mapstructure:"conventions"`
	// TaintOutputs also withholds the text a model wrote after a data-class result entered its
	// transcript.
	TaintOutputs bool `mapstructure:"taint_outputs"`
	// MaxValueBytes and MaxDepth bound the JSON a value may hold; past them the value is withheld whole.
	// MaxDepth is the one nesting limit of all JSON shapeonly reads: values, transcripts (one nested
	// deeper cannot be read, and is withheld whole), what is remembered of them and what is searched.
	MaxValueBytes int `mapstructure:"max_value_bytes"`
	MaxDepth      int `mapstructure:"max_depth"`
	// MaxTraces and MemoryTTL bound what is remembered across batches: per trace and per run, its
	// data-class call ids and the fingerprints of what was withheld; and the tool names learnt from
	// span attributes.
	MaxTraces int           `mapstructure:"max_traces"`
	MemoryTTL time.Duration `mapstructure:"memory_ttl"`
	// MaxFingerprints bounds the fingerprints held across all traces and runs; the oldest traces and
	// runs are forgotten first. MaxFingerprintsPerTrace bounds one trace or run: past it, every later
	// value of that trace is withheld whole.
	MaxFingerprints         int `mapstructure:"max_fingerprints"`
	MaxFingerprintsPerTrace int `mapstructure:"max_fingerprints_per_trace"`
	// MaxForgotten bounds the ids of traces and runs forgotten (by any of the bounds above) after
	// carrying data-class data, which are kept so that their later batches still fail closed: at
	// least the last MaxForgotten are kept, in 4 bytes each.
	MaxForgotten int `mapstructure:"max_forgotten"`
	// Storage names a storage extension (file_storage) the memory is kept in across restarts: loaded
	// at start, saved every CheckpointInterval and at shutdown. Left out, a restart forgets it.
	Storage            *component.ID `mapstructure:"storage"`
	CheckpointInterval time.Duration `mapstructure:"checkpoint_interval"`

	// prevent unkeyed literal initialization
	_ struct{}
}

// Upper limits: past these a setting is a typo, not a choice.
const (
	maxDepthLimit        = 1024
	maxValueBytesLimit   = 256 << 20
	maxTracesLimit       = 10_000_000
	maxFingerprintsLimit = 1 << 30
	maxForgottenLimit    = 100_000_000
)

func createDefaultConfig() *Config {
	return &Config{
		DataClassAttribute:      "tool.data_class",
		ShapedClasses:           []string{"customer"},
		Tools:                   map[string]string{},
		KeptKeys:                countsonly.DefaultKeptKeys(),
		MaxValueBytes:           countsonly.DefaultMaxBytes,
		MaxDepth:                countsonly.DefaultMaxDepth,
		MaxTraces:               100_000,
		MemoryTTL:               time.Hour,
		MaxFingerprints:         4_000_000,
		MaxFingerprintsPerTrace: 65_536,
		MaxForgotten:            1_000_000,
		CheckpointInterval:      time.Minute,
	}
}

// normalName is how tool names and data classes compare: case-insensitively, trimmed.
func normalName(s string) string { return toolname.Normal(s) }

// Validate reports every problem at once, each with its field and what is allowed, in the order of
// their fields (confighint.JoinByPath), as agentguard does.
func (c *Config) Validate() error {
	var errs []error
	check := func(ok bool, format string, args ...any) {
		if !ok {
			errs = append(errs, fmt.Errorf(format, args...))
		}
	}
	check(strings.TrimSpace(c.DataClassAttribute) != "", "data_class_attribute: must name a span attribute, e.g. tool.data_class")
	check(len(c.ShapedClasses) > 0, "shaped_classes: must list at least one data class, e.g. [customer]")
	shaped, unshaped := map[string]bool{}, map[string]bool{}
	for _, class := range c.ShapedClasses {
		check(normalName(class) != "", "shaped_classes: entries must be non-empty")
		shaped[normalName(class)] = true
	}
	for _, class := range c.UnshapedClasses {
		check(normalName(class) != "", "unshaped_classes: entries must be non-empty")
		check(!shaped[normalName(class)], "unshaped_classes: %q is also in shaped_classes", class)
		unshaped[normalName(class)] = true
	}
	byName := map[string]string{}
	for _, tool := range sortedKeys(c.Tools) {
		class, name := c.Tools[tool], normalName(tool)
		switch {
		case name == "" || normalName(class) == "":
			errs = append(errs, fmt.Errorf("tools::%s: %q: tool name and data class must both be non-empty", tool, class))
		case !shaped[normalName(class)] && !unshaped[normalName(class)]:
			errs = append(errs, fmt.Errorf("tools::%s: data class %q is in neither shaped_classes %v nor unshaped_classes %v: "+
				"add it to shaped_classes to withhold the tool's data, or to unshaped_classes to keep it", tool, class, c.ShapedClasses, c.UnshapedClasses))
		case byName[name] != "" && normalName(byName[name]) != normalName(class):
			errs = append(errs, fmt.Errorf("tools::%s: names the same tool as another entry with data class %q (names compare case-insensitively)", tool, byName[name]))
		}
		byName[name] = class
	}
	for _, f := range []struct {
		name string
		keys []string
	}{{"kept_keys", c.KeptKeys}, {"structural_keys", c.StructuralKeys}, {"run_attributes", c.RunAttributes}} {
		check(!slices.ContainsFunc(f.keys, func(k string) bool { return strings.TrimSpace(k) == "" }), "%s: entries must be non-empty attribute keys", f.name)
	}
	if err := agentspan.ValidateDeclared(c.Conventions); err != nil {
		errs = append(errs, err)
	}
	check(c.MaxValueBytes > 0 && c.MaxValueBytes <= maxValueBytesLimit, "max_value_bytes: %d: must be between 1 and %d", c.MaxValueBytes, maxValueBytesLimit)
	check(c.MaxDepth > 0 && c.MaxDepth <= maxDepthLimit, "max_depth: %d: must be between 1 and %d", c.MaxDepth, maxDepthLimit)
	check(c.MaxTraces > 0 && c.MaxTraces <= maxTracesLimit, "max_traces: %d: must be between 1 and %d", c.MaxTraces, maxTracesLimit)
	check(c.MemoryTTL > 0, "memory_ttl: %s: must be a positive duration, e.g. 1h", c.MemoryTTL)
	check(c.MaxFingerprints > 0 && c.MaxFingerprints <= maxFingerprintsLimit, "max_fingerprints: %d: must be between 1 and %d", c.MaxFingerprints, maxFingerprintsLimit)
	check(c.MaxFingerprintsPerTrace > 0 && c.MaxFingerprintsPerTrace <= c.MaxFingerprints,
		"max_fingerprints_per_trace: %d: must be between 1 and max_fingerprints (%d)", c.MaxFingerprintsPerTrace, c.MaxFingerprints)
	check(c.MaxForgotten > 0 && c.MaxForgotten <= maxForgottenLimit, "max_forgotten: %d: must be between 1 and %d", c.MaxForgotten, maxForgottenLimit)
	check(c.Storage == nil || c.CheckpointInterval > 0, "checkpoint_interval: %s: must be a positive duration when storage is set, e.g. 1m", c.CheckpointInterval)
	return confighint.JoinByPath(errs...)
}

func sortedKeys(m map[string]string) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}
