# Breaks for tests/mutants/run.sh: one contract rule broken per line, with
# the test that claims to guard it. Sourced by run.sh; see its header for
# the format. Keep each break next to the rule's own test command, a few per
# package, and add one when a test is written to guard a rule.
# shellcheck shell=bash disable=SC2016

go='/usr/local/go/bin/go'
# The C reader's unit test alone, without the shared vectors' test.
c_unit='source firmware/flags.sh && gcc "${c99_copts[@]}" -O1 -Ifirmware firmware/tests/pet_pack_test.c firmware/pet_pack.c -o /tmp/mutant_unit.$$ && /tmp/mutant_unit.$$ tests/vectors; rc=$?; rm -f /tmp/mutant_unit.$$; exit $rc'

# runtime/petpack: the numeric rules of sections 5, 6 and 11, at their bounds.
brk petpack-duration-50 runtime/petpack/states.go 's/if n < 50 \|\| n > 2000 \{/if n <= 50 || n > 2000 {/' "$go test ./runtime/petpack -run BoundsBothSides"
brk petpack-duration-2000 runtime/petpack/states.go 's/if n < 50 \|\| n > 2000 \{/if n < 50 || n >= 2000 {/' "$go test ./runtime/petpack -run BoundsBothSides"
brk petpack-state-total runtime/petpack/states.go 's/if all && total > 5000 \{/if all \&\& total >= 5000 {/' "$go test ./runtime/petpack -run BoundsBothSides"
brk petpack-cooldown-max runtime/petpack/states.go 's/n > maxCooldownMS \{/n >= maxCooldownMS {/' "$go test ./runtime/petpack -run BoundsBothSides"
brk petpack-frame-width-only runtime/petpack/media.go 's/case int\(h.Width\) != m.RenderSize.Width \|\| int\(h.Height\) != m.RenderSize.Height:/case int(h.Width) != m.RenderSize.Width:/' "$go test ./runtime/petpack -run BoundsBothSides"
brk petpack-image-pixels runtime/petpack/media.go 's/case h.Pixels\(\) > MaxImagePixels:/case h.Pixels() >= MaxImagePixels:/' "$go test ./runtime/petpack -run BoundsBothSides"
brk petpack-alpha-one-percent runtime/petpack/internal/imagecheck/pixels.go 's/a.Visible\*100 >= total/a.Visible*100 > total/' "$go test ./runtime/petpack -run BoundsBothSides"
brk petpack-state-decoded runtime/petpack/media.go 's/if sum > MaxStateDecodedBytes \{/if sum >= MaxStateDecodedBytes {/' "$go test ./runtime/petpack -run BoundsBothSides"

# firmware: each section 10 check, caught by the unit test without vectors.
brk c-fallback firmware/pet_pack.c 's/if \(rd16\(d, OFF_FALLBACK\) >= roles\) \{/if (rd16(d, OFF_FALLBACK) > roles) {/' "$c_unit"
brk c-role-padding firmware/pet_pack.c 's/if \(rd16\(d, t->roles \+ i \* ROLE_RECORD \+ 34u\) != 0u\) \{/if (0) {/' "$c_unit"
brk c-trailing-padding firmware/pet_pack.c 's/if \(!all_zero\(d, cursor, hi\)\) \{/if (0) {/' "$c_unit"
brk c-mask-length firmware/pet_pack.c 's|e.mask_length != \(e.width \+ 7u\) / 8u \* e.height|0|' "$c_unit"
brk c-duration-max firmware/pet_pack.c 's/ms > PET_PACK_MAX_DURATION_MS/ms > PET_PACK_MAX_DURATION_MS + 1u/' "$c_unit"

# runtime/playback and the browser player: Reduce Motion on the Reduce
# Motion pet, and the page's wall-clock timer.
brk playback-drag-shows-idle-frame runtime/playback/player.go 's/return show\(p.drag, k.rep, -1\)/return show(p.drag, p.tracks[aIdle].rep, -1)/' "$go test ./runtime/playback -run ReduceMotion"
brk playback-burst-shows-idle-frame runtime/playback/player.go 's/return show\(p.sem, k.rep, -1\)/return show(p.sem, p.tracks[aIdle].rep, -1)/' "$go test ./runtime/playback -run ReduceMotion"
brk player-drag-shows-idle-frame runtime/playback/player.go 's/return show\(p.drag, k.rep, -1\)/return show(p.drag, p.tracks[aIdle].rep, -1)/' "$go test ./tools/petplayer -run TestPlayerReduceMotion"
brk player-never-sets-timer tools/petplayer/player.js 's/^    if \(testClock\) return;$/    if (testClock || true) return;/' "$go test ./tools/petplayer -run TestPlayerRealClock"

# tools/motionqa and runtime/library: the report's own digest, the publish
# step's sibling directory, and recovery's idea of a committed revision.
brk verify-ignores-report-digest tools/motionqa/verify.go 's/\}\{\{rp, report\}, \{wp, review\}\} \{/}{{wp, review}} {/' "$go test ./tools/motionqa -run TestVerifyHardFailures"
brk qa-publish-in-place tools/motionqa/publish.go 's/p := filepath.Join\(tmp, filepath.FromSlash\(f.name\)\)/p := filepath.Join(out, filepath.FromSlash(f.name))/' "$go test ./tools/motionqa -run TestQACrashAtPublishSteps"
brk library-keeps-orphan-revision runtime/library/recover.go 's/strconv.Itoa\(n\) == e.Name\(\) && committed\[n\] \{/strconv.Itoa(n) == e.Name() {/' "$go test ./runtime/library -run TestRecovery"

# tools/internal/inflate and the row reduction: the Adler-32, a distance
# before the output's start in the fast loop, an incomplete code, and the
# mask bits of a pixel pair.
brk inflate-no-adler tools/internal/inflate/inflate.go 's/binary.BigEndian.Uint32\(src\[end:\]\) != adler32\(dst\)/false/' "$go test ./tools/internal/inflate"
brk inflate-distance-before-start tools/internal/inflate/inflate.go 's/^\t\tif distance > out \{$/\t\tif false {/' "$go test ./tools/internal/inflate"
brk inflate-incomplete-code tools/internal/inflate/inflate.go 's/if left != 0 \&\& !\(maxLen == 1 \&\& count\[1\] == 1\) \{/if false {/' "$go test ./tools/internal/inflate"
brk reduce-pair-mask-order tools/assetpackbuild/png.go 's/uint32\(on<<1\|on>>32\) \& 3/uint32(on|on>>31) \& 3/' "$go test ./tools/assetpackbuild -run TestReduceAlphaRow"
