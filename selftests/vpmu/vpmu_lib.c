// SPDX-License-Identifier: GPL-2.0
/*
 * vpmu_lib.c - the plain helpers of the vpmu selftests (vpmu_lib.h, which
 * says what each does) for files and sysfs, CPUs, the microcode loader's
 * files and the module itself.
 */
#include "vpmu_lib.h"

#include <sys/wait.h>

/* ---- files --------------------------------------------------------------- */

uint8_t *vt_read_file(const char *path, size_t *len)
{
	uint8_t *p = NULL;
	size_t n = 0, cap = 0;
	ssize_t r;
	int fd;

	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return NULL;
	for (;;) {
		if (cap - n < 4097) {
			uint8_t *q;

			cap = cap ? 2 * cap : 65536;
			q = realloc(p, cap);
			if (!q)
				goto fail;
			p = q;
		}
		r = read(fd, p + n, cap - n - 1);
		if (r < 0 && errno == EINTR)
			continue;
		if (r < 0)
			goto fail;
		if (!r)
			break;
		n += r;
	}
	close(fd);
	p[n] = '\0';
	*len = n;
	return p;
fail:
	free(p);
	close(fd);
	return NULL;
}

const char *vt_share(char *buf, size_t size, const char *rel)
{
	const char *s = getenv("VPMU_SHARE");

	snprintf(buf, size, "%s/%s", s && *s ? s : VT_SHARE_DEFAULT, rel);
	return buf;
}

uint8_t *vt_read_share(const char *rel, size_t *len)
{
	char path[512];

	return vt_read_file(vt_share(path, sizeof(path), rel), len);
}

int vt_pmu_read(const char *rel, char *buf, size_t size)
{
	char path[256];

	snprintf(path, sizeof(path), VT_PMU_DIR "/%s", rel);
	return vt_read_line(path, buf, size);
}

int vt_read_line(const char *path, char *buf, size_t size)
{
	ssize_t n;
	int fd;

	buf[0] = '\0';
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -1;
	n = read(fd, buf, size - 1);
	close(fd);
	if (n < 0)
		return -1;
	buf[n] = '\0';
	buf[strcspn(buf, "\n")] = '\0';
	return 0;
}

long vt_pmu_long(const char *rel)
{
	char buf[64];

	return vt_pmu_read(rel, buf, sizeof(buf)) ? -1 : strtol(buf, NULL, 0);
}

long vt_tag_limit(void)
{
	long bits = vt_pmu_long("caps/ev_bits");
	char mode[16];

	if (bits < 1 || vt_pmu_read("caps/ev_mode", mode, sizeof(mode)))
		return -1;
	if (!strcmp(mode, "encoded"))
		return 1l << bits;
	return !strcmp(mode, "onehot") ? bits + 1 : -1;
}

int vt_write_file(const char *path, const char *val)
{
	int fd, ret = 0;

	fd = open(path, O_WRONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	if (write(fd, val, strlen(val)) < 0)
		ret = -errno;
	close(fd);
	return ret;
}

int vt_pmu_write(const char *rel, const char *val)
{
	char path[256];

	snprintf(path, sizeof(path), VT_PMU_DIR "/%s", rel);
	return vt_write_file(path, val);
}

int vt_pin(int cpu)
{
	cpu_set_t set;

	CPU_ZERO(&set);
	CPU_SET(cpu, &set);
	return sched_setaffinity(0, sizeof(set), &set);
}

int vt_cpu1_online(void)
{
	char c = '?';
	int fd = open(VT_CPU1_ONLINE, O_RDONLY | O_CLOEXEC);

	if (fd < 0)
		return -1;
	if (read(fd, &c, 1) != 1)
		c = '?';
	close(fd);
	return c == '1';
}

int vt_ucode_attr(const char *name, char *buf, size_t size)
{
	char rel[128];

	snprintf(rel, sizeof(rel), "ucode/%s", name);
	return vt_pmu_read(rel, buf, size);
}

unsigned long long vt_generation(void)
{
	char buf[64];

	if (vt_ucode_attr("generation", buf, sizeof(buf)))
		return 0;
	return strtoull(buf, NULL, 10);
}

/* ---- modules ------------------------------------------------------------- */

const char *vt_ko(void)
{
	static char path[4096];
	const char *ko = getenv("VPMU_KO");
	FILE *f;

	if (ko && *ko)
		return ko;
	if (path[0])
		return path;
	f = popen("modinfo -n vpmu 2>/dev/null", "r");
	if (!f)
		return "";
	if (!fgets(path, sizeof(path), f) || path[0] != '/')
		path[0] = 0;
	pclose(f);
	path[strcspn(path, "\n")] = 0;
	return path;
}

bool vt_have_tool(const char *name)
{
	char dirs[4096], file[4096];
	const char *path = getenv("PATH");
	char *dir, *save;

	snprintf(dirs, sizeof(dirs), "%s", path ? path : "/usr/bin:/bin");
	for (dir = strtok_r(dirs, ":", &save); dir;
	     dir = strtok_r(NULL, ":", &save)) {
		snprintf(file, sizeof(file), "%s/%s", *dir ? dir : ".", name);
		if (!access(file, X_OK))
			return true;
	}
	return false;
}

#ifndef MODULE_INIT_COMPRESSED_FILE
#define MODULE_INIT_COMPRESSED_FILE	4
#endif

int vt_ko_flags(const char *ko)
{
	const char *dot = strrchr(ko, '.');

	return dot && (!strcmp(dot, ".xz") || !strcmp(dot, ".zst") ||
		       !strcmp(dot, ".gz")) ? MODULE_INIT_COMPRESSED_FILE : 0;
}

int vt_insmod(const char *params)
{
	const char *run = getenv("VPMU_PARAMS");
	char all[512];
	int fd, ret;

	if (snprintf(all, sizeof(all), "%s %s", run ? run : "", params) >=
	    (int)sizeof(all))
		return -E2BIG;
	fd = open(vt_ko(), O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	ret = syscall(__NR_finit_module, fd, all, vt_ko_flags(vt_ko())) ?
	      -errno : 0;
	close(fd);
	return ret;
}

int vt_rmmod_retry(void)
{
	int ret = 0, tries;

	for (tries = 0; tries < 50; tries++) {
		ret = vt_rmmod();
		if (ret != -EAGAIN && ret != -EBUSY)
			break;
		usleep(100000);
	}
	return ret;
}

int vt_reload(const char *params)
{
	int ret = vt_rmmod_retry();

	if (ret && ret != -ENOENT)
		return ret;
	return vt_insmod(params);
}

/* ---- the histogram unit ------------------------------------------------- */

int vt_hist_tool(const char *args, const char *in, char *out, size_t size)
{
	char cmd[256], path[64], buf[1024];
	size_t len = 0, n;
	int status;
	FILE *f;

	snprintf(path, sizeof(path), "/tmp/vpmu_hist_tool.%d", (int)getpid());
	if (in) {
		f = fopen(path, "w");
		if (!f)
			return -1;
		fputs(in, f);
		if (fclose(f))
			return -1;
	}
	snprintf(cmd, sizeof(cmd), VT_HIST_TOOL " %s%s%s 2>&1", args,
		 in ? " <" : "", in ? path : "");
	f = popen(cmd, "r");
	if (!f)
		return -1;
	while ((n = fread(buf, 1, sizeof(buf), f)) > 0) {
		if (out && len + 1 < size) {
			n = n < size - 1 - len ? n : size - 1 - len;
			memcpy(out + len, buf, n);
			len += n;
		}
	}
	if (out && size)
		out[len] = '\0';
	status = pclose(f);
	if (in)
		unlink(path);
	return status >= 0 && WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

int vt_hu_prog_msg(const char *text, char *msg, size_t size)
{
	return vt_hist_tool("--set-program=-", text, msg, size) ? -EINVAL : 0;
}

const char *vt_hu_get(char *buf, size_t size)
{
	if (vt_hist_tool("--get-program", NULL, buf, size))
		buf[0] = '\0';
	return buf;
}

int vt_hu_buckets(uint32_t cpu, uint64_t *c)
{
	struct vpmu_hu_counts k = { .size = sizeof(k), .cpu = cpu };
	int fd, ret;

	fd = open(VT_DEV, O_RDWR | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	ret = ioctl(fd, VPMU_IOC_HU_READ, &k) ? -errno : (int)k.nr;
	close(fd);
	if (ret > 0)
		memcpy(c, k.count, ret * sizeof(c[0]));
	return ret;
}
