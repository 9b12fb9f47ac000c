/* Objects in s3://, gs:// and az:// storage, read through the standard
 * command-line tools run as child processes (no cloud SDK is linked in):
 *   s3://bucket/key     aws s3 cp --quiet URL -
 *   gs://bucket/key     gcloud storage cat URL   (or gsutil cat URL)
 *   az://account/container/blob
 *                       az storage blob download --account-name A
 *                          --container-name C --name B --file /dev/stdout
 * Listings (a URL ending in '/') come from the tools' machine-readable
 * output, never from their tables: aws s3api list-objects-v2 and az storage
 * blob list print the names as a JSON array; gcloud storage ls and gsutil
 * ls print one full URL a line.  Every listed name must lie under the
 * prefix asked for (same scheme, bucket and prefix), else the listing is
 * refused: it never leads to another bucket or another tool.  A download
 * whose tool exits non-zero fails, even after some output (tt_reader_set_child).
 * No length limits. */
#include "config.h"

#include "tracetop/io.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "tracetop/utf8.h"
#include "tracetop/util.h"

bool tt_remote_is(const char *path)
{
	return strncmp(path, "s3://", 5) == 0 || strncmp(path, "gs://", 5) == 0 ||
	       strncmp(path, "az://", 5) == 0;
}

/* an executable of that name in PATH? */
static bool in_path(const char *name)
{
	const char *path = getenv("PATH");
	if (!path)
		return false;
	size_t nl = strlen(name);
	for (const char *p = path; *p;) {
		const char *e = strchr(p, ':');
		size_t n = e ? (size_t)(e - p) : strlen(p);
		char *buf = tt_malloc(n + nl + 2);
		snprintf(buf, n + nl + 2, "%.*s/%s", (int)n, p, name);
		bool ok = access(buf, X_OK) == 0;
		free(buf);
		if (ok)
			return true;
		p += n + (e ? 1 : 0);
	}
	return false;
}

/* The parts of a URL: scheme ("s3", "gs", "az"), then for s3 and gs the
 * bucket and the key, for az the account, the container and the blob
 * (each malloc'd, never NULL; key may be ""). */
struct url {
	char scheme[3];
	char *bucket; /* s3, gs: the bucket; az: the account */
	char *cont;   /* az: the container; s3, gs: "" */
	char *key;    /* the object's name (or the listing's prefix) */
};

static void url_free(struct url *u)
{
	free(u->bucket);
	free(u->cont);
	free(u->key);
}

static int url_parse(const char *s, struct url *u, struct tt_err *err)
{
	memset(u, 0, sizeof(*u));
	memcpy(u->scheme, s, 2);
	const char *p = s + 5, *slash = strchr(p, '/');
	bool az = strncmp(s, "az://", 5) == 0;
	if (!slash || slash == p)
		return tt_err_set(err, TT_E_USAGE, s, TT_NO_OFFSET,
				  az ? "expected az://ACCOUNT/CONTAINER/BLOB" :
				       "expected %.2s://BUCKET/KEY", s);
	u->bucket = tt_strndup(p, (size_t)(slash - p));
	p = slash + 1;
	if (az) {
		slash = strchr(p, '/');
		if (!slash || slash == p) {
			url_free(u);
			return tt_err_set(err, TT_E_USAGE, s, TT_NO_OFFSET,
					  "expected az://ACCOUNT/CONTAINER/BLOB");
		}
		u->cont = tt_strndup(p, (size_t)(slash - p));
		p = slash + 1;
	} else {
		u->cont = tt_strdup("");
	}
	u->key = tt_strdup(p);
	return 0;
}

/* the argv of the tool (static strings and u's, valid while u is) that
 * writes the object to standard output, or (list) lists the prefix */
static int command_for(const char *url, const struct url *u, bool list, char **argv,
		       struct tt_err *err)
{
	int k = 0;
	if (strcmp(u->scheme, "s3") == 0) {
		if (!in_path("aws"))
			return tt_err_set(err, TT_E_NOTFOUND, url, TT_NO_OFFSET,
					  "s3:// paths need the aws CLI, which is not installed "
					  "(or copy the file: aws s3 cp URL - | tracetop -)");
		argv[k++] = "aws";
		if (list) {
			argv[k++] = "s3api";
			argv[k++] = "list-objects-v2";
			argv[k++] = "--bucket";
			argv[k++] = u->bucket;
			argv[k++] = "--prefix";
			argv[k++] = u->key;
			argv[k++] = "--query";
			argv[k++] = "Contents[].Key";
			argv[k++] = "--output";
			argv[k++] = "json";
		} else {
			argv[k++] = "s3";
			argv[k++] = "cp";
			argv[k++] = "--quiet";
			argv[k++] = (char *)url;
			argv[k++] = "-";
		}
	} else if (strcmp(u->scheme, "gs") == 0) {
		if (in_path("gcloud")) {
			argv[k++] = "gcloud";
			argv[k++] = "storage";
			argv[k++] = list ? "ls" : "cat";
		} else if (in_path("gsutil")) {
			argv[k++] = "gsutil";
			argv[k++] = list ? "ls" : "cat";
		} else {
			return tt_err_set(err, TT_E_NOTFOUND, url, TT_NO_OFFSET,
					  "gs:// paths need gcloud or gsutil, neither is installed");
		}
		argv[k++] = (char *)url;
	} else {
		if (!in_path("az"))
			return tt_err_set(err, TT_E_NOTFOUND, url, TT_NO_OFFSET,
					  "az:// paths need the az CLI, which is not installed");
		argv[k++] = "az";
		argv[k++] = "storage";
		argv[k++] = "blob";
		argv[k++] = list ? "list" : "download";
		argv[k++] = "--account-name";
		argv[k++] = u->bucket;
		argv[k++] = "--container-name";
		argv[k++] = u->cont;
		if (list) {
			argv[k++] = "--prefix";
			argv[k++] = u->key;
			argv[k++] = "--query";
			argv[k++] = "[].name";
			argv[k++] = "--output";
			argv[k++] = "json";
		} else {
			argv[k++] = "--name";
			argv[k++] = u->key;
			argv[k++] = "--file";
			argv[k++] = "/dev/stdout";
			argv[k++] = "--no-progress";
		}
	}
	argv[k] = NULL;
	return 0;
}

/* run argv with its stdout on a pipe; *pid gets the child.  Both ends are
 * close-on-exec from the start: loader threads spawn at the same time, and
 * a child that kept a sibling's write end would hold that sibling's reader
 * off its end of file until the child exits. */
static int spawn(char **argv, pid_t *pid, const char *url, struct tt_err *err)
{
	int fd[2];
	if (pipe2(fd, O_CLOEXEC) != 0)
		return tt_err_set(err, TT_E_IO, url, TT_NO_OFFSET, "pipe: %s", strerror(errno));
	pid_t p = fork();
	if (p < 0) {
		close(fd[0]);
		close(fd[1]);
		return tt_err_set(err, TT_E_IO, url, TT_NO_OFFSET, "fork: %s", strerror(errno));
	}
	if (p == 0) {
		/* the copy is not close-on-exec (nor is fd 1 when the pipe got it) */
		if (fd[1] == 1)
			fcntl(1, F_SETFD, 0);
		else
			dup2(fd[1], 1);
		execvp(argv[0], argv);
		_exit(127);
	}
	close(fd[1]);
	*pid = p;
	return fd[0];
}

int tt_reader_open_remote(struct tt_reader **out, const char *url, struct tt_err *err)
{
	char *argv[24];
	*out = NULL;
	struct url u;
	int rc = url_parse(url, &u, err);
	if (rc)
		return rc;
	rc = command_for(url, &u, false, argv, err);
	if (rc) {
		url_free(&u);
		return rc;
	}
	pid_t pid;
	int fd = spawn(argv, &pid, url, err);
	if (fd < 0) {
		url_free(&u);
		return fd;
	}
	rc = tt_reader_open_fd(out, fd, url, err);
	if (rc) {
		/* nothing came: the tool failed (no credentials, no such object) */
		int status;
		waitpid(pid, &status, 0);
		if (!WIFEXITED(status) || WEXITSTATUS(status) != 0)
			rc = tt_err_set(err, TT_E_IO, url, TT_NO_OFFSET,
					"%s failed (exit status %d): check the URL and credentials",
					argv[0], WIFEXITED(status) ? WEXITSTATUS(status) : -1);
	} else {
		/* (its exit status is checked when its output ends) */
		tt_reader_set_child(*out, pid, argv[0]);
	}
	url_free(&u);
	return rc;
}

/* ---- listings ---- */

/* the whole output of fd (closed) */
static char *slurp(int fd, size_t *len)
{
	size_t n = 0, cap = 65536;
	char *buf = tt_malloc(cap);
	for (;;) {
		if (cap - n < 4096) {
			cap *= 2;
			buf = tt_realloc_array(buf, cap, 1);
		}
		ssize_t k = read(fd, buf + n, cap - n - 1);
		if (k < 0 && errno == EINTR)
			continue;
		if (k <= 0)
			break;
		n += (size_t)k;
	}
	close(fd);
	buf[n] = '\0';
	*len = n;
	return buf;
}

static const char *skip_ws(const char *p)
{
	while (*p == ' ' || *p == '\t' || *p == '\n' || *p == '\r')
		p++;
	return p;
}

static int hex4(const char *p, uint32_t *v)
{
	*v = 0;
	for (int i = 0; i < 4; i++) {
		char c = p[i];
		int d = c >= '0' && c <= '9' ? c - '0' :
			c >= 'a' && c <= 'f' ? c - 'a' + 10 :
			c >= 'A' && c <= 'F' ? c - 'A' + 10 : -1;
		if (d < 0)
			return -1;
		*v = *v << 4 | (uint32_t)d;
	}
	return 0;
}

/* One JSON string at *pp (after its '"'), decoded into a malloc'd string;
 * NULL when it is not well formed or holds a NUL. */
static char *json_string(const char **pp, const char *end)
{
	const char *p = *pp;
	size_t cap = 64, n = 0;
	char *out = tt_malloc(cap);
	while (p < end && *p != '"') {
		if (cap - n < 8) {
			cap *= 2;
			out = tt_realloc_array(out, cap, 1);
		}
		if ((unsigned char)*p < 0x20)
			goto bad;
		if (*p != '\\') {
			out[n++] = *p++;
			continue;
		}
		p++;
		if (p >= end)
			goto bad;
		char c = *p++;
		const char *simple = strchr("\"\\/bfnrt", c);
		if (c && simple) {
			out[n++] = "\"\\/\b\f\n\r\t"[simple - "\"\\/bfnrt"];
			continue;
		}
		if (c != 'u' || end - p < 4)
			goto bad;
		uint32_t cp, lo;
		if (hex4(p, &cp))
			goto bad;
		p += 4;
		if (cp >= 0xD800 && cp < 0xDC00) {
			if (end - p < 6 || p[0] != '\\' || p[1] != 'u' || hex4(p + 2, &lo) ||
			    lo < 0xDC00 || lo > 0xDFFF)
				goto bad;
			cp = 0x10000 + ((cp - 0xD800) << 10) + (lo - 0xDC00);
			p += 6;
		} else if (cp >= 0xDC00 && cp < 0xE000) {
			goto bad;
		}
		if (cp == 0)
			goto bad;
		n += tt_utf8_encode(cp, out + n);
	}
	if (p >= end)
		goto bad;
	*pp = p + 1;
	out[n] = '\0';
	return out;
bad:
	free(out);
	return NULL;
}

/* A JSON array of strings (or null: none) into *v; -1 when the text is
 * something else. */
static int json_names(const char *text, size_t len, char ***v, size_t *n)
{
	const char *p = skip_ws(text), *end = text + len;
	*v = NULL;
	*n = 0;
	size_t cap = 0;
	if (strncmp(p, "null", 4) == 0)
		return *skip_ws(p + 4) ? -1 : 0;
	if (*p++ != '[')
		return -1;
	p = skip_ws(p);
	if (*p == ']')
		return *skip_ws(p + 1) ? -1 : 0;
	for (;;) {
		if (*p++ != '"')
			return -1;
		char *s = json_string(&p, end);
		if (!s)
			return -1;
		TT_GROW(*v, cap, *n + 1);
		(*v)[(*n)++] = s;
		p = skip_ws(p);
		if (*p == ']')
			return *skip_ws(p + 1) ? -1 : 0;
		if (*p++ != ',')
			return -1;
		p = skip_ws(p);
	}
}

static void names_free(char **v, size_t n)
{
	for (size_t i = 0; i < n; i++)
		free(v[i]);
	free(v);
}

int tt_remote_list(const char *url, char ***out, struct tt_err *err)
{
	char *argv[24];
	*out = NULL;
	struct url u;
	int rc = url_parse(url, &u, err);
	if (rc)
		return rc;
	rc = command_for(url, &u, true, argv, err);
	if (rc) {
		url_free(&u);
		return rc;
	}
	pid_t pid;
	int fd = spawn(argv, &pid, url, err);
	if (fd < 0) {
		url_free(&u);
		return fd;
	}
	size_t len;
	char *text = slurp(fd, &len);
	int status;
	while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
		;
	if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) {
		free(text);
		url_free(&u);
		return tt_err_set(err, TT_E_IO, url, TT_NO_OFFSET,
				  "%s could not list this prefix (exit status %d)", argv[0],
				  WIFEXITED(status) ? WEXITSTATUS(status) : -1);
	}
	/* the names, each made into a full URL under the prefix */
	char **names = NULL, **v = NULL;
	size_t nn = 0, n = 0, cap = 0;
	size_t keylen = strlen(u.key);
	/* (the URL up to the key: s3://b/, gs://b/, az://a/c/) */
	size_t base = strlen(url) - keylen;
	if (strcmp(u.scheme, "gs") == 0) {
		/* one full URL a line: kept only under the prefix asked for */
		for (char *line = text; line && *line;) {
			char *nl = memchr(line, '\n', (size_t)(text + len - line));
			if (nl)
				*nl = '\0';
			size_t ll = strlen(line);
			if (ll && line[ll - 1] == '\r')
				line[--ll] = '\0';
			if (ll) {
				TT_GROW(names, cap, nn + 1);
				names[nn++] = tt_strdup(line);
			}
			line = nl ? nl + 1 : NULL;
		}
	} else if (json_names(text, len, &names, &nn) != 0) {
		free(text);
		url_free(&u);
		return tt_err_set(err, TT_E_IO, url, TT_NO_OFFSET,
				  "%s printed a listing that is not a JSON list of names", argv[0]);
	}
	free(text);
	cap = 0;
	size_t nforeign = 0;
	for (size_t i = 0; i < nn; i++) {
		const char *name = names[i];
		char *full;
		if (strcmp(u.scheme, "gs") == 0) {
			/* gs://bucket/prefix... and nothing else */
			if (strncmp(name, url, strlen(url)) != 0) {
				nforeign++;
				continue;
			}
			full = tt_strdup(name);
		} else {
			/* a key under the prefix */
			if (strncmp(name, u.key, keylen) != 0) {
				nforeign++;
				continue;
			}
			size_t fl = base + strlen(name) + 1;
			full = tt_malloc(fl);
			snprintf(full, fl, "%.*s%s", (int)base, url, name);
		}
		size_t fl = strlen(full);
		if (!fl || full[fl - 1] == '/') { /* (a "directory") */
			free(full);
			continue;
		}
		TT_GROW(v, cap, n + 1);
		v[n++] = full;
	}
	names_free(names, nn);
	url_free(&u);
	if (nforeign) {
		names_free(v, n);
		return tt_err_set(err, TT_E_IO, url, TT_NO_OFFSET,
				  "%s listed %zu names outside this prefix (not followed)", argv[0],
				  nforeign);
	}
	*out = v;
	return (int)n;
}
