/**
 * The Lua scripts of the Redis approval board. Each runs atomically on the server and names
 * every key it touches. Per approval there are two keys:
 * - `e:<id>`, the entry's JSON ({approval, owner}) with a TTL of the approval's expiry + margin;
 * - `v:<id>`, the decision of the claim that took it (`approved` | `denied`), kept until the
 *   owner's expiry has passed so the owner can read it back if the verdict message was lost;
 * and one index, `pending`, a sorted set of ids scored by publication time (epoch ms).
 * The index may hold ids whose entry has expired: readers skip and drop them.
 */

/** KEYS: entry, index. ARGV: id, json, ttlMs, score. */
export const PUBLISH = `
redis.call('SET', KEYS[1], ARGV[2], 'PX', ARGV[3])
redis.call('ZADD', KEYS[2], ARGV[4], ARGV[1])
if redis.call('PTTL', KEYS[2]) < tonumber(ARGV[3]) then
  redis.call('PEXPIRE', KEYS[2], ARGV[3])
end
return 1
`;

/**
 * KEYS: entry, index, decision. ARGV: id, decision, marginMs. Takes the entry off the board and
 * records the decision; returns the entry's JSON, or false when there was nothing to claim. Of
 * concurrent claims exactly one gets the entry.
 */
export const CLAIM = `
local json = redis.call('GET', KEYS[1])
redis.call('ZREM', KEYS[2], ARGV[1])
if not json then
  return false
end
local ttl = redis.call('PTTL', KEYS[1])
if ttl < 0 then ttl = 0 end
redis.call('DEL', KEYS[1])
redis.call('SET', KEYS[3], ARGV[2], 'PX', ttl + tonumber(ARGV[3]))
return json
`;

/**
 * KEYS: entry, index, decision. ARGV: id, json, ttlMs, score. Publishes the entry again (after
 * Redis lost it or missed it during an outage) unless a claim already decided it; returns that
 * decision, or false when the entry is on the board again.
 */
export const RESTORE = `
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
