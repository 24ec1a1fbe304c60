/**
 * Whether `target.ping()` answers true within `ms` (a slow answer or a rejection counts as no
 * answer). The resilient stores probe their primary backend with it.
 */
export async function answersWithin(
  target: { ping(): Promise<boolean> },
  ms: number,
): Promise<boolean> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<boolean>((resolve) => {
    timer = setTimeout(() => resolve(false), ms);
  });
  try {
    return await Promise.race([target.ping().catch(() => false), timeout]);
  } finally {
    clearTimeout(timer);
  }
}
