// SPDX-License-Identifier: GPL-2.0
/*
 * hmac.c - HMAC keyring and computation.
 *
 * Each key owns a crypto_shash transform that is keyed once, when the key
 * is set: the HMAC inner/outer pads are precomputed there, so packets
 * never re-key (the original seg6 re-keyed per packet, which dominated its
 * HMAC cost). A keyed shash transform is read-only once set and may be
 * used by many CPUs at once; per-packet state lives in an on-stack
 * descriptor. The secret itself is not kept: only the transform holds
 * (derived) key material, and the crypto layer zeroes it when freed.
 *
 * Keys are published in an xarray and looked up under RCU. Replacing or
 * deleting a key frees the old transform after a grace period, from a
 * workqueue (freeing a transform may sleep), so packets in flight never
 * see a torn or freed key and the writer never blocks the genl mutex on
 * synchronize_rcu(). Keys are charged to the caller's memory cgroup and
 * limited per namespace.
 */
#include <crypto/hash.h>
#include <linux/slab.h>

#include "hmac.h"

struct seg6x_hmac_key {
	u32 keyid;
	u8 algo;
	struct crypto_shash *tfm;
	struct rcu_work free_work;
};

static const char *const seg6x_hmac_algo_name[] = {
	[SEG6X_HMAC_ALGO_SHA1] = "hmac(sha1)",
	[SEG6X_HMAC_ALGO_SHA256] = "hmac(sha256)",
};

static void seg6x_hmac_key_free(struct seg6x_hmac_key *key)
{
	if (!key)
		return;
	crypto_free_shash(key->tfm);
	kfree(key);
}

static void seg6x_hmac_key_free_work(struct work_struct *work)
{
	seg6x_hmac_key_free(container_of(to_rcu_work(work),
					 struct seg6x_hmac_key, free_work));
}

/* Old keys are freed here, so that module unload can wait for them. */
static struct workqueue_struct *seg6x_hmac_wq;

/* Free @key once every reader that may have found it is done. */
static void seg6x_hmac_key_free_rcu(struct seg6x_hmac_key *key)
{
	INIT_RCU_WORK(&key->free_work, seg6x_hmac_key_free_work);
	queue_rcu_work(seg6x_hmac_wq, &key->free_work);
}

/* Genl mutex held (the only writer). */
static unsigned int seg6x_hmac_count(struct seg6x_net *sn)
{
	struct seg6x_hmac_key *key;
	unsigned long idx;
	unsigned int n = 0;

	xa_for_each(&sn->hmac_keys, idx, key)
		n++;
	return n;
}

int seg6x_hmac_set(struct seg6x_net *sn, u32 keyid, u8 algo,
		   const u8 *secret, unsigned int len)
{
	struct seg6x_hmac_key *key, *old;
	int err;

	if (algo < SEG6X_HMAC_ALGO_SHA1 || algo > SEG6X_HMAC_ALGO_MAX)
		return -EINVAL;

	if (!xa_load(&sn->hmac_keys, keyid) &&
	    seg6x_hmac_count(sn) >= SEG6X_HMAC_KEYS_MAX)
		return -ENOSPC;

	key = kzalloc(sizeof(*key), GFP_KERNEL_ACCOUNT);
	if (!key)
		return -ENOMEM;
	key->keyid = keyid;
	key->algo = algo;

	key->tfm = crypto_alloc_shash(seg6x_hmac_algo_name[algo], 0, 0);
	if (IS_ERR(key->tfm)) {
		err = PTR_ERR(key->tfm);
		key->tfm = NULL;
		goto err_free;
	}
	if (crypto_shash_digestsize(key->tfm) > SEG6X_HMAC_FIELD_LEN) {
		err = -EINVAL;
		goto err_free;
	}
	err = crypto_shash_setkey(key->tfm, secret, len);
	if (err)
		goto err_free;

	old = xa_store(&sn->hmac_keys, keyid, key, GFP_KERNEL_ACCOUNT);
	if (xa_is_err(old)) {
		err = xa_err(old);
		goto err_free;
	}
	if (old)
		seg6x_hmac_key_free_rcu(old);
	return 0;

err_free:
	seg6x_hmac_key_free(key);
	return err;
}

int seg6x_hmac_del(struct seg6x_net *sn, u32 keyid)
{
	struct seg6x_hmac_key *old;

	old = xa_erase(&sn->hmac_keys, keyid);
	if (!old)
		return -ENOENT;
	seg6x_hmac_key_free_rcu(old);
	return 0;
}

static int __net_init seg6x_hmac_net_init(struct net *net)
{
	xa_init(&seg6x_pernet(net)->hmac_keys);
	return 0;
}

/* After the hooks' pre_exit and a grace period: no packet reads a key. */
static void __net_exit seg6x_hmac_net_exit(struct net *net)
{
	struct seg6x_net *sn = seg6x_pernet(net);
	struct seg6x_hmac_key *key;
	unsigned long idx;

	xa_for_each(&sn->hmac_keys, idx, key)
		seg6x_hmac_key_free(key);
	xa_destroy(&sn->hmac_keys);
}

static struct pernet_operations seg6x_hmac_net_ops = {
	.init = seg6x_hmac_net_init,
	.exit = seg6x_hmac_net_exit,
};

int seg6x_hmac_register(void)
{
	int err;

	seg6x_hmac_wq = alloc_workqueue("seg6x_hmac", WQ_UNBOUND, 0);
	if (!seg6x_hmac_wq)
		return -ENOMEM;
	err = register_pernet_subsys(&seg6x_hmac_net_ops);
	if (err)
		destroy_workqueue(seg6x_hmac_wq);
	return err;
}

/* Every namespace's keys are freed first: no new frees can be queued. */
void seg6x_hmac_unregister(void)
{
	unregister_pernet_subsys(&seg6x_hmac_net_ops);
	rcu_barrier();		/* queue_rcu_work()'s callbacks have run */
	destroy_workqueue(seg6x_hmac_wq);	/* and drained */
}

bool seg6x_hmac_next(struct seg6x_net *sn, unsigned long *pos, u32 *keyid,
		     u8 *algo)
{
	struct seg6x_hmac_key *key;

	key = xa_find(&sn->hmac_keys, pos, ULONG_MAX, XA_PRESENT);
	if (!key)
		return false;
	*keyid = key->keyid;
	*algo = key->algo;
	return true;
}

bool seg6x_hmac_exists(struct seg6x_net *sn, u32 keyid)
{
	return !!xa_load(&sn->hmac_keys, keyid);
}

/*
 * HMAC text, as the in-tree seg6 builds it: source address, Last Entry,
 * the flags byte, the key id (big endian) and the segment list in wire
 * order. Fed to the hash piece by piece: no per-packet buffer.
 */
int seg6x_hmac_compute(struct seg6x_net *sn, u32 keyid,
		       const struct in6_addr *saddr,
		       const struct ipv6_sr_hdr *srh,
		       u8 out[SEG6X_HMAC_FIELD_LEN])
{
	struct seg6x_hmac_key *key;
	__be32 be_keyid = cpu_to_be32(keyid);
	int err = -ENOKEY;

	memset(out, 0, SEG6X_HMAC_FIELD_LEN);

	rcu_read_lock();
	key = xa_load(&sn->hmac_keys, keyid);
	if (key) {
		SHASH_DESC_ON_STACK(desc, key->tfm);

		desc->tfm = key->tfm;
		err = crypto_shash_init(desc) ?:
		      crypto_shash_update(desc, (const u8 *)saddr, 16) ?:
		      crypto_shash_update(desc, &srh->first_segment, 1) ?:
		      crypto_shash_update(desc, &srh->flags, 1) ?:
		      crypto_shash_update(desc, (const u8 *)&be_keyid, 4) ?:
		      crypto_shash_update(desc, (const u8 *)srh->segments,
					  (srh->first_segment + 1) *
					  sizeof(struct in6_addr)) ?:
		      crypto_shash_final(desc, out);
		shash_desc_zero(desc);
	}
	rcu_read_unlock();
	return err;
}
