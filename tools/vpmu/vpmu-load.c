// SPDX-License-Identifier: GPL-2.0
/*
 * vpmu-load - replace the vpmu module's microcode image through sysfs
 * (ucode/image), go back to the built-in one (ucode/load_default), or show
 * the loader's state.  Documentation/vpmu/module.rst is the contract.
 */
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "vpmu_asm.h"
#include "vpmu_engine.h"
#include "vpmu_runner.h"

#define DEFAULT_SYSFS	"/sys/bus/event_source/devices/vpmu"
#define DEFAULT_CHUNK	4096

static const char *prog_name = "vpmu-load";
static const char *sysfs = DEFAULT_SYSFS;

static void usage(FILE *f)
{
	fprintf(f,
"Usage: %s [OPTION]... IMAGE\n"
"       %s --default\n"
"       %s --status\n"
"       %s --check IMAGE\n"
"Load a microcode image (from vpmu-as) into the vpmu module: write it to\n"
"ucode/image in chunks, then print the new generation and name.  On\n"
"rejection print the kernel's reason (ucode/error) and exit 1; the\n"
"running image is left untouched.\n"
"\n"
"  -d, --default         make the built-in image current (ucode/load_default)\n"
"  -S, --status          print name, version, generation, status, error and\n"
"                        the capabilities (caps/); exit 1 if there is no\n"
"                        module to ask\n"
"      --check           validate IMAGE with the engine's own validator on\n"
"                        this machine only (cs_size 4096); load nothing\n"
"  -c, --chunk=BYTES     bytes per write() (default %d)\n"
"  -t, --time            print how long the load took (open to close)\n"
"      --sysfs=DIR       the PMU's sysfs directory (default\n"
"                        " DEFAULT_SYSFS ",\n"
"                        or $VPMU_SYSFS)\n"
"  -q, --quiet           print only errors\n"
"  -h, --help            this text\n"
"\n"
"Writing needs root.  Exit status: 0 loaded (or valid with --check, or\n"
"the status printed), 1 rejected, not loaded or no module, 2 bad usage\n"
"or an unreadable file.\n",
		prog_name, prog_name, prog_name, prog_name, DEFAULT_CHUNK);
}

/* The first line of sysfs file ucode/NAME or caps/NAME, "" if absent. */
static const char *attr(const char *name, char *buf, size_t size)
{
	char path[512];
	ssize_t n;
	int fd;

	buf[0] = '\0';
	snprintf(path, sizeof(path), "%s/%s", sysfs, name);
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return buf;
	n = read(fd, buf, size - 1);
	close(fd);
	buf[n > 0 ? n : 0] = '\0';
	buf[strcspn(buf, "\n")] = '\0';
	return buf;
}

static int open_attr(const char *name, int flags)
{
	char path[512];
	int fd;

	snprintf(path, sizeof(path), "%s/%s", sysfs, name);
	fd = open(path, flags | O_CLOEXEC);
	if (fd < 0) {
		int err = errno;

		fprintf(stderr, "%s: %s: %s%s\n", prog_name, path, strerror(err),
			err == ENOENT ? " (is vpmu.ko loaded?)" :
			err == EACCES || err == EPERM ?
			" (loading microcode needs root)" : "");
		errno = err;
	}
	return fd;
}

/* --status: 0, or 1 when there is no module to ask (said why). */
static int print_status(void)
{
	static const char *const files[] = {
		"ucode/name", "ucode/version", "ucode/generation",
		"ucode/status", "ucode/error", "caps/cs_size",
		"caps/nr_counters", "caps/ev_mode", "caps/ev_bits",
		"caps/max_precise",
	};
	char buf[512];
	unsigned int i;
	int fd;

	/* Without the module there is no status: say so, not blanks. */
	fd = open_attr("ucode/name", O_RDONLY);
	if (fd < 0)
		return 1;
	close(fd);
	for (i = 0; i < sizeof(files) / sizeof(files[0]); i++)
		printf("%-12s %s\n", strchr(files[i], '/') + 1,
		       attr(files[i], buf, sizeof(buf)));
	return 0;
}

/* The kernel's reason and what still runs; @err 0: no errno to print. */
static void report_rejection(const char *what, int err)
{
	char buf[512];

	if (err)
		fprintf(stderr, "%s: %s rejected: %s\n", prog_name, what,
			strerror(err));
	attr("ucode/error", buf, sizeof(buf));
	if (buf[0])
		fprintf(stderr, "%s: kernel: %s\n", prog_name, buf);
	fprintf(stderr, "%s: the running image is unchanged: \"%s\", generation %s\n",
		prog_name, attr("ucode/name", buf, sizeof(buf)),
		attr("ucode/generation", buf + 256, sizeof(buf) - 256));
}

static void report_loaded(const char *what, const char *old_gen)
{
	char name[128], ver[32], gen[32];

	printf("%s: loaded: \"%s\" version %s, generation %s (was %s)\n", what,
	       attr("ucode/name", name, sizeof(name)),
	       attr("ucode/version", ver, sizeof(ver)),
	       attr("ucode/generation", gen, sizeof(gen)), old_gen);
}

static int load_default(bool quiet)
{
	char old[32];
	int fd;

	attr("ucode/generation", old, sizeof(old));
	fd = open_attr("ucode/load_default", O_WRONLY);
	if (fd < 0)
		return 1;
	if (write(fd, "1", 1) != 1) {
		int err = errno;

		close(fd);
		report_rejection("the built-in image", err);
		return 1;
	}
	close(fd);
	if (!quiet)
		report_loaded("built-in image", old);
	return 0;
}

static int check_image(const char *path, const struct vpmu_buf *img)
{
	struct vpmu_ucode *uc;
	struct vpmu_verr err;

	if (vpmu_ucode_load(&uc, img->p, img->len, VPMU_CS_MAX, &err)) {
		fprintf(stderr, "%s: %s: invalid: %s (%s)\n", prog_name, path,
			err.msg, strerror(-err.err));
		return 1;
	}
	printf("%s: valid: \"%.*s\" version %u, %u microwords, %zu bytes\n",
	       path, VPMU_IMAGE_NAME_LEN, vpmu_ucode_header(uc)->name,
	       vpmu_ucode_header(uc)->image_version,
	       vpmu_ucode_header(uc)->cs_words, img->len);
	vpmu_ucode_free(uc);
	return 0;
}

static int load_image(const char *path, const struct vpmu_buf *img,
		      size_t chunk, bool quiet, bool timed)
{
	char old[32], status[64];
	unsigned int writes = 0;
	size_t off = 0;
	double t0;
	int fd;

	attr("ucode/generation", old, sizeof(old));
	t0 = vpmu_now();
	fd = open_attr("ucode/image", O_WRONLY);
	if (fd < 0)
		return 1;
	while (off < img->len) {
		size_t n = img->len - off < chunk ? img->len - off : chunk;
		ssize_t w = write(fd, img->p + off, n);

		if (w < 0 && errno == EINTR)
			continue;
		if (w <= 0) {
			int err = w < 0 ? errno : EIO;

			close(fd);
			report_rejection(path, err);
			return 1;
		}
		off += w;
		writes++;
	}
	if (close(fd)) {
		report_rejection(path, errno);
		return 1;
	}
	t0 = vpmu_now() - t0;
	attr("ucode/status", status, sizeof(status));
	if (strcmp(status, "ok")) {
		fprintf(stderr, "%s: %s: not loaded: ucode/status is \"%s\"%s\n",
			prog_name, path, status, strcmp(status, "incomplete") ? "" :
			" (the file is shorter than its header's total_size)");
		report_rejection(path, 0);
		return 1;
	}
	if (!quiet)
		report_loaded(path, old);
	if (timed)
		printf("%s: load time %.3f ms (%zu bytes, %u writes)\n", path,
		       t0 * 1e3, img->len, writes);
	return 0;
}

int main(int argc, char **argv)
{
	enum { OPT_CHECK = 256, OPT_SYSFS };
	static const struct option lopts[] = {
		{ "default", no_argument, NULL, 'd' },
		{ "status", no_argument, NULL, 'S' },
		{ "check", no_argument, NULL, OPT_CHECK },
		{ "chunk", required_argument, NULL, 'c' },
		{ "sysfs", required_argument, NULL, OPT_SYSFS },
		{ "quiet", no_argument, NULL, 'q' },
		{ "time", no_argument, NULL, 't' },
		{ "help", no_argument, NULL, 'h' },
		{ }
	};
	bool dflt = false, status = false, check = false, quiet = false;
	bool timed = false;
	struct vpmu_buf img = { 0 };
	unsigned long chunk = DEFAULT_CHUNK;
	char *end;
	int c, ret;

	if (argc > 0 && strrchr(argv[0], '/'))
		prog_name = strrchr(argv[0], '/') + 1;
	if (getenv("VPMU_SYSFS") && *getenv("VPMU_SYSFS"))
		sysfs = getenv("VPMU_SYSFS");
	while ((c = getopt_long(argc, argv, "dSc:qth", lopts, NULL)) != -1) {
		switch (c) {
		case 'd':
			dflt = true;
			break;
		case 'S':
			status = true;
			break;
		case OPT_CHECK:
			check = true;
			break;
		case 'c':
			errno = 0;
			chunk = strtoul(optarg, &end, 0);
			if (errno || *end || !chunk || chunk > (1ul << 24)) {
				fprintf(stderr, "%s: bad chunk size '%s'\n",
					prog_name, optarg);
				return 2;
			}
			break;
		case OPT_SYSFS:
			sysfs = optarg;
			break;
		case 'q':
			quiet = true;
			break;
		case 't':
			timed = true;
			break;
		case 'h':
			usage(stdout);
			return 0;
		default:
			usage(stderr);
			return 2;
		}
	}
	if (dflt + status + (optind < argc) != 1 || optind < argc - 1 ||
	    (check && optind != argc - 1)) {
		fprintf(stderr, "%s: give one IMAGE, --default or --status\n",
			prog_name);
		usage(stderr);
		return 2;
	}
	if (status)
		return print_status();
	if (dflt)
		return load_default(quiet);
	if (vpmu_read_file(argv[optind], &img)) {
		fprintf(stderr, "%s: %s: %s\n", prog_name, argv[optind],
			strerror(errno));
		return 2;
	}
	ret = check ? check_image(argv[optind], &img) :
		      load_image(argv[optind], &img, chunk, quiet, timed);
	vpmu_buf_free(&img);
	return ret;
}
