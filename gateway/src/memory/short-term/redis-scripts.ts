/**
 * The Lua scripts of the Redis short-term tier. Each runs atomically on the server and names
 * every key it touches. Per session there are three keys:
 * - `o:<session>`, a sorted set of item ids scored by write order (newest = highest);
 * - `x:<session>`, a sorted set of item ids scored by expiry (epoch ms by the gateway's clock);
 * - `d:<session>`, a hash from item id to the item's JSON.
 * and one index, `sessions`, a sorted set of session ids scored by their latest expiry.
 * Every script first purges the session's items whose expiry is at or before `now`, so an
 * expired item is never returned. Redis key TTLs (at least the longest item TTL, in real time)
 * make idle sessions vanish even if nobody reads them again: memory never grows without bound.
 */

const PURGE = `
local function purge(order, expiry, items, now)
  local expired = redis.call('ZRANGEBYSCORE', expiry, '-inf', now)
  for _, id in ipairs(expired) do
    redis.call('ZREM', order, id)
    redis.call('HDEL', items, id)
  end
  if #expired > 0 then
    redis.call('ZREMRANGEBYSCORE', expiry, '-inf', now)
  end
end
`;

/**
 * KEYS: order, expiry, items, sessions.
 * ARGV: id, json, expiresAt, now, keyTtlMs, maxItems, sessionId.
 */
export const ADD = `${PURGE}
purge(KEYS[1], KEYS[2], KEYS[3], ARGV[4])
local top = redis.call('ZREVRANGE', KEYS[1], 0, 0, 'WITHSCORES')
local seq = 1
if top[2] then seq = tonumber(top[2]) + 1 end
redis.call('ZADD', KEYS[1], seq, ARGV[1])
redis.call('ZADD', KEYS[2], ARGV[3], ARGV[1])
redis.call('HSET', KEYS[3], ARGV[1], ARGV[2])
local excess = redis.call('ZCARD', KEYS[1]) - tonumber(ARGV[6])
if excess > 0 then
  local oldest = redis.call('ZRANGE', KEYS[1], 0, excess - 1)
  for _, id in ipairs(oldest) do
    redis.call('ZREM', KEYS[1], id)
    redis.call('ZREM', KEYS[2], id)
    redis.call('HDEL', KEYS[3], id)
  end
end
local latest = redis.call('ZSCORE', KEYS[4], ARGV[7])
if (not latest) or tonumber(latest) < tonumber(ARGV[3]) then
  redis.call('ZADD', KEYS[4], ARGV[3], ARGV[7])
end
redis.call('ZREMRANGEBYSCORE', KEYS[4], '-inf', ARGV[4])
local ttl = tonumber(ARGV[5])
for i = 1, 4 do
  if redis.call('PTTL', KEYS[i]) < ttl then
    redis.call('PEXPIRE', KEYS[i], ttl)
  end
end
return 1
`;

/** KEYS: order, expiry, items. ARGV: now, limit. The newest items' JSON (nil for none). */
export const RECENT = `${PURGE}
purge(KEYS[1], KEYS[2], KEYS[3], ARGV[1])
local ids = redis.call('ZREVRANGE', KEYS[1], 0, tonumber(ARGV[2]) - 1)
if #ids == 0 then
  return {}
end
return redis.call('HMGET', KEYS[3], unpack(ids))
`;

/** KEYS: order, expiry, items. ARGV: now. Every unexpired item as id, json, id, json, ... */
export const ALL = `${PURGE}
purge(KEYS[1], KEYS[2], KEYS[3], ARGV[1])
return redis.call('HGETALL', KEYS[3])
`;

/**
 * KEYS: order, expiry, items, sessions. ARGV: now, sessionId. How many unexpired items the
 * session has; a session left with none is dropped from the index.
 */
export const COUNT = `${PURGE}
purge(KEYS[1], KEYS[2], KEYS[3], ARGV[1])
local count = redis.call('ZCARD', KEYS[1])
if count == 0 then
  redis.call('ZREM', KEYS[4], ARGV[2])
end
return count
`;

/** KEYS: order, expiry, items, sessions. ARGV: sessionId, id, id, ... How many were removed. */
export const REMOVE = `
local removed = 0
for i = 2, #ARGV do
  removed = removed + redis.call('HDEL', KEYS[3], ARGV[i])
  redis.call('ZREM', KEYS[1], ARGV[i])
  redis.call('ZREM', KEYS[2], ARGV[i])
end
if redis.call('ZCARD', KEYS[1]) == 0 then
  redis.call('DEL', KEYS[1], KEYS[2], KEYS[3])
  redis.call('ZREM', KEYS[4], ARGV[1])
end
return removed
`;

/**
 * KEYS: order, expiry, items, sessions. ARGV: sessionId, now, id, id, ... How many of those
 * unexpired items were removed (ids the session does not hold count nothing).
 */
export const REMOVE_IDS = `${PURGE}
purge(KEYS[1], KEYS[2], KEYS[3], ARGV[2])
local removed = 0
for i = 3, #ARGV do
  if redis.call('HDEL', KEYS[3], ARGV[i]) == 1 then
    removed = removed + 1
    redis.call('ZREM', KEYS[1], ARGV[i])
    redis.call('ZREM', KEYS[2], ARGV[i])
  end
end
if redis.call('ZCARD', KEYS[1]) == 0 then
  redis.call('DEL', KEYS[1], KEYS[2], KEYS[3])
  redis.call('ZREM', KEYS[4], ARGV[1])
end
return removed
`;

/** KEYS: order, expiry, items, sessions. ARGV: sessionId, now. How many unexpired were removed. */
export const CLEAR = `${PURGE}
purge(KEYS[1], KEYS[2], KEYS[3], ARGV[2])
local count = redis.call('ZCARD', KEYS[1])
redis.call('DEL', KEYS[1], KEYS[2], KEYS[3])
redis.call('ZREM', KEYS[4], ARGV[1])
return count
`;

/** KEYS: sessions. ARGV: now. Drops sessions whose every item has expired; returns the rest. */
export const SESSIONS = `
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', ARGV[1])
return redis.call('ZRANGE', KEYS[1], 0, -1)
`;
