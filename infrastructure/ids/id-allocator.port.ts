/** Positive integer ids, one sequence per category (`user`, `company`, `unit`, ...). */
export type IdAllocator = { next(category: string): Promise<number> };
