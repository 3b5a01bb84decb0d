// SPDX-License-Identifier: GPL-2.0-or-later
/* Output that survives short writes and ends quietly when the reader goes */
#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <unistd.h>

#include "out.h"
#include "msg.h"
#include "pfnmap.h"

static bool is_stdout(const char *path)
{
	return !path || !strcmp(path, "-");
}

int output_refuse_tty(const char *path, bool force)
{
	if (!is_stdout(path) || force || !isatty(STDOUT_FILENO))
		return 0;
	pf_error("refusing to write binary data to a terminal; "
		 "redirect it, give -o FILE, or --force");
	return EXIT_USAGE;
}

int output_open(struct output *out, const char *path)
{
	out->done = 0;
	if (is_stdout(path)) {
		out->fd = STDOUT_FILENO;
		out->name = "standard output";
		return 0;
	}
	out->name = path;
	out->fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0666);
	if (out->fd < 0) {
		pf_error("cannot create %s: %s", path, strerror(errno));
		return EXIT_FAIL;
	}
	return 0;
}

int output_close(struct output *out)
{
	if (out->fd == STDOUT_FILENO)
		return 0;
	if (close(out->fd)) {
		pf_error("%s: %s", out->name, strerror(errno));
		return EXIT_FAIL;
	}
	return 0;
}

int out_write(struct output *out, const void *buf, size_t len)
{
	const char *p = buf;

	while (len) {
		ssize_t n = write(out->fd, p, len);

		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0 && errno == EPIPE)
			return OUT_CLOSED;
		if (n < 0 && errno == EFAULT)
			return OUT_EFAULT;
		if (n <= 0) {
			pf_error("writing %s: %s", out->name,
			    n ? strerror(errno) : "no progress");
			return -1;
		}
		p += n;
		len -= (size_t)n;
		out->done += (size_t)n;
	}
	return 0;
}

int read_some(int fd, void *buf, size_t len, size_t *got)
{
	char *p = buf;

	*got = 0;
	while (*got < len) {
		ssize_t n = read(fd, p + *got, len - *got);

		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			return -1;
		if (!n)
			break;
		*got += (size_t)n;
	}
	return 0;
}

ssize_t read_full(int fd, void *buf, size_t len)
{
	size_t got;

	return read_some(fd, buf, len, &got) ? -1 : (ssize_t)got;
}
