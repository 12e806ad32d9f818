// Package imagecheck holds the .petpack validator's image checks (contract
// sections 6 and 11) as pure functions of bytes and decoded images: the PNG
// IHDR read without decoding, the critical-chunk guard image/png runs
// behind, the canonical pixel rows frames are compared by, the alpha
// coverage of a frame or cover, and the cover's checkerboard detector. It
// names no rules: petpack reports what these return under its own.
package imagecheck
