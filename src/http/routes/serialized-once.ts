/**
 * Answers a kept read with the bytes its route's response schema made of it the first time. The
 * domain keeps what entry reads return per content version (domain/shared/content-cache.ts) and hands
 * the same object out, unchanged, until the next write: its bytes cannot differ from one answer to the
 * next. Serializing a page of 100 entries with their translations again for every request was ~20 %
 * of a list-page request's CPU (fast-json-stringify and its generated code, bench profile).
 * Keyed by the object itself, so the bytes go when the kept value does; they are about half of what the
 * kept value is counted as (its JSON text at two bytes a character: content-cache.ts approximateBytes),
 * so the entry reads' budget bounds them too.
 */
import type { FastifyReply } from 'fastify';

const bodies = new WeakMap<object, Buffer>();

/** Sends `value` as the route's 200 answer, serialized by its response schema once per object. */
export function sendSerializedOnce(reply: FastifyReply, value: object): FastifyReply {
  let body = bodies.get(value);
  if (body === undefined) {
    const serialized = reply.serialize(value);
    // The route's schema serializer gives a string; the type allows what a custom serializer might.
    const text = typeof serialized === 'string' ? serialized : Buffer.from(serialized as ArrayBuffer).toString('utf8');
    // Not Buffer.from: a small one is a slice of a shared 8 KiB slab, and a kept slice keeps the whole slab.
    body = Buffer.allocUnsafeSlow(Buffer.byteLength(text, 'utf8'));
    body.write(text, 'utf8');
    bodies.set(value, body);
  }
  return reply.type('application/json; charset=utf-8').send(body);
}
