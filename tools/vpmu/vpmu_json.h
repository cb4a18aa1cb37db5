/* SPDX-License-Identifier: GPL-2.0 */
/*
 * vpmu_json.h - the tools' JSON output (--json): one object per line, as
 * perf stat -j prints its counts, so that a script reads each line with
 * any JSON parser.  Objects nest; keys are written in the order given.
 */
#ifndef _VPMU_JSON_H
#define _VPMU_JSON_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#define VPMU_JSON_DEPTH	4

struct vpmu_json {
	FILE *f;
	unsigned int depth;
	bool first[VPMU_JSON_DEPTH];	/* no member yet at this depth */
};

/* Start a line's object on @f; vpmu_json_end() closes it and the line. */
void vpmu_json_begin(struct vpmu_json *j, FILE *f);
void vpmu_json_end(struct vpmu_json *j);

/* "KEY": { ... }, a member object, closed by vpmu_json_close(). */
void vpmu_json_open(struct vpmu_json *j, const char *key);
void vpmu_json_close(struct vpmu_json *j);

void vpmu_json_u64(struct vpmu_json *j, const char *key, uint64_t v);
void vpmu_json_int(struct vpmu_json *j, const char *key, long long v);
void vpmu_json_double(struct vpmu_json *j, const char *key, double v);
void vpmu_json_str(struct vpmu_json *j, const char *key, const char *s);
void vpmu_json_bool(struct vpmu_json *j, const char *key, bool v);
void vpmu_json_null(struct vpmu_json *j, const char *key);

#endif /* _VPMU_JSON_H */
