/** Discord's ids (snowflakes): decimal 64-bit integers that grow with time. */

const MAX_SNOWFLAKE = 2n ** 64n - 1n;

/** A Discord id: a decimal 64-bit integer above zero, in at most 20 digits. */
export const isSnowflake = (value: unknown): value is string =>
  typeof value === 'string' &&
  /^\d{1,20}$/.test(value) &&
  BigInt(value) > 0n &&
  BigInt(value) <= MAX_SNOWFLAKE;

/** Orders snowflakes by value (so by time), whatever their length. */
export const compareSnowflakes = (a: string, b: string): number => {
  const [x, y] = [BigInt(a), BigInt(b)];
  return x < y ? -1 : x > y ? 1 : 0;
};
