// SPDX-License-Identifier: GPL-2.0
/*
 * vpmu_gdb_net.c - vpmu-sim --gdb: where gdb connects, a TCP port on the
 * loopback or a Unix socket (vpmu_gdb_net.h).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
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
