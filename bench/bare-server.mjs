/**
 * The ceiling: a bare node:http server answering one fixed small JSON body to every request.
 * Started by the bench as its own process on 127.0.0.1:$PORT; exits when the bench closes its stdin
 * (so it never outlives the bench) or on SIGTERM/SIGINT.
 */
import { createServer } from 'node:http';

const body = Buffer.from(JSON.stringify({ id: 'bare', ok: true, message: 'node:http ceiling' }));
const headers = { 'content-type': 'application/json; charset=utf-8', 'content-length': String(body.length) };

const server = createServer((request, response) => {
  request.resume();
  response.writeHead(200, headers);
  response.end(body);
});

const stop = () => {
  server.close();
  server.closeAllConnections();
  process.exit(0);
};
process.once('SIGTERM', stop);
process.once('SIGINT', stop);
process.stdin.on('end', stop).on('close', stop).resume();

server.listen(Number(process.env.PORT), '127.0.0.1');
