/*
 * actionblocks_gravity.h: gravity per level on the tick clock, a table of
 * integers (actionblocks_gravity.c).
 */
#ifndef ACTIONBLOCKS_GRAVITY_H
#define ACTIONBLOCKS_GRAVITY_H

#include <stdint.h>

#include "actionblocks_match.h"

/* Gravity at level 1..15 in AB_GRAVITY_ONE units a tick:
 * round(AB_GRAVITY_ONE / (60 * (0.8 - (L - 1) * 0.007)^(L - 1))), a table
 * (actionblocks_gravity.c). Out of range: level 15's. */
uint32_t ab_gravity(unsigned level);

#endif
