/**
 * The Lua scripts of the Redis approval board. Each runs atomically on the server and names
 * every key it touches. Per approval there are two keys:
 * - `e:<id>`, the entry's JSON ({approval, owner}) with a TTL of the approval's expiry + margin;
 * - `v:<id>`, the decision of the claim that took it (`approved` | `denied`), kept until the
 *   owner's expiry has passed: the owner reads it back when a verdict message wakes it up, at
 *   its expiry, and after an outage.
 * Both values are signed for their key with the cluster secret (scale-out/bus-seal.ts); the
 * scripts store and return them as they are, the board checks them.
 * and one index, `pending`, a sorted set of ids scored by publication time (epoch ms).
 * The index may hold ids whose entry has expired: readers skip and drop them.
 *
 * Each gateway's presence key (scale-out/presence.ts) says whether the owner of an entry is
 * alive: an entry whose owner is gone can never be carried out, so a claim refuses it and
 * removes it. Publishing and restoring write the publisher's own presence key too: a gateway
 * back from an outage is alive as soon as its entries are on the board again.
 */

/** KEYS: entry, index, own presence. ARGV: id, json, ttlMs, score, presenceTtlMs. */
export const PUBLISH = `
redis.call('SET', KEYS[1], ARGV[2], 'PX', ARGV[3])
redis.call('ZADD', KEYS[2], ARGV[4], ARGV[1])
if redis.call('PTTL', KEYS[2]) < tonumber(ARGV[3]) then
  redis.call('PEXPIRE', KEYS[2], ARGV[3])
end
redis.call('SET', KEYS[3], '1', 'PX', ARGV[5])
return 1
`;

/** What CLAIM answers when the entry's owner is gone (the entry is then removed). */
export const OWNER_GONE = 'owner-gone';

/**
 * KEYS: entry, index, decision, presence of the entry's owner. ARGV: id, decision, marginMs,
 * owner, claimer. Takes the entry off the board and records the decision; returns the entry's
 * JSON, false when there was nothing to claim, or OWNER_GONE when the owner's presence key is
 * gone (the entry is removed, no decision recorded). A claimer is alive by definition, so its
 * own entries are never refused. Of concurrent claims exactly one gets the entry.
 *
 * The caller reads the owner from the entry first: only its owner ever writes an id's entry,
 * so the owner cannot change between that read and this script.
 */
export const CLAIM = `
local json = redis.call('GET', KEYS[1])
redis.call('ZREM', KEYS[2], ARGV[1])
if not json then
  return false
end
if ARGV[4] ~= ARGV[5] and redis.call('EXISTS', KEYS[4]) == 0 then
  redis.call('DEL', KEYS[1])
  return '${OWNER_GONE}'
end
local ttl = redis.call('PTTL', KEYS[1])
if ttl < 0 then ttl = 0 end
redis.call('DEL', KEYS[1])
redis.call('SET', KEYS[3], ARGV[2], 'PX', ttl + tonumber(ARGV[3]))
return json
`;

/**
 * KEYS: entry, index, decision, own presence. ARGV: id, json, ttlMs, score, presenceTtlMs.
 * Publishes the entry again (after Redis lost it or missed it during an outage, or a peer
 * removed it while this gateway looked gone) unless a claim already decided it; returns that
 * decision, or false when the entry is on the board again.
 */
export const RESTORE = `
redis.call('SET', KEYS[4], '1', 'PX', ARGV[5])
local decided = redis.call('GET', KEYS[3])
if decided then
  return decided
end
redis.call('SET', KEYS[1], ARGV[2], 'PX', ARGV[3])
redis.call('ZADD', KEYS[2], ARGV[4], ARGV[1])
if redis.call('PTTL', KEYS[2]) < tonumber(ARGV[3]) then
  redis.call('PEXPIRE', KEYS[2], ARGV[3])
end
return false
`;
