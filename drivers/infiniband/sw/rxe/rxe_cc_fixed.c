// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * rxe-cc "fixed": a static per-QP pacing rate and an optional window, set
 * by parameters. It reacts to no feedback; it exists to test the pacer and
 * the window gate.
 */

#include <linux/types.h>
#include <linux/errno.h>
#include <linux/math64.h>
#include <linux/minmax.h>

#include "rxe_cc.h"

enum fixed_param {
	P_RATE,
	P_WINDOW,
	P_NUM
};

static const struct rxe_cc_param_desc fixed_params[P_NUM] = {
	[P_RATE] = { "rate_kbps", "pacing rate",
		RXE_CC_UNIT_KBPS, 100000, 1, RXE_CC_RATE_KBPS_MAX },
	[P_WINDOW] = { "window_bytes", "limit on bytes in flight, 0 = none",
		RXE_CC_UNIT_BYTES, 0, 0, 1U << 31 },
};

enum fixed_state_value {
	S_RATE,
	S_WINDOW,
	S_NUM
};

static const struct rxe_cc_state_desc fixed_state_desc[S_NUM] = {
	[S_RATE] = { "rate_kbps", RXE_CC_UNIT_KBPS },
	[S_WINDOW] = { "window_bytes", RXE_CC_UNIT_BYTES },
};

struct fixed_cfg {
	u32 rate_kbps;
	u32 window;
};

static void fixed_defaults(u32 *p, const struct rxe_cc_link *link)
{
	u64 line = div64_u64(link->rate_bps, 1000);

	p[P_RATE] = (u32)clamp_t(u64, line, fixed_params[P_RATE].min,
				 fixed_params[P_RATE].max);
	p[P_WINDOW] = fixed_params[P_WINDOW].def;
}

static int fixed_setup(void *cfgp, const u32 *p,
		       const struct rxe_cc_link *link, const char **why)
{
	struct fixed_cfg *c = cfgp;
	int i;

	for (i = 0; i < P_NUM; i++) {
		if (p[i] < fixed_params[i].min || p[i] > fixed_params[i].max) {
			*why = "parameter out of range";
			return -EINVAL;
		}
	}
	c->rate_kbps = p[P_RATE];
	c->window = p[P_WINDOW];
	return 0;
}

static void fixed_on_timer(struct rxe_cc_ctx *cc, u64 now)
{
	const struct fixed_cfg *c = cc->cfg;

	cc->out.rate_bps = (u64)c->rate_kbps * 1000;
	cc->out.window_bytes = c->window;
}

static void fixed_init(struct rxe_cc_ctx *cc, u64 now)
{
	fixed_on_timer(cc, now);
}

static void fixed_get_state(const struct rxe_cc_ctx *cc, u64 now, u64 *v)
{
	const struct fixed_cfg *c = cc->cfg;

	v[S_RATE] = c->rate_kbps;
	v[S_WINDOW] = c->window;
}

struct rxe_cc_ops rxe_cc_fixed_ops = {
	.name = "fixed",
	.priv_size = 0,
	.cfg_size = sizeof(struct fixed_cfg),
	.params = fixed_params,
	.n_params = P_NUM,
	.state = fixed_state_desc,
	.n_state = S_NUM,
	.defaults = fixed_defaults,
	.setup = fixed_setup,
	.init = fixed_init,
	.on_timer = fixed_on_timer,
	.get_state = fixed_get_state,
};
