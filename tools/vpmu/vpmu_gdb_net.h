/* SPDX-License-Identifier: GPL-2.0 */
/*
 * vpmu_gdb_net.h - vpmu-sim --gdb: where gdb connects, a TCP port on the
 * loopback or a Unix socket.
 */
#ifndef _VPMU_GDB_NET_H
#define _VPMU_GDB_NET_H

/* 0 if @arg is a valid --gdb argument: a port 1..65535 or unix:PATH. */
int vpmu_gdb_check_where(const char *arg);

/*
 * Wait for gdb on @where: the connection's socket, or -1 after saying
 * why not.
 */
int vpmu_gdb_accept(const char *where);

#endif /* _VPMU_GDB_NET_H */
