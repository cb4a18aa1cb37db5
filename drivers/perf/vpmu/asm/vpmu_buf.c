// SPDX-License-Identifier: GPL-2.0
/*
 * vpmu_buf.c - growable byte buffers, and whole files read into and
 * written from them.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "vpmu_buf.h"

/* Room for @n more bytes and a terminating NUL. */
static void vpmu_buf_reserve(struct vpmu_buf *b, size_t n)
{
	size_t cap = b->cap ? b->cap : 256;

	while (cap < b->len + n + 1)
		cap *= 2;
	b->p = realloc(b->p, cap);
	if (!b->p)
		abort();
	b->cap = cap;
}

void vpmu_buf_put(struct vpmu_buf *b, const void *data, size_t n)
{
	if (b->len + n + 1 > b->cap)
		vpmu_buf_reserve(b, n);
	if (n)
		memcpy(b->p + b->len, data, n);
	b->len += n;
	b->p[b->len] = '\0';	/* text buffers are always terminated */
}

void vpmu_buf_vprintf(struct vpmu_buf *b, const char *fmt, va_list ap)
{
	char small[256];
	va_list aq;
	int n;

	va_copy(aq, ap);
	n = vsnprintf(small, sizeof(small), fmt, aq);
	va_end(aq);
	if (n < 0)
		return;
	if ((size_t)n < sizeof(small)) {
		vpmu_buf_put(b, small, n);
		return;
	}
	if (b->len + n + 1 > b->cap)
		vpmu_buf_reserve(b, n);
	vsnprintf(b->p + b->len, n + 1, fmt, ap);
	b->len += n;
}

void vpmu_buf_printf(struct vpmu_buf *b, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vpmu_buf_vprintf(b, fmt, ap);
	va_end(ap);
}

void vpmu_buf_free(struct vpmu_buf *b)
{
	free(b->p);
	b->p = NULL;
	b->len = 0;
	b->cap = 0;
}

/* ---- files (for the command-line tools) -------------------------------- */

int vpmu_read_file(const char *path, struct vpmu_buf *b)
{
	FILE *f = strcmp(path, "-") ? fopen(path, "rb") : stdin;
	char chunk[65536];
	size_t n;

	if (!f)
		return -1;
	while ((n = fread(chunk, 1, sizeof(chunk), f)) > 0)
		vpmu_buf_put(b, chunk, n);
	if (ferror(f)) {
		if (f != stdin)
			fclose(f);
		return -1;
	}
	if (f != stdin)
		fclose(f);
	vpmu_buf_put(b, "", 0);
	return 0;
}

/* All of @len bytes to @fd: 0, or -1 on any error. */
static int vpmu_write_all(int fd, const void *data, size_t len)
{
	const char *p = data;

	while (len) {
		ssize_t n = write(fd, p, len);

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			return -1;
		p += n;
		len -= (size_t)n;
	}
	return 0;
}

/* Write into what is there, creating it if need be: 0 or -1. */
static int vpmu_write_in_place(const char *path, const void *data,
			       size_t len)
{
	int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0666);
	int ret;

	if (fd < 0)
		return -1;
	ret = vpmu_write_all(fd, data, len);
	if (close(fd))
		ret = -1;
	return ret;
}

/*
 * Write @len bytes to @path ("-": stdout).  A regular file (or none yet)
 * is written through a temporary file beside it and rename(), so that a
 * failed run never leaves a partial output behind; it keeps an existing
 * file's mode, and a new one has the mode the umask leaves, as any
 * file a program creates.  A symlink's target is what is written (the
 * link stays).  Anything else, a device or a FIFO (/dev/null, /dev/stdout
 * in a pipe), is written in place, never replaced: as root, rename()
 * would put a regular file where /dev/null was.
 */
int vpmu_write_file(const char *path, const void *data, size_t len)
{
	struct vpmu_buf tmp = { 0 };
	char *real = NULL;
	const char *target = path;
	struct stat st;
	mode_t mode, mask;
	int fd, ret;

	/* Past stdio (flushed first): the caller reports a failure, once. */
	if (!strcmp(path, "-"))
		return fflush(stdout) ? -1 :
		       vpmu_write_all(STDOUT_FILENO, data, len);
	if (!lstat(path, &st) && S_ISLNK(st.st_mode)) {
		real = realpath(path, NULL);
		if (!real)	/* a dangling link: its target made */
			return vpmu_write_in_place(path, data, len);
		target = real;
	}
	if (!stat(target, &st)) {
		if (!S_ISREG(st.st_mode)) {
			ret = vpmu_write_in_place(target, data, len);
			free(real);
			return ret;
		}
		mode = st.st_mode & 07777;
	} else {
		mask = umask(0);
		umask(mask);
		mode = 0666 & ~mask;
	}
	vpmu_buf_printf(&tmp, "%s.tmpXXXXXX", target);
	fd = mkstemp(tmp.p);
	ret = fd < 0 ? -1 : 0;
	if (!ret && fchmod(fd, mode))
		ret = -1;
	if (!ret)
		ret = vpmu_write_all(fd, data, len);
	if (fd >= 0 && close(fd))
		ret = -1;
	if (!ret && rename(tmp.p, target))
		ret = -1;
	if (ret && fd >= 0)
		remove(tmp.p);
	vpmu_buf_free(&tmp);
	free(real);
	return ret;
}
