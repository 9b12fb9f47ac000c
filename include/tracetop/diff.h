/* analysis: diff (declarations added by the analysis that lives in src/analysis/diff.c) */
#ifndef TRACETOP_DIFF_H
#define TRACETOP_DIFF_H

#include "tracetop/analysis.h"

#endif
