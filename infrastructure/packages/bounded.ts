/**
 * A function that runs at most `limit` calls at once in this process; the others wait their turn in
 * order. Costly work (unpacking a package) is bounded so that many uploads at once cannot exhaust memory.
 */
export const oneAtATime = <A extends unknown[], R>(limit: number, work: (...args: A) => Promise<R>) => {
  let running = 0;
  const waiting: (() => void)[] = [];
  return async (...args: A): Promise<R> => {
    if (running >= limit) await new Promise<void>((resolve) => waiting.push(resolve));
    else running += 1;
    try {
      return await work(...args);
    } finally {
      const next = waiting.shift();
      // The turn passes straight to the next waiting call; only when none waits does a place free up.
      if (next) next();
      else running -= 1;
    }
  };
};
