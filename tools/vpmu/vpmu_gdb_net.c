// SPDX-License-Identifier: GPL-2.0
/*
 * vpmu_gdb_net.c - vpmu-sim --gdb: gdb's connection, a TCP port on the
 * loopback or a Unix socket, and the remote protocol's packets on it
 * (vpmu_gdb_net.h).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <poll.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <sys/un.h>

#include "vpmu_cli.h"
#include "vpmu_gdb_net.h"

int vpmu_gdb_check_where(const char *arg)
{
	struct sockaddr_un un;
	unsigned long port;
	char *end;

	if (!strncmp(arg, "unix:", 5))
		return arg[5] && strlen(arg + 5) < sizeof(un.sun_path) ? 0 : -1;
	port = strtoul(arg, &end, 10);
	return *arg && !*end && port && port <= 65535 ? 0 : -1;
}

/* ---- the connection ----------------------------------------------------- */

/* A listening socket on @where, or -1 after saying why. */
static int gdb_listen(const char *where)
{
	struct sockaddr_in in = { .sin_family = AF_INET };
	struct sockaddr_un un = { .sun_family = AF_UNIX };
	struct sockaddr *sa = (struct sockaddr *)&in;
	socklen_t len = sizeof(in);
	int fd, one = 1;

	if (!strncmp(where, "unix:", 5)) {
		strcpy(un.sun_path, where + 5);
		unlink(un.sun_path);
		sa = (struct sockaddr *)&un;
		len = sizeof(un);
	} else {
		in.sin_port = htons(atoi(where));
		in.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	}
	fd = socket(sa->sa_family, SOCK_STREAM | SOCK_CLOEXEC, 0);
	if (fd < 0 || setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one,
				 sizeof(one)) ||
	    bind(fd, sa, len) || listen(fd, 1)) {
		vpmu_err(NULL, 0, "--gdb=%s: %s", where, strerror(errno));
		if (fd >= 0)
			close(fd);
		return -1;
	}
	return fd;
}

int vpmu_gdb_accept(const char *where)
{
	int lfd = gdb_listen(where), fd;

	if (lfd < 0)
		return -1;
	fprintf(stderr, "%s: waiting for gdb on %s%s\n", vpmu_prog,
		strncmp(where, "unix:", 5) ? "localhost:" : "", where);
	do {
		fd = accept(lfd, NULL, NULL);
	} while (fd < 0 && errno == EINTR);
	if (fd < 0)
		vpmu_err(NULL, 0, "--gdb=%s: %s", where, strerror(errno));
	close(lfd);
	if (!strncmp(where, "unix:", 5))
		unlink(where + 5);
	return fd;
}

/* ---- packets ------------------------------------------------------------ */

static bool gdb_send_all(struct vpmu_gdb_conn *conn, const void *p, size_t n)
{
	const char *c = p;
	ssize_t w;

	while (n) {
		w = send(conn->fd, c, n, MSG_NOSIGNAL);
		if (w < 0 && errno == EINTR)
			continue;
		if (w <= 0)
			return false;
		c += w;
		n -= w;
	}
	return true;
}

/* The next byte from gdb (waiting for it), or -1 at the end. */
static int gdb_getc(struct vpmu_gdb_conn *conn)
{
	ssize_t r;

	if (conn->in_pos == conn->in_len) {
		do {
			r = recv(conn->fd, conn->in, sizeof(conn->in), 0);
		} while (r < 0 && errno == EINTR);
		if (r <= 0)
			return -1;
		conn->in_pos = 0;
		conn->in_len = r;
	}
	return conn->in[conn->in_pos++];
}

/* Send the packet @body ("$body#ck"); gdb's '+' is read with the next. */
bool vpmu_gdb_put(struct vpmu_gdb_conn *conn, const char *body)
{
	static char pkt[VPMU_GDB_BUF + 8];
	unsigned int ck = 0;
	size_t n = strlen(body), i;

	for (i = 0; i < n; i++)
		ck += (uint8_t)body[i];
	pkt[0] = '$';
	memcpy(pkt + 1, body, n);
	snprintf(pkt + 1 + n, 4, "#%02x", ck & 0xff);
	return gdb_send_all(conn, pkt, n + 4);
}

bool vpmu_gdb_get(struct vpmu_gdb_conn *conn, char *buf)
{
	size_t n;
	int c;

	for (;;) {
		c = gdb_getc(conn);
		if (c < 0)
			return false;
		if (c != '$')
			continue;
		n = 0;
		while ((c = gdb_getc(conn)) >= 0 && c != '#')
			if (n < VPMU_GDB_BUF - 1)
				buf[n++] = c;
		buf[n] = 0;
		if (c < 0 || gdb_getc(conn) < 0 || gdb_getc(conn) < 0)
			return false;
		return gdb_send_all(conn, "+", 1);
	}
}

bool vpmu_gdb_poll_intr(struct vpmu_gdb_conn *conn)
{
	struct pollfd p = { .fd = conn->fd, .events = POLLIN };
	int c;

	while (conn->in_pos < conn->in_len || poll(&p, 1, 0) > 0) {
		c = gdb_getc(conn);
		if (c < 0 || c == 0x03)
			return true;	/* gone: stop, and end at the next read */
	}
	return false;
}

void vpmu_gdb_drain(struct vpmu_gdb_conn *conn)
{
	struct pollfd p = { .fd = conn->fd, .events = POLLIN };

	conn->in_pos = conn->in_len;
	while (poll(&p, 1, 1000) > 0 && gdb_getc(conn) >= 0)
		conn->in_pos = conn->in_len;
}

/* ---- hex ---------------------------------------------------------------- */

static int hexval(int c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	if (c >= 'A' && c <= 'F')
		return c - 'A' + 10;
	return -1;
}

bool vpmu_gdb_unhex(const char *s, uint8_t *out, size_t n)
{
	size_t i;
	int h, l;

	for (i = 0; i < n; i++) {
		h = hexval(s[2 * i]);
		l = h < 0 ? -1 : hexval(s[2 * i + 1]);
		if (l < 0)
			return false;
		out[i] = h << 4 | l;
	}
	return true;
}

char *vpmu_gdb_tohex(char *p, const uint8_t *b, size_t n)
{
	static const char d[] = "0123456789abcdef";

	while (n--) {
		*p++ = d[*b >> 4];
		*p++ = d[*b++ & 15];
	}
	*p = 0;
	return p;
}
