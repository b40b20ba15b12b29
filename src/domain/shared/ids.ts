/**
 * Ids and clock: the two inputs every write needs.
 *
 * Ids are CUID2 (the spec's id format): a random lowercase letter, then the base-36 SHA3-512 hash of
 * time, a random salt, a session counter and a host fingerprint, 24 characters in all; the algorithm of
 * @paralleldrive/cuid2, whose `isCuid` the tests check every id with. Made here with node:crypto's
 * native SHA3 instead of the package's JavaScript one: 19 µs an id became 4 µs (measured on Node 20),
 * which an import of a million translations needs (22 s of ids → 5 s).
 */
import { createHash, randomBytes, randomInt } from 'node:crypto';

/** CSPRNG bytes drawn from a pool: one randomBytes call per 16 KiB instead of one per id. */
const POOL_SIZE = 16 * 1024;
let pool = randomBytes(POOL_SIZE);
let poolAt = 0;

function randomByte(): number {
  if (poolAt === POOL_SIZE) {
    pool = randomBytes(POOL_SIZE);
    poolAt = 0;
  }
  return pool[poolAt++]!;
}

const LENGTH = 24;
const BIG_LENGTH = 32;
const INITIAL_COUNT_MAX = 476782367;

/** Random base-36 characters from the CSPRNG (the package's salt and entropy, without Math.random). */
function entropy(length: number): string {
  let text = '';
  while (text.length < length) {
    const byte = randomByte();
    // 252 = 7 × 36: bytes above it are dropped, so every digit is equally likely.
    if (byte < 252) text += (byte % 36).toString(36);
  }
  return text;
}

/** SHA3-512 of the input as a base-36 number, its first (biased) digit dropped. */
function hash(input: string): string {
  const digest = createHash('sha3-512').update(input).digest('hex');
  return BigInt(`0x${digest}`).toString(36).slice(1);
}

const fingerprint = hash(`${Object.keys(globalThis).toString()}${entropy(BIG_LENGTH)}`).slice(0, BIG_LENGTH);
let counter = randomInt(INITIAL_COUNT_MAX);

/** A new CUID2 id (the spec's project id format, used for every resource). */
export function newId(): string {
  let byte = randomByte();
  while (byte >= 234) byte = randomByte(); // 234 = 9 × 26: unbiased letters
  const letter = String.fromCharCode(97 + (byte % 26));
  const input = `${Date.now().toString(36)}${entropy(LENGTH)}${(counter++).toString(36)}${fingerprint}`;
  return `${letter}${hash(input).slice(1, LENGTH)}`;
}

/** The current time as the ISO 8601 UTC text every timestamp is stored and served as. */
export const nowIso = (): string => new Date().toISOString();
