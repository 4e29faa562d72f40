/*
 * actionblocks_kicks.h: the SRS wall-kick tables of actionblocks-v1
 * (actionblocks_kicks.c holds them as data).
 */
#ifndef ACTIONBLOCKS_KICKS_H
#define ACTIONBLOCKS_KICKS_H

#include <stdint.h>

#include "actionblocks_match.h"

#define AB_KICK_TESTS 5

/* The kick tests of a quarter turn from -> to: *tests gets the table's row,
 * the answer is how many tests (5, or 1 for O and Dot). */
unsigned ab_kicks(unsigned piece, unsigned shape, unsigned from, unsigned to,
    const int8_t (**tests)[2]);

#endif
