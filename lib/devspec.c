// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Device specs: libpci's own slot and ID filter parsers (lspci's grammar,
 * exactly), with #N, and the rule that tells BUS:DEV from VENDOR:DEVICE.
 */
#include <ctype.h>
#include <stdio.h>
#include <string.h>

#include "devspec.h"

/* One colon, no dot, and a side longer than a bus or device number */
static bool looks_like_ids(const char *s)
{
	const char *colon = strchr(s, ':');

	if (!colon || strchr(colon + 1, ':') || strchr(s, '.'))
		return false;
	return colon - s > 2 || strlen(colon + 1) > 2;
}

/*
 * libpci (3.9) reads a domain into an unsigned int without minding the
 * shift that overflows it: 100000000:00:04.0 would be domain 0. A domain
 * has at most 8 hex digits after its leading zeros; libpci checks the
 * value of those.
 */
static bool domain_too_long(const char *slot)
{
	const char *colon = strchr(slot, ':'), *dot = strchr(slot, '.');
	const char *p = slot;

	if (!colon || !strchr(colon + 1, ':') || (dot && dot < colon))
		return false;
	while (*p == '0')
		p++;
	return colon - p > 8;
}

/* #N after the device: digits only */
static int parse_index(const char *p, int *index)
{
	long n = 0;

	if (!*p)
		return -1;
	for (; *p; p++) {
		if (!isdigit((unsigned char)*p) || n > 9999)
			return -1;
		n = n * 10 + (*p - '0');
	}
	*index = (int)n;
	return 0;
}

int devspec_parse(const char *text, size_t len, struct devspec *d, char *err,
		  size_t errlen)
{
	char buf[DEVSPEC_MAX], *hash;
	const char *msg;

	memset(d, 0, sizeof(*d));
	d->index = -1;
	if (len >= DEVSPEC_MAX) {
		snprintf(err, errlen, "device '%.*s...' is too long; a device is %s",
			 20, text, DEVSPEC_GRAMMAR);
		return -1;
	}
	memcpy(d->text, text, len);
	memcpy(buf, text, len);
	buf[len] = 0;
	if (!len || memchr(buf, 0, len)) {
		snprintf(err, errlen, "no device given; a device is %s", DEVSPEC_GRAMMAR);
		return -1;
	}
	hash = strchr(buf, '#');
	if (hash)
		*hash++ = 0;
	pci_filter_init(NULL, &d->filter);
	d->by_id = looks_like_ids(buf);
	if (hash && parse_index(hash, &d->index))
		msg = "#N wants a number (0 is the first match)";
	/* libpci's parsers write into the text they parse */
	else if (d->by_id)
		msg = pci_filter_parse_id(&d->filter, buf);
	else if (domain_too_long(buf))
		msg = "Invalid domain number";
	else
		msg = pci_filter_parse_slot(&d->filter, buf);
	if (!msg)
		return 0;
	snprintf(err, errlen, "device '%s': %s; a device is %s", d->text, msg,
		 DEVSPEC_GRAMMAR);
	return -1;
}
