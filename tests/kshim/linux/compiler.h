/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/* Userspace shim of <linux/compiler.h> for the rxe-cc unit tests. */
#ifndef KSHIM_LINUX_COMPILER_H
#define KSHIM_LINUX_COMPILER_H

/* One access of the object's full width, never torn or repeated. */
#define READ_ONCE(x) (*(const volatile __typeof__(x) *)&(x))
#define WRITE_ONCE(x, val) (*(volatile __typeof__(x) *)&(x) = (val))

#endif
