// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * poll ADDR MASK VALUE: read one value of --width until (value & MASK) ==
 * VALUE (--not: until it differs), as the kernel's read_poll_timeout()
 * does: the deadline is looked at before each read, so the read that gives
 * up began after the deadline and a value that arrives just in time still
 * counts. One mapping for the whole loop; with --interval=0 the loop makes
 * no system call (CLOCK_MONOTONIC is read through the vDSO).
 */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "commands.h"
#include "json.h"
#include "msg.h"
#include "poll.h"
#include "region.h"
#include "results.h"

/* poll's own options */
struct poll_options {
	uint64_t timeout_ns;		/* --timeout; DURATION_FOREVER */
	uint64_t interval_ns;		/* --interval; 0: a tight loop */
	bool not;			/* --not: until the value differs */
};

enum { OPT_TIMEOUT = 0x410, OPT_INTERVAL, OPT_NOT };

static const struct argp_option poll_argp_options[] = {
	{ "timeout", OPT_TIMEOUT, "DURATION", 0,
	  "poll: give up after DURATION (default 1s; forever: never)", 6 },
	{ "interval", OPT_INTERVAL, "DURATION", 0,
	  "poll: sleep DURATION between reads (default 0: a tight loop)", 6 },
	{ "not", OPT_NOT, NULL, 0,
	  "poll: until (value & MASK) differs from VALUE", 6 },
	{ NULL, 0, NULL, 0, NULL, 0 },
};

static error_t poll_parse(int key, char *arg, struct argp_state *state)
{
	struct poll_options *po;
	char msg[REGION_ERR_MAX];
	bool timeout = key == OPT_TIMEOUT;

	if (key != OPT_TIMEOUT && key != OPT_INTERVAL && key != OPT_NOT)
		return ARGP_ERR_UNKNOWN;
	po = option_given(state);
	if (key == OPT_NOT)
		po->not = true;
	else if (parse_duration(arg, timeout, timeout ? &po->timeout_ns : &po->interval_ns,
				msg, sizeof(msg)))
		argp_failure(state, EXIT_USAGE, 0, "--%s: %s", timeout ? "timeout" : "interval",
			     msg);
	return 0;
}

static void poll_defaults(void *values)
{
	struct poll_options *po = values;

	po->timeout_ns = NS_PER_S;
}

static const struct argp poll_argp = { .options = poll_argp_options,
				       .parser = poll_parse };

const struct option_set poll_option_set = {
	.id = OPTS_POLL,
	.argp = &poll_argp,
	.names = "--timeout, --interval and --not",
	.init = poll_defaults,
};

_Static_assert(sizeof(struct poll_options) <= OPTION_SET_SIZE,
	       "poll's options fit their slot");

/* The real world of poll_loop: a mapping, the monotonic clock, signals */
static volatile sig_atomic_t poll_stop;

static void on_stop(int sig)
{
	poll_stop = sig;
}

static int read_mapping(void *ctx, uint64_t *value)
{
	return map_read_value(ctx, value);
}

static uint64_t monotonic_ns(void *ctx)
{
	struct timespec ts;

	(void)ctx;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * NS_PER_S + (uint64_t)ts.tv_nsec;
}

/* A signal cuts the sleep short; poll_once then sees poll_stop */
static void sleep_monotonic(void *ctx, uint64_t t)
{
	struct timespec ts = { .tv_sec = (time_t)(t / NS_PER_S),
			       .tv_nsec = (long)(t % NS_PER_S) };

	(void)ctx;
	while (clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &ts, NULL) == EINTR &&
	       !poll_stop)
		;
}

/* SIGINT and SIGTERM set poll_stop while poll runs; no SA_RESTART */
static void catch_stop(bool on, struct sigaction old[2])
{
	static const int sigs[2] = { SIGINT, SIGTERM };
	struct sigaction sa;
	int i;

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_stop;
	sigemptyset(&sa.sa_mask);
	for (i = 0; i < 2; i++) {
		if (on)
			sigaction(sigs[i], &sa, &old[i]);
		else
			sigaction(sigs[i], &old[i], NULL);
	}
}

static int poll_op(struct mapping *m, void *ctx)
{
	struct poll_loop *p = ctx;

	p->read = read_mapping;
	p->now = monotonic_ns;
	p->sleep_until = sleep_monotonic;
	p->stop = &poll_stop;
	p->ctx = m;
	return poll_run(p);
}

static int poll_mapping(const struct options *o, const struct extent *x,
			struct poll_loop *p)
{
	struct sigaction old[2];
	int r;

	/* before the mapping's -v line, which scripts take as "it runs" */
	catch_stop(true, old);
	r = run_job(o, &(struct job){ .x = x, .op = poll_op, .ctx = p });
	catch_stop(false, old);
	return r;
}

/* --json: read's fields, the condition, how it ended, reads and time */
static int poll_json(const struct options *o, const struct extent *x,
		     const struct poll_loop *p)
{
	static const char *const ends[] = {
		[POLL_MATCHED] = "match", [POLL_TIMED_OUT] = "timeout",
		[POLL_STOPPED] = "stopped", [POLL_FAILED] = "failed",
	};
	struct json_object *j = jout_value(x, o->width, p->value);

	jout_hex(j, "mask", p->mask, 2 * o->width);
	jout_hex(j, "expected", p->want, 2 * o->width);
	jout_bool(j, "not", p->not);
	jout_str(j, "result", ends[p->end]);
	jout_int(j, "reads", (int64_t)p->reads);
	jout_int(j, "elapsed_us", (int64_t)(p->elapsed_ns / 1000));
	return jout_print(j);
}

/* The last value on stdout, -v's account, and the exit status */
static int poll_report(const struct options *o, const struct extent *x,
		       const struct poll_loop *p)
{
	unsigned int w = o->width;
	const char *op = p->not ? "==" : "!=";
	char limit[32];

	if (!json_wanted(o))
		printf("0x%0*llx\n", HEX(w, p->value));
	else if (poll_json(o, x, p))
		return EXIT_FAIL;
	pf_info("poll: %s: %llu reads in %llu.%06llus",
		x->text, (unsigned long long)p->reads,
		(unsigned long long)(p->elapsed_ns / NS_PER_S),
		(unsigned long long)(p->elapsed_ns % NS_PER_S / 1000));
	if (p->end == POLL_MATCHED)
		return 0;
	if (p->end == POLL_TIMED_OUT) {
		format_duration(limit, sizeof(limit), p->timeout_ns);
		pf_error("poll: %s: timed out after %s: 0x%0*llx & 0x%0*llx %s 0x%0*llx",
			 x->text, limit, HEX(w, p->value), HEX(w, p->mask), op, HEX(w, p->want));
		return EXIT_MISMATCH;
	}
	pf_error("poll: %s: stopped by %s after %llu reads: 0x%0*llx & 0x%0*llx %s 0x%0*llx",
		 x->text, poll_stop == SIGINT ? "SIGINT" : "SIGTERM", (unsigned long long)p->reads,
		 HEX(w, p->value), HEX(w, p->mask), op, HEX(w, p->want));
	/* as a shell reports a command a signal ended: 130, 143 */
	return 128 + poll_stop;
}

/* MASK, then VALUE, both of --width; VALUE only within MASK */
static int poll_args(const struct options *o, char **argv,
		     struct poll_loop *p)
{
	char msg[REGION_ERR_MAX];
	unsigned int w = o->width;

	if (parse_value(argv[1], w, &p->mask, msg, sizeof(msg))) {
		pf_error("poll: MASK: %s", msg);
		return EXIT_USAGE;
	}
	if (value_arg("poll", argv[2], w, &p->want))
		return EXIT_USAGE;
	if (p->want & ~p->mask) {
		pf_error("poll: VALUE 0x%0*llx has bits outside MASK 0x%0*llx (0x%0*llx): "
			 "the masked value can never equal it; VALUE must lie within MASK",
			 HEX(w, p->want), HEX(w, p->mask), HEX(w, p->want & ~p->mask));
		return EXIT_USAGE;
	}
	return 0;
}

static int cmd_poll(struct options *o, char **argv)
{
	const struct poll_options *po = OPTION_VALUES(o, OPTS_POLL,
						      struct poll_options);
	struct poll_loop p = { .not = po->not,
			       .timeout_ns = po->timeout_ns,
			       .interval_ns = po->interval_ns };
	struct extent x;
	int r = addr_arg(o, argv[0], 0, &x);

	if (!r)
		r = poll_args(o, argv, &p);
	if (r || announce(o, &x))
		return r;
	r = poll_mapping(o, &x, &p);
	return r ? r : poll_report(o, &x, &p);
}

const struct command poll_command = {
	.name = "poll",
	.args = "ADDR MASK VALUE",
	.doc = "read until (value & MASK) == VALUE (--not: !=), print the last value; "
	       "exit 5 after --timeout",
	.min_args = 3,
	.max_args = 3,
	.flags = CMD_TAKES(OPTS_POLL) | CMD_TAKES(OPTS_JSON),
	.run = cmd_poll,
};
