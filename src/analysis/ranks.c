/* src/analysis/ranks.c: many ranks (issue 10) */
#include "config.h"
