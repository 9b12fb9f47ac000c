/* Themes: a style (colours and attributes) for each role of grid.h.
 *
 * A theme is a small ini file (themes/default.theme):
 *     [theme]
 *     name = default
 *     [styles]
 *     ; role        fg       bg       attrs
 *     cursor      = black    cyan
 *     bar.comp    = green    default
 *     title.focus = white    blue     bold
 * Colours: default, black, red, green, yellow, blue, magenta, cyan, white,
 * bright-<colour>, or 0-255.  Attributes: bold dim reverse underline italic.
 * A role without a style takes its base role's ("bar.comp" -> "bar"), then
 * the default role's.  Errors are warnings with a location; the built-in
 * value stays in force. */
#ifndef TRACETOP_THEME_H
#define TRACETOP_THEME_H

#include <stdbool.h>
#include <stdint.h>

#include "tracetop/grid.h"

#define TT_COLOR_DEFAULT (-1)

enum {
	TT_ATTR_BOLD = 1,
	TT_ATTR_DIM = 2,
	TT_ATTR_REVERSE = 4,
	TT_ATTR_UNDERLINE = 8,
	TT_ATTR_ITALIC = 16,
};

struct tt_style {
	int16_t fg, bg;  /* TT_COLOR_DEFAULT or 0-255 */
	uint8_t attrs;
	bool set;        /* given by the theme (else inherited) */
};

struct tt_theme {
	char name[64];
	bool mono;       /* no colours: each role's monochrome attributes */
	struct tt_style style[TT_ROLE_COUNT];
};

/* The built-in default (the same as themes/default.theme). */
void tt_theme_default(struct tt_theme *t);
/* Monochrome: attributes only (NO_COLOR, TERM=dumb, no colour terminal). */
void tt_theme_mono(struct tt_theme *t);
/* Load a theme by name or path: NAME.theme in $TRACETOP_THEMES,
 * ~/.config/tracetop/themes, then dirs[] (NULL-terminated; e.g. the installed
 * and the source themes directories).  "mono" needs no file.  Returns false
 * (and keeps the default) when it is not found. */
bool tt_theme_load(struct tt_theme *t, const char *name, const char *const *dirs,
		   void (*warn)(void *ctx, const char *msg), void *ctx);
/* The style a role draws with, after inheritance. */
struct tt_style tt_theme_style(const struct tt_theme *t, enum tt_role r);

#endif
