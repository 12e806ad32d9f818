// Package library is the pet library of the container contract's section 8:
// what a desktop app does with a .petpack archive after the validator has
// accepted it. It installs archives as immutable, numbered revisions under
// one store root, publishes each through an atomic active.json pointer and
// commits a row in a real SQLite database, which is the commit point.
//
// The layout under the root:
//
//	library.sqlite                      one pets row per manifest ID (and revisions, quarantine)
//	library.lock                        the store's file lock
//	pets/<id>/active.json               the pointer to the pet's current revision
//	pets/<id>/revisions/<rev>/          immutable once published; <rev> counts from 1
//	    pet.petpack                     the validated archive, byte for byte
//	    cover.png                       the archive's assets/preview/cover.png
//	    frames/<action>/<name>.png      the archive's runtime frames
//	staging/                            candidates and intents; never read as installed
//
// Every operation takes the store's file lock: shared to read, exclusive to
// write or recover, waiting at most Options.LockWait before it fails with
// ErrBusy. A write first writes an intent into staging/, then changes the
// files, then commits the rows; recovery (run by Open and by every write
// before it starts) reconciles each pet named by a leftover intent to its
// committed row and empties staging/, so a crash at any instant leaves the
// previous committed state or the new one.
package library
