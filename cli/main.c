// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * pfnmap: map physical memory by page frame number through the pfnmap
 * helper module (or any file whose offsets are physical addresses) and dump,
 * fill, load, hexdump, read or write it.
 */
#include <argp.h>
#include <errno.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "commands.h"
#include "msg.h"
#include "region.h"
#include "util.h"

const char *argp_program_version = "pfnmap " PFNMAP_VERSION;
/* no address of our own: argp prints none; the epilogue names the docs */

static const struct command *const commands[] = {
	&dump_command,
	&hexdump_command,
	&fill_command,
	&load_command,
	&read_command,
	&write_command,
	&set_command,
	&clear_command,
	&expect_command,
	&info_command,
	&bars_command,
	&cmp_command,
	&sum_command,
	&copy_command,
	&poll_command,
	&memtest_command,
	&batch_command,
	NULL,
};

enum {
	OPT_NO_LOAD = 256, OPT_SYSFS, OPT_PROGRESS, OPT_NO_PROGRESS,
};

static const struct argp_option options[] = {
	{ NULL, 0, NULL, 0, "Access:", 1 },
	{ "width", 'w', "BITS", 0,
	  "Access width: 8, 16, 32 (default) or 64; "
	  "every access to an uncached or write-combined mapping is exactly this wide", 1 },
	{ "cache", 'c', "TYPE", 0,
	  "Cache type: auto (default, as /dev/mem), uc, wc or wb", 1 },
	{ "force", 'f', NULL, 0,
	  "Write binary data to a terminal; "
	  "write into the BARs or config space of a device that has a driver", 1 },
	{ "dry-run", 'n', NULL, 0,
	  "Check everything and say what would be done; map nothing", 1 },
	{ NULL, 0, NULL, 0, "Input and output:", 2 },
	{ "output", 'o', "FILE", 0, "dump and hexdump write to FILE", 2 },
	{ NULL, 0, NULL, 0, "Helper:", 3 },
	{ "device", 'D', "PATH", 0,
	  "Map through PATH, whose offsets are physical addresses (a regular file, /dev/mem); "
	  "no helper needed", 3 },
	{ "module", 'm', "PATH", 0,
	  "Load the helper from this pfnmap.ko when /dev/pfnmap is missing", 3 },
	{ "no-load", OPT_NO_LOAD, NULL, 0,
	  "Never load the helper module", 3 },
	{ NULL, 0, NULL, 0, "PCI:", 4 },
	{ "sysfs", OPT_SYSFS, NULL, 0,
	  "Map BARs through sysfs resourceN files instead of the helper", 4 },
	{ "machine", 'M', NULL, 0,
	  "bars: one line per BAR, for scripts", 4 },
	{ NULL, 'A', "METHOD", 0,
	  "libpci access method, as lspci -A", 4 },
	{ NULL, 'O', "NAME=VALUE", 0,
	  "libpci parameter, as lspci -O (e.g. sysfs.path=DIR); repeatable", 4 },
	{ NULL, 0, NULL, 0, "Messages:", 5 },
	{ "verbose", 'v', NULL, 0,
	  "Say what is mapped: PFNs, pages, cache types", 5 },
	{ "quiet", 'q', NULL, 0, "No warnings, only errors", 5 },
	{ "progress", OPT_PROGRESS, NULL, 0,
	  "Show the progress of dump, hexdump, fill, load, cmp, sum, copy and memtest "
	  "after a second even when standard error is no terminal "
	  "(a line each second) or with -q", 5 },
	{ "no-progress", OPT_NO_PROGRESS, NULL, 0,
	  "Never a progress line; when both are given, "
	  "the last of --progress and --no-progress counts", 5 },
	{ NULL, 0, NULL, 0, "Checks and scripts:", 6 },
	/* and the options of the option sets (commands.h), group 6 too */
	{ NULL, 0, NULL, 0, NULL, 0 },
};

static const char doc[] =
	"Map physical memory by page frame number and dump, fill, load, hexdump, read or write it."
	"\v"
	"Regions: START+SIZE, START-END (END inclusive) or START. Numbers are 0x hex or decimal, "
	"with K, M, G, T (or KiB, MiB, GiB, TiB) for powers of 1024: 0x180000000+4M, "
	"0xfed00000-0xfed003ff, 4G+4K.\n"
	"PCI BARs: DEVICE/barN, then @OFFSET and +SIZE inside the BAR: 00:04.0/bar2, "
	"1af4:1110/bar2@0x1000+4K, 00:03.0/bar0@0x4. "
	"DEVICE is a slot [[DOMAIN:]BUS:]DEV.FN as lspci -s, or VENDOR:DEVICE as lspci -d, "
	"then #N for the Nth match (from 0). Whole BAR by default; "
	"auto cache is uc for non-prefetchable BARs, wc for prefetchable ones. "
	"The bars FILTER is a DEVICE too, in which any part may be * or left out.\n"
	"PCI config space: DEVICE/config, then @OFFSET or @CAP_NAME+OFFSET (setpci's names: "
	"CAP_EXP, ECAP_AER, ...) and +SIZE: 00:03.0/config@0x4, 00:03.0/config@CAP_EXP+0x8. "
	"Through libpci, 8, 16 or 32 bits wide, within the device's 256 or 4096 bytes.\n"
	"\n"
	"Exit status: 0 success; 1 an input or output failed, or the input was short; "
	"2 the helper or the kernel refused the mapping, "
	"or a write into the BARs or config space of a device with a driver lacks --force; "
	"3 /dev/pfnmap or the --device could not be opened or the helper not loaded; "
	"4 a bus error or fault while touching the mapping, or a failed config space access; "
	"5 a check that does not hold (expect found another value, poll timed out, "
	"cmp found differences, sum another value than --expect); 64 a bad command line; "
	"130 and 143 poll stopped by SIGINT and SIGTERM.\n"
	"\n"
	"Documentation: the pfnmap(8) and pfnmap(4) man pages, "
	"and the README that comes with pfnmap.";

/* One command's line of --help, its text wrapped under itself at 79 */
static void help_command(FILE *f, const struct command *c)
{
	const char *doc = c->doc;
	int col = fprintf(f, "  %-7s %-17s", c->name, c->args), indent = col + 1;
	int len;

	for (; *doc; doc += len + !!doc[len]) {
		len = (int)strcspn(doc, " ");
		if (col > indent && col + 1 + len > 79)
			col = fprintf(f, "\n%*s", indent, "") - 1;
		else
			col += fprintf(f, " ");
		col += fprintf(f, "%.*s", len, doc);
	}
	fputc('\n', f);
}

/* The commands, from the table, ahead of the text after \v */
static char *help_filter(int key, const char *text, void *input)
{
	const struct command *const *c;
	char *buf = NULL;
	size_t len = 0;
	FILE *f;

	(void)input;
	if (key != ARGP_KEY_HELP_POST_DOC || !text)
		return (char *)text;
	f = open_memstream(&buf, &len);
	if (!f)
		return (char *)text;
	fputs("Commands:\n", f);
	for (c = commands; *c; c++)
		help_command(f, *c);
	fprintf(f, "\n%s", text);
	if (fclose(f))
		return (char *)text;
	return buf;
}

static enum pfnmap_cache parse_cache(const char *text, struct argp_state *state)
{
	int i;

	for (i = PFNMAP_CACHE_AUTO; i <= PFNMAP_CACHE_WB; i++)
		if (!strcmp(text, cache_name(i)))
			return i;
	argp_failure(state, EXIT_USAGE, 0, "--cache=%s: the cache type is auto, uc, wc or wb",
		     text);
	return PFNMAP_CACHE_AUTO;
}

static const struct command *find_command(const char *name,
					  struct argp_state *state)
{
	const struct command *const *c;
	char names[256] = "";

	for (c = commands; *c; c++)
		if (!strcmp((*c)->name, name))
			return *c;
	for (c = commands; *c; c++)
		snprintf(names + strlen(names), sizeof(names) - strlen(names), "%s%s",
			 c == commands ? "" : c[1] ? ", " : " and ", (*c)->name);
	argp_failure(state, EXIT_USAGE, 0, "unknown command '%s'; the commands are %s", name,
		     names);
	return NULL;
}

/* "dump and hexdump": the commands whose flags have flag, from the table */
static const char *commands_with(unsigned int flag)
{
	static char names[256];
	const struct command *const *c;
	int n = 0, i = 0;

	names[0] = 0;
	for (c = commands; *c; c++)
		n += !!((*c)->flags & flag);
	for (c = commands; *c; c++)
		if ((*c)->flags & flag)
			snprintf(names + strlen(names), sizeof(names) - strlen(names), "%s%s",
				 !i++ ? "" : i < n ? ", " : " and ", (*c)->name);
	return names;
}

/* The option sets, by id; each a part's own (commands.h) */
static const struct option_set *const option_sets[OPTION_SETS] = {
	[OPTS_POLL] = &poll_option_set,
	[OPTS_CMP] = &cmp_option_set,
	[OPTS_SUM] = &sum_option_set,
	[OPTS_JSON] = &json_option_set,
	[OPTS_BATCH] = &batch_option_set,
	[OPTS_MEMTEST] = &memtest_option_set,
};

/* An option given to a command that has no use for it */
static void check_given(const struct parsed *p, struct argp_state *state)
{
	unsigned int i;

	for (i = 0; i < OPTION_SETS; i++) {
		const char *names = option_sets[i]->names;

		if (p->o.sets[i].given && !(p->cmd->flags & CMD_TAKES(i)))
			argp_failure(state, EXIT_USAGE, 0, "%s %s for %s, not %s", names,
				     strstr(names, " and ") ? "are" : "is",
				     commands_with(CMD_TAKES(i)), p->cmd->name);
	}
}

/* What can only be checked once the whole command line is known */
static void check_all(const struct parsed *p, struct argp_state *state)
{
	const struct command *c = p->cmd;
	const struct options *o = &p->o;

	if (!c)
		argp_failure(state, EXIT_USAGE, 0, "no command given; try pfnmap --help");
	else if (p->nargs < c->min_args || p->nargs > c->max_args)
		argp_failure(state, EXIT_USAGE, 0, "%s: %s arguments; usage: pfnmap %s %s",
			     c->name, p->nargs < c->min_args ? "missing" : "too many",
			     c->name, c->args);
	else if (o->module && o->no_load)
		argp_failure(state, EXIT_USAGE, 0, "--module and --no-load contradict each other");
	else if (o->sysfs && o->device)
		argp_failure(state, EXIT_USAGE, 0,
			     "--sysfs maps BARs through their sysfs files; "
			     "--device names another file: give one of them");
	else if (o->device && o->module)
		argp_failure(state, EXIT_USAGE, 0,
			     "--device maps without the helper; --module has no use with it");
	else if (o->output && !(c->flags & CMD_OUTPUT))
		argp_failure(state, EXIT_USAGE, 0,
			     "-o is for %s, not %s", commands_with(CMD_OUTPUT), c->name);
	else
		check_given(p, state);
}

static int parse_opt(int key, char *arg, struct argp_state *state)
{
	struct parsed *p = state->input;
	char msg[REGION_ERR_MAX];
	unsigned int i;

	switch (key) {
	case 'w':
		if (parse_width(arg, &p->o.width, msg, sizeof(msg)))
			argp_failure(state, EXIT_USAGE, 0, "%s", msg);
		p->o.width_set = true;
		break;
	case 'c':
		p->o.cache = parse_cache(arg, state);
		break;
	case 'o':
		p->o.output = arg;
		break;
	case 'D':
		p->o.device = arg;
		break;
	case 'm':
		p->o.module = arg;
		break;
	case OPT_NO_LOAD:
		p->o.no_load = true;
		break;
	case 'n':
		p->o.dry_run = true;
		break;
	case 'f':
		p->o.force = true;
		break;
	case 'v':
		p->o.verbose++;
		break;
	case 'q':
		p->o.quiet = true;
		break;
	case OPT_PROGRESS:
	case OPT_NO_PROGRESS:
		p->o.progress = key == OPT_PROGRESS ? PROGRESS_ON : PROGRESS_OFF;
		break;
	case OPT_SYSFS:
		p->o.sysfs = true;
		break;
	case 'M':
		p->o.machine = true;
		break;
	case 'A':
		p->o.pci_method = arg;
		break;
	case 'O':
		if (p->o.n_pci_params == 16)
			argp_failure(state, EXIT_USAGE, 0, "-O: at most 16 libpci parameters");
		p->o.pci_params[p->o.n_pci_params++] = arg;
		break;
	case ARGP_KEY_INIT:
		for (i = 0; i < OPTION_SETS; i++)
			state->child_inputs[i] = &p->o.sets[i];
		break;
	case ARGP_KEY_ARG:
		p->cmd = p->o.cmd = find_command(arg, state);
		p->args = &state->argv[state->next];
		p->nargs = state->argc - state->next;
		state->next = state->argc;
		break;
	case ARGP_KEY_END:
		check_all(p, state);
		break;
	default:
		return ARGP_ERR_UNKNOWN;
	}
	return 0;
}

/* The option sets' parsers, children of the root's: set_children() */
static struct argp_child children[OPTION_SETS + 1];

static struct argp argp = {
	options, parse_opt, "COMMAND ARGS...", doc, children, help_filter, NULL
};

/*
 * Merged into the root's options and groups (no header, group 0), in
 * the order of their ids, which ARGP_KEY_INIT's child_inputs follow
 */
static void set_children(void)
{
	unsigned int i;

	for (i = 0; i < OPTION_SETS; i++)
		children[i].argp = option_sets[i]->argp;
}

/* Every set's defaults, and no set given */
static void option_defaults(struct options *o)
{
	unsigned int i;

	for (i = 0; i < OPTION_SETS; i++) {
		memset(&o->sets[i], 0, sizeof(o->sets[i]));
		option_sets[i]->init(o->sets[i].values.bytes);
	}
}

static bool has_option(int argc, char **argv)
{
	int i;

	for (i = 1; i < argc; i++)
		if (argv[i][0] == '-')
			return true;
	return false;
}

/*
 * What argp_parse() does with COMMAND ARGS... and no option: parse_opt's
 * ARGP_KEY_ARG, then ARGP_KEY_END, with a state that reports as argp's
 * does. argp's set-up (its long-option tables, built on every call) was
 * half the cost of a batch line; the lines of a batch seldom have options.
 */
static int parse_plain(int argc, char **argv, unsigned int flags,
		       struct parsed *p)
{
	struct argp_state state = {
		.root_argp = &argp, .argc = argc, .argv = argv, .next = argc,
		.flags = flags, .input = p, .name = argv[0],
		.err_stream = stderr, .out_stream = stdout,
	};

	p->cmd = p->o.cmd = find_command(argv[1], &state);
	if (!p->cmd)
		return EXIT_USAGE;
	p->args = &argv[2];
	p->nargs = argc - 2;
	check_all(p, &state);
	return 0;
}

int parse_command_line(int argc, char **argv, unsigned int flags,
		       struct parsed *p)
{
	if (argc >= 2 && !has_option(argc, argv))
		return parse_plain(argc, argv, flags, p);
	return argp_parse(&argp, argc, argv, flags, NULL, p);
}

static bool stdout_checked;

/*
 * printf's write errors only show when stdout is flushed, or stick to it
 * as its error flag when an earlier flush failed. r, the command's own
 * failure, is the one that counts when there is one.
 */
static int check_stdout(int r, int earlier_errno)
{
	stdout_checked = true;
	errno = 0;
	if (!fflush(stdout) && !ferror(stdout))
		return r;
	if (r)
		return r;
	if (!errno)
		errno = earlier_errno;
	pf_error("writing standard output: %s", errno ? strerror(errno) : "write error");
	return EXIT_FAIL;
}

/*
 * argp exits by itself after --help, --usage and --version. Help longer
 * than stdio's buffer fails in argp's own write, which leaves only the
 * error flag and the errno it set.
 */
static void check_stdout_at_exit(void)
{
	if (!stdout_checked && check_stdout(EXIT_OK, errno))
		_exit(EXIT_FAIL);
}

int main(int argc, char **argv)
{
	struct parsed p = { .o = { .width = 4, .cache = PFNMAP_CACHE_AUTO } };
	int r;

	argv[0] = (char *)"pfnmap";	/* messages name the program, not its path */
	set_children();
	option_defaults(&p.o);
	atexit(check_stdout_at_exit);
	argp_err_exit_status = EXIT_USAGE;
	argp_parse(&argp, argc, argv, 0, NULL, &p);
	msg_quiet = p.o.quiet;
	msg_verbose = p.o.verbose;
	/* a reader that goes away ends us quietly, by EPIPE */
	signal(SIGPIPE, SIG_IGN);
	r = p.cmd->run(&p.o, p.args);
	return check_stdout(r, 0);
}
