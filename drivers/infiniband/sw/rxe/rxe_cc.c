// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * rxe-cc: the registry of congestion control algorithms and the system
 * default, modelled on net/ipv4/tcp_cong.c.
 *
 * An algorithm registers a struct rxe_cc_ops under a unique name; it may
 * live in its own module. Every QP that runs it, every device that
 * defaults to it and the system default hold a reference on its module,
 * so the module cannot be removed while it is in use. Names are the ABI:
 * netlink, sysctl and module parameters name algorithms, "none" being no
 * congestion control.
 */

#include <kunit/visibility.h>
#include <linux/module.h>
#include <linux/mutex.h>
#include <linux/sysctl.h>
#include <rdma/rxe_cc.h>

#include "rxe.h"
#include "rxe_cc_int.h"
#include "rxe_ns.h"

static DEFINE_MUTEX(rxe_cc_list_lock);
static LIST_HEAD(rxe_cc_list);

/* the system default for new devices, referenced; NULL = none */
static const struct rxe_cc_ops *rxe_cc_default;

static char rxe_cc_default_param[RXE_CC_NAME_MAX] = "none";
module_param_string(cc_default, rxe_cc_default_param,
		    sizeof(rxe_cc_default_param), 0444);
MODULE_PARM_DESC(cc_default,
		 "congestion control of new rxe devices: none or a built-in algorithm, fixed, dcqcn, hpcc, acc, pcn or accurate (default none); see net.rdma_rxe.cc_default");

/*
 * UDP port of RoCEv2 packets with the INT shim (specs/wire.md §7.4 (a)):
 * every rxe namespace socket pair gets a second pair on it. Both ends of an
 * INT path must use the same port; 0 turns INT off.
 */
u16 rxe_cc_int_port __read_mostly = 4792;
module_param_named(int_port, rxe_cc_int_port, ushort, 0444);
MODULE_PARM_DESC(int_port,
		 "UDP port of RoCEv2 with the INT shim, for algorithms that use INT (hpcc); 0 = no INT (default 4792)");
EXPORT_SYMBOL_IF_KUNIT(rxe_cc_int_port);

const char *rxe_cc_algo_name(const struct rxe_cc_ops *ops)
{
	return ops ? ops->name : "none";
}
EXPORT_SYMBOL_IF_KUNIT(rxe_cc_algo_name);

/* Called with rxe_cc_list_lock held. */
static struct rxe_cc_ops *rxe_cc_find(const char *name)
{
	struct rxe_cc_ops *ops;

	list_for_each_entry(ops, &rxe_cc_list, list)
		if (!strcmp(ops->name, name))
			return ops;
	return NULL;
}

/* Is @ops fit to be registered? Says why not in the kernel log. */
static bool rxe_cc_ops_valid(const struct rxe_cc_ops *ops)
{
	const struct rxe_cc_param_desc *d;
	unsigned int i;
	size_t len;

	len = ops->name ? strnlen(ops->name, RXE_CC_NAME_MAX) : 0;
	if (!len || len == RXE_CC_NAME_MAX || !strcmp(ops->name, "none")) {
		pr_err("congestion control: a name of 1 to %d characters other than none is needed\n",
		       RXE_CC_NAME_MAX - 1);
		return false;
	}
	if (!ops->setup || !ops->init || !ops->get_state) {
		pr_err("congestion control %s: setup, init and get_state are required\n",
		       ops->name);
		return false;
	}
	if (ops->n_params > RXE_CC_MAX_PARAMS ||
	    ops->n_state > RXE_CC_MAX_STATE) {
		pr_err("congestion control %s: at most %d parameters and %d state values\n",
		       ops->name, RXE_CC_MAX_PARAMS, RXE_CC_MAX_STATE);
		return false;
	}
	for (i = 0; i < ops->n_params; i++) {
		d = &ops->params[i];
		if (!d->name || strnlen(d->name, RXE_CC_NAME_MAX) ==
				RXE_CC_NAME_MAX ||
		    d->min > d->def || d->def > d->max) {
			pr_err("congestion control %s: parameter %u is malformed\n",
			       ops->name, i);
			return false;
		}
	}
	return true;
}

/**
 * rxe_cc_register - make an algorithm available
 * @ops: the algorithm; it stays in the registry until rxe_cc_unregister()
 *
 * Return: 0, -EINVAL if @ops is malformed, -EEXIST if its name is taken.
 */
int rxe_cc_register(struct rxe_cc_ops *ops)
{
	int err = 0;

	if (!rxe_cc_ops_valid(ops))
		return -EINVAL;

	mutex_lock(&rxe_cc_list_lock);
	if (rxe_cc_find(ops->name)) {
		pr_notice("congestion control %s already registered\n",
			  ops->name);
		err = -EEXIST;
	} else {
		list_add_tail(&ops->list, &rxe_cc_list);
		pr_debug("congestion control %s registered\n", ops->name);
	}
	mutex_unlock(&rxe_cc_list_lock);
	return err;
}
EXPORT_SYMBOL_GPL(rxe_cc_register);

/**
 * rxe_cc_unregister - withdraw an algorithm
 * @ops: a registered algorithm
 *
 * Called from the module exit of the algorithm's module, which cannot run
 * while a QP, a device or the system default still uses it. Devices keep
 * the parameters they were given for it, by name, for a later
 * registration.
 */
void rxe_cc_unregister(struct rxe_cc_ops *ops)
{
	mutex_lock(&rxe_cc_list_lock);
	list_del(&ops->list);
	mutex_unlock(&rxe_cc_list_lock);
}
EXPORT_SYMBOL_GPL(rxe_cc_unregister);

/**
 * rxe_cc_algo_get - look an algorithm up by name and take a reference
 * @name: algorithm name; "none" selects no congestion control
 * @ops: set to the algorithm, or NULL for "none"
 *
 * Return: 0, or -ENOENT for a name that is not registered (or whose module
 * is being removed).
 */
int rxe_cc_algo_get(const char *name, const struct rxe_cc_ops **ops)
{
	struct rxe_cc_ops *found;
	int err = 0;

	*ops = NULL;
	if (!strcmp(name, "none"))
		return 0;
	mutex_lock(&rxe_cc_list_lock);
	found = rxe_cc_find(name);
	if (found && try_module_get(found->owner))
		*ops = found;
	else
		err = -ENOENT;
	mutex_unlock(&rxe_cc_list_lock);
	return err;
}
EXPORT_SYMBOL_IF_KUNIT(rxe_cc_algo_get);

/* Another reference on @ops, whose caller already holds one. */
void rxe_cc_algo_hold(const struct rxe_cc_ops *ops)
{
	if (ops)
		__module_get(ops->owner);
}

void rxe_cc_algo_put(const struct rxe_cc_ops *ops)
{
	if (ops)
		module_put(ops->owner);
}
EXPORT_SYMBOL_IF_KUNIT(rxe_cc_algo_put);

/**
 * rxe_cc_algo_get_nth - the @i-th registered algorithm, referenced
 * @i: index in registration order
 * @ops: set to it
 *
 * Return: 0, or -ENOENT past the last one.
 */
int rxe_cc_algo_get_nth(unsigned int i, const struct rxe_cc_ops **ops)
{
	struct rxe_cc_ops *it;
	int err = -ENOENT;

	mutex_lock(&rxe_cc_list_lock);
	list_for_each_entry(it, &rxe_cc_list, list) {
		if (i--)
			continue;
		if (try_module_get(it->owner)) {
			*ops = it;
			err = 0;
		}
		break;
	}
	mutex_unlock(&rxe_cc_list_lock);
	return err;
}
EXPORT_SYMBOL_IF_KUNIT(rxe_cc_algo_get_nth);

/* The system default for a new device, referenced (NULL = none). */
const struct rxe_cc_ops *rxe_cc_default_get(void)
{
	const struct rxe_cc_ops *ops;

	mutex_lock(&rxe_cc_list_lock);
	ops = rxe_cc_default;
	rxe_cc_algo_hold(ops);
	mutex_unlock(&rxe_cc_list_lock);
	return ops;
}

/* Make @ops (referenced, or NULL) the system default; drops the old one. */
static void rxe_cc_default_set(const struct rxe_cc_ops *ops)
{
	const struct rxe_cc_ops *old;

	mutex_lock(&rxe_cc_list_lock);
	old = rxe_cc_default;
	rxe_cc_default = ops;
	mutex_unlock(&rxe_cc_list_lock);
	rxe_cc_algo_put(old);
}

/* ---- sysctl net.rdma_rxe ---------------------------------------------------- */

static int rxe_cc_proc_default(const struct ctl_table *table, int write,
			       void *buffer, size_t *lenp, loff_t *ppos)
{
	char val[RXE_CC_NAME_MAX];
	struct ctl_table tbl = {
		.data = val,
		.maxlen = sizeof(val),
	};
	const struct rxe_cc_ops *ops;
	int err;

	mutex_lock(&rxe_cc_list_lock);
	strscpy(val, rxe_cc_algo_name(rxe_cc_default), sizeof(val));
	mutex_unlock(&rxe_cc_list_lock);

	err = proc_dostring(&tbl, write, buffer, lenp, ppos);
	if (!write || err)
		return err;

	err = rxe_cc_algo_get(strim(val), &ops);
	if (err)
		return err;
	rxe_cc_default_set(ops);
	return 0;
}

/* "none" and every registered algorithm, separated by spaces */
VISIBLE_IF_KUNIT int
rxe_cc_proc_available(const struct ctl_table *table, int write, void *buffer,
		      size_t *lenp, loff_t *ppos)
{
	struct ctl_table tbl = { .maxlen = PAGE_SIZE };
	struct rxe_cc_ops *ops;
	size_t len;
	int err;

	tbl.data = kmalloc(tbl.maxlen, GFP_USER);
	if (!tbl.data)
		return -ENOMEM;
	len = strscpy(tbl.data, "none", tbl.maxlen);
	mutex_lock(&rxe_cc_list_lock);
	list_for_each_entry(ops, &rxe_cc_list, list)
		len += scnprintf(tbl.data + len, tbl.maxlen - len, " %s",
				 ops->name);
	mutex_unlock(&rxe_cc_list_lock);
	err = proc_dostring(&tbl, write, buffer, lenp, ppos);
	kfree(tbl.data);
	return err;
}
EXPORT_SYMBOL_IF_KUNIT(rxe_cc_proc_available);

static struct ctl_table rxe_cc_sysctl[] = {
	{
		.procname = "cc_default",
		.maxlen = RXE_CC_NAME_MAX,
		.mode = 0644,
		.proc_handler = rxe_cc_proc_default,
	},
	{
		.procname = "cc_available",
		.maxlen = PAGE_SIZE,
		.mode = 0444,
		.proc_handler = rxe_cc_proc_available,
	},
};

static struct ctl_table_header *rxe_cc_sysctl_hdr;

/* ---- module ------------------------------------------------------------------ */

/**
 * rxe_cc_init - register the built-in algorithms and the sysctl table
 *
 * Return: 0, or a negative errno (an unknown cc_default).
 */
int rxe_cc_init(void)
{
	const struct rxe_cc_ops *ops;
	int err;

	if (rxe_cc_int_port == ROCE_V2_UDP_DPORT) {
		pr_err("int_port=%u: the RoCEv2 port itself\n", rxe_cc_int_port);
		return -EINVAL;
	}
	rxe_ns_set_port2(rxe_cc_int_port);
	err = rxe_cc_sfc_init();
	if (err)
		return err;

	err = rxe_cc_register(&rxe_cc_fixed_ops);
	if (err)
		return err;
	err = rxe_cc_register(&rxe_cc_dcqcn_ops);
	if (err)
		goto fixed;
	err = rxe_cc_register(&rxe_cc_hpcc_ops);
	if (err)
		goto dcqcn;
	err = rxe_cc_register(&rxe_cc_acc_ops);
	if (err)
		goto hpcc;
	err = rxe_cc_register(&rxe_cc_pcn_ops);
	if (err)
		goto acc;
	err = rxe_cc_register(&rxe_cc_accurate_ops);
	if (err)
		goto pcn;

	if (rxe_cc_algo_get(rxe_cc_default_param, &ops)) {
		pr_err("cc_default=%s: unknown algorithm (none, fixed, dcqcn, hpcc, acc, pcn, accurate)\n",
		       rxe_cc_default_param);
		err = -EINVAL;
		goto accurate;
	}
	rxe_cc_default_set(ops);

	rxe_cc_sysctl_hdr = register_sysctl("net/rdma_rxe", rxe_cc_sysctl);
	if (!rxe_cc_sysctl_hdr) {
		err = -ENOMEM;
		goto dflt;
	}
	return 0;
dflt:
	rxe_cc_default_set(NULL);
accurate:
	rxe_cc_unregister(&rxe_cc_accurate_ops);
pcn:
	rxe_cc_unregister(&rxe_cc_pcn_ops);
acc:
	rxe_cc_unregister(&rxe_cc_acc_ops);
hpcc:
	rxe_cc_unregister(&rxe_cc_hpcc_ops);
dcqcn:
	rxe_cc_unregister(&rxe_cc_dcqcn_ops);
fixed:
	rxe_cc_unregister(&rxe_cc_fixed_ops);
	return err;
}

void rxe_cc_exit(void)
{
	unregister_sysctl_table(rxe_cc_sysctl_hdr);
	rxe_cc_default_set(NULL);
	rxe_cc_unregister(&rxe_cc_accurate_ops);
	rxe_cc_unregister(&rxe_cc_pcn_ops);
	rxe_cc_unregister(&rxe_cc_acc_ops);
	rxe_cc_unregister(&rxe_cc_hpcc_ops);
	rxe_cc_unregister(&rxe_cc_dcqcn_ops);
	rxe_cc_unregister(&rxe_cc_fixed_ops);
}
