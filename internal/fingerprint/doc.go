// Package fingerprint finds withheld values again in text nobody recognised.
//
// When shaping withholds the string leaves of a customer-data tool call, the caller remembers
// them in a Set (one per trace, one per run): keyed hashes of their 8-byte windows, never the
// values. Every later string of the same trace or run is searched with a Scanner, and what holds
// a remembered leaf is withheld.
package fingerprint
