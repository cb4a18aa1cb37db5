// SPDX-License-Identifier: GPL-2.0
/*
 * vpmu_cli.c - messages, usage errors, --version and exit statuses, the
 * same in every vpmu tool (vpmu_cli.h).
 */
#include <ctype.h>
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "vpmu_cli.h"

#ifndef VPMU_VERSION
#define VPMU_VERSION	"unknown"
#endif

const char vpmu_version_string[] = VPMU_VERSION;
const char *vpmu_prog = "vpmu";

/*
 * At exit: a result that did not reach stdout (a full disk, say) must not
 * pass for success, as GNU's close_stdout() has it.  What stdout still
 * buffers is written; an error, now or before (ferror()), is said and the
 * status becomes VPMU_EXIT_TOOL.  A message that did not reach stderr
 * fails the same way, silently.  What vpmu_write_file() writes to "-"
 * bypasses stdio, and its caller reports a failure.
 */
static void check_output(void)
{
	int err = fflush(stdout) ? errno : 0;

	if (err || ferror(stdout)) {
		vpmu_err(NULL, 0, "standard output: %s",
			 err ? strerror(err) : "write error");
		_exit(VPMU_EXIT_TOOL);
	}
	if (ferror(stderr))
		_exit(VPMU_EXIT_TOOL);
}

void vpmu_cli_init(const char *argv0, const char *name)
{
	const char *slash = argv0 ? strrchr(argv0, '/') : NULL;

	vpmu_prog = slash ? slash + 1 : argv0;
	if (!vpmu_prog || !*vpmu_prog)
		vpmu_prog = name;
	opterr = 0;
	atexit(check_output);
}

/*
 * "FILE:LINE: TAG" as gcc starts a message about a place in a file, with
 * no program name before it (editors' quickfix lists read FILE from the
 * start of the line); "PROG: FILE: " or "PROG: " when no line is known.
 * @tag is "error: " or "warning: ".
 */
static void vmsg(const char *file, unsigned int line, const char *tag,
		 const char *fmt, va_list ap)
{
	if (file && line)
		fprintf(stderr, "%s:%u: %s", file, line, tag);
	else if (file)
		fprintf(stderr, "%s: %s: %s", vpmu_prog, file,
			strcmp(tag, "error: ") ? tag : "");
	else
		fprintf(stderr, "%s: %s", vpmu_prog,
			strcmp(tag, "error: ") ? tag : "");
	vfprintf(stderr, fmt, ap);
	fputc('\n', stderr);
}

void vpmu_err(const char *file, unsigned int line, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vmsg(file, line, "error: ", fmt, ap);
	va_end(ap);
}

void vpmu_warn(const char *file, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vmsg(file, 0, "warning: ", fmt, ap);
	va_end(ap);
}

void vpmu_err_errno(const char *file)
{
	vpmu_err(file, 0, "%s", strerror(errno));
}

/* The length of "@file:LINE[:COL]: " at @p, or 0. */
static size_t location_len(const char *p, const char *file)
{
	size_t n = file ? strlen(file) : 0;

	if (!file || strncmp(p, file, n) || p[n] != ':' ||
	    !isdigit((unsigned char)p[n + 1]))
		return 0;
	n++;
	while (isdigit((unsigned char)p[n]) || p[n] == ':')
		n++;
	return p[n] == ' ' && p[n - 1] == ':' ? n + 1 : 0;
}

static bool starts(const char *p, int n, const char *prefix)
{
	return n >= (int)strlen(prefix) && !strncmp(p, prefix, strlen(prefix));
}

/* One line of a diagnostic buffer, @n bytes at @p: vpmu_err_diag(). */
static void diag_line(const char *file, const char *tag, const char *p,
		      int n)
{
	const char *label = "error: ";
	size_t loc;

	if (*p == ' ' || *p == '\t') {		/* a quoted line, a caret */
		fprintf(stderr, "%.*s\n", n, p);
		return;
	}
	if (starts(p, n, "error: ")) {
		p += 7;
		n -= 7;
	}
	if (file && starts(p, n, file) && starts(p + strlen(file),
						 n - (int)strlen(file), ": ")) {
		p += strlen(file) + 2;	/* "FILE: ", no line: said below */
		n -= strlen(file) + 2;
	}
	loc = location_len(p, file);
	if (starts(p + loc, n - (int)loc, "error: ")) {
		loc += 7;
	} else if (starts(p + loc, n - (int)loc, "warning: ")) {
		label = "warning: ";
		loc += 9;
	}
	if (location_len(p, file))
		fprintf(stderr, "%.*s%s", (int)location_len(p, file), p, label);
	else if (file)
		fprintf(stderr, "%s: %s: %s", vpmu_prog, file,
			*label == 'w' ? label : "");
	else
		fprintf(stderr, "%s: %s", vpmu_prog, *label == 'w' ? label : "");
	fprintf(stderr, "%s%.*s\n", tag ? tag : "", n - (int)loc, p + loc);
}

void vpmu_err_diag(const char *file, const char *tag, struct vpmu_buf *diag)
{
	char *p = diag->p, *nl;

	while (p && *p) {
		nl = strchr(p, '\n');
		diag_line(file, tag, p, nl ? (int)(nl - p) : (int)strlen(p));
		p = nl ? nl + 1 : NULL;
	}
	diag->len = 0;
	if (diag->p)
		diag->p[0] = '\0';
}

void vpmu_usage_error(const char *fmt, ...)
{
	va_list ap;

	if (fmt) {
		va_start(ap, fmt);
		vmsg(NULL, 0, "", fmt, ap);
		va_end(ap);
	}
	fprintf(stderr, "Try '%s --help' for more information.\n", vpmu_prog);
	exit(VPMU_EXIT_TOOL);
}

/*
 * getopt_long() leaves optopt 0 for an unknown long option and the option
 * character for an unknown short one; a long option always advances
 * optind, so argv[optind - 1] is the word at fault then, and when an
 * argument is missing (which only the last word can lack).
 */
void vpmu_bad_option(char **argv, int c)
{
	const char *arg = optind > 0 ? argv[optind - 1] : "";
	bool is_long = !strncmp(arg, "--", 2);

	if (c == ':' && is_long)
		vpmu_usage_error("option '%s' requires an argument", arg);
	if (c == ':')
		vpmu_usage_error("option requires an argument -- '%c'", optopt);
	if (!optopt)
		vpmu_usage_error("unrecognized option '%s'", arg);
	if (is_long && strchr(arg, '='))
		vpmu_usage_error("option '%.*s' takes no argument",
				 (int)(strchr(arg, '=') - arg), arg);
	if (isprint(optopt))
		vpmu_usage_error("invalid option -- '%c'", optopt);
	vpmu_usage_error("invalid option");
}

void vpmu_version(void)
{
	printf("%s (vpmu) %s\n", vpmu_prog, vpmu_version_string);
	exit(VPMU_EXIT_OK);	/* a failed write: vpmu_cli_init() */
}
