// Copyright The agentotel Authors
// SPDX-License-Identifier: Apache-2.0

package fingerprint

import "github.com/agentotel/agentotel/internal/countsonly"

// WindowLen is the length of the runs a Set remembers. A leaf shorter than this is not
// remembered: runs that short are too common in ordinary text to mean anything.
const WindowLen = 8

// stride is the distance between the interior windows a Set remembers of a leaf. Its first and
// last windows are always remembered; between them every stride-th is, which divides the memory
// by stride and still leaves no byte of a repeated leaf uncovered by some matching window.
const stride = 4

// Flags in the low byte of a table entry; the upper 56 bits are the fingerprint's.
const (
	flagWindow = 1 << iota // some leaf has this window
	flagStart              // some leaf starts with this window
	flagEnd                // some leaf ends with this window
	flagWhole              // the entry is a whole-leaf fingerprint, not a window
	flagBits   = 0xff
)

// Filter bounds: the prefilter sets one bit per window in at least bitsPerWindow bits, so fewer than
// eight offsets in a thousand of unrelated text pass it and pay for a table lookup. It grows from
// minFilterBytes to maxFilterBytes, and past about 8,000 windows passes more offsets. At 256 bits a
// window the search was 3 to 8 % faster, but every new trace cleared and filled a prefilter twice the
// size, and shapeonly on a batch of new traces was 5 % slower (docs/benchmarks-log.md).
const (
	minFilterBytes = 64
	maxFilterBytes = 128 << 10
	bitsPerWindow  = 128
)

// Set holds the fingerprints of the withheld leaves of one trace or one run: keyed hashes of
// their 8-byte windows, never the bytes. It is not safe for concurrent use; a Scanner only
// reads it.
type Set struct {
	// MaxDepth bounds the nesting of the JSON documents whose leaves it is given (AddJSONLeaves,
	// and documents stringified inside withheld strings); zero is jsonraw.DefaultMaxDepth.
	MaxDepth int
	// Vocabulary, when set, reports the leaves that are never remembered: words a caller keeps
	// everywhere (shapeonly's configured tool names), which a withheld value may hold as one of its
	// leaves without their being its data.
	Vocabulary func(leaf []byte) bool

	table   []uint64 // open addressing, linear probing: fingerprint>>8<<8 | flags, 0 when empty
	entries int
	max     int
	windows int

	// filter has one bit set per window, chosen by the window's filter hash; its length is a
	// power of two. The table's entries hold the bits of the filter hash it reads, so it is
	// rebuilt from them when it grows.
	filter []byte

	// filterStale: windows were added past what the filter's size allows; syncFilter rebuilds it
	// at the end of Build, once, however many doublings it grew by.
	filterStale bool

	// pending lists what was added since the last Build (nil when nothing was); reported is
	// entries as Build last reported them.
	pending  *pending
	reported int

	// markerLike is set when a window holds '[' or ']' or is "withheld": only such windows can
	// overlap a marker written into text, so only then can redacting form a leaf anew.
	markerLike bool

	// firstBytes holds the bytes leaves start with: where a text might hold a leaf that an escape
	// sequence hides the start of, this rules most places out at once.
	firstBytes byteSet
}

// NewSet returns an empty Set that will hold at most maxEntries fingerprints: a leaf takes one
// per 4 bytes, plus two. maxEntries below 1 makes a Set that holds nothing.
func NewSet(maxEntries int) *Set {
	if !keysInUse.Load() {
		keysInUse.Store(true)
	}
	return &Set{max: max(maxEntries, 0)}
}

// Len is the number of fingerprints held, counting those listed for the next Build (which may repeat
// some): exact after a Build, at most that before it.
func (s *Set) Len() int { return s.entries + s.pending.len() }

// SizeBytes is the memory the Set holds, for bounds and documentation.
func (s *Set) SizeBytes() int {
	const header = 128 // the struct itself, rounded up
	return header + 8*cap(s.table) + cap(s.filter) + s.pending.sizeBytes()
}

// AddLeaf remembers leaf, a withheld value as decoded text. Leaves shorter than WindowLen are
// ignored. A search finds it once Build has run. It reports full when maxEntries stopped the Set
// from storing every fingerprint of it. Windows are stored from the leaf's start, so a leaf cut
// short by the bound is still found as far as its stored windows reach.
func (s *Set) AddLeaf(leaf []byte) (full bool) {
	return s.addLeaf(leaf)
}

// AddLeaves is AddLeaf for many leaves, as the strings of one structured value arrive.
func (s *Set) AddLeaves(leaves [][]byte) (full bool) {
	for _, leaf := range leaves {
		full = s.addLeaf(leaf) || full
	}
	return full
}

// Build makes what was added since the last Build searchable, and returns how many of its
// fingerprints are new to the Set. Adds only list their fingerprints: a trace's first results arrive
// one after another in a batch, and inserting each at once would grow the table and rebuild the
// prefilter at every one of them. Build inserts them all, growing the table once at most, and
// rebuilds the prefilter once. A Set is searched as it was at its last Build.
func (s *Set) Build() (added int) {
	s.insertPending()
	s.syncFilter()
	added, s.reported = s.entries-s.reported, s.entries
	return added
}

// insertPending inserts what is listed for Build into the table.
func (s *Set) insertPending() {
	p := s.pending
	if p == nil {
		return
	}
	// Room for all that is listed at once, so that the table never grows while Build inserts: a
	// table that doubles part way is allocated twice and its entries moved. addLeaf saw to it that
	// all of them fit under maxEntries.
	s.reserve(len(p.fingerprints))
	// insert's probe, inlined and without its checks for room, which reserve made. The new windows'
	// entries are gathered at the front of the list, so that the prefilter takes them all at once.
	table, mask := s.table, len(s.table)-1
	fresh := p.fingerprints[:0]
	for _, e := range p.fingerprints {
		key := e &^ flagBits
		i := int(key>>8) & mask
		for table[i] != 0 && table[i]&^flagBits != key {
			i = (i + 1) & mask
		}
		if t := table[i]; t != 0 {
			table[i] = t | e
			continue
		}
		table[i] = e
		s.entries++
		if e&flagWhole == 0 {
			fresh = append(fresh, e)
		}
	}
	s.noteWindows(fresh)
	s.pending = nil
	p.release()
	// A result's leaves repeat many of their windows (dates, statuses, the words of item names), so
	// what was listed can be far more room than the entries take. A large table is then cut to size,
	// so that memory follows the entries held; a small one keeps the slack, which costs less than
	// moving it.
	if size := tableSize(s.entries); size < len(s.table) && len(s.table) >= largeTable {
		s.resize(size)
	}
}

// largeTable is the size (in entries, 128 KiB) from which Build cuts a table too large to size.
const largeTable = 1 << 14

// addLeaf lists the fingerprints of leaf for Build, or, when they might not all fit under
// maxEntries, inserts what is listed and then them one by one, to store exactly as many as fit.
func (s *Set) addLeaf(leaf []byte) (full bool) {
	if len(leaf) < WindowLen || s.Vocabulary != nil && s.Vocabulary(leaf) {
		return false
	}
	s.firstBytes.add(leaf[0])
	if s.entries+s.pending.len()+fingerprintsOf(len(leaf)) > s.max {
		s.insertPending()
		return s.insertLeaf(leaf)
	}
	if s.pending == nil {
		s.pending = pendingPool.Get().(*pending)
	}
	last := len(leaf) - WindowLen
	for off := 0; off <= last; off = nextWindow(off, last) {
		w := window(leaf[off:])
		s.pending.add(fingerprint(w) | windowFlags(off, last))
		s.markerLike = s.markerLike || mayOverlapMarker(w)
	}
	if needsWhole(len(leaf)) {
		s.pending.add(leafFingerprint(leaf)&^flagBits | flagWhole)
	}
	return false
}

// needsWhole reports whether a leaf of n bytes is remembered with a fingerprint of the whole leaf.
// Only a leaf shorter than minFragment is: repeated whole, it spans less than minFragment, and only
// its START and END hits at the leaf's own distance tell it from ordinary text. A longer leaf
// repeated whole is a run of hits from its first window to its last, at least minFragment long, so
// it is withheld as a fragment, and a whole-leaf fingerprint of its length would never be looked up.
func needsWhole(n int) bool { return n < minFragment }

// leafFingerprint is the whole-leaf fingerprint of leaf, of WindowLen bytes or more.
func leafFingerprint(leaf []byte) uint64 {
	return wholeFingerprint(fingerprint(window(leaf)), fingerprint(window(leaf[len(leaf)-WindowLen:])), len(leaf))
}

// windowFlags are the flags of the window at off in a leaf whose last window is at last.
func windowFlags(off, last int) uint64 {
	flags := uint64(flagWindow)
	if off == 0 {
		flags |= flagStart
	}
	if off == last {
		flags |= flagEnd
	}
	return flags
}

// insertLeaf inserts leaf's fingerprints one by one until the Set is full, and reports whether it is.
func (s *Set) insertLeaf(leaf []byte) (full bool) {
	last := len(leaf) - WindowLen
	for off := 0; off <= last; off = nextWindow(off, last) {
		w := window(leaf[off:])
		fp := fingerprint(w)
		isNew, ok := s.insert(fp, windowFlags(off, last))
		if isNew {
			s.noteWindow(fp)
		}
		s.markerLike = s.markerLike || mayOverlapMarker(w)
		if !ok {
			return true
		}
	}
	if !needsWhole(len(leaf)) {
		return false
	}
	_, ok := s.insert(leafFingerprint(leaf), flagWhole)
	return !ok
}

// mayOverlapMarker reports whether the window w could be part of a text where a marker meets
// what was around it: every window that overlaps "[withheld]" holds a bracket or is "withheld".
// It tests the window as one word, since it runs for every window remembered.
func mayOverlapMarker(w uint64) bool {
	return hasByte(w, '[') || hasByte(w, ']') || w == markerLetters
}

// markerLetters is the window "withheld", the marker without its brackets.
var markerLetters = window([]byte(countsonly.Withheld[1:9]))

// hasByte reports whether any byte of the word w is c: a byte of x = w^c is zero exactly where w
// holds c, and (x-ones)&^x&highs, the classic test for a zero byte, is non-zero exactly when x
// has one (it may also flag bytes past the first zero one, which does not matter here).
func hasByte(w uint64, c byte) bool {
	const ones, highs = 0x0101010101010101, 0x8080808080808080
	x := w ^ (ones * uint64(c))
	return (x-ones)&^x&highs != 0
}

// fingerprintsOf is how many fingerprints AddLeaf stores for a leaf of n bytes, at most: its
// windows and, if it needs one, the whole-leaf fingerprint.
func fingerprintsOf(n int) int {
	if n < WindowLen {
		return 0
	}
	last := n - WindowLen
	windows := 1 + (last+stride-1)/stride
	if needsWhole(n) {
		return windows + 1
	}
	return windows
}

// nextWindow is the offset of the window stored after the one at off, in a leaf whose last
// window is at last (past last when off is last).
func nextWindow(off, last int) int {
	if off == last {
		return last + 1
	}
	return min(off+stride, last)
}

// A byteSet is a set of byte values.
type byteSet [4]uint64

func (b *byteSet) add(c byte)      { b[c>>6] |= 1 << (c & 63) }
func (b *byteSet) has(c byte) bool { return b[c>>6]&(1<<(c&63)) != 0 }

// insert adds flags to the entry for key, creating it if there is room. isNew reports a new
// entry; ok is false when the Set is full and the entry did not exist.
func (s *Set) insert(key, flags uint64) (isNew, ok bool) {
	key &^= flagBits
	i := -1
	if s.table != nil {
		var found bool
		if i, found = s.slot(key); found {
			s.table[i] |= flags
			return false, true
		}
	}
	if s.entries >= s.max {
		return false, false
	}
	if 4*(s.entries+1) > 3*len(s.table) {
		s.growTable()
		i, _ = s.slot(key)
	}
	s.table[i] = key | flags
	s.entries++
	return true, true
}

// slot returns the index of the entry for key (its flag bits clear), found, or of the empty slot
// where the search for it ended. The table must not be full.
func (s *Set) slot(key uint64) (i int, found bool) {
	mask := len(s.table) - 1
	for i = int(key>>8) & mask; s.table[i] != 0; i = (i + 1) & mask {
		if s.table[i]&^flagBits == key {
			return i, true
		}
	}
	return i, false
}

func (s *Set) growTable() { s.resize(max(16, 2*len(s.table))) }

// reserve makes room for n more fingerprints (no more than the Set may hold) in one step, rather
// than doubling the table again and again as they arrive: a batch's first tool result doubles it
// eight times or more.
func (s *Set) reserve(n int) {
	if size := tableSize(min(s.entries+n, s.max)); size > len(s.table) {
		s.resize(size)
	}
}

// tableSize is the size of the smallest table that holds n entries at most three quarters full.
func tableSize(n int) int {
	size := 16
	for 4*n > 3*size {
		size *= 2
	}
	return size
}

// resize moves the table's entries into a new table of size slots, a power of two.
func (s *Set) resize(size int) {
	old := s.table
	s.table = tables.get(size)
	mask := len(s.table) - 1
	for _, e := range old {
		if e == 0 {
			continue
		}
		i := int(e>>8) & mask
		for s.table[i] != 0 {
			i = (i + 1) & mask
		}
		s.table[i] = e
	}
	tables.put(old)
}

// lookup returns the flags stored for the fingerprint fp, or 0.
func (s *Set) lookup(fp uint64) uint64 {
	if s.table == nil {
		return 0
	}
	if i, found := s.slot(fp &^ flagBits); found {
		return s.table[i] & flagBits
	}
	return 0
}

// noteWindow records a new window in the prefilter by its table entry: its bit, or, when the filter
// has become too small to keep about bitsPerWindow bits per window, a note that syncFilter must
// rebuild it.
func (s *Set) noteWindow(entry uint64) { s.noteWindows([]uint64{entry}) }

// noteWindows is noteWindow for the entries of many new windows.
func (s *Set) noteWindows(entries []uint64) {
	first := s.windows == 0
	s.windows += len(entries)
	if len(s.filter) < maxFilterBytes && 8*len(s.filter) < bitsPerWindow*s.windows {
		if !first {
			s.filterStale = true
			return
		}
		// A trace's first Build, the usual one: its windows are all here, and the filter is built from
		// them rather than from a table two to three times as long.
		filters.put(s.filter)
		s.filter = filters.get(filterSize(s.windows))
	}
	filter, mask := s.filter, uint64(len(s.filter)-1)
	for _, e := range entries {
		h := filterHashOf(e)
		filter[filterByte(h, mask)] |= filterBit(h)
	}
}

// syncFilter rebuilds the prefilter if the windows added since it was built outgrew it.
func (s *Set) syncFilter() {
	if s.filterStale {
		s.growFilter()
		s.filterStale = false
	}
}

// growFilter builds the prefilter afresh at the size the windows call for, from the table.
func (s *Set) growFilter() {
	size := filterSize(s.windows)
	filter, mask := filters.get(size), uint64(size-1)
	for _, e := range s.table {
		// Without a branch, which the mix of empty slots, windows and whole-leaf entries would
		// mispredict: an entry that is no window ORs in no bit.
		h := filterHashOf(e)
		filter[filterByte(h, mask)] |= filterBit(h) & -byte(e&flagWindow)
	}
	filters.put(s.filter)
	s.filter = filter
}

// filterSize is the length of the filter for windows windows: about bitsPerWindow bits each, within
// the filter's bounds.
func filterSize(windows int) int {
	size := minFilterBytes
	for size < maxFilterBytes && 8*size < bitsPerWindow*windows {
		size *= 2
	}
	return size
}

// The filter reads fixed bit ranges of the hash, so the scan loop shifts by constants: the byte
// index from bits 40-56 (as many as the filter's size needs), the bit within it from bits 61-63,
// through a table rather than a shift by a variable amount, which costs register moves on amd64.
// Bits 32-63 are what a table entry keeps of it.
const filterByteShift = 40

var bitOf = [8]byte{1, 2, 4, 8, 16, 32, 64, 128}

// filterByte is the index of the byte that holds the bit of the window with filter hash h, in a
// filter whose length (a power of two) less one is mask.
func filterByte(h, mask uint64) uint64 { return h >> filterByteShift & mask }

// filterBit is the bit a window with filter hash h sets in its filter byte.
func filterBit(h uint64) byte { return bitOf[h>>61] }
