/* SPDX-License-Identifier: GPL-2.0 */
/*
 * vpmu_buf.h - the toolchain's growable byte buffer, and whole files read
 * into one or written from one.
 *
 * Every function of the toolchain library (the assembler here, the rest
 * in the user-space tools) takes its text and gives its binaries and
 * diagnostics in these buffers, so that nothing below the command-line
 * tools and vpmu_mkimage prints or exits.
 */
#ifndef _VPMU_BUF_H
#define _VPMU_BUF_H

#include <stdarg.h>
#include <stddef.h>

/* A growable byte buffer; zero-initialise before first use. */
struct vpmu_buf {
	char *p;
	size_t len, cap;
};

void vpmu_buf_put(struct vpmu_buf *b, const void *data, size_t n);
void vpmu_buf_printf(struct vpmu_buf *b, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
void vpmu_buf_vprintf(struct vpmu_buf *b, const char *fmt, va_list ap);
void vpmu_buf_free(struct vpmu_buf *b);

/* Whole files; "-" is stdin/stdout.  Writes go through a temporary file. */
int vpmu_read_file(const char *path, struct vpmu_buf *b);
int vpmu_write_file(const char *path, const void *data, size_t len);

#endif /* _VPMU_BUF_H */
