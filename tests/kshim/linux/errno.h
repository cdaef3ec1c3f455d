/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/*
 * Userspace shim of <linux/errno.h> for the rxe-cc unit tests: the uapi
 * header already has the kernel's values. System headers include it too,
 * so this shim must stay a pure pass-through.
 */
#include_next <linux/errno.h>
