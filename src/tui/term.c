/* The explorer on a terminal: curses draws, libtermkey reads keys.  The
 * only file that uses either. */
#include "config.h"

#include "tui.h"

#include <curses.h>
#include <errno.h>
#include <fcntl.h>
#include <locale.h>
#include <poll.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <termios.h>
#include <termkey.h>
#include <unistd.h>
#include <wchar.h>

#include "tracetop/outfile.h"
#include "tracetop/utf8.h"
#include "tracetop/util.h"

static volatile sig_atomic_t got_winch, got_term;
/* The signal handlers also write a byte here, so that a signal that comes
 * just before poll() (or to another thread) still wakes the key loop. */
static int wake_pipe[2] = {-1, -1};
/* its write end for wake(), which a pane's work thread calls too (an
 * atomic: it is cleared before the pipe is closed) */
static atomic_int wake_fd = -1;
static bool curses_on;
static int saved_stderr = -1;
static FILE *stderr_log;

static void wake(void)
{
	int e = errno;
	int fd = atomic_load(&wake_fd);
	if (fd >= 0 && write(fd, "", 1) < 0) {
		/* (full: the loop is awake already) */
	}
	errno = e;
}

static void on_winch(int sig)
{
	(void)sig;
	got_winch = 1;
	wake();
}

/* the signals that end the explorer: the terminal is restored first, then
 * the signal's own action ends the process (status 128+n) */
static const int term_sigs[] = {SIGTERM, SIGHUP, SIGINT, SIGQUIT, SIGUSR1, SIGUSR2, SIGALRM};

static void on_term(int sig)
{
	got_term = sig;
	wake();
}

static void wake_pipe_open(void)
{
	if (pipe(wake_pipe) != 0) {
		wake_pipe[0] = wake_pipe[1] = -1;
		return;
	}
	for (int i = 0; i < 2; i++) {
		fcntl(wake_pipe[i], F_SETFL, fcntl(wake_pipe[i], F_GETFL) | O_NONBLOCK);
		fcntl(wake_pipe[i], F_SETFD, FD_CLOEXEC);
	}
	atomic_store(&wake_fd, wake_pipe[1]);
}

static void wake_pipe_drain(void)
{
	char buf[64];
	while (wake_pipe[0] >= 0 && read(wake_pipe[0], buf, sizeof(buf)) > 0)
		;
}

/* while curses runs, stderr goes to a file that is replayed afterwards */
static void stderr_to_file(void)
{
	stderr_log = tmpfile();
	if (!stderr_log)
		return;
	fflush(stderr);
	saved_stderr = dup(2);
	dup2(fileno(stderr_log), 2);
}

static void stderr_back(void)
{
	if (saved_stderr < 0)
		return;
	fflush(stderr);
	dup2(saved_stderr, 2);
	close(saved_stderr);
	saved_stderr = -1;
	rewind(stderr_log);
	char buf[4096];
	size_t n;
	while ((n = fread(buf, 1, sizeof(buf), stderr_log)) > 0)
		fwrite(buf, 1, n, stderr);
	fclose(stderr_log);
	stderr_log = NULL;
}

/* Mouse reporting: button presses and the wheel (mode 1000), in the X10
 * form, which libtermkey 0.22 decodes (its SGR 1006 and urxvt 1015 parsing
 * is not reliable); the X10 form reaches column and row 223.  Curses never
 * sees the reports. */
static bool mouse_on;

static void mouse_enable(bool on)
{
	if (on == mouse_on)
		return;
	fputs(on ? "\033[?1000h" : "\033[?1000l", stdout);
	fflush(stdout);
	mouse_on = on;
}

/* ---- the terminal put back from a fatal signal ----
 * A signal handler may interrupt curses itself (or malloc, on another
 * thread): endwin() and stdio are out.  What it needs is prepared while
 * curses starts: the terminal modes from before, and the bytes that leave
 * the alternate screen, show the cursor and stop the mouse reports.  The
 * handler writes those, sets the modes, and gives stderr back (what was
 * logged while curses ran copied out with read/write). */
static struct termios sig_tio;
static bool sig_have_tio;
static char sig_seq[256];
static size_t sig_len;
static int sig_log_fd = -1;

static void sig_add(const char *s)
{
	if (!s || s == (const char *)-1)
		return;
	size_t n = strlen(s);
	if (sig_len + n < sizeof(sig_seq)) {
		memcpy(sig_seq + sig_len, s, n);
		sig_len += n;
	}
}

/* (after newterm: the terminal's own sequences) */
static void sig_prepare(void)
{
	sig_len = 0;
	sig_add("\033[?1000l"); /* (mouse reports off) */
	sig_add(tigetstr("sgr0"));
	sig_add(tigetstr("cnorm"));
	sig_add(tigetstr("rmcup"));
	sig_add("\r\n");
	sig_log_fd = stderr_log ? fileno(stderr_log) : -1;
}

static void sig_write(int fd, const char *p, size_t n)
{
	while (n) {
		ssize_t k = write(fd, p, n);
		if (k <= 0)
			return;
		p += k;
		n -= (size_t)k;
	}
}

/* async-signal-safe: write, tcsetattr, dup2, lseek, read */
static void restore_terminal_from_signal(void)
{
	sig_write(1, sig_seq, sig_len);
	if (sig_have_tio)
		tcsetattr(0, TCSADRAIN, &sig_tio);
	if (saved_stderr >= 0) {
		dup2(saved_stderr, 2);
		if (sig_log_fd >= 0 && lseek(sig_log_fd, 0, SEEK_SET) == 0) {
			char buf[512];
			ssize_t k;
			while ((k = read(sig_log_fd, buf, sizeof(buf))) > 0)
				sig_write(2, buf, (size_t)k);
		}
	}
}

static void restore_terminal(void)
{
	tt_set_die_signal_hook(NULL); /* (from here on the ordinary way) */
	if (curses_on)
		mouse_enable(false);
	if (curses_on) {
		endwin();
		curses_on = false;
	}
	stderr_back();
}

/* ---- colours ---- */

static attr_t role_attr[TT_ROLE_COUNT];

static attr_t style_attrs(const struct tt_style *s)
{
	attr_t a = A_NORMAL;
	if (s->attrs & TT_ATTR_BOLD)
		a |= A_BOLD;
	if (s->attrs & TT_ATTR_DIM)
		a |= A_DIM;
	if (s->attrs & TT_ATTR_REVERSE)
		a |= A_REVERSE;
	if (s->attrs & TT_ATTR_UNDERLINE)
		a |= A_UNDERLINE;
#ifdef A_ITALIC
	if (s->attrs & TT_ATTR_ITALIC)
		a |= A_ITALIC;
#endif
	return a;
}

static void setup_colors(const struct tt_theme *theme)
{
	bool color = !theme->mono && has_colors();
	if (color) {
		start_color();
		use_default_colors();
	}
	short npairs = 0;
	short pf[TT_ROLE_COUNT], pb[TT_ROLE_COUNT];
	for (int r = 0; r < TT_ROLE_COUNT; r++) {
		struct tt_style s = tt_theme_style(theme, r);
		role_attr[r] = style_attrs(&s);
		if (!color || (s.fg == TT_COLOR_DEFAULT && s.bg == TT_COLOR_DEFAULT))
			continue;
		if (s.fg >= COLORS || s.bg >= COLORS) {
			/* a 256-colour theme on a 8-colour terminal: keep the attributes */
			continue;
		}
		/* reuse a pair with the same colours */
		short pair = 0;
		for (short i = 0; i < npairs; i++)
			if (pf[i] == s.fg && pb[i] == s.bg)
				pair = (short)(i + 1);
		if (!pair && npairs + 1 < COLOR_PAIRS) {
			pf[npairs] = s.fg;
			pb[npairs] = s.bg;
			init_pair((short)(npairs + 1), s.fg, s.bg);
			pair = (short)++npairs;
		}
		if (pair)
			role_attr[r] |= COLOR_PAIR(pair);
	}
	if (!color) {
		/* monochrome: the cursor must still show */
		role_attr[TT_ROLE_CURSOR] |= A_REVERSE;
	}
}

/* ---- drawing ---- */

static int libc_width(uint32_t cp)
{
	return wcwidth((wchar_t)cp);
}

/* A character this libc measures otherwise than the grid did, drawn alone
 * in the cells the grid gave it (tt_width_plan). */
static int blit_alone(const struct tt_gcell *c, int x, int y)
{
	int cells = tt_cp_width(c->cp);
	if (cells < 1)
		cells = 1;
	uint32_t out[2];
	int k = tt_width_plan(c->cp, wcwidth((wchar_t)c->cp), out);
	wchar_t w[3] = {(wchar_t)out[0], (wchar_t)(k > 1 ? out[1] : 0), 0};
	attrset(role_attr[c->role]);
	/* (the bottom-right cell cannot be written without scrolling) */
	if (!(y == LINES - 1 && x + cells >= COLS))
		mvaddnwstr(y, x, w, k);
	return cells;
}

static void blit(const struct tt_grid *g)
{
	wchar_t run[512];
	for (int y = 0; y < g->h && y < LINES; y++) {
		int x = 0;
		while (x < g->w && x < COLS) {
			const struct tt_gcell *c = &g->c[(size_t)y * (size_t)g->w + (size_t)x];
			uint8_t role = c->role;
			if (c->cp && tt_width_differs(c->cp)) {
				x += blit_alone(c, x, y);
				continue;
			}
			int n = 0, x0 = x;
			while (x < g->w && x < COLS && n < (int)TT_ARRAY_SIZE(run) - 1) {
				const struct tt_gcell *d = &g->c[(size_t)y * (size_t)g->w + (size_t)x];
				if (d->role != role)
					break;
				if (d->cp && tt_width_differs(d->cp))
					break; /* (drawn alone: the run ends before it) */
				if (d->cp) /* (0: the right half of a wide character) */
					run[n++] = (wchar_t)d->cp;
				x++;
			}
			run[n] = 0;
			attrset(role_attr[role]);
			/* the bottom-right cell cannot be written without scrolling */
			int cols = x - x0;
			while (y == LINES - 1 && n > 0 && x0 + cols >= COLS)
				cols -= tt_cp_width((uint32_t)run[--n]);
			if (n > 0)
				mvaddnwstr(y, x0, run, n);
		}
	}
	attrset(A_NORMAL);
}

static void handle_resize(void);

/* Draw the app.  A resize that came while a key was handled is taken first
 * (never a frame for the old size), and after a resize or when asked (C-l)
 * the whole screen is sent again: the terminal may hold text curses does not
 * know of (a terminal reflows its lines when it shrinks and grows back). */
static void redraw(struct tt_app *a, struct tt_grid *g, bool full)
{
	if (got_winch) {
		got_winch = 0;
		handle_resize();
		full = true;
	}
	if (full)
		clearok(curscr, TRUE);
	if (g->w != COLS || g->h != LINES) {
		tt_grid_free(g);
		tt_grid_init(g, COLS, LINES);
	}
	tt_app_draw(a, g);
	erase();
	blit(g);
	wnoutrefresh(stdscr);
	doupdate();
}

/* A key to the app.  Escape and a key typed quickly after it reach
 * libtermkey in one read and come out as <M-key>: unless that is bound, it
 * is the two keys (Esc then s must go back, then sort). */
static int feed_key(struct tt_app *a, const char *name)
{
	size_t len = strlen(name);
	if (strncmp(name, "<M-", 3) != 0 || len < 5 || len > 40 ||
	    tt_keymap_lookup(a->keys, tt_app_section(a), name) != TT_ACT_NONE)
		return tt_app_key(a, name);
	char rest[48];
	/* one character between "<M-" and ">" */
	size_t one = tt_utf8_seqlen(name + 3);
	if (one && 3 + one + 1 == len)
		snprintf(rest, sizeof(rest), "%.*s", (int)(len - 4), name + 3); /* <M-s> -> s */
	else
		snprintf(rest, sizeof(rest), "<%s", name + 3); /* <M-C-f> -> <C-f> */
	int r = tt_app_key(a, "<Escape>");
	if (r & TT_R_QUIT)
		return r;
	return tt_app_key(a, rest);
}

/* A mouse report as the pseudo key the app takes ("<Click:3,4>"); false
 * for what the app does not use (releases, drags, other buttons).  A second
 * press at the same place within 400 ms is a double click. */
static bool mouse_key(TermKey *tk, const TermKeyKey *key, char *name, size_t n)
{
	static int64_t last_ns;
	static int last_x = -1, last_y = -1;
	TermKeyMouseEvent ev;
	int button, line, col;
	if (termkey_interpret_mouse(tk, key, &ev, &button, &line, &col) != TERMKEY_RES_KEY ||
	    ev != TERMKEY_MOUSE_PRESS)
		return false;
	struct tt_mouse m = {.x = col - 1,
			     .y = line - 1,
			     .ctrl = (key->modifiers & TERMKEY_KEYMOD_CTRL) != 0,
			     .shift = (key->modifiers & TERMKEY_KEYMOD_SHIFT) != 0};
	if (m.x < 0 || m.y < 0)
		return false;
	if (button == 4 || button == 5) {
		m.kind = button == 4 ? TT_MOUSE_WHEEL_UP : TT_MOUSE_WHEEL_DOWN;
	} else if (button == 1) {
		int64_t now = tt_now_ns();
		bool dbl = now - last_ns < 400000000 && m.x == last_x && m.y == last_y;
		m.kind = dbl ? TT_MOUSE_DCLICK : TT_MOUSE_CLICK;
		last_ns = dbl ? 0 : now;
		last_x = m.x;
		last_y = m.y;
	} else {
		return false;
	}
	tt_mouse_name(name, n, &m);
	return true;
}

/* the name of a key for the app, or false when it is nothing to it */
static bool app_key_name(TermKey *tk, TermKeyKey *key, char *name, size_t n)
{
	if (key->type == TERMKEY_TYPE_MOUSE)
		return mouse_key(tk, key, name, n);
	termkey_strfkey(tk, name, n, key, TERMKEY_FORMAT_VIM);
	return true;
}

static void handle_resize(void)
{
	struct winsize ws;
	if (ioctl(1, TIOCGWINSZ, &ws) == 0 && ws.ws_row > 0 && ws.ws_col > 0)
		resizeterm(ws.ws_row, ws.ws_col);
}

int tt_term_run(struct tt_app *a, const struct tt_theme *theme)
{
	if (!getenv("TERM"))
		setenv("TERM", "dumb", 1);
	if (!isatty(0)) {
		/* no keys to read (stdin closed or redirected): the caller prints
		 * the Overview as text */
		fprintf(stderr, "tracetop: standard input is not a terminal\n");
		return 2;
	}
	tt_app_set_async(a, true); /* (a pane computing its results does not hold the keys) */
	sig_have_tio = tcgetattr(0, &sig_tio) == 0; /* (the modes before curses) */
	stderr_to_file();
	SCREEN *scr = newterm(NULL, stdout, stdin);
	if (!scr) {
		stderr_back();
		fprintf(stderr, "tracetop: this terminal (TERM=%s) is not known to curses\n",
			getenv("TERM"));
		return 2;
	}
	set_term(scr);
	/* a terminal that cannot move the cursor (TERM=dumb) would show a mess:
	 * the caller prints the Overview as text instead */
	const char *cup = tigetstr("cup");
	if (!cup || cup == (const char *)-1) {
		endwin();
		delscreen(scr);
		stderr_back();
		fprintf(stderr, "tracetop: this terminal (TERM=%s) cannot move the cursor\n",
			getenv("TERM"));
		return 2;
	}
	curses_on = true;
	tt_set_die_hook(restore_terminal);
	sig_prepare();
	tt_set_die_signal_hook(restore_terminal_from_signal);
	/* where this libc's widths differ from the grid's: drawn cell by cell */
	tt_width_check(libc_width);
	cbreak();
	noecho();
	nonl();
	intrflush(stdscr, FALSE);
	keypad(stdscr, FALSE);
	curs_set(0);
	setup_colors(theme);

	TermKey *tk = termkey_new(0, TERMKEY_FLAG_NOTERMIOS | TERMKEY_FLAG_UTF8 |
					     TERMKEY_FLAG_SPACESYMBOL | TERMKEY_FLAG_CTRLC);
	if (!tk) {
		restore_terminal();
		fprintf(stderr, "tracetop: cannot read keys from this terminal\n");
		return 2;
	}
	wake_pipe_open();
	a->wake = wake; /* a pane's work that returned: drawn at once */
	struct sigaction sa;
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_winch;
	sigaction(SIGWINCH, &sa, NULL);
	sa.sa_handler = on_term;
	for (size_t i = 0; i < TT_ARRAY_SIZE(term_sigs); i++)
		sigaction(term_sigs[i], &sa, NULL);

	struct tt_grid g;
	tt_grid_init(&g, COLS, LINES);
	if (tt_keymap_mouse(a->keys))
		mouse_enable(true);
	redraw(a, &g, true);
	bool quit = false;
	while (!quit && !got_term) {
		if (got_winch)
			redraw(a, &g, true);
		/* stdin, the pipe the signal handlers write to, and a followed
		 * folder (-1: none, poll() skips it) */
		struct pollfd pfd[3] = {{0, POLLIN, 0},
					{wake_pipe[0], POLLIN, 0},
					{tt_app_input_fd(a), POLLIN, 0}};
		int wait = -1;
		TermKeyKey key;
		TermKeyResult res = termkey_getkey(tk, &key);
		if (res == TERMKEY_RES_AGAIN)
			wait = termkey_get_waittime(tk);
		/* a pane computing its results: look again twenty times a
		 * second (its own work wakes the loop when it returns) */
		bool waiting = tt_app_waiting(a);
		if (waiting && (wait < 0 || wait > 50))
			wait = 50;
		if (res == TERMKEY_RES_KEY) {
			char name[64];
			if (!app_key_name(tk, &key, name, sizeof(name)))
				continue;
			int r = feed_key(a, name);
			if (r & TT_R_QUIT)
				quit = true;
			else
				redraw(a, &g, r & TT_R_REPAINT);
			continue;
		}
		if (res == TERMKEY_RES_EOF)
			break;
		/* a run or cycle to open, a followed folder to look at */
		int due = tt_app_input_wait_ms(a);
		if (due >= 0 && (wait < 0 || due < wait))
			wait = due;
		int pr = poll(pfd, 3, wait);
		if (pr < 0 && errno == EINTR)
			continue;
		if (pr >= 0 && tt_app_tick(a, pr > 0 && (pfd[2].revents & POLLIN)))
			redraw(a, &g, false);
		if (pr > 0 && (pfd[1].revents & POLLIN)) {
			wake_pipe_drain();
			if (waiting)
				redraw(a, &g, false); /* (its work may have returned) */
			continue; /* (the flags are looked at on top of the loop) */
		}
		if (pr == 0 && waiting) {
			redraw(a, &g, false);
			if (res != TERMKEY_RES_AGAIN)
				continue;
		}
		if (pr == 0 && res == TERMKEY_RES_AGAIN) {
			/* a lone Escape */
			if (termkey_getkey_force(tk, &key) == TERMKEY_RES_KEY) {
				char name[64];
				if (!app_key_name(tk, &key, name, sizeof(name)))
					continue;
				int r = feed_key(a, name);
				if (r & TT_R_QUIT)
					quit = true;
				else
					redraw(a, &g, r & TT_R_REPAINT);
			}
			continue;
		}
		if (pr > 0 && pfd[0].revents) { /* (not only the followed folder) */
			if (pfd[0].revents & (POLLHUP | POLLERR | POLLNVAL) &&
			    !(pfd[0].revents & POLLIN))
				break; /* stdin closed */
			if (termkey_advisereadable(tk) == TERMKEY_RES_EOF)
				break;
		}
	}
	tt_grid_free(&g);
	termkey_destroy(tk);
	restore_terminal();
	a->wake = NULL;
	int wr = wake_pipe[0], ww = wake_pipe[1];
	atomic_store(&wake_fd, -1);
	wake_pipe[0] = wake_pipe[1] = -1; /* (before closing: the handlers stay) */
	if (wr >= 0) {
		close(ww);
		close(wr);
	}
	delscreen(scr);
	tt_set_die_hook(NULL);
	tt_set_die_signal_hook(NULL);
	if (got_term) {
		/* ended by a signal: say so by the status, as its default
		 * action would have (no temporary output left behind) */
		int sig = got_term;
		tt_output_cleanup();
		fflush(stdout);
		signal(sig, SIG_DFL);
		sigset_t set;
		sigemptyset(&set);
		sigaddset(&set, sig);
		sigprocmask(SIG_UNBLOCK, &set, NULL);
		raise(sig);
		return 128 + sig;
	}
	return 0;
}
