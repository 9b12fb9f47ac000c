/* src/analysis/launch.c: filled by its analysis */
#include "config.h"
