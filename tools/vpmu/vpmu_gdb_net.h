/* SPDX-License-Identifier: GPL-2.0 */
/*
 * vpmu_gdb_net.h - vpmu-sim --gdb: gdb's connection, a TCP port on the
 * loopback or a Unix socket, and the remote serial protocol's framing on
 * it: packets ("$body#checksum", acknowledged), Ctrl-C, and the hex their
 * bodies carry binary in.  What the packets mean is vpmu_gdb.c's.
 */
#ifndef _VPMU_GDB_NET_H
#define _VPMU_GDB_NET_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define VPMU_GDB_PKT_MAX	4096	/* PacketSize (qSupported) */
#define VPMU_GDB_BUF	(2 * VPMU_GDB_PKT_MAX + 16)	/* a packet, even hex */

/*
 * A session's result when gdb killed the program or went away
 * (vpmu_gdb_run(), vpmu_gdb_dev_run()), and the runner's exit status
 * then, as a shell sees a process killed (SIGKILL).
 */
#define VPMU_GDB_KILLED		1
#define VPMU_GDB_EXIT_KILLED	137

/* A connection to gdb: its socket and the bytes read from it. */
struct vpmu_gdb_conn {
	int fd;
	uint8_t in[VPMU_GDB_BUF];	/* bytes read, not yet taken */
	size_t in_pos, in_len;
};

/* 0 if @arg is a valid --gdb argument: a port 1..65535 or unix:PATH. */
int vpmu_gdb_check_where(const char *arg);

/*
 * Wait for gdb on @where: the connection's socket, or -1 after saying
 * why not.
 */
int vpmu_gdb_accept(const char *where);

/* Send the packet @body ("$body#ck"); gdb's '+' is read with the next. */
bool vpmu_gdb_put(struct vpmu_gdb_conn *conn, const char *body);

/*
 * The next packet's body into @buf (VPMU_GDB_BUF bytes, NUL-terminated,
 * acknowledged), or false at the end of the connection.  Anything
 * between packets is dropped: a Ctrl-C counts only while the program
 * runs (vpmu_gdb_poll_intr()).
 */
bool vpmu_gdb_get(struct vpmu_gdb_conn *conn, char *buf);

/* True if a Ctrl-C is waiting (the bytes before it are dropped). */
bool vpmu_gdb_poll_intr(struct vpmu_gdb_conn *conn);

/*
 * After the program's end, gdb's ack and whatever else it sends, until
 * it closes the connection (a second at most): closed first, a Unix
 * socket would give gdb's ack EPIPE.
 */
void vpmu_gdb_drain(struct vpmu_gdb_conn *conn);

/* @n bytes from the hex at @s into @out; false if short or not hex. */
bool vpmu_gdb_unhex(const char *s, uint8_t *out, size_t n);

/* @n bytes at @b as hex at @p, NUL-terminated; the pointer to the NUL. */
char *vpmu_gdb_tohex(char *p, const uint8_t *b, size_t n);

#endif /* _VPMU_GDB_NET_H */
