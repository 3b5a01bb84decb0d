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
#include "msg.h"
#include "pci.h"
#include "progress.h"

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

int config_read_at(struct mapping *m, uint64_t off, void *dst, size_t len)
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
int config_read(struct mapping *m, struct sink *s)
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

int config_write(struct mapping *m, uint64_t off, const void *src,
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

int config_fill(struct mapping *m, uint64_t value)
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

int config_read_value(struct mapping *m, uint64_t *value)
{
	return get(m, m->x->start, value);
}

int config_write_value(struct mapping *m, uint64_t value)
{
	return put(m, m->x->start, value);
}

/*
 * setpci's names (setpci --dumpregs), with libpci's IDs (header.h:
 * PCI_CAP_ID_*, PCI_EXT_CAP_ID_*)
 */
static const struct {
	const char *name;
	unsigned int id;
} cap_names[] = {
	{ "CAP_PM", 0x01 }, { "CAP_AGP", 0x02 }, { "CAP_VPD", 0x03 },
	{ "CAP_SLOTID", 0x04 }, { "CAP_MSI", 0x05 }, { "CAP_CHSWP", 0x06 },
	{ "CAP_PCIX", 0x07 }, { "CAP_HT", 0x08 }, { "CAP_VNDR", 0x09 },
	{ "CAP_DBG", 0x0a }, { "CAP_CCRC", 0x0b }, { "CAP_HOTPLUG", 0x0c },
	{ "CAP_SSVID", 0x0d }, { "CAP_AGP3", 0x0e }, { "CAP_SECURE", 0x0f },
	{ "CAP_EXP", 0x10 }, { "CAP_MSIX", 0x11 }, { "CAP_SATA", 0x12 },
	{ "CAP_AF", 0x13 }, { "CAP_EA", 0x14 },
}, ecap_names[] = {
	{ "ECAP_AER", 0x01 }, { "ECAP_VC", 0x02 }, { "ECAP_DSN", 0x03 },
	{ "ECAP_PB", 0x04 }, { "ECAP_RCLINK", 0x05 },
	{ "ECAP_RCILINK", 0x06 }, { "ECAP_RCEC", 0x07 },
	{ "ECAP_MFVC", 0x08 }, { "ECAP_VC2", 0x09 }, { "ECAP_RBCB", 0x0a },
	{ "ECAP_VNDR", 0x0b }, { "ECAP_ACS", 0x0d }, { "ECAP_ARI", 0x0e },
	{ "ECAP_ATS", 0x0f }, { "ECAP_SRIOV", 0x10 },
	{ "ECAP_MRIOV", 0x11 }, { "ECAP_MCAST", 0x12 }, { "ECAP_PRI", 0x13 },
	{ "ECAP_REBAR", 0x15 }, { "ECAP_DPA", 0x16 }, { "ECAP_TPH", 0x17 },
	{ "ECAP_LTR", 0x18 }, { "ECAP_SECPCI", 0x19 }, { "ECAP_PMUX", 0x1a },
	{ "ECAP_PASID", 0x1b }, { "ECAP_LNR", 0x1c }, { "ECAP_DPC", 0x1d },
	{ "ECAP_L1PM", 0x1e }, { "ECAP_PTM", 0x1f },
	{ "ECAP_M_PCIE", 0x20 }, { "ECAP_FRS", 0x21 }, { "ECAP_RTR", 0x22 },
	{ "ECAP_DVSEC", 0x23 }, { "ECAP_VF_REBAR", 0x24 },
	{ "ECAP_DLNK", 0x25 }, { "ECAP_16GT", 0x26 }, { "ECAP_LMR", 0x27 },
	{ "ECAP_HIER_ID", 0x28 }, { "ECAP_NPEM", 0x29 },
	{ "ECAP_32GT", 0x2a }, { "ECAP_IDE", 0x30 }, { "ECAP_64GT", 0x31 },
};

#define ARRAY_LEN(a)	(sizeof(a) / sizeof((a)[0]))

bool config_cap_lookup(const char *name, size_t len, bool *extended,
		       unsigned int *id)
{
	size_t i;

	for (i = 0; i < ARRAY_LEN(cap_names); i++) {
		if (strlen(cap_names[i].name) == len &&
		    !strncasecmp(cap_names[i].name, name, len)) {
			*extended = false;
			*id = cap_names[i].id;
			return true;
		}
	}
	for (i = 0; i < ARRAY_LEN(ecap_names); i++) {
		if (strlen(ecap_names[i].name) == len &&
		    !strncasecmp(ecap_names[i].name, name, len)) {
			*extended = true;
			*id = ecap_names[i].id;
			return true;
		}
	}
	return false;
}
