/**
 * Turns a generated request template into the bytes to send, against the world the run has built:
 * ids come from the request's project, keys from its caller; huge and deep bodies are made here.
 */
import type { Caller, FuzzRequest } from './fuzz-routes.js';
import { defineOwn, type IdRef, type PoolName } from './fuzz-values.js';
import type { RawRequest } from './raw-http.js';

/** A project of the run, with what the run knows it holds. */
export interface ProjectState {
  id: string;
  languages: string[];
  groups: string[];
  entries: string[];
}

/** The world a template is materialised against. */
export interface World {
  projects: ProjectState[];
  users: string[];
  foreign: Record<PoolName, string[]>;
  keys: Record<Caller, string>;
  emails: Record<'owner' | 'editor' | 'viewer' | 'bystander', string>;
}

// ---------------------------------------------------------------------------------------------
// Materialising a template

/** Percent-encodes everything but unreserved characters; lone surrogates as their (invalid) WTF-8 bytes. */
export function encodeLoose(value: string): string {
  let out = '';
  for (const char of value) {
    const code = char.codePointAt(0)!;
    if (code >= 0xd800 && code <= 0xdfff) {
      out += [0xe0 | (code >> 12), 0x80 | ((code >> 6) & 0x3f), 0x80 | (code & 0x3f)].map((b) => `%${b.toString(16).toUpperCase()}`).join('');
    } else {
      out += encodeURIComponent(char);
    }
  }
  return out;
}

/** Only what HTTP's request line cannot carry is escaped; `%`, quotes and the like go as they are. */
function encodeRaw(value: string): string {
  let out = '';
  for (const char of value) out += /^[\u0021-\u007e]$/.test(char) && char !== '#' && char !== '&' ? char : encodeLoose(char);
  return out;
}

/** One of the last `window` items (recent ids are the likeliest to exist). */
function pick(list: string[], index: number, window = 40): string {
  if (list.length === 0) return 'nosuchid';
  const size = Math.min(list.length, window);
  return list[list.length - size + (index % size)]!;
}

/**
 * The request's project: half the time one of the three seeded ones (members' requests always the
 * first, where they are members), else one of the last dozen the run made.
 */
function contextOf(world: World, request: FuzzRequest): ProjectState {
  const caller = request.auth?.caller;
  // The seeded projects live for the whole run: deleting one would starve every later request.
  const deletes = request.route === 'DELETE /projects/{id}';
  if (!deletes && (caller === 'editor' || caller === 'viewer')) return world.projects[0]!;
  if (!deletes && request.context % 2 === 0) return world.projects[(request.context >> 1) % Math.min(3, world.projects.length)]!;
  const made = world.projects.slice(3);
  if (made.length === 0) return { id: 'nosuchproject', languages: [], groups: [], entries: [] };
  const size = Math.min(made.length, 12);
  return made[made.length - size + ((request.context >> 1) % size)]!;
}

function resolveId(ref: IdRef, world: World, project: ProjectState): string {
  if ('raw' in ref) return ref.raw;
  if (ref.foreign) return pick(world.foreign[ref.pool], ref.pick);
  switch (ref.pool) {
    case 'project':
      return project.id;
    case 'group':
      return pick(project.groups, ref.pick);
    case 'entry':
      return pick(project.entries, ref.pick);
    case 'user':
      return pick(world.users, ref.pick);
  }
}

function isIdRef(value: unknown): value is IdRef {
  return typeof value === 'object' && value !== null && ('pool' in value || 'raw' in value);
}

/** Replaces markers with their values (ids, e-mails, huge strings). */
function materialize(value: unknown, world: World, project: ProjectState): unknown {
  if (Array.isArray(value)) return value.map((item) => materialize(item, world, project));
  if (typeof value !== 'object' || value === null) return value;
  const record = value as Record<string, unknown>;
  if ('$id' in record && isIdRef(record.$id)) return resolveId(record.$id, world, project);
  if ('$language' in record) return project.languages.length === 0 ? 'de' : project.languages[Number(record.$language) % project.languages.length];
  if ('$email' in record) {
    const who = record.$email as keyof World['emails'] | 'nobody';
    return who === 'nobody' ? 'nobody@example.com' : world.emails[who];
  }
  if ('$huge' in record) return String(record.$huge).repeat(Number(record.count));
  const out: Record<string, unknown> = {};
  for (const [key, item] of Object.entries(record)) defineOwn(out, key, materialize(item, world, project));
  return out;
}

function authorization(auth: NonNullable<FuzzRequest['auth']>, world: World): string | string[] {
  const key = world.keys[auth.caller];
  switch (auth.form) {
    case 'bearer':
      return `Bearer ${key}`;
    case 'lowercase':
      return `bearer ${key}`;
    case 'spaces':
      return `Bearer    ${key}   `;
    case 'basic':
      return `Basic ${Buffer.from(`${key}:`).toString('base64')}`;
    case 'bare':
      return key;
    case 'two-tokens':
      return `Bearer ${key} ${key}`;
    case 'empty-bearer':
      return 'Bearer ';
    case 'junk-key':
      return `Bearer tolk_${"'; --%_\\"}`;
    case 'long-key':
      return `Bearer tolk_${'k'.repeat(10_000)}`;
    case 'twice':
      return [`Bearer ${key}`, 'Bearer tolk_other'];
  }
}

/** Header values that Node's client refuses to send are replaced character by character. */
const sendable = (value: string) => value.replace(/[^\t\u0020-\u007e\u0080-\u00ff]/g, '?');

function deepBody(shape: 'array' | 'object', depth: number): string {
  return shape === 'array' ? '['.repeat(depth) + ']'.repeat(depth) : '{"a":'.repeat(depth) + '1' + '}'.repeat(depth);
}

/** The request to send, and whether its path names another user's resource. */
export function toRawRequest(request: FuzzRequest, world: World): { raw: RawRequest; namesForeign: boolean } {
  let namesForeign = false;
  const project = contextOf(world, request);
  const segments = request.path.map((segment) => {
    if (typeof segment === 'string') return segment.startsWith('=') ? segment.slice(1) : segment;
    // A foreign user in a member path of one's own project is no foreign resource: the fuzzer may
    // have invited them (the e-mail pool names them), and then managing them is the owner's right.
    if ('pool' in segment && segment.foreign && segment.pool !== 'user') namesForeign = true;
    const id = resolveId(segment, world, project);
    return 'raw' in segment && segment.encoded ? id : encodeLoose(id);
  });
  const first = segments[0] ?? '';
  const path = first.startsWith('/') || first === '*' ? first : `/api/v1/${segments.join('/')}`;
  const query = request.query.map(([key, value]) => {
    const resolved = typeof value === 'string' ? value : resolveId(value, world, project);
    const encode = request.rawQuery ? encodeRaw : encodeLoose;
    return `${encode(key)}=${encode(resolved)}`;
  });
  const headers: Record<string, string | string[]> = {};
  for (const [name, value] of request.headers) {
    const existing = headers[name];
    headers[name] = existing === undefined ? sendable(value) : [...(Array.isArray(existing) ? existing : [existing]), sendable(value)];
  }
  if (request.auth) headers.authorization = authorization(request.auth, world);
  let body: Buffer | string | undefined;
  const content = request.body;
  if (content.kind !== 'none') {
    if (content.contentType !== null) headers['content-type'] = content.contentType;
    if (content.kind === 'json') body = JSON.stringify(materialize(content.value, world, project)) ?? 'null';
    else if (content.kind === 'raw') body = content.text;
    else if (content.kind === 'deep') body = deepBody(content.shape, content.depth);
    else body = Buffer.from(content.bytes);
  }
  const search = query.length > 0 ? `${path.includes('?') ? '&' : '?'}${query.join('&')}` : '';
  return { raw: { method: request.method, path: path + search, headers, body }, namesForeign };
}

/** A short, printable account of a request (for failure reports). */
export function describe(raw: RawRequest): string {
  const body = raw.body === undefined ? '' : typeof raw.body === 'string' ? raw.body : `<bytes ${raw.body.toString('hex')}>`;
  const headers = Object.entries(raw.headers)
    .map(([name, value]) => `${name}: ${JSON.stringify(value).slice(0, 80)}`)
    .join('; ');
  const shownBody = body.length > 300 ? `${JSON.stringify(body.slice(0, 300))}… (${body.length} characters)` : JSON.stringify(body);
  return `${raw.method} ${raw.path.slice(0, 300)} [${headers}] body ${shownBody}`;
}
