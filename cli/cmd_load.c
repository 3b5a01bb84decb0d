// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * load: FILE or standard input into a region, never past its end. With a
 * plain START the region is as long as the input; a pipe is read whole
 * first, so that nothing is written before the size is known.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "commands.h"
#include "msg.h"
#include "out.h"
#include "progress.h"

#define CHUNK		(1024 * 1024)

struct load {
	struct source src;	/* first: take() gets it back as the load */
	const struct options *o;
	const struct extent *x;
	const char *name;
	int fd;
	unsigned char *mem;	/* a pipe read whole, for a plain START */
	size_t memlen;
	uint64_t got;		/* bytes read */
	uint64_t done;		/* bytes written */
	unsigned char *bounce;
	bool in_place;		/* a regular file read straight into the region */
};

static ssize_t next_chunk(struct load *l, size_t want, const unsigned char **p)
{
	ssize_t n;

	if (l->mem) {
		n = (ssize_t)(l->memlen - l->done < want ? l->memlen - l->done
							  : want);
		*p = l->mem + l->done;
		return n;
	}
	n = read_full(l->fd, l->bounce, want);
	if (n < 0)
		pf_error("load: reading %s: %s", l->name, strerror(errno));
	*p = l->bounce;
	return n;
}

/*
 * A regular file read straight into write-back memory. EFAULT (the kernel
 * could not write there) ends it with the file where the copy stopped:
 * the bounce buffer then finds the fault and its address.
 */
static ssize_t take(struct source *src, void *buf, size_t len)
{
	struct load *l = (struct load *)src;
	size_t got;
	int r = read_some(l->fd, buf, len, &got);

	if (r && errno == EFAULT) {
		src->efault = true;
	} else if (r) {
		pf_error("load: reading %s: %s", l->name, strerror(errno));
		return -1;
	}
	return (ssize_t)got;
}

/* The input into the mapping, a chunk at a time, until it ends */
static int load_input(struct load *l, struct mapping *m)
{
	const unsigned char *src;
	size_t n, wrote;
	ssize_t got;
	int r;

	while (l->got < l->x->size) {
		n = l->x->size - l->got < CHUNK ? (size_t)(l->x->size - l->got) : CHUNK;
		if (l->in_place) {
			r = map_write_in_place(m, l->done, n, &l->src, &wrote);
			l->got += wrote;
			l->done += wrote;
			progress_advance(wrote);
			if (r == MAP_NOT_IN_PLACE) {
				l->in_place = false;
				continue;
			}
			if (r)
				return r < 0 ? EXIT_FAIL : r;
			if (wrote < n)
				return 0;
			continue;
		}
		got = next_chunk(l, n, &src);
		if (got < 0)
			return EXIT_FAIL;
		l->got += (uint64_t)got;
		r = map_write(m, l->done, src, (size_t)got, &wrote);
		l->done += wrote;
		progress_advance(wrote);
		if (r || (size_t)got < n)
			return r;
	}
	return 0;
}

static int open_input(struct load *l, const char *path)
{
	struct stat st;

	if (!path || !strcmp(path, "-")) {
		l->fd = STDIN_FILENO;
		l->name = "standard input";
	} else {
		l->name = path;
		l->fd = open(path, O_RDONLY | O_CLOEXEC);
	}
	if (l->fd < 0) {
		pf_error("load: cannot open %s: %s", path, strerror(errno));
		return EXIT_FAIL;
	}
	/*
	 * a regular file gives back on EFAULT exactly what it did not copy;
	 * a pipe or a device need not
	 */
	l->in_place = !fstat(l->fd, &st) && S_ISREG(st.st_mode);
	return 0;
}

/*
 * What is left of a regular file: standard input may have been partly read
 * by whoever ran us, or be positioned past an end that has since shrunk.
 */
static uint64_t regular_left(int fd, const struct stat *st)
{
	off_t pos = lseek(fd, 0, SEEK_CUR);

	if (pos < 0 || pos >= st->st_size)
		return 0;
	return (uint64_t)(st->st_size - pos);
}

/* A plain START: the region is as long as the input */
static int size_from_input(struct load *l, struct extent *reg, uint64_t room)
{
	struct stat st;
	size_t cap = 0;
	ssize_t n;

	if (!fstat(l->fd, &st) && S_ISREG(st.st_mode)) {
		reg->size = regular_left(l->fd, &st);
	} else {
		do {
			if (l->memlen == cap) {
				cap = cap ? 2 * cap : CHUNK;
				l->mem = realloc(l->mem, cap);
				if (!l->mem) {
					pf_error("load: %s does not fit in memory", l->name);
					return EXIT_FAIL;
				}
			}
			n = read_full(l->fd, l->mem + l->memlen,
				      cap - l->memlen);
			if (n < 0) {
				pf_error("load: reading %s: %s", l->name, strerror(errno));
				return EXIT_FAIL;
			}
			l->memlen += (size_t)n;
		} while (n > 0);
		reg->size = l->memlen;
	}
	if (!reg->size) {
		pf_error("load: %s is empty; nothing to load", l->name);
		return EXIT_FAIL;
	}
	if (room && reg->size > room) {
		pf_error("load: %s is %llu bytes; only %llu fit from '%s' to the end of the %s",
			 l->name, (unsigned long long)reg->size, (unsigned long long)room,
			 reg->text, reg->is_bar ? "BAR" : "configuration space");
		return EXIT_USAGE;
	}
	if (reg->size - 1 > UINT64_MAX - reg->start) {
		pf_error("load: %s does not fit above 0x%llx",
			 l->name, (unsigned long long)reg->start);
		return EXIT_USAGE;
	}
	return 0;
}

static int report(struct load *l, int r)
{
	if (r)
		return r;
	if (l->done < l->x->size && l->got > l->done) {
		pf_error("load: short input: %s ended after %llu of %llu bytes; "
			 "only the first %llu were written, in whole %u-bit stores",
			 l->name, (unsigned long long)l->got, (unsigned long long)l->x->size,
			 (unsigned long long)l->done, 8 * l->o->width);
		return EXIT_FAIL;
	}
	if (l->done < l->x->size) {
		pf_error("load: short input: %s ended after %llu of %llu bytes; "
			 "only those were written",
			 l->name, (unsigned long long)l->done, (unsigned long long)l->x->size);
		return EXIT_FAIL;
	}
	pf_info("load: %llu bytes from %s", (unsigned long long)l->done, l->name);
	return 0;
}

static int prepare(struct load *l, char **argv, struct extent *x)
{
	int r = region_arg(l->o, argv[0], REGION_WRITES, x);

	if (!r)
		r = open_input(l, argv[1]);
	/* a BAR without +SIZE: the input may fill it up to its end */
	if (!r && !x->has_size)
		r = size_from_input(l, x, x->is_bar || x->is_config ? x->size : 0);
	if (!r && (x->plan.cache == PFNMAP_CACHE_UC || x->plan.cache == PFNMAP_CACHE_WC))
		r = width_aligned(l->o, x, "uncached stores");
	return r;
}

static int load_op(struct mapping *m, void *ctx)
{
	return load_input(ctx, m);
}

static int load(struct load *l)
{
	int r;

	l->bounce = malloc(CHUNK);
	if (!l->bounce) {
		pf_error("load: out of memory for a %u-byte buffer", CHUNK);
		return EXIT_FAIL;
	}
	r = run_job(l->o, &(struct job){ .x = l->x, .write = true,
		    .progress = true, .op = load_op, .ctx = l });
	return report(l, r);
}

static int cmd_load(struct options *o, char **argv)
{
	struct extent x;
	struct load l = { .src = { .take = take }, .o = o, .x = &x, .fd = -1 };
	int r = prepare(&l, argv, &x);

	if (!r && !announce(o, &x))
		r = load(&l);
	if (l.fd > STDIN_FILENO)
		close(l.fd);
	free(l.bounce);
	free(l.mem);
	return r;
}

const struct command load_command = {
	.name = "load",
	.args = "REGION [FILE]",
	.doc = "copy FILE (- or none: stdin) into REGION, no more than fits",
	.min_args = 1,
	.max_args = 2,
	.flags = 0,
	.run = cmd_load,
};
