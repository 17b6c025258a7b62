// Copyright The agentotel Authors
// SPDX-License-Identifier: Apache-2.0

package statestore

import (
	"bytes"
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"go.opentelemetry.io/collector/component"
	"go.opentelemetry.io/collector/extension/xextension/storage"
	"go.uber.org/zap"
	"go.uber.org/zap/zaptest/observer"

	"github.com/agentotel/agentotel/internal/statecodec"
	"github.com/agentotel/agentotel/internal/statestore/statestoretest"
)

var processorID = component.MustNewID("agentguard")

// newStore opens a Store on the in-memory storage extension, the way a processor opens one at start.
func newStore(t *testing.T, version uint16) (*Store, *statestoretest.Extension, *observer.ObservedLogs) {
	core, logs := observer.New(zap.InfoLevel)
	ext := statestoretest.New()
	extID := component.MustNewID("file_storage")
	s, err := Open(context.Background(), statestoretest.Host{extID: ext}, extID, processorID, version, zap.New(core))
	if err != nil {
		t.Fatal(err)
	}
	return s, ext, logs
}

// notStorage is an extension that keeps nothing.
type notStorage struct {
	component.StartFunc
	component.ShutdownFunc
}

// A storage: setting that names no configured extension, or one that is not a storage extension,
// fails the start with the name.
func TestOpenNamesAMissingExtension(t *testing.T) {
	extID := component.MustNewID("file_storage")
	for name, host := range map[string]statestoretest.Host{
		"not configured":          {},
		"not a storage extension": {extID: notStorage{}},
	} {
		_, err := Open(context.Background(), host, extID, processorID, 1, zap.NewNop())
		if err == nil || !strings.Contains(err.Error(), `"file_storage"`) {
			t.Errorf("%s: got %v, want an error naming file_storage", name, err)
		}
	}
}

// unopenable is a storage extension that cannot open a component's storage, as file_storage when the
// component's file is damaged.
type unopenable struct {
	component.StartFunc
	component.ShutdownFunc
}

func (unopenable) GetClient(context.Context, component.Kind, component.ID, string) (storage.Client, error) {
	return nil, errors.New("invalid database")
}

// Storage that cannot be opened is an error in the log and a Store that restores nothing and saves
// nowhere: the processor starts, fresh.
func TestUnopenableStorageStartsFresh(t *testing.T) {
	core, logs := observer.New(zap.InfoLevel)
	extID := component.MustNewID("file_storage")
	s, err := Open(context.Background(), statestoretest.Host{extID: unopenable{}}, extID, processorID, 1, zap.New(core))
	if err != nil {
		t.Fatalf("the start failed: %v", err)
	}
	if s.Attached() || s.Restore(context.Background(), func([]byte) error { t.Fatal("decoded"); return nil }) {
		t.Fatal("a store that could not be opened restored state")
	}
	if err := s.Save(context.Background(), encodeSample()); err != nil || s.Close(context.Background()) != nil {
		t.Fatalf("save %v", err)
	}
	if e := logs.FilterLevelExact(zap.ErrorLevel).All(); len(e) != 1 || !strings.Contains(e[0].Message, "starting fresh") {
		t.Fatalf("logged %v", logs.All())
	}
}

// The sample payload: a run's name and a count, the way a processor's state starts.
func encodeSample() []byte {
	var e statecodec.Encoder
	e.String("run-1")
	e.Uint(300)
	return e.Data()
}

func decodeSample(payload []byte) error {
	d := statecodec.NewDecoder(payload)
	run, count := d.String(), d.Uint()
	if err := d.Finish(); err != nil {
		return err
	}
	if run != "run-1" || count != 300 {
		return errors.New("decoded other values")
	}
	return nil
}

func TestSavedStateRestores(t *testing.T) {
	s, _, logs := newStore(t, 1)
	if s.Restore(context.Background(), decodeSample) {
		t.Fatal("restored state before any was saved")
	}
	if err := s.Save(context.Background(), encodeSample()); err != nil {
		t.Fatal(err)
	}
	if !s.Restore(context.Background(), decodeSample) {
		t.Fatalf("saved state did not restore: %v", logs.All())
	}
	if logs.Len() != 0 {
		t.Errorf("a clean start and restore logged %v", logs.All())
	}
}

// Every way a saved value can be wrong is an error in the log, naming why, and a fresh start.
func TestUnreadableStateIsAFreshStart(t *testing.T) {
	good := frame(1, encodeSample())
	damaged := append([]byte(nil), good...)
	damaged[len(damaged)-1] ^= 0xff
	cases := map[string]struct {
		value   []byte
		version uint16
		decode  func([]byte) error
		want    string
	}{
		"truncated payload": {good[:len(good)-3], 1, decodeSample, "truncated"},
		"truncated header":  {good[:8], 1, decodeSample, "truncated"},
		"garbage":           {[]byte("{\"not\": \"ours\"}"), 1, decodeSample, "not an agentotel state value"},
		"damaged":           {damaged, 1, decodeSample, "checksum"},
		"other version":     {good, 2, decodeSample, "version 1; this build reads version 2"},
		"refused by decode": {frame(1, []byte{1}), 1, decodeSample, "a count of 1 where at most 0 fit"},
		"left over bytes":   {frame(1, append(encodeSample(), 9)), 1, decodeSample, "left over"},
	}
	for name, c := range cases {
		t.Run(name, func(t *testing.T) {
			s, ext, logs := newStore(t, c.version)
			ext.SetValue(component.KindProcessor, processorID, key, c.value)
			if s.Restore(context.Background(), c.decode) {
				t.Fatal("restored an unreadable value")
			}
			entries := logs.FilterMessage("Saved state is unreadable; starting fresh").All()
			if len(entries) != 1 || !strings.Contains(entries[0].ContextMap()["error"].(string), c.want) {
				t.Fatalf("logged %v, want one error saying %q", logs.All(), c.want)
			}
		})
	}
}

// Checkpoints save until Stop, and none runs after Stop returns: the shutdown's save is the last.
func TestCheckpointsStopBeforeTheLastSave(t *testing.T) {
	saves := make(chan struct{}, 100)
	stopped := false
	var afterStop bool
	c := StartCheckpoints(time.Millisecond, func() {
		afterStop = afterStop || stopped
		select {
		case saves <- struct{}{}:
		default:
		}
	})
	for range 3 {
		<-saves
	}
	c.Stop()
	stopped = true
	if afterStop {
		t.Fatal("a checkpoint ran after Stop returned")
	}
}

// unframe reads any bytes without panicking, and only a frame of ours is a payload.
func FuzzUnframe(f *testing.F) {
	f.Add(frame(1, encodeSample()))
	f.Add([]byte(magic + "\x00\x01"))
	f.Fuzz(func(t *testing.T, value []byte) {
		if _, err := unframe(value, 1); err == nil && !bytes.HasPrefix(value, []byte(magic)) {
			t.Fatal("unframed a value without the magic")
		}
	})
}
