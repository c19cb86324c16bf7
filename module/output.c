// SPDX-License-Identifier: GPL-2.0
/*
 * output.c - sign per-socket SRHs from a LOCAL_OUT hook.
 *
 * Stock kernels already insert an SRH that an application set with
 * setsockopt(IPV6_RTHDR). When that SRH asks for an HMAC (H flag and a
 * trailing HMAC TLV) whose key id is in seg6x's keyring, seg6x computes
 * the HMAC here, once the packet has its final source address and its
 * Segment List[0] (the socket's destination, filled in by the stack).
 * Applications thereby sign with keys they never see. SRHs with other key
 * ids are left alone (the in-tree seg6 may have signed them).
 */
#include <linux/netfilter.h>
#include <linux/netfilter_ipv6.h>
#include <net/ipv6.h>

#include "hmac.h"
#include "output.h"
#include "pernet.h"
#include "srh.h"

static unsigned int seg6x_output_hook(void *priv, struct sk_buff *skb,
				      const struct nf_hook_state *state)
{
	struct seg6x_net *sn = seg6x_pernet(state->net);
	unsigned int srh_off, nh_off, srhlen;
	struct ipv6_sr_hdr *srh;
	struct sr6_tlv_hmac *tlv;
	u32 keyid;

	if (seg6x_srh_find(skb, &srh_off, &nh_off))
		return NF_ACCEPT;
	if (!pskb_may_pull(skb, srh_off + sizeof(*srh)))
		return NF_ACCEPT;
	srhlen = seg6x_srh_len(seg6x_srh_at(skb, srh_off));
	if (!pskb_may_pull(skb, srh_off + srhlen))
		return NF_ACCEPT;

	tlv = seg6x_srh_hmac_tlv(seg6x_srh_at(skb, srh_off));
	if (!tlv)
		return NF_ACCEPT;
	keyid = be32_to_cpu(tlv->hmackeyid);
	if (!seg6x_hmac_exists(sn, keyid))
		return NF_ACCEPT;

	/* TCP sends clones of its queued skbs: unshare before writing. */
	if (skb_ensure_writable(skb, srh_off + srhlen)) {
		seg6x_stats_inc(&sn->stats, SEG6X_STAT_DROP_NOMEM);
		return NF_DROP;
	}
	srh = seg6x_srh_at(skb, srh_off);
	tlv = seg6x_srh_hmac_tlv(srh);
	if (seg6x_hmac_compute(sn, keyid, &ipv6_hdr(skb)->saddr, srh,
			       tlv->hmac)) {
		/* the key went away meanwhile */
		seg6x_stats_inc(&sn->stats, SEG6X_STAT_DROP_HMAC_NOKEY);
		return NF_DROP;
	}
	seg6x_stats_inc(&sn->stats, SEG6X_STAT_HMAC_SIGNED);
	return NF_ACCEPT;
}

static const struct nf_hook_ops seg6x_output_ops[] = {
	{
		.hook = seg6x_output_hook,
		.pf = NFPROTO_IPV6,
		.hooknum = NF_INET_LOCAL_OUT,
		/* last: after anything that may still rewrite the source */
		.priority = NF_IP6_PRI_LAST,
	},
};

int seg6x_output_net_init(struct net *net)
{
	return nf_register_net_hooks(net, seg6x_output_ops,
				     ARRAY_SIZE(seg6x_output_ops));
}

void seg6x_output_net_exit(struct net *net)
{
	nf_unregister_net_hooks(net, seg6x_output_ops,
				ARRAY_SIZE(seg6x_output_ops));
}
