// Package hugepages allocates large arrays that are read at random places
// (a network's lanes and packets, a schedule's operations) in memory the
// kernel is asked to back by 2 MiB pages. With 4 KiB pages nearly every
// such read also misses the processor's address translation cache, and
// the page-table walk misses the data cache too. It is a hint: where
// transparent huge pages are off, or on systems other than Linux, Make
// is make. A huge page is resident whole once touched, so an array made
// larger than it turns out to be filled (sized from an estimate) gives
// back with Trim the pages past its length that its last huge page
// brought in.
package hugepages
