// SPDX-License-Identifier: GPL-2.0
/*
 * lwt_slot.c - seg6x's lightweight-tunnel encap ops and the slot they take.
 *
 * Stock kernels build the in-tree seg6 LWT into ipv6 and hold the SEG6 and
 * SEG6_LOCAL slots, so seg6x claims a slot that no built-in code owns and
 * userspace learns which one through SEG6X_CMD_INFO_GET.
 */
#include <linux/module.h>
#include <net/lwtunnel.h>

#include "lwt.h"
#include "lwt_state.h"

int seg6x_lwt_type;

static const struct lwtunnel_encap_ops seg6x_lwt_ops = {
	.build_state = seg6x_lwt_build,
	.destroy_state = seg6x_lwt_destroy,
	.output = seg6x_lwt_output,
	.input = seg6x_lwt_input,
	.fill_encap = seg6x_lwt_fill,
	.get_encap_size = seg6x_lwt_fill_size,
	.cmp_encap = seg6x_lwt_cmp,
	.owner = THIS_MODULE,
};

/*
 * Slots tried by "auto", best first: IOAM6 and RPL are not built by
 * Debian's 6.x kernels; ILA belongs to a module that is rarely loaded
 * (and whose loading then fails). MPLS is never taken automatically.
 * Other distributions build other things in, so every slot is probed,
 * not assumed free.
 */
static const int seg6x_auto_slots[] = {
	LWTUNNEL_ENCAP_IOAM6,
	LWTUNNEL_ENCAP_RPL,
	LWTUNNEL_ENCAP_ILA,
};

int seg6x_lwt_register(int requested)
{
	unsigned int i;

	/* Code outside the LWT ops reads states of these types as its own
	 * (skb_xfrm_md_info(), lwt_tun_info()): a seg6x state there would
	 * be misread.
	 */
	if (requested == LWTUNNEL_ENCAP_XFRM || requested == LWTUNNEL_ENCAP_IP ||
	    requested == LWTUNNEL_ENCAP_IP6) {
		pr_err("lwt_type=%d: other kernel code reads routes of this encap type as its own; pick another slot or 0 (auto)\n",
		       requested);
		return -EINVAL;
	}
	if (requested) {
		/* lwtunnel_encap_add_ops() says -1 for "taken". */
		if (lwtunnel_encap_add_ops(&seg6x_lwt_ops, requested)) {
			pr_err("lwt_type=%d: this encap slot is already registered by other code; try lwt_type=0 (auto)\n",
			       requested);
			return -EBUSY;
		}
		seg6x_lwt_type = requested;
		return 0;
	}

	for (i = 0; i < ARRAY_SIZE(seg6x_auto_slots); i++) {
		if (!lwtunnel_encap_add_ops(&seg6x_lwt_ops,
					    seg6x_auto_slots[i])) {
			seg6x_lwt_type = seg6x_auto_slots[i];
			return 0;
		}
	}
	pr_err("no free lightweight-tunnel encap slot (tried IOAM6, RPL, ILA); set lwt_type explicitly\n");
	return -EBUSY;
}

void seg6x_lwt_unregister(void)
{
	lwtunnel_encap_del_ops(&seg6x_lwt_ops, seg6x_lwt_type);
}

int seg6x_lwt_slot(void)
{
	return seg6x_lwt_type;
}
