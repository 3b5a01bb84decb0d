// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * A stand-in for pfnmap.ko in the shim tests: an ELF relocatable object
 * (gcc -c) with the .modinfo section a built module has. libkmod takes the
 * module name from the file name (pfnmap.ko) and hands the file to
 * finit_module() unread; depmod reads .modinfo and the symbol table to
 * write modules.dep.bin for the by-name tests. Never loaded by a kernel.
 */
static const char modinfo[] __attribute__((section(".modinfo"), used)) =
	"license=GPL\0"
	"description=pfnmap shim test stand-in, not a module\0"
	"depends=\0"
	"name=pfnmap\0"
	"vermagic=0.0.0-pfnmap-shim SMP mod_unload \0";
