/* analysis: idle (declarations added by the analysis that lives in src/analysis/idle.c) */
#ifndef TRACETOP_IDLE_H
#define TRACETOP_IDLE_H

#include "tracetop/analysis.h"

#endif
