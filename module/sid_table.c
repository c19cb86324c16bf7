// SPDX-License-Identifier: GPL-2.0
/*
 * sid_table.c - the per-namespace local SID table (sid.h): lookup for the
 * packet path, insertion and removal for its writers, and the devices
 * its SIDs use going away.
 *
 * Locking: the packet path reads under RCU (the netfilter hook runs in
 * an RCU read-side section). Every writer holds RTNL: the SID netlink
 * handlers take it, and the netdevice notifier runs under it. Holding
 * RTNL across "the device exists" and "the SID is in the table" means a
 * device cannot go away between the two unseen.
 */
#include <linux/bitmap.h>
#include <linux/hash.h>
#include <linux/rhashtable.h>
#include <linux/rtnetlink.h>
#include <linux/slab.h>
#include <net/ipv6.h>

#include "sid.h"

/* The hash key, laid out as prefix and plen are in struct seg6x_sid. */
struct seg6x_sid_key {
	struct in6_addr prefix;
	u8 plen;
};

#define SEG6X_SID_KEY_LEN	offsetofend(struct seg6x_sid_key, plen)
static_assert(offsetof(struct seg6x_sid, plen) ==
	      offsetof(struct seg6x_sid, prefix) +
	      offsetof(struct seg6x_sid_key, plen));

static const struct rhashtable_params seg6x_sid_ht_params = {
	.head_offset = offsetof(struct seg6x_sid, hnode),
	.key_offset = offsetof(struct seg6x_sid, prefix),
	.key_len = SEG6X_SID_KEY_LEN,
	.automatic_shrinking = true,
};

static struct seg6x_sid_table *seg6x_sid_table_new(void)
{
	struct seg6x_sid_table *t;

	t = kzalloc(sizeof(*t), GFP_KERNEL_ACCOUNT);
	if (!t)
		return NULL;
	if (rhashtable_init(&t->ht, &seg6x_sid_ht_params)) {
		kfree(t);
		return NULL;
	}
	INIT_LIST_HEAD(&t->all);
	return t;
}

/* The namespace's table, created with its first SID. RTNL. */
struct seg6x_sid_table *seg6x_sid_table_get(struct seg6x_net *sn)
{
	struct seg6x_sid_table *t = rtnl_dereference(sn->sids);

	if (!t) {
		t = seg6x_sid_table_new();
		if (t)
			rcu_assign_pointer(sn->sids, t);
	}
	return t;
}

struct seg6x_sid *seg6x_sid_lookup(struct seg6x_net *sn,
				   const struct in6_addr *daddr)
{
	struct seg6x_sid_table *t = rcu_dereference(sn->sids);
	unsigned long lens[ARRAY_SIZE(t->lens)];
	int w;

	if (!t)
		return NULL;
	/* A snapshot of the lengths in use; a writer changing them meanwhile
	 * makes this lookup miss or probe a length in vain, never crash.
	 */
	for (w = 0; w < ARRAY_SIZE(lens); w++)
		lens[w] = READ_ONCE(t->lens[w]);

	for (w = ARRAY_SIZE(lens) - 1; w >= 0; w--) {
		while (lens[w]) {
			unsigned int bit = __fls(lens[w]);
			struct seg6x_sid_key key;
			struct seg6x_sid *sid;

			lens[w] &= ~BIT(bit);
			key.plen = w * BITS_PER_LONG + bit;
			ipv6_addr_prefix(&key.prefix, daddr, key.plen);
			sid = rhashtable_lookup(&t->ht, &key,
						seg6x_sid_ht_params);
			if (sid)
				return sid;
		}
	}
	return NULL;
}

/* Writers: RTNL. */
struct seg6x_sid *seg6x_sid_find(struct seg6x_sid_table *t,
				 const struct in6_addr *masked, u8 plen)
{
	struct seg6x_sid_key key = { .prefix = *masked, .plen = plen };

	return rhashtable_lookup_fast(&t->ht, &key, seg6x_sid_ht_params);
}

void seg6x_sid_free(struct seg6x_sid *sid)
{
	free_percpu(sid->pcpu);
	kfree(sid);
}

static void seg6x_sid_free_rcu(struct rcu_head *head)
{
	seg6x_sid_free(container_of(head, struct seg6x_sid, rcu));
}

static struct hlist_head *seg6x_sid_dev_head(struct seg6x_sid_table *t,
					     int ifindex)
{
	return &t->dev_heads[hash_32(ifindex, SEG6X_SID_DEV_HASH_BITS)];
}

/* The rest of unlinking a SID the hash no longer holds; freed after RCU. */
static void seg6x_sid_forget(struct seg6x_net *sn, struct seg6x_sid_table *t,
			     struct seg6x_sid *sid)
{
	list_del_rcu(&sid->list);
	if (sid->oif)
		hlist_del(&sid->oif_node);
	if (sid->vrf)
		hlist_del(&sid->vrf_node);
	if (!--t->len_refs[sid->plen])
		clear_bit(sid->plen, t->lens);
	WRITE_ONCE(sn->nsids, sn->nsids - 1);
	call_rcu(&sid->rcu, seg6x_sid_free_rcu);
}

/*
 * Put @sid in the table, in place of @old if there is one: the hash swaps
 * them in one step, so a reader always finds one of the two. @old is
 * freed after a grace period.
 */
int seg6x_sid_insert(struct seg6x_net *sn, struct seg6x_sid_table *t,
		     struct seg6x_sid *sid, struct seg6x_sid *old)
{
	int err;

	if (old)
		err = rhashtable_replace_fast(&t->ht, &old->hnode, &sid->hnode,
					      seg6x_sid_ht_params);
	else
		err = rhashtable_insert_fast(&t->ht, &sid->hnode,
					     seg6x_sid_ht_params);
	if (err)
		return err;
	list_add_tail_rcu(&sid->list, &t->all);
	if (sid->oif)
		hlist_add_head(&sid->oif_node,
			       seg6x_sid_dev_head(t, sid->oif));
	if (sid->vrf)
		hlist_add_head(&sid->vrf_node,
			       seg6x_sid_dev_head(t, sid->vrf));
	if (!t->len_refs[sid->plen]++)
		set_bit(sid->plen, t->lens);
	WRITE_ONCE(sn->nsids, sn->nsids + 1);
	if (old)
		seg6x_sid_forget(sn, t, old);
	return 0;
}

void seg6x_sid_remove(struct seg6x_net *sn, struct seg6x_sid_table *t,
		      struct seg6x_sid *sid)
{
	/* Cannot fail: @sid is in the table (RTNL held since it was found). */
	rhashtable_remove_fast(&t->ht, &sid->hnode, seg6x_sid_ht_params);
	seg6x_sid_forget(sn, t, sid);
}

void seg6x_sid_flush(struct seg6x_net *sn)
{
	struct seg6x_sid_table *t = rtnl_dereference(sn->sids);
	struct seg6x_sid *sid, *tmp;

	if (!t)
		return;
	list_for_each_entry_safe(sid, tmp, &t->all, list)
		seg6x_sid_remove(sn, t, sid);
}

/* ---- devices going away, namespaces going away -------------------- */

/*
 * A SID whose interface or VRF is unregistered keeps its place (so that
 * `sid show` tells why traffic stops) but drops and counts what it
 * matches from now on; the device's ifindex can be reused later, so the
 * flag stays until the SID is replaced or deleted.
 */
static int seg6x_sid_netdev_event(struct notifier_block *nb,
				  unsigned long event, void *ptr)
{
	struct net_device *dev = netdev_notifier_info_to_dev(ptr);
	struct seg6x_sid_table *t;
	struct hlist_head *head;
	struct seg6x_sid *sid;

	if (event != NETDEV_UNREGISTER)
		return NOTIFY_DONE;
	t = rtnl_dereference(seg6x_pernet(dev_net(dev))->sids);
	if (!t)
		return NOTIFY_DONE;
	/* Only the SIDs that name a device with this index's hash. */
	head = seg6x_sid_dev_head(t, dev->ifindex);
	hlist_for_each_entry(sid, head, oif_node)
		if (sid->oif == dev->ifindex)
			WRITE_ONCE(sid->dead, true);
	hlist_for_each_entry(sid, head, vrf_node)
		if (sid->vrf == dev->ifindex)
			WRITE_ONCE(sid->dead, true);
	return NOTIFY_DONE;
}

static struct notifier_block seg6x_sid_notifier = {
	.notifier_call = seg6x_sid_netdev_event,
};

/* After the hook is gone and a grace period passed: no readers. */
static void __net_exit seg6x_sid_net_exit(struct net *net)
{
	struct seg6x_net *sn = seg6x_pernet(net);
	struct seg6x_sid_table *t = rcu_dereference_protected(sn->sids, true);
	struct seg6x_sid *sid, *tmp;

	if (!t)
		return;
	list_for_each_entry_safe(sid, tmp, &t->all, list)
		seg6x_sid_free(sid);
	rhashtable_destroy(&t->ht);
	kfree(t);
	RCU_INIT_POINTER(sn->sids, NULL);
	sn->nsids = 0;
}

static struct pernet_operations seg6x_sid_net_ops = {
	.exit = seg6x_sid_net_exit,
};

int seg6x_sid_register(void)
{
	return seg6x_subsys_register(&seg6x_sid_net_ops, &seg6x_sid_notifier);
}

void seg6x_sid_unregister(void)
{
	seg6x_subsys_unregister(&seg6x_sid_net_ops, &seg6x_sid_notifier);
	/* SIDs deleted before unload are freed by RCU callbacks. */
	rcu_barrier();
}
