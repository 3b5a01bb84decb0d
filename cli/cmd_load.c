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

#include "access.h"
#include "commands.h"
#include "out.h"

#define CHUNK		(1024 * 1024)
#define LOAD_EOF	1

struct load {
	struct options *o;
	const struct region *r;
	const char *name;
	int fd;
	unsigned char *mem;	/* a pipe read whole, for a plain START */
	size_t memlen;
	uint64_t got;		/* bytes read */
	uint64_t done;		/* bytes written */
	unsigned char *bounce;
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
		err("load: reading %s: %s", l->name, strerror(errno));
	*p = l->bounce;
	return n;
}

static int load_window(struct window *w, void *ctx)
{
	struct load *l = ctx;
	size_t off, n, width = l->o->width;
	const unsigned char *src;
	ssize_t got;

	if (w->exact && check_width_aligned("load", l->r, width,
					    "uncached stores"))
		return EXIT_USAGE;
	for (off = 0; off < w->len; off += n) {
		n = w->len - off < CHUNK ? w->len - off : CHUNK;
		got = next_chunk(l, n, &src);
		if (got < 0)
			return EXIT_FAIL;
		l->got += (uint64_t)got;
		if (w->exact)
			got -= got % width;	/* only whole units */
		if (w->exact)
			io_copy_to(w->p + off, src, (size_t)got, width);
		else
			memcpy(w->p + off, src, (size_t)got);
		l->done += (uint64_t)got;
		if ((size_t)got < n)
			return LOAD_EOF;
	}
	return 0;
}

static int open_input(struct load *l, const char *path)
{
	if (!path || !strcmp(path, "-")) {
		l->fd = STDIN_FILENO;
		l->name = "standard input";
		return 0;
	}
	l->name = path;
	l->fd = open(path, O_RDONLY | O_CLOEXEC);
	if (l->fd >= 0)
		return 0;
	err("load: cannot open %s: %s", path, strerror(errno));
	return EXIT_FAIL;
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
static int size_from_input(struct load *l, struct region *reg, uint64_t room)
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
					err("load: %s does not fit in memory",
					    l->name);
					return EXIT_FAIL;
				}
			}
			n = read_full(l->fd, l->mem + l->memlen,
				      cap - l->memlen);
			if (n < 0) {
				err("load: reading %s: %s", l->name,
				    strerror(errno));
				return EXIT_FAIL;
			}
			l->memlen += (size_t)n;
		} while (n > 0);
		reg->size = l->memlen;
	}
	if (!reg->size) {
		err("load: %s is empty; nothing to load", l->name);
		return EXIT_FAIL;
	}
	if (room && reg->size > room) {
		err("load: %s is %llu bytes; only %llu fit from '%s' to the end "
		    "of the BAR", l->name, (unsigned long long)reg->size,
		    (unsigned long long)room, reg->text);
		return EXIT_USAGE;
	}
	if (reg->size - 1 > UINT64_MAX - reg->start) {
		err("load: %s does not fit above 0x%llx", l->name,
		    (unsigned long long)reg->start);
		return EXIT_USAGE;
	}
	return 0;
}

static int report(struct load *l, int r)
{
	if (r && r != LOAD_EOF)
		return r;
	if (l->done < l->r->size && l->got > l->done) {
		err("load: short input: %s ended after %llu of %llu bytes; "
		    "only the first %llu were written, in whole %u-bit stores",
		    l->name, (unsigned long long)l->got,
		    (unsigned long long)l->r->size,
		    (unsigned long long)l->done, 8 * l->o->width);
		return EXIT_FAIL;
	}
	if (l->done < l->r->size) {
		err("load: short input: %s ended after %llu of %llu bytes; "
		    "only those were written", l->name,
		    (unsigned long long)l->done,
		    (unsigned long long)l->r->size);
		return EXIT_FAIL;
	}
	note(l->o, "load: %llu bytes from %s", (unsigned long long)l->done,
	     l->name);
	return 0;
}

static int prepare(struct load *l, char **argv, struct region *reg)
{
	int r = region_arg(l->o, "load", argv[0], REGION_WRITES, reg);
	/* a BAR without +SIZE: the input may fill it up to its end */
	uint64_t room = reg->bar ? reg->size : 0;

	if (!r)
		r = open_input(l, argv[1]);
	if (!r && !reg->has_size)
		r = size_from_input(l, reg, room);
	if (!r && (l->o->cache == CACHE_UC || l->o->cache == CACHE_WC))
		r = check_width_aligned("load", reg, l->o->width,
					"uncached stores");
	return r;
}

int cmd_load(struct options *o, char **argv)
{
	struct region reg;
	struct load l = { .o = o, .r = &reg, .fd = -1 };
	struct target t = { .fd = -1 };
	int r = prepare(&l, argv, &reg);

	if (!r && !announce(o, "load", &reg)) {
		l.bounce = malloc(CHUNK);
		r = l.bounce ? target_open(&t, o, true) : EXIT_FAIL;
		if (!r)
			r = report(&l, for_each_window(&t, reg.start, reg.size,
							load_window, &l));
	}
	target_close(&t);
	if (l.fd > STDIN_FILENO)
		close(l.fd);
	free(l.bounce);
	free(l.mem);
	return r;
}
