/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/* Userspace shim of <linux/math64.h> for the rxe-cc unit tests. */
#ifndef KSHIM_LINUX_MATH64_H
#define KSHIM_LINUX_MATH64_H

#include <linux/types.h>

static inline u64 div64_u64(u64 dividend, u64 divisor)
{
	return dividend / divisor;
}

#endif
