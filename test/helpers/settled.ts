/** Resolves to what `promise` gave, or to 'pending' if it has not settled within `ms` (a write held up by a lock, say). */
export async function settledWithin<T>(promise: Promise<T>, ms: number): Promise<T | 'pending'> {
  return Promise.race([promise, new Promise<'pending'>((resolve) => setTimeout(() => resolve('pending'), ms))]);
}
