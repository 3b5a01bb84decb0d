/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The two ways of the guest programs' debugger-access checks
 * (tests/vm/probe.c, tests/vm/hotplug.c): /proc/self/mem, and a traced
 * child. The child makes its own mapping (VM_DONTCOPY: fork() passes none
 * on), hands its address over a pipe and waits; the parent attaches with
 * PTRACE_ATTACH, as a debugger does, and then reads and writes the mapping
 * with PTRACE_PEEKDATA and POKEDATA.
 */
#ifndef PFNMAP_GUEST_DEBUGGER_H
#define PFNMAP_GUEST_DEBUGGER_H

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdint.h>
#include <sys/ptrace.h>
#include <sys/wait.h>
#include <unistd.h>

/* pread/pwrite of @n bytes at @addr on /proc/self/mem; errno in *@err */
static ssize_t self_mem(int write, void *addr, void *buf, size_t n,
			int *err)
{
	int fd = open("/proc/self/mem", O_RDWR);
	ssize_t r;

	if (fd < 0) {
		*err = errno;
		return -1;
	}
	if (write)
		r = pwrite(fd, buf, n, (off_t)(uintptr_t)addr);
	else
		r = pread(fd, buf, n, (off_t)(uintptr_t)addr);
	*err = r < 0 ? errno : 0;
	close(fd);
	return r;
}

/*
 * The child calls @map(@arg) for the address of its mapping (0: none).
 * Returns the stopped, traced child with its mapping at *@addr, or -1 with
 * errno (ENXIO: the child could not map).
 */
static pid_t traced_child(uintptr_t (*map)(void *), void *arg,
			  uintptr_t *addr)
{
	int pipefd[2], status, err = 0;
	pid_t pid;

	*addr = 0;
	if (pipe(pipefd))
		return -1;
	pid = fork();
	if (pid == 0) {
		*addr = map(arg);
		if (write(pipefd[1], addr, sizeof(*addr)) != sizeof(*addr))
			_exit(1);
		for (;;)
			pause();
	}
	close(pipefd[1]);
	if (pid < 0 || read(pipefd[0], addr, sizeof(*addr)) != sizeof(*addr) ||
	    !*addr)
		err = ENXIO;
	close(pipefd[0]);
	if (!err && (ptrace(PTRACE_ATTACH, pid, NULL, NULL) ||
		     waitpid(pid, &status, 0) != pid || !WIFSTOPPED(status)))
		err = errno ? errno : ECHILD;
	if (err && pid > 0) {
		kill(pid, SIGKILL);
		waitpid(pid, &status, 0);
	}
	errno = err;
	return err ? -1 : pid;
}

static void traced_end(pid_t pid)
{
	int status;

	ptrace(PTRACE_DETACH, pid, NULL, NULL);
	kill(pid, SIGKILL);
	waitpid(pid, &status, 0);
}

#endif /* PFNMAP_GUEST_DEBUGGER_H */
