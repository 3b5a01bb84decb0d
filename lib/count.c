// SPDX-License-Identifier: GPL-2.0-or-later
/* The byte count of the running job (count.h) */
#include "count.h"

static void nobody_watches(void)
{
	progress_count.check_at = UINT64_MAX;
}

struct progress_count progress_count = { 0, UINT64_MAX };
void (*progress_due)(void) = nobody_watches;
