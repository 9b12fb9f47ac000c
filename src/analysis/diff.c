/* src/analysis/diff.c: filled by its analysis */
#include "config.h"
