// SPDX-License-Identifier: GPL-2.0-or-later
/* Mappings opened through their backend, sessions ended (open.h) */
#include <string.h>

#include "config.h"
#include "open.h"
#include "pci.h"
#include "window.h"

int mapping_open(struct pf_session *s, const char *cmd,
		 const struct extent *x, unsigned int width, bool write,
		 struct target *t, struct mapping *m)
{
	int r = 0;

	memset(m, 0, sizeof(*m));
	if (x->is_config) {
		memset(t, 0, sizeof(*t));
		t->fd = -1;
		t->s = s;
		m->ops = &config_backend;
	} else {
		r = target_open(s, t, &x->plan, write);
		m->ops = &window_backend;
		window_guard_install();
	}
	m->s = s;
	m->t = t;
	m->cmd = cmd;
	m->x = x;
	m->width = width;
	return r;
}

void session_release(struct pf_session *s)
{
	window_release_all(s);
	target_release_all(s);
}

void session_end(struct pf_session *s)
{
	session_release(s);
	pci_end(s);
}
