/* src/analysis/breakdown.c: filled by its analysis */
#include "config.h"
