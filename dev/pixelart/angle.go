package pixelart

// sinTable is round(16384 * sin(d°)) for d = 0..90, fixed here so that no
// floating point is involved in a rotation; the rest of the circle follows
// by symmetry.
var sinTable = [91]int64{
	0, 286, 572, 857, 1143, 1428, 1713, 1997, 2280, 2563,
	2845, 3126, 3406, 3686, 3964, 4240, 4516, 4790, 5063, 5334,
	5604, 5872, 6138, 6402, 6664, 6924, 7182, 7438, 7692, 7943,
	8192, 8438, 8682, 8923, 9162, 9397, 9630, 9860, 10087, 10311,
	10531, 10749, 10963, 11174, 11381, 11585, 11786, 11982, 12176, 12365,
	12551, 12733, 12911, 13085, 13255, 13421, 13583, 13741, 13894, 14044,
	14189, 14330, 14466, 14598, 14726, 14849, 14968, 15082, 15191, 15296,
	15396, 15491, 15582, 15668, 15749, 15826, 15897, 15964, 16026, 16083,
	16135, 16182, 16225, 16262, 16294, 16322, 16344, 16362, 16374, 16382,
	16384,
}

// One is 1 in Q14, the fixed-point format of SinCos.
const One = 16384

// SinCos returns the sine and cosine of deg degrees in Q14 (One is 1), for
// any whole number of degrees.
func SinCos(deg int) (sin, cos int64) {
	d := deg % 360
	if d < 0 {
		d += 360
	}
	switch {
	case d <= 90:
		return sinTable[d], sinTable[90-d]
	case d <= 180:
		return sinTable[180-d], -sinTable[d-90]
	case d <= 270:
		return -sinTable[d-180], -sinTable[270-d]
	default:
		return -sinTable[360-d], sinTable[d-270]
	}
}

// q14 rounds a Q14 fixed-point product to an integer, halves upwards.
func q14(v int64) int64 { return (v + One/2) >> 14 }
