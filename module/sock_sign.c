// SPDX-License-Identifier: GPL-2.0
/*
 * sock_sign.c - sign per-socket SRHs from a POST_ROUTING hook.
 *
 * Stock kernels already insert an SRH that an application set with
 * setsockopt(IPV6_RTHDR). When that SRH asks for an HMAC (H flag and a
 * trailing HMAC TLV) whose key id is in seg6x's keyring, seg6x computes
 * the HMAC here, once the packet has its final source address and its
 * Segment List[0] (the socket's destination, filled in by the stack).
 * Applications thereby sign with keys they never see. SRHs with other key
 * ids are left alone (the in-tree seg6 may have signed them).
 *
 * Setting IPV6_RTHDR needs no privilege, so signing is reserved to sockets
 * opened by a process with CAP_NET_ADMIN over the namespace: anyone else
 * would otherwise get any key, route keys included, to sign what it wants.
 */
#include <linux/capability.h>
#include <linux/file.h>
#include <linux/netfilter.h>
#include <linux/netfilter_ipv6.h>
#include <net/ipv6.h>

#include "hmac.h"
#include "ifdrops.h"
#include "sock_sign.h"
#include "pernet.h"
#include "srh.h"

/* Was the socket opened with CAP_NET_ADMIN in @net's user namespace? */
static bool seg6x_sk_may_sign(const struct sock *sk, struct net *net)
{
	const struct socket *sock;

	if (!sk || !sk_fullsock(sk))
		return false;
	sock = READ_ONCE(sk->sk_socket);
	return sock && sock->file &&
	       file_ns_capable(sock->file, net->user_ns, CAP_NET_ADMIN);
}

static noinline unsigned int seg6x_sock_sign(struct sk_buff *skb,
					     const struct nf_hook_state *state)
{
	unsigned int srh_off, nh_off, srhlen;
	u8 stop;
	struct ipv6_sr_hdr *srh;
	struct sr6_tlv_hmac *tlv;
	struct seg6x_net *sn;
	u32 keyid;

	if (!seg6x_sk_may_sign(skb_to_full_sk(skb), state->net) ||
	    seg6x_srh_find(skb, &srh_off, &nh_off, &stop))
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
	sn = seg6x_pernet(state->net);
	if (!seg6x_hmac_exists(sn, keyid))
		return NF_ACCEPT;

	/* TCP sends clones of its queued skbs: unshare before writing. */
	if (skb_ensure_writable(skb, srh_off + srhlen)) {
		seg6x_drop_count(sn, skb->dev, SEG6X_STAT_DROP_NOMEM);
		return NF_DROP;
	}
	srh = seg6x_srh_at(skb, srh_off);
	tlv = seg6x_srh_hmac_tlv(srh);
	if (seg6x_hmac_compute(sn, keyid, &ipv6_hdr(skb)->saddr, srh,
			       tlv->hmac)) {
		/* the key went away meanwhile */
		seg6x_drop_count(sn, skb->dev, SEG6X_STAT_DROP_HMAC_NOKEY);
		return NF_DROP;
	}
	seg6x_stats_inc(&sn->stats, SEG6X_STAT_HMAC_SIGNED);
	return NF_ACCEPT;
}

/*
 * Locally generated packets only: forwarded ones, the bulk of what a
 * router sends, have no socket and leave before any of seg6x_sock_sign()'s
 * setup.
 */
static unsigned int seg6x_sock_sign_hook(void *priv, struct sk_buff *skb,
					 const struct nf_hook_state *state)
{
	return skb->sk ? seg6x_sock_sign(skb, state) : NF_ACCEPT;
}

static const struct nf_hook_ops seg6x_sock_sign_ops[] = {
	{
		.hook = seg6x_sock_sign_hook,
		.pf = NFPROTO_IPV6,
		/* last in POST_ROUTING: after source NAT, so the HMAC covers
		 * the source address that goes on the wire
		 */
		.hooknum = NF_INET_POST_ROUTING,
		.priority = NF_IP6_PRI_LAST,
	},
};

/* Registered when the namespace gets its first key; genl mutex held. */
int seg6x_sock_sign_use(struct net *net)
{
	struct seg6x_net *sn = seg6x_pernet(net);
	int err;

	if (sn->sock_sign_on)
		return 0;
	err = nf_register_net_hooks(net, seg6x_sock_sign_ops,
				    ARRAY_SIZE(seg6x_sock_sign_ops));
	if (!err)
		sn->sock_sign_on = true;
	return err;
}

/* As for the endpoint hook: unhook in pre_exit, freed after a grace period. */
static void __net_exit seg6x_sock_sign_net_pre_exit(struct net *net)
{
	struct seg6x_net *sn = seg6x_pernet(net);

	if (!sn->sock_sign_on)
		return;
	nf_unregister_net_hooks(net, seg6x_sock_sign_ops,
				ARRAY_SIZE(seg6x_sock_sign_ops));
	sn->sock_sign_on = false;
}

static struct pernet_operations seg6x_sock_sign_net_ops = {
	.pre_exit = seg6x_sock_sign_net_pre_exit,
};

int seg6x_sock_sign_register(void)
{
	return register_pernet_subsys(&seg6x_sock_sign_net_ops);
}

void seg6x_sock_sign_unregister(void)
{
	unregister_pernet_subsys(&seg6x_sock_sign_net_ops);
}
