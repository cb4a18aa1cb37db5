// SPDX-License-Identifier: GPL-2.0
/*
 * vpmu-hist - report a micro-PC histogram: every sampled microword with
 * its label, count, share and disassembly, or one line per label
 * (routine); optionally a gnuplot drawing.  The histogram comes from
 * files in the uapi format (the module's uhist files, summed when there
 * are several) or, with --simulate, from running a program on the host
 * build of the engine.  With --buckets, report (and draw) the histogram
 * unit's buckets C1..Cn instead, labelled by the unit's program.
 */
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/ioctl.h>
#include <sys/wait.h>

#include "vpmu_buf.h"
#include "vpmu_cli.h"
#include "vpmu_elf.h"
#include "vpmu_hist_file.h"
#include "vpmu_hist_hu.h"
#include "vpmu_hist_img.h"
#include "vpmu_hist_perf.h"
#include "vpmu_hist_report.h"
#include "vpmu_runner.h"

#define DEFAULT_BUDGET	1000000000ull
#define DEFAULT_DEVICE	"/dev/vpmu"
#define HU_ERROR_FILE	"/sys/bus/event_source/devices/vpmu/hist/error"

static void usage(void)
{
	printf(
"Usage: %s -m IMAGE [OPTION]... HIST...\n"
"       %s --perf -m IMAGE [OPTION]... SCRIPT...\n"
"       %s --simulate -m IMAGE [-K N] [--budget=CYCLES] [OPTION]...\n"
"                 PROGRAM.vprg\n"
"       %s --buckets=SUMFILE [--program=PROGFILE] [--sort=count|addr]\n"
"                 [--top N] [--plot=FILE] [-q] [--json]\n"
"       %s --set-program=PROGFILE | --get-program | --get-buckets[=CPU]\n"
"                 [--device=PATH]\n"
"\n"
"Report a vpmu micro-PC histogram: each sampled microword with its label\n"
"(the nearest symbol at or before it, plus an offset: loop+2), micro-\n"
"address, count, share of the samples, a bar and its disassembly.\n"
"Several HIST files (the module's per-CPU uhist files) are summed; they\n"
"must have the same number of buckets, image and interval.  With\n"
"--simulate, run PROGRAM on the host build of the engine with the\n"
"histogram sampling every K cycles, and report that.  With --perf, the\n"
"operands are perf script output of vpmu samples (perf record -e vpmu/...\n"
"with the format term sample_upc, then perf script -F ip): each sample\n"
"counts one for its micro-PC.  IMAGE and PROGRAM may be the ELF files of\n"
"vpmu-as -f elf.\n"
"\n"
"With --buckets, report the histogram unit's buckets C1..Cn instead: one\n"
"row per bucket with its count, share of the total of the buckets and a\n"
"bar, in bucket order (--sort=count: highest first).  SUMFILE is the\n"
"output of --get-buckets (\"C<b> <count>\" lines) or of vpmu-sim --hu\n"
"(its \"hist C<b> <count>\" lines).  PROGFILE, the unit's program text\n"
"(as --get-program prints it), labels each bucket with its predicate and\n"
"period and must have as many entries as there are buckets.\n"
"\n"
"The running module's histogram unit, through the character device:\n"
"--set-program compiles PROGFILE (\"-\": stdin), the unit's program text,\n"
"and sets it on every engine (VPMU_IOC_HU_PROGRAM; as root);\n"
"--get-program prints the program in force in canonical text;\n"
"--get-buckets prints the buckets of CPU (default: their sum over the\n"
"CPUs) as \"C<b> <count>\" lines (VPMU_IOC_HU_READ; with CAP_PERFMON).\n"
"\n"
"  -m, --image=IMAGE     the microcode image sampled (required): symbols\n"
"                        and microword text come from it\n"
"      --simulate        the operand is a program file to run\n"
"      --perf            the operands are perf script output (lines ending\n"
"                        with the sample IP of a micro-PC sample)\n"
"  -K, --interval=K      sampling interval in cycles, 1..2^32-1 (default 1)\n"
"      --budget=CYCLES   cycle budget of the run (default 1G = 10^9;\n"
"                        suffixes k M G T, Ki Mi Gi Ti, or 2^N)\n"
"  -o, --output=FILE     write the histogram (the simulated one, or the sum\n"
"                        of the HIST files) to FILE in the uapi format\n"
"  -s, --sort=count|addr order of the rows (default count, highest first)\n"
"      --all             also show microwords (labels) with no samples\n"
"      --top=N           show at most N rows\n"
"  -l, --by-label        one row per label: the samples of its microwords\n"
"      --plot=FILE       draw the histogram with gnuplot into FILE, .png\n"
"                        or .svg\n"
"      --buckets=SUMFILE the histogram unit's buckets (no -m, HIST or\n"
"                        other micro-PC options then)\n"
"  -P, --program=PROGFILE  the histogram unit's program, to label the\n"
"                        buckets (with --buckets)\n"
"      --set-program=PROGFILE  set the histogram unit's program\n"
"      --get-program     print the histogram unit's program\n"
"      --get-buckets[=CPU|sum]  print a CPU's buckets, or their sum\n"
"      --device=PATH     the character device (default " DEFAULT_DEVICE ")\n"
"  -f, --force           go on, with a warning, when a histogram was sampled\n"
"                        on another image than IMAGE (of the same size) or\n"
"                        HIST files differ in image or interval\n"
"  -q, --quiet           no report (with -o or --plot)\n"
"  -j, --json            the report as JSON, one object a line: the\n"
"                        header's facts, a row each, what --top left out\n"
"  -h, --help            this text\n"
"      --version         show the version and exit\n"
"\n"
"The short forms -S, -r, -b, -a, -n, -p and -B still work, for scripts;\n"
"--help leaves them out because perf stat means other things by them.\n"
"\n"
"Exit status: 0 success; 125 bad usage, an unreadable or invalid file, a\n"
"histogram that does not match IMAGE or the other files, buckets that do\n"
"not match the program, a failed plot, output that cannot be written, or a\n"
"program the module refuses (with its reason, from hist/error), or a\n"
"failed call of the character device.\n",
		vpmu_prog, vpmu_prog, vpmu_prog, vpmu_prog, vpmu_prog);
	exit(VPMU_EXIT_OK);
}

struct opts {
	const char *image, *output, *plot;
	const char *buckets, *program;	/* histogram-unit mode */
	const char *set_program, *device;	/* ... and the device's */
	bool get_program, get_buckets;
	uint32_t cpu;		/* --get-buckets's, or VPMU_HU_CPU_SUM */
	char upc_opt;		/* last option only for micro-PC histograms */
	bool sort_given;
	bool simulate, perf, force, quiet, json;
	uint32_t interval;
	uint64_t budget;
	struct vpmu_report_opts rep;
};

static void bad_arg(const char *what, const char *arg)
{
	vpmu_usage_error("bad %s '%s'", what, arg);
}

/* A CPU number, decimal. */
static uint32_t parse_cpu(const char *arg)
{
	unsigned long v;
	char *end;

	errno = 0;
	v = strtoul(arg, &end, 10);
	if (*arg < '0' || *arg > '9' || *end || errno || v >= VPMU_HU_CPU_SUM)
		bad_arg("CPU", arg);
	return v;
}

/* Option @c (getopt_long()'s) with its optarg into @o. */
static void parse_opt(struct opts *o, int c, char **argv)
{
	uint64_t v;

	if (strchr("mSrKbolaf", c))
		o->upc_opt = c;
	switch (c) {
	case 'm':
		o->image = optarg;
		break;
	case 'S':
		o->simulate = true;
		break;
	case 'r':
		o->perf = true;
		break;
	case 'K':
		if (vpmu_parse_count(optarg, &v) || !v || v > UINT32_MAX)
			bad_arg("interval", optarg);
		o->interval = v;
		break;
	case 'b':
		if (vpmu_parse_count(optarg, &o->budget) || !o->budget)
			bad_arg("budget", optarg);
		break;
	case 'o':
		o->output = optarg;
		break;
	case 's':
		o->sort_given = true;
		if (!strcmp(optarg, "count"))
			o->rep.order = VPMU_REPORT_BY_COUNT;
		else if (!strcmp(optarg, "addr"))
			o->rep.order = VPMU_REPORT_BY_ADDR;
		else
			bad_arg("sort order (count or addr)", optarg);
		break;
	case 'a':
		o->rep.all = true;
		break;
	case 'n':
		if (vpmu_parse_count(optarg, &v) || !v || v > UINT32_MAX)
			bad_arg("row count", optarg);
		o->rep.top = v;
		break;
	case 'l':
		o->rep.by_label = true;
		break;
	case 'p':
		o->plot = optarg;
		break;
	case 'f':
		o->force = true;
		break;
	case 'q':
		o->quiet = true;
		break;
	case 'B':
		o->buckets = optarg;
		break;
	case 'P':
		o->program = optarg;
		break;
	case 'T':
		o->set_program = optarg;
		break;
	case 'd':
		o->device = optarg;
		break;
	case 'g':
		o->get_program = true;
		break;
	case 'u':
		o->get_buckets = true;
		o->cpu = VPMU_HU_CPU_SUM;
		if (optarg && strcmp(optarg, "sum"))
			o->cpu = parse_cpu(optarg);
		break;
	case 'j':	/* perf stat's -j, --json-output */
		o->json = true;
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

/*
 * What the options and operands must agree on: --buckets takes none of
 * the micro-PC histograms' options, those need -m and an operand, -K and
 * -b need --simulate.  --buckets's rows default to bucket order.
 */
static void check_args(int argc, char **argv, struct opts *o)
{
	int dev_ops = !!o->set_program + o->get_program + o->get_buckets;

	if (dev_ops || o->device) {
		if (!dev_ops)
			vpmu_usage_error("--device needs --set-program, "
					 "--get-program or --get-buckets");
		if (dev_ops > 1 || o->upc_opt || o->buckets || o->program ||
		    optind < argc)
			vpmu_usage_error("--set-program, --get-program and "
					 "--get-buckets take no other option "
					 "or operand");
		return;
	}
	if (o->buckets || o->program) {
		if (!o->buckets)
			vpmu_usage_error("--program needs --buckets");
		if (o->upc_opt)
			vpmu_usage_error("-%c is for micro-PC histograms, not "
					 "with --buckets", o->upc_opt);
		if (optind < argc)
			vpmu_usage_error("--buckets takes no operand ('%s')",
					 argv[optind]);
		if (!o->sort_given)
			o->rep.order = VPMU_REPORT_BY_ADDR;
		return;
	}
	if (!o->image)
		vpmu_usage_error("no image given (-m IMAGE)");
	if (optind == argc)
		vpmu_usage_error(o->simulate ? "no program file given" :
				 "no histogram file given");
	if (o->simulate && optind != argc - 1)
		vpmu_usage_error("one program file at a time");
	if (o->simulate && o->perf)
		vpmu_usage_error("--simulate or --perf, not both");
	if ((o->interval != 1 || o->budget != DEFAULT_BUDGET) && !o->simulate)
		vpmu_usage_error("-K and -b need --simulate");
}

static void parse_args(int argc, char **argv, struct opts *o)
{
	static const struct option lopts[] = {
		{ "image", required_argument, NULL, 'm' },
		{ "simulate", no_argument, NULL, 'S' },
		{ "perf", no_argument, NULL, 'r' },
		{ "interval", required_argument, NULL, 'K' },
		{ "budget", required_argument, NULL, 'b' },
		{ "output", required_argument, NULL, 'o' },
		{ "sort", required_argument, NULL, 's' },
		{ "all", no_argument, NULL, 'a' },
		{ "top", required_argument, NULL, 'n' },
		{ "by-label", no_argument, NULL, 'l' },
		{ "plot", required_argument, NULL, 'p' },
		{ "force", no_argument, NULL, 'f' },
		{ "quiet", no_argument, NULL, 'q' },
		{ "buckets", required_argument, NULL, 'B' },
		{ "program", required_argument, NULL, 'P' },
		{ "set-program", required_argument, NULL, 'T' },
		{ "device", required_argument, NULL, 'd' },
		{ "get-program", no_argument, NULL, 'g' },
		{ "get-buckets", optional_argument, NULL, 'u' },
		{ "json", no_argument, NULL, 'j' },
		{ "help", no_argument, NULL, 'h' },
		VPMU_VERSION_LONGOPT,
		{ }
	};
	int c;

	while ((c = getopt_long(argc, argv, ":m:SrK:b:o:s:an:lp:fqB:P:jh", lopts,
				NULL)) != -1)
		parse_opt(o, c, argv);
	check_args(argc, argv, o);
}

/* Each line of @diag as a message about @file. */
static void report_diag(struct vpmu_buf *diag, const char *file)
{
	vpmu_err_diag(file, NULL, diag);
}

static int read_or_complain(const char *path, struct vpmu_buf *b)
{
	if (!vpmu_read_file(path, b))
		return 0;
	vpmu_err_errno(path);
	return -1;
}

/*
 * Read every file and sum them into @sum: histogram files, or with @hi
 * (--perf) perf script output reported against that image.  The files of
 * one perf image always agree, so only histogram files may need @force to
 * be summed; @force also lets --perf skip samples beyond the image.
 */
static int load_files(char **files, int n, const struct vpmu_uhist_img *hi,
		      bool force, struct vpmu_uhist *sum)
{
	struct vpmu_buf file = { 0 }, diag = { 0 };
	struct vpmu_uhist h, *dst;
	int i, err, ret = -1;

	for (i = 0; i < n; i++) {
		file.len = 0;
		if (read_or_complain(files[i], &file))
			goto out;
		dst = i ? &h : sum;
		err = hi ? vpmu_uhist_from_perf(dst, hi, file.p ? file.p : "",
						file.len, files[i], force,
						&diag) :
			   vpmu_uhist_parse(dst, file.p, file.len, &diag);
		if (!err && i) {
			err = vpmu_uhist_add(sum, &h, hi ? false : force, &diag);
			vpmu_uhist_free(&h);
		}
		report_diag(&diag, files[i]);	/* errors, or warnings */
		if (err)
			goto out;
	}
	ret = 0;
out:
	vpmu_buf_free(&file);
	vpmu_buf_free(&diag);
	return ret;
}

static const char *stop_text(const struct vpmu_uhist_run *r, char *buf,
			     size_t size)
{
	/* enum vpmu_stop_reason and the uapi's VPMU_RUN_* agree up to FAULT */
	const char *name = vpmu_stop_name(r->reason);

	if (r->reason == VPMU_RUN_TRAP)
		snprintf(buf, size, "trap %u", r->code);
	else if (r->reason == VPMU_RUN_FAULT)
		snprintf(buf, size, "fault %s", vpmu_fault_name(r->code) ?
			 vpmu_fault_name(r->code) : "?");
	else
		snprintf(buf, size, "%s", name ? name : "?");
	return buf;
}

static int simulate(const char *path, const struct vpmu_buf *img,
		    const struct opts *o, struct vpmu_uhist *hs)
{
	struct vpmu_buf prog = { 0 }, diag = { 0 };
	struct vpmu_uhist_run run;
	char why[48];
	int ret;

	if (read_or_complain(path, &prog))
		return -1;
	if (vpmu_elf_unwrap(&prog, VPMU_ELF_PROG, &diag) < 0) {
		report_diag(&diag, path);
		vpmu_buf_free(&prog);
		return -1;
	}
	ret = vpmu_uhist_simulate(hs, img->p, img->len, prog.p, prog.len,
				  o->interval, o->budget, &run, &diag);
	report_diag(&diag, path);
	if (!ret && !o->quiet)
		fprintf(stderr, "%s: %s: stop %s after %llu cycles\n",
			vpmu_prog, path, stop_text(&run, why, sizeof(why)),
			(unsigned long long)run.cycles);
	vpmu_buf_free(&prog);
	vpmu_buf_free(&diag);
	return ret;
}

/* gnuplot on PATH, or NULL. */
static char *find_gnuplot(void)
{
	const char *path = getenv("PATH");
	struct vpmu_buf b = { 0 };

	while (path && *path) {
		size_t n = strcspn(path, ":");

		b.len = 0;
		vpmu_buf_printf(&b, "%.*s/gnuplot", n ? (int)n : 1,
				n ? path : ".");
		if (!access(b.p, X_OK))
			return b.p;
		path += n + (path[n] == ':');
	}
	vpmu_buf_free(&b);
	return NULL;
}

/*
 * Run gnuplot on @script, which draws into @path.  Any failure (gnuplot
 * missing, not exiting with 0, or leaving no @path) is reported, and
 * leaves no @path behind.
 */
static int run_gnuplot(const struct vpmu_buf *script, const char *path)
{
	char tmp[] = "/tmp/vpmu-hist.gpXXXXXX";
	char *gnuplot;
	int fd, status, ret = -1;
	pid_t pid;

	gnuplot = find_gnuplot();
	if (!gnuplot) {
		fprintf(stderr, "%s: %s: gnuplot not found on PATH; install it "
			"(Debian: apt-get install gnuplot-nox)\n", vpmu_prog,
			path);
		return -1;
	}
	fd = mkstemp(tmp);
	if (fd < 0 || write(fd, script->p, script->len) !=
	    (ssize_t)script->len) {
		fprintf(stderr, "%s: %s: %s\n", vpmu_prog, tmp, strerror(errno));
		if (fd >= 0) {
			close(fd);
			unlink(tmp);
		}
		goto out;
	}
	close(fd);
	fflush(NULL);
	pid = fork();
	if (!pid) {
		execl(gnuplot, "gnuplot", tmp, (char *)NULL);
		_exit(VPMU_EXIT_NOT_FOUND);	/* as a shell has it */
	}
	if (pid < 0 || waitpid(pid, &status, 0) < 0)
		fprintf(stderr, "%s: %s: cannot run %s: %s\n", vpmu_prog, path,
			gnuplot, strerror(errno));
	else if (WIFSIGNALED(status))
		fprintf(stderr, "%s: %s: gnuplot failed (killed by signal %d)\n",
			vpmu_prog, path, WTERMSIG(status));
	else if (!WIFEXITED(status) || WEXITSTATUS(status))
		fprintf(stderr, "%s: %s: gnuplot failed (exit status %d)\n",
			vpmu_prog, path, WEXITSTATUS(status));
	else if (access(path, R_OK))
		fprintf(stderr, "%s: %s: gnuplot failed (it wrote no file)\n",
			vpmu_prog, path);
	else
		ret = 0;
	if (ret)
		unlink(path);
	unlink(tmp);
out:
	free(gnuplot);
	return ret;
}

static int plot(const struct vpmu_uhist *hs, const struct vpmu_uhist_img *hi,
		const char *path, const char *what)
{
	struct vpmu_buf script = { 0 }, diag = { 0 };
	int ret = -1;

	if (vpmu_uhist_plot(&script, hs, hi, path, what, &diag))
		report_diag(&diag, path);
	else
		ret = run_gnuplot(&script, path);
	vpmu_buf_free(&script);
	vpmu_buf_free(&diag);
	return ret;
}

static const char *base_name(const char *path)
{
	const char *s = strrchr(path, '/');

	return s ? s + 1 : path;
}

/* The histogram unit's program text in @path ("-": stdin), parsed. */
static int parse_hu_program(const char *path, struct vpmu_hu_prog *p)
{
	struct vpmu_buf text = { 0 };
	char err[VPMU_HU_ERR_MAX];
	int ret = 0;

	if (read_or_complain(path, &text))
		return -1;
	if (vpmu_hu_parse(text.p ? text.p : "", text.len, p, err)) {
		vpmu_err(path, 0, "%s", err);
		ret = -1;
	}
	vpmu_buf_free(&text);
	return ret;
}

/* The histogram unit's program in @path, with at least one entry. */
static int load_hu_program(const char *path, struct vpmu_hu_prog *p)
{
	if (parse_hu_program(path, p))
		return -1;
	if (p->n)
		return 0;
	vpmu_err(path, 0, "the program is 'off': it has no buckets to label");
	return -1;
}

/* The character device (--device), opened; -1 with a message. */
static int open_device(const struct opts *o)
{
	const char *dev = o->device ? o->device : DEFAULT_DEVICE;
	int fd = open(dev, O_RDWR | O_CLOEXEC);

	if (fd < 0)
		vpmu_err_errno(dev);
	return fd;
}

/* ioctl @cmd on @fd, named @name in the message if it fails: 0 or -1. */
static int dev_ioctl(const struct opts *o, int fd, unsigned long cmd,
		     const char *name, void *arg)
{
	const char *dev = o->device ? o->device : DEFAULT_DEVICE;
	struct vpmu_buf why = { 0 };
	int err;

	if (!ioctl(fd, cmd, arg))
		return 0;
	err = errno;
	/* A program the module refused: hist/error says why. */
	if (err == EINVAL && cmd == VPMU_IOC_HU_PROGRAM &&
	    !vpmu_read_file(HU_ERROR_FILE, &why) && why.len) {
		const char *r = why.p;
		size_t n = strlen(name);

		/* "VPMU_IOC_HU_PROGRAM: entry 2: ...": the name said once */
		if (!strncmp(r, name, n) && !strncmp(r + n, ": ", 2))
			r += n + 2;
		vpmu_err(dev, 0, "%s: %s: %.*s", name, strerror(err),
			 (int)strcspn(r, "\n"), r);
	} else {
		vpmu_err(dev, 0, "%s: %s", name, strerror(err));
	}
	vpmu_buf_free(&why);
	return -1;
}

/*
 * --set-program: PROGFILE's text compiled to the uapi struct and set on the
 * module's engines.  The module checks the struct as the parser checks
 * text, and says why it refused one in hist/error.
 */
static int hu_set_program(const struct opts *o)
{
	struct vpmu_hu_program u;
	struct vpmu_hu_prog p;
	int fd, ret;

	if (parse_hu_program(o->set_program, &p))
		return VPMU_EXIT_TOOL;
	vpmu_hu_to_uapi(&p, &u);
	fd = open_device(o);
	if (fd < 0)
		return VPMU_EXIT_TOOL;
	ret = dev_ioctl(o, fd, VPMU_IOC_HU_PROGRAM, "VPMU_IOC_HU_PROGRAM", &u);
	close(fd);
	return ret ? VPMU_EXIT_TOOL : VPMU_EXIT_OK;
}

/* --get-program: the program in force, in canonical text. */
static int hu_get_program(const struct opts *o)
{
	struct vpmu_hu_program u = { .size = sizeof(u) };
	char err[VPMU_HU_ERR_MAX], text[VPMU_HU_TEXT_MAX];
	struct vpmu_hu_prog p;
	int fd, ret;

	fd = open_device(o);
	if (fd < 0)
		return VPMU_EXIT_TOOL;
	ret = dev_ioctl(o, fd, VPMU_IOC_HU_GET_PROGRAM,
			"VPMU_IOC_HU_GET_PROGRAM", &u);
	close(fd);
	if (ret)
		return VPMU_EXIT_TOOL;
	/* A newer module's program this tool cannot say */
	if (vpmu_hu_from_uapi(&u, &p, err)) {
		vpmu_err(o->device ? o->device : DEFAULT_DEVICE, 0,
			 "the program in force: %s", err);
		return VPMU_EXIT_TOOL;
	}
	vpmu_hu_print(&p, text, sizeof(text));
	fputs(text, stdout);
	return VPMU_EXIT_OK;
}

/* --get-buckets: a CPU's buckets or their sum, as "C<b> <count>" lines. */
static int hu_get_buckets(const struct opts *o)
{
	struct vpmu_hu_counts c = { .size = sizeof(c), .cpu = o->cpu };
	unsigned int b;
	int fd, ret;

	fd = open_device(o);
	if (fd < 0)
		return VPMU_EXIT_TOOL;
	ret = dev_ioctl(o, fd, VPMU_IOC_HU_READ, "VPMU_IOC_HU_READ", &c);
	close(fd);
	if (ret)
		return VPMU_EXIT_TOOL;
	for (b = 0; b < c.nr && b < VPMU_HU_BUCKETS; b++)
		printf("C%u %llu\n", b + 1, (unsigned long long)c.count[b]);
	return VPMU_EXIT_OK;
}

/* --buckets: the histogram unit's buckets. */
static int hu_buckets(const struct opts *o)
{
	struct vpmu_buf text = { 0 }, out = { 0 }, diag = { 0 };
	struct vpmu_hu_prog prog, *p = NULL;
	struct vpmu_hu_buckets hh;
	struct vpmu_json j;
	const char *what = base_name(o->buckets);
	int ret = VPMU_EXIT_TOOL;

	if (read_or_complain(o->buckets, &text))
		return VPMU_EXIT_TOOL;
	if (vpmu_hu_buckets_parse(&hh, text.p ? text.p : "", text.len,
			       o->buckets, &diag)) {
		report_diag(&diag, o->buckets);
		goto out;
	}
	if (o->program) {
		if (load_hu_program(o->program, &prog))
			goto out;
		if (prog.n != hh.n) {
			vpmu_err(o->buckets, 0, "%u bucket%s, but the program "
				 "in %s has %u entr%s", hh.n,
				 hh.n == 1 ? "" : "s", o->program, prog.n,
				 prog.n == 1 ? "y" : "ies");
			goto out;
		}
		p = &prog;
	}
	if (o->plot) {
		if (vpmu_hu_buckets_plot(&out, &hh, p, o->plot, what, &diag)) {
			report_diag(&diag, o->plot);
			goto out;
		}
		if (run_gnuplot(&out, o->plot))
			goto out;
		out.len = 0;
	}
	if (!o->quiet && o->json) {
		vpmu_hu_buckets_json(&j, stdout, &hh, p, what, &o->rep);
	} else if (!o->quiet) {
		vpmu_hu_buckets_report(&out, &hh, p, what, &o->rep);
		fwrite(out.p, 1, out.len, stdout);
	}
	ret = VPMU_EXIT_OK;	/* a failed write: vpmu_cli_init() */
out:
	vpmu_buf_free(&text);
	vpmu_buf_free(&out);
	vpmu_buf_free(&diag);
	return ret;
}

int main(int argc, char **argv)
{
	struct opts o = { .interval = 1, .budget = DEFAULT_BUDGET };
	struct vpmu_buf img = { 0 }, out = { 0 }, diag = { 0 };
	struct vpmu_uhist_img hi;
	struct vpmu_uhist hs = { 0 };
	struct vpmu_json j;
	const char *what;
	int nfiles, ret = VPMU_EXIT_TOOL;

	vpmu_cli_init(argv[0], "vpmu-hist");
	parse_args(argc, argv, &o);
	if (o.set_program)
		return hu_set_program(&o);
	if (o.get_program)
		return hu_get_program(&o);
	if (o.get_buckets)
		return hu_get_buckets(&o);
	if (o.buckets)
		return hu_buckets(&o);
	nfiles = argc - optind;
	if (read_or_complain(o.image, &img))
		return VPMU_EXIT_TOOL;
	if (vpmu_elf_unwrap(&img, VPMU_ELF_IMAGE, &diag) < 0 ||
	    vpmu_uhist_img_open(&hi, img.p, img.len, &diag)) {
		report_diag(&diag, o.image);
		goto out_img;
	}
	if (o.simulate ? simulate(argv[optind], &img, &o, &hs) :
	    load_files(argv + optind, nfiles, o.perf ? &hi : NULL, o.force, &hs))
		goto out;
	if (vpmu_uhist_match(&hs, &hi, o.force, &diag)) {
		report_diag(&diag, o.simulate || nfiles == 1 ? argv[optind] :
			    o.image);
		goto out;
	}
	report_diag(&diag, nfiles == 1 ? argv[optind] : o.image);
	if (o.output) {
		vpmu_uhist_write(&hs, &out);
		if (vpmu_write_file(o.output, out.p, out.len)) {
			vpmu_err_errno(o.output);
			goto out;
		}
		out.len = 0;
	}
	what = nfiles == 1 ? base_name(argv[optind]) : "the sum of the files";
	if (o.plot && plot(&hs, &hi, o.plot, what))
		goto out;
	if (!o.quiet && !(o.output && !strcmp(o.output, "-")) && o.json) {
		vpmu_uhist_report_json(&j, stdout, &hs, &hi, &o.rep);
	} else if (!o.quiet && !(o.output && !strcmp(o.output, "-"))) {
		vpmu_uhist_report(&out, &hs, &hi, &o.rep);
		fwrite(out.p, 1, out.len, stdout);
	}
	ret = VPMU_EXIT_OK;	/* a failed write: vpmu_cli_init() */
out:
	vpmu_uhist_free(&hs);
	vpmu_uhist_img_close(&hi);
out_img:
	vpmu_buf_free(&img);
	vpmu_buf_free(&out);
	vpmu_buf_free(&diag);
	return ret;
}
