/* src/analysis/counters.c: filled by its analysis */
#include "config.h"
