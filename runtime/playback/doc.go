// Package playback plays a validated .petpack V3 manifest exactly as
// authored: the event and interaction rules of the container contract's
// section 4 and the per-action timing and playback of its section 5.
//
// It is pure: no I/O, no goroutines, no wall clock. The caller passes the
// time (milliseconds since the pet appeared) to every call and seeds the
// random source that draws idle cooldowns, so one seed and one sequence of
// inputs always give the same presentation, whichever frontend asks and
// however often it looks. A Player answers what shows now (Show) and when
// the next visible change is due (NextChange), so a frontend sleeps instead
// of polling; a held pose schedules no wake-up at all. ParseScript and
// Trace run a JSON-lines script of inputs and report one Line per visible
// change: the `petasset petpack play` trace and the browser player share
// them.
//
// # Rules (contract sections 4 and 5)
//
//   - Each frame shows for exactly its authored duration: no sampling,
//     subsampling, duplication, interpolation or retiming.
//   - loop (drag_left, drag_right) repeats the sequence; periodic (idle)
//     plays once and then rests for a cooldown drawn from the seeded source;
//     burst_then_settle (waiting, failed) plays entry_repeat_count passes,
//     then holds settle_frame_index; burst_then_idle (thinking, tool, done)
//     plays its passes, then presents idle while the semantic state stays;
//     once_then_return (acknowledge) plays once, then the semantic
//     presentation returns.
//   - Agent events: start renders idle, thinking and plan select thinking,
//     tool, waiting, done and failed their namesake; an unknown event is an
//     error naming it. An unchanged semantic state does not restart.
//   - After a rendering stall the frame due now shows; missed frames never do.
//   - Interactions: acknowledge only from a primary click while idle;
//     drag_left/drag_right from the drag direction for as long as the drag
//     lasts; presentation priority drag, then acknowledge, then the semantic
//     presentation; a pointer-down with no bubble content gives the 160 ms
//     low-amplitude press-scale, which a drag start cancels. Interactions
//     never change the semantic state.
//   - Reduce Motion: the representative frame without boundary scheduling; a
//     finite semantic action returns to idle after its active duration;
//     acknowledge and press-scale are skipped; a drag shows the
//     representative drag_left/drag_right frame while dragging.
//
// # Readings where the contract leaves room
//
// These follow the contract authors' own V3 macOS runtime where it settled
// the question.
//
//  1. The pet starts at t=0 in semantic state idle, presenting idle from
//     frame 0.
//  2. An event selecting the semantic action already selected changes
//     nothing; a change of semantic action starts the new action at frame 0
//     at the event's time.
//  3. periodic: play once from frame 0, then the cooldown, then play again.
//     Entering idle (at the start, when a burst_then_idle burst ends, when an
//     event switches to idle) starts a fresh cycle with a play. During the
//     cooldown the pet rests on idle's reduced_motion_frame_index, with no
//     wake-up until the next play.
//  4. burst_then_idle lasts entry_repeat_count × the sum of its durations,
//     then shows idle as in 3 while the semantic state stays;
//     burst_then_settle plays the bursts, then holds the settle frame with
//     no further change.
//  5. Overlays: drag over acknowledge over the semantic presentation. A drag
//     start cancels a running acknowledge, which does not resume. When an
//     overlay ends the semantic presentation shows again: a held settle pose
//     or a reduced-motion frame exactly as before, a burst still running at
//     the frame its own clock has reached, idle as a fresh cycle from frame 0
//     (the idle cycle does not run under an overlay). An Agent event during
//     an overlay changes the semantic state behind it; a running acknowledge
//     plays out.
//  6. acknowledge starts on a primary click only while the semantic state is
//     idle and idle shows. The idle phase after a burst_then_idle burst does
//     not acknowledge (the semantic state is still thinking, tool or done);
//     a click during acknowledge, a drag or any other action changes nothing.
//  7. Press-scale: a pointer-down with no bubble content shown, Reduce Motion
//     off and no drag scales the pet to PressScale (0.97, as the authors'
//     runtime). It holds while the pointer stays down and eases back over
//     PressMS (160 ms) after the pointer-up; a drag start ends it at once.
//     Scale is a step, not the ease: PressScale from the down until 160 ms
//     after the up (or until the drag start), then 1; easing is the
//     frontend's. Bubble content shown after the down does not end a press.
//  8. A stall of S ms at time t: nothing is presented in [t, t+S); time keeps
//     running and inputs inside the stall take effect at their own time; at
//     t+S the state due then shows once, if it differs from the last shown.
//     The Player needs nothing for this (what shows is a function of time);
//     Trace implements the renderer's side.
//  9. Reduce Motion: every action shows its reduced_motion_frame_index with
//     no boundary changes. A burst_then_idle action shows it for its active
//     duration, then idle's representative frame; burst_then_settle and idle
//     show theirs for as long as they last (not the settle frame);
//     acknowledge and press-scale never appear; a drag shows drag_left's or
//     drag_right's representative frame while dragging.
//  10. Cooldowns are whole milliseconds drawn uniformly from [minimum_ms,
//     maximum_ms] as minimum + Int63n(maximum-minimum+1), one draw when each
//     idle play starts (so a draw never depends on when the caller looks).
//  11. Pointer inputs: click is one complete primary click and implies no
//     down or up; drag_left/drag_right may come without a down; switching
//     direction during a drag starts the new loop at frame 0; repeating the
//     current direction, and drag_end with no drag, change nothing. Toggling
//     Reduce Motion mid-action shows at once whatever its rules make due at
//     that elapsed time: the timelines keep running under Reduce Motion.
//     Turning it on ends a running acknowledge and press-scale (they may not
//     appear, and they do not resume when it is turned off again).
//
// Inputs and transitions at one instant apply in order: first the player's
// own transitions due at or before it (a burst ending, an acknowledge
// ending, a cooldown ending), then the inputs in the order given.
package playback
