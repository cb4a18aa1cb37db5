/* SPDX-License-Identifier: GPL-2.0 */
/*
 * vpmu_cli.h - the command-line conventions every vpmu tool follows
 * (Documentation/vpmu/toolchain.rst, "Command-line conventions"):
 *
 *   - messages on stderr name the file at fault: one about a place in it
 *     as gcc's, "FILE:LINE[:COL]: error: message" (or "warning: "), no
 *     program name before it; any other "PROG: FILE: message", or "PROG:
 *     message" when no file is, a warning's message with "warning: ";
 *   - an unknown option, a missing argument or a bad operand prints one
 *     line and "Try 'PROG --help' for more information.", and exits
 *     VPMU_EXIT_TOOL;
 *   - --help prints the usage on stdout, --version "PROG (vpmu) VERSION",
 *     both exit 0;
 *   - output that cannot be written, to stdout or stderr, makes the exit
 *     status VPMU_EXIT_TOOL (checked at exit: vpmu_cli_init());
 *   - the exit statuses are the VPMU_EXIT_* below, the same in every tool.
 */
#ifndef _VPMU_CLI_H
#define _VPMU_CLI_H

#include <stdarg.h>
#include <stdbool.h>

#include "vpmu_buf.h"

/*
 * The exit statuses (the man pages' EXIT STATUS, toolchain.rst's table).
 * vpmu-run and vpmu-sim pass an RV32 ELF program's own status on, so a
 * tool's own failures take 125..127, as timeout(1) and env(1) do: 125
 * the tool failed, 126 the program file cannot be run, 127 there is
 * none.  A program that stops without exiting gives what a shell reports
 * for the signal qemu-riscv32 dies of.  As under timeout(1), a program
 * that exits 124..127 or above 128 itself looks the same.
 */
enum vpmu_exit {
	VPMU_EXIT_OK		= 0,	/* success */
	VPMU_EXIT_DIFFER	= 1,	/* a result differs from the expected */
	VPMU_EXIT_BUDGET	= 124,	/* a program ran out of its budget */
	VPMU_EXIT_TOOL		= 125,	/* usage, a file, an invalid input */
	VPMU_EXIT_CANNOT_RUN	= 126,	/* the program file cannot run */
	VPMU_EXIT_NOT_FOUND	= 127,	/* the program file does not exist */
	VPMU_EXIT_SIGILL	= 132,	/* 128 + SIGILL: illegal insn, halt */
	VPMU_EXIT_SIGTRAP	= 133,	/* 128 + SIGTRAP: ebreak */
	VPMU_EXIT_SIGSEGV	= 139,	/* 128 + SIGSEGV: a fault */
};

/* The tool's name, as messages give it: argv[0]'s last component. */
extern const char *vpmu_prog;

/*
 * Set vpmu_prog from @argv0 (NULL or empty: @name); opterr = 0.  At exit,
 * what stdout holds is flushed, and output to stdout or stderr that could
 * not be written makes the exit status VPMU_EXIT_TOOL ("PROG: standard
 * output: reason" on stderr), whatever the tool returned.
 */
void vpmu_cli_init(const char *argv0, const char *name);

/*
 * "FILE:LINE: error: message"; @line 0: "PROG: FILE: message"; @file
 * NULL: "PROG: message".
 */
void vpmu_err(const char *file, unsigned int line, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
/* "PROG: FILE: warning: message". */
void vpmu_warn(const char *file, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
/* "PROG: FILE: strerror(errno)". */
void vpmu_err_errno(const char *file);

/*
 * Print the lines of a library diagnostic buffer, each as a message about
 * @file: "FILE:LINE[:COL]: error: line" when the line starts with a place
 * in @file ("FILE:LINE[:COL]: ", its "error: " or "warning: " kept, one
 * added if it has none), else "PROG: FILE: line" (an "error: " tag
 * dropped, "warning: " kept).  A line that starts with a blank (a quoted
 * source line, a caret) is printed as it is.  @tag (NULL: none) goes just
 * before the message.  Empties @diag.
 */
void vpmu_err_diag(const char *file, const char *tag, struct vpmu_buf *diag);

/*
 * Usage errors: "PROG: message" (if @fmt), then "Try 'PROG --help' for
 * more information.", and exit VPMU_EXIT_TOOL.
 */
void vpmu_usage_error(const char *fmt, ...)
	__attribute__((format(printf, 1, 2), noreturn));

/*
 * getopt_long() returned '?' or ':' (optstrings start with ':'): say
 * which option was wrong, in one line, and exit as vpmu_usage_error().
 */
void vpmu_bad_option(char **argv, int c) __attribute__((noreturn));

/* --version: "PROG (vpmu) VERSION" on stdout; exit 0. */
void vpmu_version(void) __attribute__((noreturn));

/* The version every tool reports (debian/changelog's first line). */
extern const char vpmu_version_string[];

/* getopt_long value of --version in every tool, above any short option. */
#define VPMU_OPT_VERSION	0x1000
#define VPMU_VERSION_LONGOPT	{ "version", no_argument, NULL, VPMU_OPT_VERSION }

#endif /* _VPMU_CLI_H */
