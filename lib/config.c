// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Configuration space through libpci (config.h). Values are little-endian
 * in configuration space, as PCI defines it; a read goes through
 * pci_read_block() of exactly the width, since pci_read_byte/word/long()
 * turn a failed read into all ones, which is also what a device can
 * answer. On Linux's sysfs method the kernel makes an aligned access of
 * 1, 2 or 4 bytes one config cycle of that width.
 */
#include <stdio.h>
#include <string.h>
#include <strings.h>
#include <pci/pci.h>

#include "config.h"
#include "count.h"
#include "pci.h"

/* An access libpci said failed: where, for mapping_end(); EXIT_FAULT */
static int config_failed(struct mapping *m, uint64_t off, bool store)
{
	const char *why = pci_last_warning();

	m->faulted = true;
	m->fault_inside = true;
	m->fault_phys = off;
	m->fault_store = store;
	snprintf(m->fault_why, sizeof(m->fault_why), "%s", why ? why : "");
	return EXIT_FAULT;
}

/* One value of the mapping's width at offset off of config space */
static int get(struct mapping *m, uint64_t off, uint64_t *v)
{
	unsigned char b[4];
	unsigned int i;

	pci_last_warning();
	if (!pci_read_block(m->x->config_dev, (int)off, b, (int)m->width))
		return config_failed(m, off, false);
	*v = 0;
	for (i = m->width; i-- > 0;)
		*v = *v << 8 | b[i];
	return 0;
}

static int put(struct mapping *m, uint64_t off, uint64_t v)
{
	unsigned char b[4];
	unsigned int i;

	for (i = 0; i < m->width; i++)
		b[i] = (unsigned char)(v >> (8 * i));
	pci_last_warning();
	if (!pci_write_block(m->x->config_dev, (int)off, b, (int)m->width))
		return config_failed(m, off, true);
	return 0;
}

static int config_read_at(struct mapping *m, uint64_t off, void *dst,
			  size_t len)
{
	unsigned char *p = dst;
	uint64_t v;
	size_t i, j;
	int r;

	for (i = 0; i + m->width <= len; i += m->width) {
		r = get(m, m->x->start + off + i, &v);
		if (r)
			return r;
		for (j = 0; j < m->width; j++)
			p[i + j] = (unsigned char)(v >> (8 * j));
	}
	return 0;
}

/* A piece at a time through the bounce buffer, as window.c reads MMIO */
static int config_read(struct mapping *m, struct sink *s)
{
	uint64_t off;
	size_t n;
	int r;

	for (off = 0; off < m->x->size; off += n) {
		n = m->x->size - off < PIECE ? (size_t)(m->x->size - off) : PIECE;
		r = config_read_at(m, off, m->bounce, n);
		if (!r)
			r = s->put(s, m->bounce, n);
		if (r)
			return r;
		progress_advance(n);
	}
	return 0;
}

static int config_write(struct mapping *m, uint64_t off, const void *src,
			size_t len, size_t *done)
{
	const unsigned char *p = src;
	uint64_t v;
	unsigned int j;
	int r;

	/* whole units only, as for an uncached mapping */
	for (*done = 0; len - *done >= m->width; *done += m->width) {
		for (v = 0, j = m->width; j-- > 0;)
			v = v << 8 | p[*done + j];
		r = put(m, m->x->start + off + *done, v);
		if (r)
			return r;
	}
	return 0;
}

static int config_fill(struct mapping *m, uint64_t value)
{
	uint64_t off;
	int r;

	for (off = 0; off < m->x->size; off += m->width) {
		r = put(m, m->x->start + off, value);
		if (r)
			return r;
		progress_advance(m->width);
	}
	return 0;
}

static int config_read_value(struct mapping *m, uint64_t *value)
{
	return get(m, m->x->start, value);
}

static int config_write_value(struct mapping *m, uint64_t value)
{
	return put(m, m->x->start, value);
}

/*
 * What window.c's end says of a bus error, for configuration space: the
 * offset and libpci's words. Nothing is mapped, nothing to release.
 */
static void config_end(struct mapping *m, int r)
{
	if (r != EXIT_FAULT || !m->faulted)
		return;
	report_error(m->s, "%s: %s: libpci could not %s configuration space at offset 0x%llx%s%s",
		     m->cmd, m->x->bar.slot, m->fault_store ? "write" : "read",
		     (unsigned long long)m->fault_phys, m->fault_why[0] ? ": " : "",
		     m->fault_why);
}

/* memtest maps a region whole; commands refuse config space before that */
static int config_whole(struct mapping *m,
			int (*fn)(void *ctx, volatile void *p), void *ctx,
			int *ret)
{
	(void)fn;
	(void)ctx;
	(void)ret;
	report_error(m->s, "%s: configuration space cannot be mapped", m->cmd);
	return EXIT_USAGE;
}

const struct backend config_backend = {
	.read = config_read,
	.read_at = config_read_at,
	.write = config_write,
	.fill = config_fill,
	.whole = config_whole,
	.read_value = config_read_value,
	.write_value = config_write_value,
	.end = config_end,
};
