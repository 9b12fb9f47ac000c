/* analysis: counters (declarations added by the analysis that lives in src/analysis/counters.c) */
#ifndef TRACETOP_COUNTERS_H
#define TRACETOP_COUNTERS_H

#include "tracetop/analysis.h"

#endif
