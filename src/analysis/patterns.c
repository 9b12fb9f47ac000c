/* src/analysis/patterns.c: filled by its analysis */
#include "config.h"
