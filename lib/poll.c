// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * poll's loop (poll.h): the deadline is looked at before each read, as
 * read_poll_timeout() does, so the read that gives up began after the
 * deadline and a value that arrives just in time still counts.
 */
#include <stdio.h>

#include "poll.h"
#include "region.h"
#include "util.h"

uint64_t poll_deadline(uint64_t start, uint64_t timeout)
{
	if (timeout == DURATION_FOREVER || timeout > UINT64_MAX - start)
		return UINT64_MAX;
	return start + timeout;
}

/* The loop's end: 0, or what the read returned */
static int poll_once(struct poll_loop *p, uint64_t deadline, bool *done)
{
	/* without a deadline, no clock in the loop at all */
	bool expired = deadline != UINT64_MAX && p->now(p->ctx) >= deadline;
	uint64_t until;
	int r;

	*done = true;
	r = p->read(p->ctx, &p->value);
	if (r) {
		p->end = POLL_FAILED;
		return r;
	}
	p->reads++;
	if (poll_matches(p, p->value)) {
		p->end = POLL_MATCHED;
		return 0;
	}
	/* after the read, not before: a stop always has a last value */
	if (*p->stop) {
		p->end = POLL_STOPPED;
		return 0;
	}
	if (expired) {
		p->end = POLL_TIMED_OUT;
		return 0;
	}
	*done = false;
	if (p->interval_ns) {
		/* the deadline is kept even when the interval is longer */
		until = poll_deadline(p->now(p->ctx), p->interval_ns);
		p->sleep_until(p->ctx, until < deadline ? until : deadline);
	}
	return 0;
}

int poll_run(struct poll_loop *p)
{
	uint64_t start = p->now(p->ctx);
	uint64_t deadline = poll_deadline(start, p->timeout_ns);
	bool done = false;
	int r = 0;

	p->reads = 0;
	while (!done)
		r = poll_once(p, deadline, &done);
	p->elapsed_ns = p->now(p->ctx) - start;
	return r;
}

void format_duration(char *buf, size_t len, uint64_t ns)
{
	static const struct {
		const char *name;
		uint64_t ns;
	} units[] = { { "s", NS_PER_S }, { "ms", 1000000 }, { "us", 1000 } };
	unsigned int i;

	if (ns == DURATION_FOREVER || !ns) {
		snprintf(buf, len, ns ? "forever" : "0s");
		return;
	}
	for (i = 0; i < ARRAY_SIZE(units); i++) {
		if (!(ns % units[i].ns)) {
			snprintf(buf, len, "%llu%s",
				 (unsigned long long)(ns / units[i].ns), units[i].name);
			return;
		}
	}
	snprintf(buf, len, "%lluns", (unsigned long long)ns);
}
