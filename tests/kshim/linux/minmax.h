/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/*
 * Userspace shim of <linux/minmax.h> for the rxe-cc unit tests. Like the
 * kernel's, min() and max() warn when their operands differ in type.
 */
#ifndef KSHIM_LINUX_MINMAX_H
#define KSHIM_LINUX_MINMAX_H

#define __kshim_paste(a, b)	a##b
#define __kshim_id(a, b)	__kshim_paste(a, b)

#define __kshim_cmp(x, y, op, n) ({				\
	__typeof__(x) __kshim_id(_x, n) = (x);			\
	__typeof__(y) __kshim_id(_y, n) = (y);			\
	(void)(&__kshim_id(_x, n) == &__kshim_id(_y, n));	\
	__kshim_id(_x, n) op __kshim_id(_y, n) ?		\
		__kshim_id(_x, n) : __kshim_id(_y, n); })

#define min(x, y)		__kshim_cmp(x, y, <, __COUNTER__)
#define max(x, y)		__kshim_cmp(x, y, >, __COUNTER__)
#define min_t(type, x, y)	min((type)(x), (type)(y))
#define max_t(type, x, y)	max((type)(x), (type)(y))
#define clamp(val, lo, hi)	min(max(val, lo), hi)
#define clamp_t(type, val, lo, hi)	min_t(type, max_t(type, val, lo), hi)

#endif
