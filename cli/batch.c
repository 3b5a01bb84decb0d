// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * batch [FILE]: one pfnmap command line a line, run in one process. The
 * whole file is read, parsed by main.c's argp parser and checked by each
 * command under --dry-run (its output swallowed) before the first line
 * runs; a bad line runs nothing. Targets and the last window of each stay
 * open for the run (the session keeps them), so a register read costs no
 * system call.
 */
#include <argp.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "commands.h"
#include "msg.h"
#include "region.h"

#define MAX_WORDS	64

struct bline {
	unsigned int no;		/* line number, from 1 */
	char *buf;			/* the words, split in place */
	char *argv[MAX_WORDS + 2];	/* "pfnmap", the words, NULL */
	int argc;
	bool delay;
	uint64_t delay_ns;
	struct parsed p;
};

struct batch {
	const char *name;		/* for messages: FILE or "stdin" */
	struct bline *lines;
	size_t n, cap;
};

/* Messages start FILE:N: (formatted only when one is printed) */
static void set_prefix(struct batch *b, const struct bline *l)
{
	msg_prefix = b->name;
	msg_line = l->no;
}

static void no_prefix(void)
{
	msg_prefix = "";
	msg_line = 0;
}

/*
 * Words split on blanks; a word that starts with # starts a comment (a #
 * inside a word is DEVICE#N). No quoting: no argument holds a blank.
 */
static int split(struct bline *l)
{
	char *s = l->buf, *w;

	l->argv[0] = (char *)"pfnmap";
	l->argc = 1;
	while ((w = strtok_r(s, " \t\r\n\v\f", &s)) && *w != '#') {
		if (l->argc == MAX_WORDS + 1) {
			pf_error("more than %d words on one line", MAX_WORDS);
			return EXIT_USAGE;
		}
		l->argv[l->argc++] = w;
	}
	l->argv[l->argc] = NULL;
	return 0;
}

/* The first line of what went to a captured stream, "pfnmap: " dropped */
static void first_line(char *buf, const char *fallback)
{
	char *nl, *s = buf && *buf ? buf : (char *)fallback;

	if (!strncmp(s, "pfnmap: ", 8))
		s += 8;
	nl = strchr(s, '\n');
	if (nl)
		*nl = 0;
	pf_error("%s", s);
}

/* Memory streams for stderr and stdout while the lines are checked */
struct capture {
	FILE *err, *out;
	char *ebuf, *obuf;
	size_t elen, olen;
};

static int capture_open(struct capture *c)
{
	c->err = open_memstream(&c->ebuf, &c->elen);
	c->out = open_memstream(&c->obuf, &c->olen);
	if (c->err && c->out)
		return 0;
	pf_error("cannot check the batch: %s", strerror(errno));
	return EXIT_FAIL;
}

static void capture_close(struct capture *c)
{
	if (c->err)
		fclose(c->err);
	if (c->out)
		fclose(c->out);
	free(c->ebuf);
	free(c->obuf);
}

/*
 * fn(arg) with stderr and stdout swapped for c's streams, emptied first
 * (one pair for the whole check: opening two a line cost more than the
 * checks). What it said on stderr is c->ebuf, NUL-terminated, until the
 * next call. glibc's stdio streams are variables.
 */
static int captured(struct capture *c, int (*fn)(void *), void *arg)
{
	FILE *saved_err = stderr, *saved_out = stdout;
	const char *prefix = msg_prefix;	/* first_line puts it back */
	unsigned int line = msg_line;
	int r;

	rewind(c->err);
	rewind(c->out);
	stderr = c->err;
	stdout = c->out;
	no_prefix();
	r = fn(arg);
	msg_prefix = prefix;
	msg_line = line;
	stderr = saved_err;
	stdout = saved_out;
	fputc(0, c->err);
	fflush(c->err);
	return r;
}

static int parse_words(void *arg)
{
	struct bline *l = arg;

	/* argp's errors (argp_failure, getopt) all go to stderr */
	if (parse_command_line(l->argc, l->argv, ARGP_NO_EXIT | ARGP_NO_HELP,
			       &l->p))
		return EXIT_USAGE;
	return 0;
}

/* The command's own checks: the line under --dry-run, maps nothing */
static int check_args(void *arg)
{
	struct bline *l = arg;
	struct options o = l->p.o;

	o.dry_run = true;
	o.checking = true;
	o.verbose = 0;
	return l->p.cmd->run(&o, l->p.args);
}

static int parse_delay(struct bline *l)
{
	char msg[REGION_ERR_MAX];

	if (l->argc != 3) {
		pf_error("delay: %s; usage: delay DURATION",
			 l->argc < 3 ? "missing the duration" : "too many arguments");
		return EXIT_USAGE;
	}
	if (parse_duration(l->argv[2], false, &l->delay_ns, msg, sizeof(msg))) {
		pf_error("delay: %s", msg);
		return EXIT_USAGE;
	}
	l->delay = true;
	return 0;
}

/* A line, from the batch's own options: what a run would do, checked */
static int check_line(struct bline *l, const struct options *defaults,
		      struct capture *c)
{
	int r;

	if (!strcmp(l->argv[1], "delay"))
		return parse_delay(l);
	l->p.o = *defaults;
	r = captured(c, parse_words, l);
	if (!r && *c->ebuf)
		r = EXIT_USAGE;		/* argp_failure does not stop it */
	if (!r && !strcmp(l->p.cmd->name, "batch")) {
		pf_error("batch: a batch cannot run another batch");
		return EXIT_USAGE;
	}
	/* libpci starts once, for the first line that names a device */
	if (!r && (l->p.o.pci_method != defaults->pci_method ||
		   l->p.o.n_pci_params != defaults->n_pci_params)) {
		pf_error("-A and -O are for the whole batch: give them to batch itself, not to "
			 "one line");
		return EXIT_USAGE;
	}
	/* the check pass would read it once already, and stdin may be ours */
	if (!r && !strcmp(l->p.cmd->name, "load") &&
	    (l->p.nargs < 2 || !strcmp(l->p.args[1], "-"))) {
		pf_error("load: in a batch, name the FILE to load; the lines of a batch do not "
			 "read standard input");
		return EXIT_USAGE;
	}
	if (!r) {
		/* --json from batch: for the lines whose commands take it */
		if (!(l->p.cmd->flags & CMD_JSON) &&
		    !(l->p.o.given & OPT_GIVEN_JSON))
			l->p.o.json = false;
		r = captured(c, check_args, l);
	}
	if (r)
		first_line(c->ebuf, "the line's checks failed");
	return r;
}

static int add_line(struct batch *b, char *text, unsigned int no)
{
	struct bline *l;

	if (b->n == b->cap) {
		b->cap = b->cap ? 2 * b->cap : 256;
		l = realloc(b->lines, b->cap * sizeof(*l));
		if (!l) {
			pf_error("batch: %s", strerror(errno));
			return EXIT_FAIL;
		}
		b->lines = l;
	}
	l = &b->lines[b->n];
	memset(l, 0, sizeof(*l) - sizeof(l->p));
	l->no = no;
	l->buf = text;
	if (split(l))
		return EXIT_USAGE;
	if (l->argc > 1)
		b->n++;
	else
		free(text);	/* blank or a comment */
	return 0;
}

/* Reads the whole file into lines; blank lines and comments dropped */
static int read_lines(struct batch *b, FILE *f)
{
	char *text = NULL;
	size_t len = 0;
	unsigned int no = 0;
	int r;

	while (getline(&text, &len, f) >= 0) {
		no++;
		set_prefix(b, &(struct bline){ .no = no });
		r = add_line(b, text, no);
		no_prefix();
		if (r)
			return r;
		text = NULL;
		len = 0;
	}
	free(text);
	if (ferror(f)) {
		pf_error("batch: reading %s: %s", b->name, strerror(errno));
		return EXIT_FAIL;
	}
	return 0;
}

static int check_lines(struct batch *b, const struct options *o)
{
	struct options defaults = *o;
	struct capture c = { 0 };
	size_t i;
	int r = capture_open(&c);

	/* what batch itself was given is the start of every line */
	defaults.given = 0;
	defaults.keep_going = false;
	for (i = 0; !r && i < b->n; i++) {
		set_prefix(b, &b->lines[i]);
		r = check_line(&b->lines[i], &defaults, &c);
		no_prefix();
	}
	capture_close(&c);
	return r;
}

static void delay(uint64_t ns)
{
	struct timespec ts = { (time_t)(ns / 1000000000), (long)(ns % 1000000000) };

	fflush(stdout);
	while (clock_nanosleep(CLOCK_MONOTONIC, 0, &ts, &ts) == EINTR)
		;
}

static int run_line(struct bline *l, const struct options *o)
{
	int r;

	if (l->delay) {
		if (o->dry_run)
			pf_error("dry run: delay %s", l->argv[2]);
		else
			delay(l->delay_ns);
		return 0;
	}
	msg_quiet = l->p.o.quiet;
	msg_verbose = l->p.o.verbose;
	r = l->p.cmd->run(&l->p.o, l->p.args);
	if (r)
		fflush(stdout);
	return r;
}

static int run_lines(struct batch *b, const struct options *o)
{
	int first = 0, r;
	size_t i;

	for (i = 0; i < b->n; i++) {
		set_prefix(b, &b->lines[i]);
		r = run_line(&b->lines[i], o);
		no_prefix();
		if (r && !first)
			first = r;
		if (r && !o->keep_going)
			break;
	}
	msg_quiet = o->quiet;
	msg_verbose = o->verbose;
	return first;
}

static void free_lines(struct batch *b)
{
	size_t i;

	for (i = 0; i < b->n; i++)
		free(b->lines[i].buf);
	free(b->lines);
}

int cmd_batch(struct options *o, char **argv)
{
	static char outbuf[64 * 1024];
	struct batch b = { .name = "stdin" };
	FILE *f = stdin;
	int r;

	if (argv[0] && strcmp(argv[0], "-")) {
		b.name = argv[0];
		f = fopen(argv[0], "r");
		if (!f) {
			pf_error("batch: cannot open %s: %s", argv[0], strerror(errno));
			return EXIT_FAIL;
		}
	}
	r = read_lines(&b, f);
	if (f != stdin)
		fclose(f);
	if (!r)
		r = check_lines(&b, o);
	if (!r) {
		/* a line's value goes out with the others, not a write each */
		if (!isatty(STDOUT_FILENO))
			setvbuf(stdout, outbuf, _IOFBF, sizeof(outbuf));
		session_for(o)->keep = true;
		r = run_lines(&b, o);
		fflush(stdout);
		session_release(session_for(o));
		session_for(o)->keep = false;
	}
	free_lines(&b);
	return r;
}
