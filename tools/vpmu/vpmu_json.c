// SPDX-License-Identifier: GPL-2.0
/*
 * vpmu_json.c - the tools' JSON output (vpmu_json.h).
 */
#include <math.h>
#include <stdlib.h>

#include "vpmu_json.h"

/* @s as a JSON string: quotes, backslashes and control bytes escaped. */
static void json_string(FILE *f, const char *s)
{
	const unsigned char *p;

	fputc('"', f);
	for (p = (const unsigned char *)s; *p; p++) {
		if (*p == '"' || *p == '\\')
			fprintf(f, "\\%c", *p);
		else if (*p < 0x20)
			fprintf(f, "\\u%04x", *p);
		else
			fputc(*p, f);
	}
	fputc('"', f);
}

/* The separator before a member, and its key. */
static void json_key(struct vpmu_json *j, const char *key)
{
	if (!j->first[j->depth])
		fputs(", ", j->f);
	j->first[j->depth] = false;
	json_string(j->f, key);
	fputs(": ", j->f);
}

void vpmu_json_begin(struct vpmu_json *j, FILE *f)
{
	j->f = f;
	j->depth = 0;
	j->first[0] = true;
	fputc('{', f);
}

void vpmu_json_end(struct vpmu_json *j)
{
	while (j->depth)
		vpmu_json_close(j);
	fputs("}\n", j->f);
}

void vpmu_json_open(struct vpmu_json *j, const char *key)
{
	if (j->depth + 1 >= VPMU_JSON_DEPTH)
		abort();	/* the tools nest two deep at most */
	json_key(j, key);
	fputc('{', j->f);
	j->first[++j->depth] = true;
}

void vpmu_json_close(struct vpmu_json *j)
{
	if (!j->depth)
		abort();
	j->depth--;
	fputc('}', j->f);
}

void vpmu_json_u64(struct vpmu_json *j, const char *key, uint64_t v)
{
	json_key(j, key);
	fprintf(j->f, "%llu", (unsigned long long)v);
}

void vpmu_json_int(struct vpmu_json *j, const char *key, long long v)
{
	json_key(j, key);
	fprintf(j->f, "%lld", v);
}

void vpmu_json_double(struct vpmu_json *j, const char *key, double v)
{
	json_key(j, key);
	if (isfinite(v))
		fprintf(j->f, "%.9g", v);
	else
		fputs("null", j->f);	/* JSON has no inf or nan */
}

void vpmu_json_str(struct vpmu_json *j, const char *key, const char *s)
{
	json_key(j, key);
	json_string(j->f, s);
}

void vpmu_json_bool(struct vpmu_json *j, const char *key, bool v)
{
	json_key(j, key);
	fputs(v ? "true" : "false", j->f);
}

void vpmu_json_null(struct vpmu_json *j, const char *key)
{
	json_key(j, key);
	fputs("null", j->f);
}
