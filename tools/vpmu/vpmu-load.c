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

#include "vpmu_buf.h"
#include "vpmu_cli.h"
#include "vpmu_elf.h"
#include "vpmu_json.h"
#include "vpmu_engine.h"
#include "vpmu_runner.h"
#include "vpmu_tool.h"

#define DEFAULT_SYSFS	"/sys/bus/event_source/devices/vpmu"
#define DEFAULT_CHUNK	4096

static const char *sysfs = DEFAULT_SYSFS;

static void usage(void)
{
	printf(
"Usage: %s [OPTION]... IMAGE\n"
"       %s --default\n"
"       %s --status\n"
"       %s --check IMAGE\n"
"Load a microcode image (from vpmu-as, or the microcode ELF file of\n"
"vpmu-as -f elf) into the vpmu module: write it to ucode/image in chunks,\n"
"then print the new generation and name.  On rejection print the kernel's\n"
"reason (ucode/error) and exit 1; the running image is left untouched.\n"
"\n"
"      --default         make the built-in image current (ucode/load_default)\n"
"      --status          print name, version, generation, status, error and\n"
"                        the capabilities (caps/); exit 1 if there is no\n"
"                        module to ask\n"
"  -j, --json            with --status: one JSON object, the numbers as\n"
"                        numbers\n"
"      --check           validate IMAGE with the engine's own validator on\n"
"                        this machine only (cs_size 4096); load nothing\n"
"  -c, --chunk=BYTES     bytes per write() (default %d)\n"
"      --time            print how long the load took (open to close)\n"
"      --sysfs=DIR       the PMU's sysfs directory (default\n"
"                        " DEFAULT_SYSFS ",\n"
"                        or $VPMU_SYSFS)\n"
"  -q, --quiet           print only errors\n"
"  -h, --help            this text\n"
"      --version         show the version and exit\n"
"\n"
"The short forms -d, -S and -t still work, for scripts; --help leaves\n"
"them out because perf stat means other things by them.\n"
"\n"
"Writing needs root.  Exit status: 0 loaded (or valid with --check, or\n"
"the status printed); 1 the image rejected (by the kernel, or by --check),\n"
"or no module to show the status of; 125 bad usage, an unreadable file,\n"
"output that cannot be written, or no module or loader to write to.\n",
		vpmu_prog, vpmu_prog, vpmu_prog, vpmu_prog, DEFAULT_CHUNK);
	exit(VPMU_EXIT_OK);
}

/*
 * The first line of sysfs file ucode/NAME or caps/NAME of the PMU (or of
 * NAME itself, an absolute path), "" if absent.
 */
static const char *attr(const char *name, char *buf, size_t size)
{
	char path[512];
	ssize_t n;
	int fd;

	buf[0] = '\0';
	if (*name == '/')
		snprintf(path, sizeof(path), "%s", name);
	else
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

		fprintf(stderr, "%s: %s: %s%s\n", vpmu_prog, path, strerror(err),
			err == ENOENT ? " (is vpmu.ko loaded?)" :
			err == EACCES || err == EPERM ?
			" (loading microcode needs root)" : "");
		errno = err;
	}
	return fd;
}

#ifndef ARRAY_SIZE
#define ARRAY_SIZE(a)	(sizeof(a) / sizeof((a)[0]))
#endif

/* --status's files; numbers with --json where @num, else strings. */
static const struct {
	const char *file;
	bool num;
} status_files[] = {
	{ "ucode/name", false }, { "ucode/version", true },
	{ "ucode/generation", true }, { "ucode/status", false },
	{ "ucode/error", false }, { "caps/cs_size", true },
	{ "caps/nr_counters", true }, { "caps/ev_mode", false },
	{ "caps/ev_bits", true }, { "caps/max_precise", true },
	/* MODULE_VERSION: the release the module was built from */
	{ "/sys/module/vpmu/version", false },
};

/* The key of status file @i: its name, or "module" for the version. */
static const char *status_key(unsigned int i)
{
	const char *f = status_files[i].file;

	return *f == '/' ? "module" : strchr(f, '/') + 1;
}

/* --status --json: one object, a member a file; null for a number unread. */
static void status_json(void)
{
	struct vpmu_json j;
	unsigned long long v;
	unsigned int i;
	char buf[512], *end;

	vpmu_json_begin(&j, stdout);
	for (i = 0; i < ARRAY_SIZE(status_files); i++) {
		attr(status_files[i].file, buf, sizeof(buf));
		if (!status_files[i].num) {
			vpmu_json_str(&j, status_key(i), buf);
			continue;
		}
		errno = 0;
		v = strtoull(buf, &end, 0);
		if (buf[0] && !*end && !errno)
			vpmu_json_u64(&j, status_key(i), v);
		else
			vpmu_json_null(&j, status_key(i));
	}
	vpmu_json_end(&j);
}

/* --status: VPMU_EXIT_OK, or _DIFFER when there is no module to ask. */
static int print_status(bool json)
{
	char buf[512];
	unsigned int i;
	int fd;

	/* Without the module there is no status: say so, not blanks. */
	fd = open_attr("ucode/name", O_RDONLY);
	if (fd < 0)
		return VPMU_EXIT_DIFFER;
	close(fd);
	if (json) {
		status_json();
		return VPMU_EXIT_OK;
	}
	for (i = 0; i < ARRAY_SIZE(status_files); i++)
		printf("%-12s %s\n", status_key(i),
		       attr(status_files[i].file, buf, sizeof(buf)));
	return VPMU_EXIT_OK;
}

/*
 * The kernel's reason and what still runs, as messages about @what (the
 * file, or "built-in image"); @err 0: no errno to print.
 */
static void report_rejection(const char *what, int err)
{
	char buf[512];

	if (err)
		vpmu_err(what, 0, "rejected: %s", strerror(err));
	attr("ucode/error", buf, sizeof(buf));
	if (buf[0])
		vpmu_err(what, 0, "kernel: %s", buf);
	vpmu_err(what, 0, "the running image is unchanged: \"%s\", "
		 "generation %s", attr("ucode/name", buf, sizeof(buf)),
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
		return VPMU_EXIT_TOOL;
	if (write(fd, "1", 1) != 1) {
		int err = errno;

		close(fd);
		report_rejection("built-in image", err);
		return VPMU_EXIT_DIFFER;
	}
	close(fd);
	if (!quiet)
		report_loaded("built-in image", old);
	return VPMU_EXIT_OK;
}

static int check_image(const char *path, const struct vpmu_buf *img)
{
	struct vpmu_buf diag = { 0 };
	struct vpmu_ucode *uc;
	struct vpmu_verr err;

	if (vpmu_ucode_load(&uc, img->p, img->len, VPMU_CS_MAX, &err)) {
		vpmu_img_rejected(&diag, &err);
		vpmu_err_diag(path, NULL, &diag);
		vpmu_buf_free(&diag);
		return VPMU_EXIT_DIFFER;
	}
	printf("%s: valid: \"%.*s\" version %u, %u microwords, %zu bytes\n",
	       path, VPMU_IMAGE_NAME_LEN, vpmu_ucode_header(uc)->name,
	       vpmu_ucode_header(uc)->image_version,
	       vpmu_ucode_header(uc)->cs_words, img->len);
	vpmu_ucode_free(uc);
	return VPMU_EXIT_OK;
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
		return VPMU_EXIT_TOOL;
	while (off < img->len) {
		size_t n = img->len - off < chunk ? img->len - off : chunk;
		ssize_t w = write(fd, img->p + off, n);

		if (w < 0 && errno == EINTR)
			continue;
		if (w <= 0) {
			int err = w < 0 ? errno : EIO;

			close(fd);
			report_rejection(path, err);
			return VPMU_EXIT_DIFFER;
		}
		off += w;
		writes++;
	}
	if (close(fd)) {
		report_rejection(path, errno);
		return VPMU_EXIT_DIFFER;
	}
	t0 = vpmu_now() - t0;
	attr("ucode/status", status, sizeof(status));
	if (strcmp(status, "ok")) {
		vpmu_err(path, 0, "not loaded: ucode/status is \"%s\"%s", status,
			 strcmp(status, "incomplete") ? "" :
			 " (the file is shorter than its header's total_size)");
		report_rejection(path, 0);
		return VPMU_EXIT_DIFFER;
	}
	if (!quiet)
		report_loaded(path, old);
	if (timed)
		printf("%s: load time %.3f ms (%zu bytes, %u writes)\n", path,
		       t0 * 1e3, img->len, writes);
	return VPMU_EXIT_OK;
}

int main(int argc, char **argv)
{
	enum { OPT_CHECK = 256, OPT_SYSFS, OPT_JSON };
	static const struct option lopts[] = {
		{ "default", no_argument, NULL, 'd' },
		{ "status", no_argument, NULL, 'S' },
		{ "check", no_argument, NULL, OPT_CHECK },
		{ "chunk", required_argument, NULL, 'c' },
		{ "sysfs", required_argument, NULL, OPT_SYSFS },
		{ "quiet", no_argument, NULL, 'q' },
		{ "time", no_argument, NULL, 't' },
		{ "json", no_argument, NULL, OPT_JSON },
		{ "help", no_argument, NULL, 'h' },
		VPMU_VERSION_LONGOPT,
		{ }
	};
	bool dflt = false, status = false, check = false, quiet = false;
	bool timed = false, json = false;
	struct vpmu_buf img = { 0 }, diag = { 0 };
	unsigned long chunk = DEFAULT_CHUNK;
	char *end;
	int c, ret;

	vpmu_cli_init(argv[0], "vpmu-load");
	if (getenv("VPMU_SYSFS") && *getenv("VPMU_SYSFS"))
		sysfs = getenv("VPMU_SYSFS");
	while ((c = getopt_long(argc, argv, ":dSc:qtjh", lopts, NULL)) != -1) {
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
			if (errno || *end || !chunk || chunk > (1ul << 24))
				vpmu_usage_error("bad chunk size '%s'", optarg);
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
		case OPT_JSON:
		case 'j':	/* perf stat's -j, --json-output */
			json = true;
			break;
		case 'h':
			usage();
			break;
		case VPMU_OPT_VERSION:
			vpmu_version();
			break;
		default:
			vpmu_bad_option(argv, c);
		}
	}
	if (dflt + status + (optind < argc) != 1 || optind < argc - 1 ||
	    (check && optind != argc - 1))
		vpmu_usage_error("give one IMAGE, --default or --status");
	if (json && !status)
		vpmu_usage_error("--json goes with --status");
	if (status)
		return print_status(json);
	if (dflt)
		return load_default(quiet);
	if (vpmu_read_file(argv[optind], &img)) {
		vpmu_err_errno(argv[optind]);
		return VPMU_EXIT_TOOL;
	}
	if (vpmu_elf_unwrap(&img, VPMU_ELF_IMAGE, &diag) < 0) {
		vpmu_err_diag(argv[optind], NULL, &diag);
		return VPMU_EXIT_TOOL;
	}
	ret = check ? check_image(argv[optind], &img) :
		      load_image(argv[optind], &img, chunk, quiet, timed);
	vpmu_buf_free(&img);
	return ret;
}
