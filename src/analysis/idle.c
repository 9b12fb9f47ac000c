/* src/analysis/idle.c: filled by its analysis */
#include "config.h"
