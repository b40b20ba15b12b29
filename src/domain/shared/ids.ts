/**
 * Ids and clock: the two inputs every write needs.
 *
 * Ids are CUID2 (the spec's id format): a random lowercase letter, then the base-36 SHA3-512 hash of
 * time, a random salt, a session counter and a host fingerprint, 24 characters in all; the algorithm of
 * @paralleldrive/cuid2, whose `isCuid` the tests check every id with. Made here with node:crypto's
 * native SHA3 instead of the package's JavaScript one: 19 µs an id became 6 µs (measured on Node 20).
 * A bulk write asks for many at once (newIds): a worker thread makes them on the other core meanwhile.
 */
import * as crypto from 'node:crypto';
import { Worker } from 'node:worker_threads';

/**
 * A CUID2 generator over node:crypto. Self-contained (it uses only its argument), so that the worker
 * thread runs this very function from its source text.
 */
function idGenerator(nodeCrypto: typeof crypto): () => string {
  const POOL_SIZE = 16 * 1024;
  const LENGTH = 24;
  const BIG_LENGTH = 32;
  const INITIAL_COUNT_MAX = 476782367;
  // CSPRNG bytes drawn from a pool: one randomBytes call per 16 KiB instead of one per id.
  let pool = nodeCrypto.randomBytes(POOL_SIZE);
  let poolAt = 0;
  const randomByte = (): number => {
    if (poolAt === POOL_SIZE) {
      pool = nodeCrypto.randomBytes(POOL_SIZE);
      poolAt = 0;
    }
    return pool[poolAt++]!;
  };
  // Random base-36 characters (the package's salt and entropy, without Math.random); 252 = 7 × 36 keeps them unbiased.
  const entropy = (length: number): string => {
    let text = '';
    while (text.length < length) {
      const byte = randomByte();
      if (byte < 252) text += (byte % 36).toString(36);
    }
    return text;
  };
  // SHA3-512 of the input as a base-36 number, its first (biased) digit dropped.
  const hash = (input: string): string => BigInt(`0x${nodeCrypto.createHash('sha3-512').update(input).digest('hex')}`).toString(36).slice(1);
  const fingerprint = hash(`${Object.keys(globalThis).toString()}${entropy(BIG_LENGTH)}`).slice(0, BIG_LENGTH);
  let counter = nodeCrypto.randomInt(INITIAL_COUNT_MAX);
  return () => {
    let byte = randomByte();
    while (byte >= 234) byte = randomByte(); // 234 = 9 × 26: unbiased letters
    const letter = String.fromCharCode(97 + (byte % 26));
    const input = `${Date.now().toString(36)}${entropy(LENGTH)}${(counter++).toString(36)}${fingerprint}`;
    return `${letter}${hash(input).slice(1, LENGTH)}`;
  };
}

/** A new CUID2 id (the spec's project id format, used for every resource). */
export const newId: () => string = idGenerator(crypto);

/** Below this, making the ids here is cheaper than starting a thread. */
const WORKER_THRESHOLD = 20_000;

/** The i-th of a batch of ids made ahead; past the batch's end, a new one. */
export type IdSource = (index: number) => string;

/** CUID2 ids are always this long: a batch travels as one string, each id a slice of it. */
const ID_LENGTH = 24;

/**
 * `count` new ids, made by a worker thread (started for this call, gone after it) while the caller goes
 * on: a large import asks for its translations' ids before it plans, and has them by the time it writes.
 * They come back as one string (17 MB for 720,000 ids instead of an array of 720,000 strings, copied
 * once more between the threads).
 */
export function newIds(count: number): Promise<IdSource> {
  const fresh: IdSource = () => newId();
  if (count < WORKER_THRESHOLD) return Promise.resolve(fresh);
  const source = `const make = (${idGenerator.toString()})(require('node:crypto'));
const { parentPort, workerData } = require('node:worker_threads');
let ids = '';
for (let i = 0; i < workerData; i += 1) ids += make();
parentPort.postMessage(ids);`;
  return new Promise((resolve, reject) => {
    const worker = new Worker(source, { eval: true, workerData: count });
    worker.once('message', (ids: string) => {
      resolve((index) => (index < count ? ids.slice(index * ID_LENGTH, (index + 1) * ID_LENGTH) : newId()));
      void worker.terminate();
    });
    worker.once('error', reject);
  });
}

/** The current time as the ISO 8601 UTC text every timestamp is stored and served as. */
export const nowIso = (): string => new Date().toISOString();
