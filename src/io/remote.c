/* Objects in s3://, gs:// and az:// storage, read through the standard
 * command-line tools run as child processes (no cloud SDK is linked in):
 *   s3://bucket/key     aws s3 cp URL -
 *   gs://bucket/key     gcloud storage cat URL   (or gsutil cat URL)
 *   az://account/container/blob
 *                       az storage blob download --account-name A
 *                          --container-name C --name B --file /dev/stdout */
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
	char buf[4096];
	for (const char *p = path; *p;) {
		const char *e = strchr(p, ':');
		size_t n = e ? (size_t)(e - p) : strlen(p);
		snprintf(buf, sizeof(buf), "%.*s/%s", (int)n, p, name);
		if (access(buf, X_OK) == 0)
			return true;
		p += n + (e ? 1 : 0);
	}
	return false;
}

/* the argv that writes url to standard output (list: the argv that lists a
 * prefix); NULL with *err when no tool is installed */
static int command_for(const char *url, bool list, char **argv, char *buf, size_t n,
		       struct tt_err *err)
{
	int k = 0;
	if (strncmp(url, "s3://", 5) == 0) {
		if (!in_path("aws"))
			return tt_err_set(err, TT_E_NOTFOUND, url, TT_NO_OFFSET,
					  "s3:// paths need the aws CLI, which is not installed "
					  "(or copy the file: aws s3 cp URL - | tracetop -)");
		argv[k++] = "aws";
		argv[k++] = "s3";
		if (list) {
			argv[k++] = "ls";
			argv[k++] = (char *)url;
		} else {
			argv[k++] = "cp";
			argv[k++] = "--quiet";
			argv[k++] = (char *)url;
			argv[k++] = "-";
		}
	} else if (strncmp(url, "gs://", 5) == 0) {
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
		/* az://account/container/blob */
		snprintf(buf, n, "%s", url + 5);
		char *acc = buf, *cont = strchr(acc, '/');
		if (!cont)
			return tt_err_set(err, TT_E_USAGE, url, TT_NO_OFFSET,
					  "expected az://ACCOUNT/CONTAINER/BLOB");
		*cont++ = '\0';
		char *blob = strchr(cont, '/');
		if (blob)
			*blob++ = '\0';
		argv[k++] = "az";
		argv[k++] = "storage";
		argv[k++] = "blob";
		argv[k++] = list ? "list" : "download";
		argv[k++] = "--account-name";
		argv[k++] = acc;
		argv[k++] = "--container-name";
		argv[k++] = cont;
		if (list) {
			argv[k++] = "--prefix";
			argv[k++] = blob ? blob : "";
			argv[k++] = "--query";
			argv[k++] = "[].name";
			argv[k++] = "--output";
			argv[k++] = "tsv";
		} else {
			argv[k++] = "--name";
			argv[k++] = blob ? blob : "";
			argv[k++] = "--file";
			argv[k++] = "/dev/stdout";
			argv[k++] = "--no-progress";
		}
	}
	argv[k] = NULL;
	return 0;
}

/* run argv with its stdout on a pipe; *pid gets the child */
static int spawn(char **argv, pid_t *pid, const char *url, struct tt_err *err)
{
	int fd[2];
	if (pipe(fd) != 0)
		return tt_err_set(err, TT_E_IO, url, TT_NO_OFFSET, "pipe: %s", strerror(errno));
	pid_t p = fork();
	if (p < 0) {
		close(fd[0]);
		close(fd[1]);
		return tt_err_set(err, TT_E_IO, url, TT_NO_OFFSET, "fork: %s", strerror(errno));
	}
	if (p == 0) {
		dup2(fd[1], 1);
		close(fd[0]);
		close(fd[1]);
		execvp(argv[0], argv);
		_exit(127);
	}
	close(fd[1]);
	fcntl(fd[0], F_SETFD, FD_CLOEXEC);
	*pid = p;
	return fd[0];
}

int tt_reader_open_remote(struct tt_reader **out, const char *url, struct tt_err *err)
{
	char *argv[24], buf[1024];
	*out = NULL;
	int rc = command_for(url, false, argv, buf, sizeof(buf), err);
	if (rc)
		return rc;
	pid_t pid;
	int fd = spawn(argv, &pid, url, err);
	if (fd < 0)
		return fd;
	rc = tt_reader_open_fd(out, fd, url, err);
	int status;
	if (rc) {
		/* nothing came: the tool failed (no credentials, no such object) */
		waitpid(pid, &status, 0);
		if (WIFEXITED(status) && WEXITSTATUS(status) != 0)
			return tt_err_set(err, TT_E_IO, url, TT_NO_OFFSET,
					  "%s failed (exit status %d): check the URL and credentials",
					  argv[0], WEXITSTATUS(status));
		return rc;
	}
	tt_reader_set_child(*out, pid);
	return 0;
}

int tt_remote_list(const char *url, char ***out, struct tt_err *err)
{
	char *argv[24], buf[1024];
	*out = NULL;
	int rc = command_for(url, true, argv, buf, sizeof(buf), err);
	if (rc)
		return rc;
	pid_t pid;
	int fd = spawn(argv, &pid, url, err);
	if (fd < 0)
		return fd;
	FILE *f = fdopen(fd, "r");
	char line[4096];
	size_t n = 0, cap = 0;
	char **v = NULL;
	while (f && fgets(line, sizeof(line), f)) {
		line[strcspn(line, "\r\n")] = '\0';
		/* aws prints "DATE TIME SIZE NAME": the last field is the name */
		char *name = strrchr(line, ' ');
		name = name ? name + 1 : line;
		if (!*name || name[strlen(name) - 1] == '/')
			continue;
		char full[8192];
		if (strncmp(name, "gs://", 5) == 0 || strncmp(name, "s3://", 5) == 0)
			snprintf(full, sizeof(full), "%s", name);
		else if (strncmp(url, "az://", 5) == 0) {
			/* az lists blob names relative to the container */
			const char *c = strchr(url + 5, '/');
			const char *b = c ? strchr(c + 1, '/') : NULL;
			int keep = b ? (int)(b - url) + 1 : (int)strlen(url);
			snprintf(full, sizeof(full), "%.*s%s", keep, url, name);
		} else
			snprintf(full, sizeof(full), "%s%s", url, name);
		TT_GROW(v, cap, n + 1);
		v[n++] = tt_strdup(full);
	}
	if (f)
		fclose(f);
	int status;
	waitpid(pid, &status, 0);
	if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) {
		for (size_t i = 0; i < n; i++)
			free(v[i]);
		free(v);
		return tt_err_set(err, TT_E_IO, url, TT_NO_OFFSET,
				  "%s could not list this prefix (exit status %d)", argv[0],
				  WIFEXITED(status) ? WEXITSTATUS(status) : -1);
	}
	*out = v;
	return (int)n;
}
