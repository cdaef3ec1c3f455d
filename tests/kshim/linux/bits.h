/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/* Userspace shim of <linux/bits.h> for the rxe-cc unit tests. */
#ifndef KSHIM_LINUX_BITS_H
#define KSHIM_LINUX_BITS_H

#define BIT(nr)		(1UL << (nr))

#endif
