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
#include "json.h"
#include "msg.h"
#include "region.h"
#include "results.h"

/* batch's own option */
enum { OPT_KEEP_GOING = 0x450 };

static const struct argp_option batch_argp_options[] = {
	{ "keep-going", OPT_KEEP_GOING, NULL, 0,
	  "batch: run on after a failing line; exit with the first failure's status", 6 },
	{ NULL, 0, NULL, 0, NULL, 0 },
};

static error_t batch_parse(int key, char *arg, struct argp_state *state)
{
	(void)arg;
	return option_flag(key, OPT_KEEP_GOING, state);
}

static const struct argp batch_argp = { .options = batch_argp_options,
					.parser = batch_parse };

const struct option_set batch_option_set = {
	.id = OPTS_BATCH,
	.argp = &batch_argp,
	.names = "--keep-going",
	.init = option_flag_off,
};

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

/*
 * getopt says what is wrong with an option on stderr itself, not through
 * argp's streams: while a line is parsed, stderr is a memory stream (one
 * for the whole check), and its first line is said again with FILE:N:
 */
struct capture {
	FILE *err;
	char *buf;
	size_t len;
};

static int capture_open(struct capture *c)
{
	c->err = open_memstream(&c->buf, &c->len);
	if (c->err)
		return 0;
	pf_error("cannot check the batch: %s", strerror(errno));
	return EXIT_FAIL;
}

static void capture_close(struct capture *c)
{
	if (c->err)
		fclose(c->err);
	free(c->buf);
}

/* The first line of what was captured, "pfnmap: " dropped, said again */
static void first_line(char *buf)
{
	char *nl, *s = *buf ? buf : (char *)"the line's checks failed";

	if (!strncmp(s, "pfnmap: ", 8))
		s += 8;
	nl = strchr(s, '\n');
	if (nl)
		*nl = 0;
	pf_error("%s", s);
}

/* argp's errors (argp_failure, getopt) all go to stderr */
static int parse_words(struct bline *l, struct capture *c)
{
	FILE *saved = stderr;
	const char *prefix = msg_prefix;	/* first_line puts it back */
	unsigned int line = msg_line;
	int r;

	rewind(c->err);
	stderr = c->err;
	no_prefix();
	r = parse_command_line(l->argc, l->argv, ARGP_NO_EXIT | ARGP_NO_HELP,
			       &l->p);
	msg_prefix = prefix;
	msg_line = line;
	stderr = saved;
	fputc(0, c->err);
	fflush(c->err);
	/* argp_failure does not stop the parse: what it said counts */
	if (r || *c->buf) {
		first_line(c->buf);
		return EXIT_USAGE;
	}
	return 0;
}

/*
 * The command's own checks: a command run with checking parses and
 * resolves its arguments and returns before it opens, maps or prints
 * anything. Its first error is the line's.
 */
static int check_args(const struct bline *l)
{
	struct options o = l->p.o;
	int r;

	o.dry_run = true;
	o.checking = true;
	o.verbose = 0;
	msg_check_begin();
	r = l->p.cmd->run(&o, l->p.args);
	if (!msg_check_end() && r)
		pf_error("the line's checks failed");
	return r;
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
	if (!strcmp(l->argv[1], "delay"))
		return parse_delay(l);
	l->p.o = *defaults;
	if (parse_words(l, c))
		return EXIT_USAGE;
	if (l->p.cmd == &batch_command) {
		pf_error("batch: a batch cannot run another batch");
		return EXIT_USAGE;
	}
	/* libpci starts once, for the first line that names a device */
	if (l->p.o.pci_method != defaults->pci_method ||
	    l->p.o.n_pci_params != defaults->n_pci_params) {
		pf_error("-A and -O are for the whole batch: give them to batch itself, not to "
			 "one line");
		return EXIT_USAGE;
	}
	/* the check pass would read it once already, and stdin may be ours */
	if (l->p.cmd == &load_command &&
	    (l->p.nargs < 2 || !strcmp(l->p.args[1], "-"))) {
		pf_error("load: in a batch, name the FILE to load; the lines of a batch do not "
			 "read standard input");
		return EXIT_USAGE;
	}
	/* --json from batch: for the lines whose commands take it */
	if (!(l->p.cmd->flags & CMD_TAKES(OPTS_JSON)) &&
	    !l->p.o.sets[OPTS_JSON].given)
		json_unwanted(&l->p.o);
	return check_args(l);
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
	for (i = 0; i < OPTION_SETS; i++)
		defaults.sets[i].given = false;
	option_flag_off(defaults.sets[OPTS_BATCH].values.bytes);
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
		if (r && !*OPTION_VALUES(o, OPTS_BATCH, bool))
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

static int cmd_batch(struct options *o, char **argv)
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

const struct command batch_command = {
	.name = "batch",
	.args = "[FILE]",
	.doc = "one command line a line of FILE (- or none: stdin), all checked before "
	       "the first runs",
	.min_args = 0,
	.max_args = 1,
	.flags = CMD_TAKES_ALL,
	.run = cmd_batch,
};
