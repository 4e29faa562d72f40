/*
 * actionblocks_gravity.c: gravity per level on the tick clock, as data.
 *
 * The seed gives gravity as (0.8 - (L - 1) * 0.007)^(L - 1) seconds a row
 * at level L (1..15). The engine must not depend on libm's pow rounding, so
 * the rates are computed once and kept here as integers: rows a tick in
 * AB_GRAVITY_ONE (65536) units, round(65536 / (60 * seconds)). Level 1 is
 * 1092 (one row every 60 ticks, 65536 / 60 = 1092.27); level 15 is 154742
 * (2.36 rows a tick). tests/actionblocks/test_tick.c recomputes the
 * table with pow() (in the test only) and checks every entry; no value is
 * within 0.1 of a rounding boundary, so any correct pow agrees.
 */
#include "actionblocks_gravity.h"

static const uint32_t gravity[AB_LEVEL_MAX] = {
	1092, 1377, 1768, 2311, 3075, 4169, 5759, 8107,
	11634, 17026, 25416, 38709, 60169, 95483, 154742,
};

uint32_t
ab_gravity(unsigned level)
{
	if (level < 1)
		level = 1;
	if (level > AB_LEVEL_MAX)
		level = AB_LEVEL_MAX;
	return gravity[level - 1];
}
