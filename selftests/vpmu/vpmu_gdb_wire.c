// SPDX-License-Identifier: GPL-2.0
/*
 * vpmu_gdb_wire - gdb's side of the GDB remote serial protocol, raw, for
 * vpmu_rv32_gdb.sh: the guest has no gdb.  It connects to a stub's Unix
 * socket (the runner's or the simulator's --gdb=unix:PATH), retrying
 * while the stub starts, then sends each line of its standard input as
 * one packet and prints the stub's reply packets' bodies, one a line:
 *
 *   BODY     "$BODY#ck", then every reply up to the one that answers it
 *            ("O" packets, a monitor's text, come before it)
 *   &BODY    "$BODY#ck", nothing read: a c whose stop a Ctrl-C makes
 *   ^C       the byte 0x03, then the reply to the c before it
 *
 * It stops after a W or X reply (the program's end), at the end of its
 * input, or on a broken connection (exit status 1, the reason on
 * stderr).
 *
 *   vpmu_gdb_wire SOCKET < SCRIPT
 *   vpmu_gdb_wire --probe       exit 0 if the kernel has Unix sockets,
 *                               4 (KSFT_SKIP) if not (CONFIG_UNIX)
 */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/socket.h>
#include <sys/un.h>

#define WIRE_BUF	16384

static int conn;

static void die(const char *what)
{
	fprintf(stderr, "vpmu_gdb_wire: %s: %s\n", what,
		errno ? strerror(errno) : "connection closed");
	exit(1);
}

/* The stub's socket, once the stub listens (20 s at most). */
static int wire_connect(const char *path)
{
	struct sockaddr_un a = { .sun_family = AF_UNIX };
	int fd, i;

	if (strlen(path) >= sizeof(a.sun_path)) {
		errno = ENAMETOOLONG;
		die(path);
	}
	strcpy(a.sun_path, path);
	for (i = 0; i < 200; i++) {
		fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
		if (fd < 0)
			die("socket");
		if (!connect(fd, (struct sockaddr *)&a, sizeof(a)))
			return fd;
		close(fd);
		usleep(100000);
	}
	die(path);
	return -1;
}

static void put(const char *p, size_t n)
{
	ssize_t k;

	while (n) {
		k = write(conn, p, n);
		if (k <= 0)
			die("write");
		p += k;
		n -= k;
	}
}

static int get_byte(void)
{
	unsigned char c;

	errno = 0;
	if (read(conn, &c, 1) != 1)
		die("read");
	return c;
}

static void send_packet(const char *body)
{
	static char pkt[WIRE_BUF + 8];
	unsigned int ck = 0;
	size_t i, n = strlen(body);

	for (i = 0; i < n; i++)
		ck += (unsigned char)body[i];
	n = snprintf(pkt, sizeof(pkt), "$%s#%02x", body, ck & 0xff);
	put(pkt, n);
}

/*
 * The next packet's body into @buf; acks before it skipped.  Its own
 * ack is the caller's (ack()).
 */
static void get_packet(char *buf)
{
	size_t n = 0;
	int c;

	while ((c = get_byte()) != '$')
		;
	while ((c = get_byte()) != '#') {
		if (n == WIRE_BUF - 1) {
			errno = EMSGSIZE;
			die("reply");
		}
		buf[n++] = c;
	}
	buf[n] = 0;
	get_byte();
	get_byte();
}

/*
 * Acknowledge the packet just read.  A stub that ends the session with
 * it (the OK of a k, the W of an exit) may have closed the connection
 * already: that is no error.
 */
static void ack(void)
{
	if (write(conn, "+", 1) != 1 && errno != EPIPE && errno != ECONNRESET)
		die("write");
}

/* Print replies up to the one that answers (not an "O" packet). */
static void replies(char *buf)
{
	for (;;) {
		get_packet(buf);
		printf("%s\n", buf);
		fflush(stdout);
		ack();
		if (buf[0] != 'O' || !strcmp(buf, "OK"))
			break;
	}
	if (buf[0] == 'W' || buf[0] == 'X')
		exit(0);
}

int main(int argc, char **argv)
{
	static char line[WIRE_BUF], buf[WIRE_BUF];
	size_t n;

	if (argc != 2) {
		fprintf(stderr, "usage: vpmu_gdb_wire SOCKET < SCRIPT\n");
		return 2;
	}
	if (!strcmp(argv[1], "--probe")) {
		conn = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
		if (conn < 0) {
			perror("vpmu_gdb_wire: a Unix socket");
			return 4;
		}
		return 0;
	}
	signal(SIGPIPE, SIG_IGN);	/* a write after the stub closed: EPIPE */
	conn = wire_connect(argv[1]);
	while (fgets(line, sizeof(line), stdin)) {
		n = strcspn(line, "\n");
		line[n] = 0;
		if (!n)
			continue;
		if (!strcmp(line, "^C")) {
			put("\003", 1);
			replies(buf);
		} else if (line[0] == '&') {
			send_packet(line + 1);
		} else {
			send_packet(line);
			replies(buf);
		}
	}
	return 0;
}
