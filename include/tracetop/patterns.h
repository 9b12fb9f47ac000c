/* analysis: patterns (declarations added by the analysis that lives in src/analysis/patterns.c) */
#ifndef TRACETOP_PATTERNS_H
#define TRACETOP_PATTERNS_H

#include "tracetop/analysis.h"

#endif
