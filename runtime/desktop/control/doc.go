// Package control is the desktop pet's local control channel: a Unix
// socket per running pet that takes one JSON object a line (an Agent event,
// a role, bubble text, Reduce Motion) and answers each line with one JSON
// line. The pet side calls Listen and reads Messages; a client calls Send
// (or `petasset desktop send`).
//
// # Where the sockets are
//
// Dir: $XDG_RUNTIME_DIR/rules_pet when XDG_RUNTIME_DIR is set, otherwise
// $TMPDIR/rules_pet-UID (os.TempDir). Either directory is created with mode
// 0700 and refused when it is not a real directory owned by the user with
// no group or other permission bits, so no other user can plant or read a
// socket there. A pet whose ID is ID listens on ID.sock; a second pet with
// the same ID never takes over a live socket: it gets ID.2.sock (up to
// ID.MaxInstances.sock), and the first keeps working. A socket nobody
// listens on any more (a crashed pet's) is stale and is replaced. Close
// removes the pet's socket. An ID is 1 to MaxIDBytes bytes of lowercase
// ASCII letters, digits, '_' and '-' (no '.', which separates the instance
// number).
//
// Every connection's peer is checked with SO_PEERCRED: a process of another
// user gets {"ok":false,"error":"control_peer_refused: ..."} and is
// disconnected. On systems without SO_PEERCRED every peer is refused.
//
// # Messages
//
// A request is one JSON object on one line ending in '\n', at most
// MaxLineBytes bytes with the newline, with exactly one of these keys:
//
//	{"event":"thinking"}          an Agent event: start, thinking, plan, tool, waiting, done, failed
//	{"role":"activity_curious"}   present a role by name (pack and runtime-copy pets)
//	{"bubble":"Build green"}      show bubble text (at most MaxBubbleRunes characters, no control characters)
//	{"bubble":""}                 clear the bubble
//	{"reduce_motion":true}        Reduce Motion on (false: off)
//
// The events are runtime/playback's Agent events, the only input of the
// .petpack playback that comes from outside the window (pointer input is the
// window's own). A .petpack pet plays them as its semantic states; a pack or
// runtime-copy pet presents the role EventRoles maps them to. A role must be
// a manifest identifier (manifest contract section 6); a role the pet's
// manifest does not map presents its fallback role, as for events.
//
// Each request gets one reply line: {"ok":true} when the message was
// handed to the pet, or {"ok":false,"error":"RULE: reason"} with one of the
// Rule identifiers. A malformed line, an unknown event or key, a line over
// the bound (the rest of it is skipped up to its newline), or a line left
// unfinished when the client closes or stays silent for IdleTimeout is
// answered (when the client can still read) and then forgotten: neither
// stops the listener nor any other connection. At most MaxConns clients
// are served at once; another one is answered control_busy.
//
// # Event to role table (pack and runtime-copy pets)
//
// Manifest contract section 5.3 recommends the role names activity_idle,
// activity_curious, activity_attentive, expression_neutral, expression_happy
// and fallback_default. The events map to them as follows (EventRoles,
// RoleForEvent); a role the manifest does not map presents its fallback
// role (section 5.4):
//
//	start     activity_idle       (the contract's .petpack reading: start renders idle)
//	thinking  activity_curious
//	plan      activity_curious    (thinking and plan select one .petpack action too)
//	tool      activity_attentive
//	waiting   activity_attentive  (the pet looks to the user, who is asked something)
//	done      expression_happy
//	failed    expression_neutral  (calm; the recommended names have no sad role)
package control
