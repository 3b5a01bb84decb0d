// SPDX-License-Identifier: GPL-2.0-or-later
/* Checks of an extent that every backend shares */
#include "extent.h"

int check_width_aligned(struct pf_session *s, const char *cmd,
			const struct extent *x, unsigned int width,
			const char *why)
{
	if (!((x->start | x->size) & (width - 1)))
		return 0;
	report_error(s,
		     "%s: '%s' is not aligned to --width=%u: %s are %u bytes wide, so start and "
		     "size must be multiples of %u (or use --width=8)", cmd, x->text, 8 * width,
		     why, width, width);
	return EXIT_USAGE;
}
