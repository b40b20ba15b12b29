/**
 * An answer given before its request's body was read (413 past a body limit, 415, a refused key) must
 * reach the client that is still sending that body. Node ends a `Connection: close` answer with
 * socket.destroySoon(): FIN, then the socket is destroyed as soon as the answer is written, and each
 * byte of the body that arrives after that makes the kernel reset the connection. The client's next
 * write then fails (EPIPE, ECONNRESET), and Node's http client and fetch (so `tolk push`) report that
 * instead of the answer. Here, as RFC 9112 §9.6 asks of a server that closes: the answer and FIN go out,
 * the rest of the body is read and thrown away, and the socket is closed once the body has ended, the
 * client has closed, or a bound below is passed (then it is cut at once, as Node would).
 */
import type { IncomingMessage } from 'node:http';
import type { Socket } from 'node:net';
import type { FastifyInstance } from 'fastify';

const MiB = 1024 * 1024;

/**
 * What is read after such an answer at most: the larger of twice the route's body limit (a 128 MiB
 * import by default, 2 MiB elsewhere) and 16 MiB, within 10 seconds. Clients that read the answer while
 * they send (fetch, curl, browsers) stop within a round trip; Node's http client sends a body given in
 * one write to its end, so these bounds let a mistaken body of a few times the limit get its 413. They
 * give a stranger nothing new: any client may already keep a connection sending for the 30 s of
 * requestTimeout, and discarding bytes costs the server no parsing.
 */
export const UNREAD_BODY_BOUNDS = { minBytes: 16 * MiB, limitMultiple: 2, ms: 10_000 } as const;

/** Node's own, not in its types: what the server calls once a `Connection: close` answer is written. */
type ClosingSocket = Socket & { destroySoon?: () => void };

/** Makes every answer given while its request's body is still arriving close the connection after that body, bounded. */
export function drainUnreadBodies(app: FastifyInstance): void {
  app.addHook('onSend', (request, reply, payload, done) => {
    const incoming = request.raw;
    if (!incoming.complete && !incoming.socket.destroyed) {
      // Whatever the client sends next on this connection is the rest of a refused body.
      reply.header('connection', 'close');
      const { minBytes, limitMultiple, ms } = UNREAD_BODY_BOUNDS;
      lingerUntilBodyEnds(incoming, Math.max(minBytes, limitMultiple * request.routeOptions.bodyLimit), ms);
    }
    done(null, payload);
  });
}

/** Reads and drops the rest of `incoming`'s body; its socket is closed after it, or cut past `maxBytes` or `maxMs`. */
function lingerUntilBodyEnds(incoming: IncomingMessage, maxBytes: number, maxMs: number): void {
  const socket = incoming.socket as ClosingSocket;
  const closeAfterAnswer = socket.destroySoon;
  if (typeof closeAfterAnswer !== 'function') return;
  let read = 0;
  // A listener keeps the body flowing, and so keeps Node from dumping it out of sight of this count.
  incoming.on('data', (chunk: Buffer) => {
    read += chunk.length;
    if (read > maxBytes) socket.destroy();
  });
  const deadline = setTimeout(() => socket.destroy(), maxMs).unref();
  socket.once('close', () => clearTimeout(deadline));
  socket.destroySoon = () => {
    // The answer and FIN now; reading goes on (Node's server sockets are half-open), and the socket is
    // destroyed once the body has ended, when nothing unread is left to reset the connection.
    socket.end();
    if (incoming.complete) closeAfterAnswer.call(socket);
    else incoming.once('end', () => closeAfterAnswer.call(socket));
  };
}
