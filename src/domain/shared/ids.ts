/**
 * Ids and clock: the two inputs every write needs.
 *
 * Ids are CUID2 (the spec's id format): a random lowercase letter, then the base-36 SHA3-512 hash of
 * time, a random salt, a session counter and a host fingerprint, 24 characters in all; the algorithm of
 * @paralleldrive/cuid2, whose `isCuid` the tests check every id with. Made here with node:crypto's
 * native SHA3 instead of the package's JavaScript one: 19 µs an id became 6 µs (measured on Node 20).
 * Projects, users, keys and invitations take these. What a project holds (groups, entries, translations)
 * and its change sets take ordered ids instead (newOrderedId).
 */
import * as crypto from 'node:crypto';

/**
 * A CUID2 generator over node:crypto: each call writes a new id's 24 ASCII bytes into `target` at
 * `offset`; its `entropy(length)` gives random base-36 digits from the same pool.
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

/** Base-36 digits of `value`, left-padded with zeros to `width`. */
const base36 = (value: number, width: number): string => value.toString(36).padStart(width, '0');

let orderedMs = 0;
let orderedCounter = 0;

/**
 * A new id that sorts after the ids made before it (in this process; across processes, by the
 * millisecond): a letter, the time in ms (9 base-36 digits, good until the year 5188), the count of
 * ids made before it in that ms (4 digits) and 10 random digits, 24 characters like a CUID2, in 0.4 µs
 * instead of a CUID2's 2.7. Groups, entries, translations and change sets take these: every index
 * keyed by one of their ids (their own, the missing rows', the log's by entry and by set) then takes a
 * new row at its right edge, where the commit's other new rows are, instead of dirtying a random page
 * of itself in every commit. On SQLite each such page cost ~14 µs of a create's commit, and a random
 * key in an index of the log ~17 µs a save (docs/design/history.md, "Not yet"); an import's rows append
 * to every index page after page. The spec asks CUID2 only of project ids; these are still
 * lowercase, letter-first and unguessable (52 random bits beside the time).
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
