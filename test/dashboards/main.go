// Copyright The agentotel Authors
// SPDX-License-Identifier: Apache-2.0

// Command dashboards writes agentotel's Grafana dashboard, built in Go with the Grafana Foundation SDK,
// as JSON. The committed copy is regenerated with
//
//	make dashboards
//
// and a test in this package fails when it is stale.
package main

import (
	"flag"
	"fmt"
	"os"
)

func main() {
	out := flag.String("out", "", "file to write the dashboard JSON to (default: standard output)")
	flag.Parse()
	if err := run(*out); err != nil {
		fmt.Fprintln(os.Stderr, "dashboards:", err)
		os.Exit(1)
	}
}

func run(out string) error {
	data, err := Render()
	if err != nil {
		return err
	}
	if out == "" {
		_, err = os.Stdout.Write(data)
		return err
	}
	return os.WriteFile(out, data, 0o644)
}
