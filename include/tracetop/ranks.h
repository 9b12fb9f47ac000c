/* analysis: many ranks — metrics per rank, distributions, outliers (src/analysis/ranks.c) */
#ifndef TRACETOP_RANKS_H
#define TRACETOP_RANKS_H

#include "tracetop/analysis.h"

#endif
