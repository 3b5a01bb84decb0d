/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Writing to the output and reading the input, whole or not at all */
#ifndef PFNMAP_OUT_H
#define PFNMAP_OUT_H

#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>

/* Returned by out_write when the reader went away (a closed pipe) */
#define OUT_CLOSED	(-2)
/* Returned by out_write when the kernel could not read the source buffer */
#define OUT_EFAULT	(-3)

struct output {
	int fd;
	const char *name;
	size_t done;		/* bytes written so far */
};

/* Binary output on a terminal is refused unless forced: EXIT_USAGE */
int output_refuse_tty(const char *path, bool force);

/* Opens -o FILE (created or truncated), or stdout for NULL or "-" */
int output_open(struct output *out, const char *path);
int output_close(struct output *out);

/* 0; OUT_CLOSED; OUT_EFAULT (out->done tells where); -1 after a message */
int out_write(struct output *out, const void *buf, size_t len);

/* Reads until len bytes or end of input; returns the count or -1 */
ssize_t read_full(int fd, void *buf, size_t len);
/* The same; on an error, -1 with errno, and *got what came before it */
int read_some(int fd, void *buf, size_t len, size_t *got);

#endif
