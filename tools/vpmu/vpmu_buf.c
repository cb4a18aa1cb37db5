// SPDX-License-Identifier: GPL-2.0
/*
 * vpmu_buf.c - growable byte buffers, and whole files read into and
 * written from them.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

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

/*
 * Write @len bytes to @path ("-": stdout) through a temporary file and
 * rename(), so that a failed run never leaves a partial output behind.
 */
int vpmu_write_file(const char *path, const void *data, size_t len)
{
	struct vpmu_buf tmp = { 0 };
	FILE *f;
	int ret = 0;

	if (!strcmp(path, "-"))
		return fwrite(data, 1, len, stdout) == len && !fflush(stdout) ?
		       0 : -1;
	vpmu_buf_printf(&tmp, "%s.tmpXXXXXX", path);
	{
		int fd = mkstemp(tmp.p);

		if (fd >= 0)
			fchmod(fd, 0644);
		f = fd < 0 ? NULL : fdopen(fd, "wb");
	}
	if (!f) {
		vpmu_buf_free(&tmp);
		return -1;
	}
	if (fwrite(data, 1, len, f) != len)
		ret = -1;
	if (fclose(f))
		ret = -1;
	if (!ret && rename(tmp.p, path))
		ret = -1;
	if (ret)
		remove(tmp.p);
	vpmu_buf_free(&tmp);
	return ret;
}
