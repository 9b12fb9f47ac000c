/* analysis: the TensorBoard profiler's views (src/analysis/tbviews.c) */
#ifndef TRACETOP_TBVIEWS_H
#define TRACETOP_TBVIEWS_H

#include "tracetop/analysis.h"

#endif
