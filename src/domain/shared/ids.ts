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
 * A CUID2 generator over node:crypto: each call writes a new id's 24 ASCII bytes into `target` at
 * `offset`; its `entropy(length)` gives random base-36 digits from the same pool. Self-contained (it
 * uses only its argument), so that the worker thread runs this very function from its source text.
 */
function idWriter(nodeCrypto: typeof crypto): ((target: Buffer, offset: number) => void) & { entropy: (length: number) => string } {
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
  const DIGITS = '0123456789abcdefghijklmnopqrstuvwxyz';
  // Random base-36 characters (the package's salt and entropy, without Math.random); 252 = 7 × 36 keeps them unbiased.
  const entropy = (length: number): string => {
    let text = '';
    while (text.length < length) {
      const byte = randomByte();
      if (byte < 252) text += DIGITS[byte % 36];
    }
    return text;
  };
  // One-shot hashing (Node 20.12 and later) costs half of a Hash object's.
  const sha3 = (input: string): string =>
    typeof nodeCrypto.hash === 'function' ? nodeCrypto.hash('sha3-512', input, 'hex') : nodeCrypto.createHash('sha3-512').update(input).digest('hex');
  // SHA3-512 of the input as a base-36 number, its first (biased) digit dropped.
  const hash = (input: string): string => BigInt(`0x${sha3(input)}`).toString(36).slice(1);
  const fingerprint = hash(`${Object.keys(globalThis).toString()}${entropy(BIG_LENGTH)}`).slice(0, BIG_LENGTH);
  let counter = nodeCrypto.randomInt(INITIAL_COUNT_MAX);
  const write = (target: Buffer, offset: number): void => {
    let byte = randomByte();
    while (byte >= 234) byte = randomByte(); // 234 = 9 × 26: unbiased letters
    target[offset] = 97 + (byte % 26);
    const input = `${Date.now().toString(36)}${entropy(LENGTH)}${(counter++).toString(36)}${fingerprint}`;
    target.write(hash(input).slice(1), offset + 1, LENGTH - 1, 'latin1'); // as the package: the hash's digits from its third on
  };
  return Object.assign(write, { entropy });
}

const writeId = idWriter(crypto);
const scratch = Buffer.alloc(24);

/**
 * A new CUID2 id (the spec's project id format, used for every resource). Read out of a buffer as one
 * flat string: built by concatenation and slicing, an id kept its whole 99-digit hash alive behind
 * it (184 bytes an id instead of 40).
 */
export function newId(): string {
  writeId(scratch, 0);
  return scratch.toString('latin1');
}

/**
 * Sorts `count` records of `width` bytes (ASCII ids) into ascending order: a least-significant-digit
 * radix sort, one counting pass per byte position, in a few typed arrays (no strings). Self-contained,
 * for the worker thread.
 */
function sortRecords(bytes: Buffer, count: number, width: number): Buffer {
  let order = new Uint32Array(count);
  let next = new Uint32Array(count);
  for (let i = 0; i < count; i += 1) order[i] = i;
  const starts = new Uint32Array(257);
  for (let position = width - 1; position >= 0; position -= 1) {
    starts.fill(0);
    for (let i = 0; i < count; i += 1) starts[bytes[order[i]! * width + position]! + 1]! += 1;
    for (let value = 0; value < 256; value += 1) starts[value + 1]! += starts[value]!;
    for (let i = 0; i < count; i += 1) {
      const record = order[i]!;
      next[starts[bytes[record * width + position]!]!++] = record;
    }
    [order, next] = [next, order];
  }
  const sorted = Buffer.alloc(count * width);
  for (let i = 0; i < count; i += 1) bytes.copy(sorted, i * width, order[i]! * width, (order[i]! + 1) * width);
  return sorted;
}

/** Below this, making the ids here is cheaper than starting a thread. */
const WORKER_THRESHOLD = 20_000;

/** The i-th of a batch of ids made ahead; past the batch's end, a new one. */
export type IdSource = (index: number) => string;

/** CUID2 ids are always this long: a batch travels as one buffer, each id a slice of it. */
const ID_LENGTH = 24;

/**
 * `count` new ids, made by a worker thread (started for this call, gone after it) while the caller goes
 * on: a large import asks for its translations' ids before it plans, and has them by the time it writes.
 * They come back in ascending order (rows written in the batch's order then go into the id index page
 * after page, see ascendingIds in the import), as one buffer moved between the threads (17 MB for
 * 720,000 ids instead of 720,000 strings copied), each id read out of it when it is written.
 */
export function newIds(count: number): Promise<IdSource> {
  const fresh: IdSource = () => newId();
  if (count < WORKER_THRESHOLD) return Promise.resolve(fresh);
  const source = `const write = (${idWriter.toString()})(require('node:crypto'));
const sortRecords = ${sortRecords.toString()};
const { parentPort, workerData: count } = require('node:worker_threads');
const made = Buffer.alloc(count * ${ID_LENGTH});
for (let i = 0; i < count; i += 1) write(made, i * ${ID_LENGTH});
const sorted = sortRecords(made, count, ${ID_LENGTH});
parentPort.postMessage(sorted.buffer, [sorted.buffer]);`;
  return new Promise((resolve) => {
    const worker = new Worker(source, { eval: true, workerData: count });
    worker.once('message', (buffer: ArrayBuffer) => {
      const bytes = Buffer.from(buffer, 0, count * ID_LENGTH);
      resolve((index) => (index < count ? bytes.toString('latin1', index * ID_LENGTH, (index + 1) * ID_LENGTH) : newId()));
      void worker.terminate();
    });
    // Ids can always be made here instead (more slowly): a thread that fails must not fail the write.
    worker.once('error', () => resolve(fresh));
  });
}

/** Base-36 digits of `value`, left-padded with zeros to `width`. */
const base36 = (value: number, width: number): string => value.toString(36).padStart(width, '0');

let orderedMs = 0;
let orderedCounter = 0;

/**
 * A new id that sorts after the ids made before it (in this process; across processes, by the
 * millisecond): a letter, the time in ms (9 base-36 digits, good until the year 5188), the count of
 * ids made before it in that ms (4 digits) and 10 random digits, 24 characters like a CUID2. Change
 * sets take these: the unique index on a set's id then grows at its right edge, as the log does,
 * instead of dirtying a random page of itself in every save's commit (a random id cost ~20 µs of the
 * ~60 µs a save's statements took in a microbench on SQLite: docs/design/history.md, "Not yet").
 * The spec asks CUID2 only of project ids; these are still lowercase, letter-first and unguessable.
 */
export function newOrderedId(): string {
  const now = Date.now();
  // a clock set back keeps counting on from the later time: the ids stay ascending
  if (now > orderedMs) [orderedMs, orderedCounter] = [now, 0];
  else orderedCounter += 1;
  if (orderedCounter >= 36 ** 4) [orderedMs, orderedCounter] = [orderedMs + 1, 0];
  return `c${base36(orderedMs, 9)}${base36(orderedCounter, 4)}${writeId.entropy(10)}`;
}

/** The current time as the ISO 8601 UTC text every timestamp is stored and served as. */
export const nowIso = (): string => new Date().toISOString();
