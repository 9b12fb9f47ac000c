/* Readers: plain files, byte ranges, memory buffers, gzip streams. */
#include "config.h"

#include "tracetop/io.h"

#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <signal.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>
#include <zlib.h>
#ifdef HAVE_ISAL
#include <isa-l/igzip_lib.h>
#if defined(__has_include)
#if __has_include(<isa-l.h>)
#include <isa-l.h> /* (its version) */
#endif
#endif
#endif

#include "tracetop/pool.h"
#include "tracetop/testing.h"
#include "tracetop/util.h"

#define RAW_CHUNK (256 * 1024)

/* pipelined inflate: a ring of text buffers filled by a second thread */
#define PIPE_BUFS 4
#define PIPE_BUF_SIZE (2 << 20)

struct pipe_buf {
	char *data;
	size_t len, pos;
	int status; /* 0 data, 1 end, -code error */
};

struct tt_reader {
	char name[256];
	enum tt_compress comp;
	int fd;              /* -1 for memory */
	const unsigned char *mem;
	size_t mem_len;
	uint64_t raw_pos;    /* compressed (or plain) bytes consumed */
	/* raw_pos for tt_reader_raw_pos: the inflate thread moves raw_pos
	 * while the scanner asks for it (the progress line) */
	atomic_uint_least64_t raw_shown;
	uint64_t raw_end;    /* for ranges: stop here (UINT64_MAX = to EOF) */
	uint64_t size;
	uint64_t text_pos;

	/* gzip: inflated by ISA-L where it is built in and the source can be
	 * read again (a file, memory), else by zlib */
	z_stream zs;
	bool z_init, z_done, z_truncated, z_garbage;
	uint64_t z_cut_off, z_garbage_off;
	unsigned char *raw_buf;
	size_t raw_len, raw_off; /* pending compressed bytes in raw_buf */
	bool raw_eof;
	uint64_t member_raw;  /* compressed offset of the current member */
	uint64_t member_text; /* its text bytes handed out so far */
	uint64_t gz_text;     /* text bytes of the members before it */
	uint64_t z_skip;      /* zlib: text of the member to inflate again unseen */
#ifdef HAVE_ISAL
	struct inflate_state *isal; /* NULL: zlib inflates */
#endif

	/* threaded inflate */
	bool threaded, thread_started;
	pthread_t thread;
	pthread_mutex_t mu;
	pthread_cond_t cv;
	struct pipe_buf ring[PIPE_BUFS];
	unsigned head, tail; /* consumer reads ring[head], producer fills ring[tail] */
	bool stop;
	struct tt_err thread_err;
	pid_t child; /* a process writing the text (remote objects), or 0 */
	char child_name[32]; /* its command, for messages */
	int child_status;    /* its wait status once it ended with a failure, else 0 */
};

const char *tt_compress_name(enum tt_compress c)
{
	switch (c) {
	case TT_COMP_NONE:
		return "none";
	case TT_COMP_GZIP:
		return "gzip";
	case TT_COMP_ZSTD:
		return "zstd";
	case TT_COMP_BZIP2:
		return "bzip2";
	case TT_COMP_XZ:
		return "xz";
	case TT_COMP_ZIP:
		return "zip";
	}
	return "?";
}

enum tt_compress tt_compress_detect(const unsigned char *p, size_t n)
{
	if (n >= 2 && p[0] == 0x1f && p[1] == 0x8b)
		return TT_COMP_GZIP;
	if (n >= 4 && p[0] == 0x28 && p[1] == 0xb5 && p[2] == 0x2f && p[3] == 0xfd)
		return TT_COMP_ZSTD;
	if (n >= 3 && p[0] == 'B' && p[1] == 'Z' && p[2] == 'h')
		return TT_COMP_BZIP2;
	if (n >= 4 && p[0] == 0xfd && p[1] == '7' && p[2] == 'z' && p[3] == 'X')
		return TT_COMP_XZ;
	if (n >= 4 && p[0] == 'P' && p[1] == 'K' && p[2] == 3 && p[3] == 4)
		return TT_COMP_ZIP;
	return TT_COMP_NONE;
}

static struct tt_reader *reader_new(const char *name)
{
	struct tt_reader *r = tt_calloc(1, sizeof(*r));
	snprintf(r->name, sizeof(r->name), "%s", name);
	r->fd = -1;
	r->raw_end = UINT64_MAX;
	return r;
}

/* Read raw (file or memory) bytes. Returns count, 0 at EOF, -1 on error. */
static ssize_t raw_read(struct tt_reader *r, void *buf, size_t cap)
{
	if (r->raw_end != UINT64_MAX) {
		if (r->raw_pos >= r->raw_end)
			return 0;
		if (cap > r->raw_end - r->raw_pos)
			cap = (size_t)(r->raw_end - r->raw_pos);
	}
	if (r->fd < 0) {
		size_t left = r->mem_len - (size_t)r->raw_pos;
		size_t n = cap < left ? cap : left;
		memcpy(buf, r->mem + r->raw_pos, n);
		r->raw_pos += n;
		atomic_store_explicit(&r->raw_shown, r->raw_pos, memory_order_relaxed);
		return (ssize_t)n;
	}
	for (;;) {
		ssize_t n = pread(r->fd, buf, cap, (off_t)r->raw_pos);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0 && errno == ESPIPE)
			n = read(r->fd, buf, cap);
		if (n > 0) {
			r->raw_pos += (uint64_t)n;
			atomic_store_explicit(&r->raw_shown, r->raw_pos, memory_order_relaxed);
		}
		if (n == 0 && r->child > 0) {
			/* the end of a child's output: it must have succeeded, or
			 * the text is only what it wrote before it failed */
			int st = 0;
			while (waitpid(r->child, &st, 0) < 0 && errno == EINTR)
				;
			r->child = 0;
			if (!WIFEXITED(st) || WEXITSTATUS(st) != 0) {
				r->child_status = st ? st : 1;
				errno = EIO;
				return -1;
			}
		}
		return n;
	}
}

/* the error of a failed raw_read() */
static int read_error(struct tt_reader *r, struct tt_err *err)
{
	if (r->child_status) {
		int st = r->child_status;
		if (WIFEXITED(st))
			return tt_err_set(err, TT_E_IO, r->name, TT_NO_OFFSET,
					  "%s failed (exit status %d) after %llu bytes: the object "
					  "is incomplete",
					  r->child_name, WEXITSTATUS(st), (unsigned long long)r->raw_pos);
		return tt_err_set(err, TT_E_IO, r->name, TT_NO_OFFSET,
				  "%s was killed (signal %d) after %llu bytes: the object is incomplete",
				  r->child_name, WIFSIGNALED(st) ? WTERMSIG(st) : 0,
				  (unsigned long long)r->raw_pos);
	}
	return tt_err_set(err, TT_E_IO, r->name, TT_NO_OFFSET, "%s", strerror(errno));
}

static int start_zlib(struct tt_reader *r, struct tt_err *err)
{
	memset(&r->zs, 0, sizeof(r->zs));
	if (inflateInit2(&r->zs, 15 + 16) != Z_OK)
		return tt_err_set(err, TT_E_NOMEM, r->name, TT_NO_OFFSET, "cannot start zlib");
	r->z_init = true;
	return 0;
}

#define STR_(x) #x
#define STR(x) STR_(x)

static enum tt_inflater inflater = TT_INFLATE_AUTO;

void tt_io_set_inflater(enum tt_inflater which)
{
	inflater = which;
}

const char *tt_io_inflater_name(void)
{
#ifdef HAVE_ISAL
	if (inflater != TT_INFLATE_ZLIB) {
#ifdef ISAL_MAJOR_VERSION
		return "ISA-L " STR(ISAL_MAJOR_VERSION) "." STR(ISAL_MINOR_VERSION);
#else
		return "ISA-L";
#endif
	}
#endif
	return "zlib " ZLIB_VERSION;
}

/* ISA-L inflates a stream whose compressed bytes can be read again from a
 * member's start: on anything but a clean member (corrupt data, a
 * checksum mismatch, the end of the input inside a member) zlib takes the
 * member over from its start, so that every message and offset is zlib's
 * and only the text ISA-L handed out is not handed out twice.  A pipe
 * cannot be read again: zlib inflates it. */
static int start_gzip(struct tt_reader *r, bool seekable, struct tt_err *err)
{
	r->raw_buf = tt_malloc(RAW_CHUNK);
#ifdef HAVE_ISAL
	if (seekable && inflater != TT_INFLATE_ZLIB) {
		r->isal = tt_malloc(sizeof(*r->isal));
		isal_inflate_init(r->isal);
		r->isal->crc_flag = ISAL_GZIP;
		return 0;
	}
#else
	(void)seekable;
#endif
	return start_zlib(r, err);
}

/* first bytes decide the format; they are kept for the first read */
static int sniff(struct tt_reader *r, struct tt_err *err)
{
	unsigned char head[8];
	size_t n = 0;
	if (r->fd < 0) {
		n = r->mem_len < sizeof(head) ? r->mem_len : sizeof(head);
		memcpy(head, r->mem, n);
	} else {
		for (;;) {
			ssize_t k = pread(r->fd, head, sizeof(head), 0);
			if (k < 0 && errno == EINTR)
				continue;
			if (k < 0 && errno == ESPIPE) {
				/* a pipe: read the head and keep it as pending raw bytes */
				r->raw_buf = tt_malloc(RAW_CHUNK);
				while (n < sizeof(head)) {
					ssize_t m = read(r->fd, r->raw_buf + n, sizeof(head) - n);
					if (m < 0 && errno == EINTR)
						continue;
					if (m <= 0)
						break;
					n += (size_t)m;
				}
				memcpy(head, r->raw_buf, n);
				r->raw_len = n;
				r->raw_pos = n;
				atomic_store_explicit(&r->raw_shown, n, memory_order_relaxed);
				break;
			}
			if (k < 0)
				return tt_err_set(err, TT_E_IO, r->name, TT_NO_OFFSET, "%s",
						  strerror(errno));
			n = (size_t)k;
			break;
		}
	}
	if (n == 0)
		return tt_err_set(err, TT_E_EMPTY, r->name, 0, "empty file");
	r->comp = tt_compress_detect(head, n);
	if (r->comp == TT_COMP_GZIP) {
		unsigned char *pending = r->raw_buf;
		size_t plen = r->raw_len;
		r->raw_buf = NULL;
		int rc = start_gzip(r, !pending, err);
		if (rc) {
			free(pending);
			return rc;
		}
		if (pending) {
			memcpy(r->raw_buf, pending, plen);
			free(pending);
		}
		return 0;
	}
	if (r->comp != TT_COMP_NONE)
		return tt_err_set(err, TT_E_COMPRESSED, r->name, 0,
				  "compressed with %s: decompress it first",
				  tt_compress_name(r->comp));
	return 0;
}

int tt_reader_open(struct tt_reader **out, const char *path, struct tt_err *err)
{
	*out = NULL;
	/* (non-blocking: a FIFO without a writer must not hang the open; a
	 * pipe that has one, <(zcat t.gz) say, is read as it comes) */
	int fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK);
	if (fd < 0)
		return tt_err_set(err, TT_E_IO, path, TT_NO_OFFSET, "%s", strerror(errno));
	struct stat st;
	const char *why = NULL;
	if (fstat(fd, &st) != 0)
		why = strerror(errno);
	else if (S_ISDIR(st.st_mode))
		why = "is a directory";
	else if (S_ISCHR(st.st_mode) || S_ISBLK(st.st_mode))
		why = "is a device, not a trace file";
	else if (S_ISSOCK(st.st_mode))
		why = "is a socket, not a trace file";
	int fl = why ? 0 : fcntl(fd, F_GETFL);
	if (!why && (fl < 0 || fcntl(fd, F_SETFL, fl & ~O_NONBLOCK) != 0))
		why = strerror(errno);
	if (why) {
		close(fd);
		return tt_err_set(err, TT_E_IO, path, TT_NO_OFFSET, "%s", why);
	}
	return tt_reader_open_fd(out, fd, path, err);
}

int tt_reader_open_fd(struct tt_reader **out, int fd, const char *name, struct tt_err *err)
{
	*out = NULL;
	struct tt_reader *r = reader_new(name);
	r->fd = fd;
	struct stat st;
	if (fstat(fd, &st) == 0 && S_ISREG(st.st_mode))
		r->size = (uint64_t)st.st_size;
	int rc = sniff(r, err);
	if (rc) {
		tt_reader_close(r);
		return rc;
	}
	*out = r;
	return 0;
}

int tt_reader_open_range(struct tt_reader **out, const char *path, uint64_t start, uint64_t end,
			 struct tt_err *err)
{
	*out = NULL;
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return tt_err_set(err, TT_E_IO, path, TT_NO_OFFSET, "%s", strerror(errno));
	return tt_reader_open_range_fd(out, fd, path, start, end, err);
}

int tt_reader_fd(const struct tt_reader *r)
{
	return r->fd;
}

int tt_reader_open_range_fd(struct tt_reader **out, int fd, const char *name, uint64_t start,
			    uint64_t end, struct tt_err *err)
{
	*out = NULL;
	if (fd < 0)
		return tt_err_set(err, TT_E_IO, name, TT_NO_OFFSET, "%s", strerror(errno));
	struct tt_reader *r = reader_new(name);
	r->fd = fd;
	r->raw_pos = start;
	atomic_store_explicit(&r->raw_shown, start, memory_order_relaxed);
	r->text_pos = start;
	r->raw_end = end;
	r->size = end;
	*out = r;
	return 0;
}

int tt_reader_open_mem(struct tt_reader **out, const char *name, const void *data, size_t n,
		       struct tt_err *err)
{
	*out = NULL;
	struct tt_reader *r = reader_new(name);
	r->mem = data;
	r->mem_len = n;
	r->size = n;
	int rc = sniff(r, err);
	if (rc) {
		tt_reader_close(r);
		return rc;
	}
	*out = r;
	return 0;
}

/* ---- gzip ---- */

/* compressed offset of the next unread byte */
static uint64_t raw_next(const struct tt_reader *r)
{
	return r->raw_pos - (r->raw_len - r->raw_off);
}

/* refill raw_buf when it is used up; -code on a read error */
static int raw_fill(struct tt_reader *r, struct tt_err *err)
{
	if (r->raw_off < r->raw_len || r->raw_eof)
		return 0;
	ssize_t n = raw_read(r, r->raw_buf, RAW_CHUNK);
	if (n < 0)
		return read_error(r, err);
	if (n == 0)
		r->raw_eof = true;
	r->raw_len = (size_t)n;
	r->raw_off = 0;
	return 0;
}

/* After a member's trailer: skip NUL padding, then say whether another
 * member follows (true), or the stream ended (z_done, maybe with
 * trailing garbage).  -code on a read error. */
static int next_member(struct tt_reader *r, struct tt_err *err)
{
	for (;;) {
		while (r->raw_off < r->raw_len && r->raw_buf[r->raw_off] == 0)
			r->raw_off++;
		if (r->raw_off < r->raw_len || r->raw_eof)
			break;
		int rc = raw_fill(r, err);
		if (rc)
			return rc;
	}
	r->gz_text += r->member_text;
	r->member_text = 0;
	r->member_raw = raw_next(r);
	if (r->raw_off == r->raw_len) {
		r->z_done = true;
		return 0;
	}
	if (r->raw_buf[r->raw_off] != 0x1f) {
		r->z_garbage = true;
		r->z_garbage_off = raw_next(r);
		r->z_done = true;
		return 0;
	}
	return 1;
}

/* zlib: inflate into buf.  Returns bytes (>0), 0 at the end, or -code. */
static ssize_t zlib_read(struct tt_reader *r, unsigned char *buf, size_t cap, struct tt_err *err)
{
	z_stream *zs = &r->zs;
	zs->next_out = buf;
	zs->avail_out = (uInt)(cap > UINT32_MAX ? UINT32_MAX : cap);
	while (zs->avail_out > 0) {
		int frc = raw_fill(r, err);
		if (frc)
			return frc;
		zs->next_in = r->raw_buf + r->raw_off;
		zs->avail_in = (uInt)(r->raw_len - r->raw_off);
		uInt before_in = zs->avail_in, before_out = zs->avail_out;
		int zr = inflate(zs, Z_NO_FLUSH);
		r->raw_off += before_in - zs->avail_in;
		r->member_text += before_out - zs->avail_out;
		uint64_t coff = raw_next(r);
		if (zr == Z_STREAM_END) {
			/* another member may follow */
			int more = next_member(r, err);
			if (more < 0)
				return more;
			if (!more)
				break;
			inflateReset(zs);
			continue;
		}
		if (zr == Z_OK)
			continue;
		if (zr == Z_BUF_ERROR) {
			if (zs->avail_in == 0 && r->raw_eof) {
				/* the stream stops before its trailer */
				r->z_truncated = true;
				r->z_cut_off = coff;
				r->z_done = true;
				break;
			}
			continue;
		}
		const char *what = zs->msg ? zs->msg : "corrupt data";
		if (zr == Z_MEM_ERROR)
			return tt_err_setk(err, TT_E_NOMEM, r->name, coff, TT_OFF_COMPRESSED,
					   "zlib: out of memory");
		if (strstr(what, "incorrect data check"))
			what = "gzip CRC mismatch";
		else if (strstr(what, "incorrect length check"))
			what = "gzip length mismatch";
		else if (strstr(what, "header"))
			what = "corrupt gzip header";
		return tt_err_setk(err, TT_E_GZIP, r->name, coff, TT_OFF_COMPRESSED,
				   "%s (%llu bytes inflated)", what,
				   (unsigned long long)(r->gz_text + r->member_text));
	}
	return (ssize_t)(cap - zs->avail_out);
}

/* zlib, after it took a member over from ISA-L: the text ISA-L handed out
 * is inflated again and dropped first */
static ssize_t zlib_read_on(struct tt_reader *r, unsigned char *buf, size_t cap,
			    struct tt_err *err)
{
	while (r->z_skip > 0) {
		unsigned char tmp[16384];
		size_t want = r->z_skip < sizeof(tmp) ? (size_t)r->z_skip : sizeof(tmp);
		ssize_t n = zlib_read(r, tmp, want, err);
		if (n <= 0) {
			/* the text ends before what was handed out (ISA-L saw
			 * more than zlib does): nothing more to give */
			r->z_skip = 0;
			return n;
		}
		r->z_skip -= (uint64_t)n;
	}
	return zlib_read(r, buf, cap, err);
}

#ifdef HAVE_ISAL
/* zlib takes the current member over from its first compressed byte */
static int isal_to_zlib(struct tt_reader *r, struct tt_err *err)
{
	free(r->isal);
	r->isal = NULL;
	int rc = start_zlib(r, err);
	if (rc)
		return rc;
	r->raw_pos = r->member_raw;
	atomic_store_explicit(&r->raw_shown, r->raw_pos, memory_order_relaxed);
	r->raw_len = r->raw_off = 0;
	r->raw_eof = false;
	r->z_skip = r->member_text;
	r->member_text = 0;
	return 0;
}

/* ISA-L: inflate into buf; what it does not finish cleanly goes to zlib */
static ssize_t isal_read(struct tt_reader *r, unsigned char *buf, size_t cap, struct tt_err *err)
{
	struct inflate_state *s = r->isal;
	size_t got = 0;
	while (got < cap) {
		int frc = raw_fill(r, err);
		if (frc)
			return frc;
		size_t room = cap - got < UINT32_MAX ? cap - got : UINT32_MAX;
		s->next_in = r->raw_buf + r->raw_off;
		s->avail_in = (uint32_t)(r->raw_len - r->raw_off);
		s->next_out = buf + got;
		s->avail_out = (uint32_t)room;
		uint32_t before_in = s->avail_in;
		int rc = isal_inflate(s);
		r->raw_off += before_in - s->avail_in;
		size_t n = room - s->avail_out;
		got += n;
		r->member_text += n;
		if (rc >= 0 && s->block_state == ISAL_BLOCK_FINISH) {
			int more = next_member(r, err);
			if (more < 0)
				return more;
			if (!more)
				break;
			isal_inflate_reset(s);
			s->crc_flag = ISAL_GZIP;
			continue;
		}
		/* an error, or no progress with the input used up: the end
		 * inside a member (ISA-L may also keep back text that zlib
		 * gives out before the cut) */
		if (rc < 0 || rc == ISAL_NEED_DICT ||
		    (n == 0 && r->raw_off == r->raw_len && r->raw_eof) ||
		    (n == 0 && s->avail_in == before_in && before_in > 0)) {
			int zrc = isal_to_zlib(r, err);
			if (zrc)
				return zrc;
			ssize_t k = zlib_read_on(r, buf + got, cap - got, err);
			if (k < 0)
				return k;
			return (ssize_t)got + k;
		}
	}
	return (ssize_t)got;
}
#endif

/* Inflate into buf.  Returns bytes (>0), 0 at the end, or -code. */
static ssize_t gz_read(struct tt_reader *r, unsigned char *buf, size_t cap, struct tt_err *err)
{
	if (r->z_done)
		return 0;
#ifdef HAVE_ISAL
	if (r->isal)
		return isal_read(r, buf, cap, err);
#endif
	return zlib_read_on(r, buf, cap, err);
}

static void *inflate_thread(void *arg)
{
	struct tt_reader *r = arg;
	for (;;) {
		pthread_mutex_lock(&r->mu);
		while (!r->stop && r->tail - r->head == PIPE_BUFS)
			pthread_cond_wait(&r->cv, &r->mu);
		bool stop = r->stop;
		pthread_mutex_unlock(&r->mu);
		if (stop)
			break;
		struct pipe_buf *b = &r->ring[r->tail % PIPE_BUFS];
		if (!b->data)
			b->data = tt_malloc(PIPE_BUF_SIZE);
		size_t len = 0;
		int status = 0;
		while (len < PIPE_BUF_SIZE) {
			ssize_t n = gz_read(r, (unsigned char *)b->data + len, PIPE_BUF_SIZE - len,
					    &r->thread_err);
			if (n < 0) {
				status = (int)n;
				break;
			}
			if (n == 0) {
				status = 1;
				break;
			}
			len += (size_t)n;
			r->text_pos += (uint64_t)n; /* only this thread touches it meanwhile */
		}
		b->len = len;
		b->pos = 0;
		b->status = status;
		pthread_mutex_lock(&r->mu);
		r->tail++;
		pthread_cond_broadcast(&r->cv);
		pthread_mutex_unlock(&r->mu);
		if (status != 0)
			break;
	}
	return NULL;
}

void tt_reader_set_threaded(struct tt_reader *r, bool on)
{
	if (r->comp == TT_COMP_GZIP && !r->thread_started)
		r->threaded = on;
}

/* Start the inflate thread; false (and the reader unthreaded) when the
 * system refuses it: the caller inflates inline then. */
static bool pipe_start(struct tt_reader *r)
{
	pthread_mutex_init(&r->mu, NULL);
	pthread_cond_init(&r->cv, NULL);
	r->thread_started = true;
	if (tt_thread_start(&r->thread, inflate_thread, r))
		return true;
	pthread_mutex_destroy(&r->mu);
	pthread_cond_destroy(&r->cv);
	r->thread_started = false;
	r->threaded = false;
	return false;
}

static ssize_t pipe_read(struct tt_reader *r, char *buf, size_t cap, struct tt_err *err)
{
	for (;;) {
		pthread_mutex_lock(&r->mu);
		while (r->head == r->tail)
			pthread_cond_wait(&r->cv, &r->mu);
		struct pipe_buf *b = &r->ring[r->head % PIPE_BUFS];
		pthread_mutex_unlock(&r->mu);
		if (b->pos < b->len) {
			size_t n = b->len - b->pos;
			if (n > cap)
				n = cap;
			memcpy(buf, b->data + b->pos, n);
			b->pos += n;
			return (ssize_t)n;
		}
		if (b->status == 1)
			return 0;
		if (b->status < 0) {
			if (err)
				*err = r->thread_err;
			return b->status;
		}
		pthread_mutex_lock(&r->mu);
		r->head++;
		pthread_cond_broadcast(&r->cv);
		pthread_mutex_unlock(&r->mu);
	}
}

ssize_t tt_reader_read(struct tt_reader *r, void *buf, size_t cap, struct tt_err *err)
{
	if (cap == 0)
		return 0;
	if (r->comp == TT_COMP_GZIP) {
		if (r->threaded && (r->thread_started || pipe_start(r)))
			return pipe_read(r, buf, cap, err);
		ssize_t n = gz_read(r, buf, cap, err);
		if (n > 0)
			r->text_pos += (uint64_t)n;
		return n;
	}
	ssize_t n;
	if (r->raw_len > r->raw_off) {
		/* bytes kept by sniff() on a pipe */
		n = (ssize_t)TT_MIN(cap, r->raw_len - r->raw_off);
		memcpy(buf, r->raw_buf + r->raw_off, (size_t)n);
		r->raw_off += (size_t)n;
	} else {
		n = raw_read(r, buf, cap);
	}
	if (n < 0)
		return read_error(r, err);
	r->text_pos += (uint64_t)n;
	return n;
}

const char *tt_reader_inflater(const struct tt_reader *r)
{
	if (r->comp != TT_COMP_GZIP)
		return NULL;
#ifdef HAVE_ISAL
	if (r->isal)
		return "ISA-L";
#endif
	return "zlib";
}

enum tt_compress tt_reader_compression(const struct tt_reader *r)
{
	return r->comp;
}

const char *tt_reader_name(const struct tt_reader *r)
{
	return r->name;
}

uint64_t tt_reader_size(const struct tt_reader *r)
{
	return r->size;
}

uint64_t tt_reader_text_pos(const struct tt_reader *r)
{
	return r->text_pos;
}

uint64_t tt_reader_raw_pos(const struct tt_reader *r)
{
	return atomic_load_explicit(&r->raw_shown, memory_order_relaxed);
}

bool tt_reader_truncated(const struct tt_reader *r, uint64_t *raw_off)
{
	if (r->z_truncated && raw_off)
		*raw_off = r->z_cut_off;
	return r->z_truncated;
}

bool tt_reader_trailing_garbage(const struct tt_reader *r, uint64_t *raw_off)
{
	if (r->z_garbage && raw_off)
		*raw_off = r->z_garbage_off;
	return r->z_garbage;
}

void tt_reader_set_child(struct tt_reader *r, pid_t pid, const char *name)
{
	r->child = pid;
	snprintf(r->child_name, sizeof(r->child_name), "%s", name);
}

void tt_reader_close(struct tt_reader *r)
{
	if (!r)
		return;
	if (r->child > 0) {
		/* the child may still be writing: stop it, then reap it */
		if (r->fd >= 0) {
			close(r->fd);
			r->fd = -1;
		}
		kill(r->child, SIGTERM);
		waitpid(r->child, NULL, 0);
	}
	if (r->thread_started) {
		pthread_mutex_lock(&r->mu);
		r->stop = true;
		pthread_cond_broadcast(&r->cv);
		pthread_mutex_unlock(&r->mu);
		pthread_join(r->thread, NULL);
		pthread_mutex_destroy(&r->mu);
		pthread_cond_destroy(&r->cv);
		for (int i = 0; i < PIPE_BUFS; i++)
			free(r->ring[i].data);
	}
	if (r->z_init)
		inflateEnd(&r->zs);
#ifdef HAVE_ISAL
	free(r->isal);
#endif
	free(r->raw_buf);
	if (r->fd >= 0)
		close(r->fd);
	free(r);
}

int tt_read_file(const char *path, char **out, size_t *len, struct tt_err *err)
{
	struct tt_reader *r;
	*out = NULL;
	*len = 0;
	int rc = tt_reader_open(&r, path, err);
	if (rc)
		return rc;
	size_t cap = 1 << 16, n = 0;
	char *buf = tt_malloc(cap + 1);
	for (;;) {
		if (cap - n < 4096) {
			cap *= 2;
			buf = tt_realloc_array(buf, cap + 1, 1);
		}
		ssize_t k = tt_reader_read(r, buf + n, cap - n, err);
		if (k < 0) {
			free(buf);
			tt_reader_close(r);
			return (int)k;
		}
		if (k == 0)
			break;
		n += (size_t)k;
	}
	tt_reader_close(r);
	buf[n] = '\0';
	*out = buf;
	*len = n;
	return 0;
}
