/** Archives for import tests, made independently of the server's own archive code. */
import { gzipSync } from 'node:zlib';
import { pack } from 'tar-stream';

/** A .tar.gz of the given files (name → text), in the given order. */
export async function tarGz(files: Record<string, string>): Promise<Buffer> {
  const archive = pack();
  const chunks: Buffer[] = [];
  archive.on('data', (chunk) => chunks.push(chunk as Buffer));
  const done = new Promise<void>((resolve) => archive.on('end', () => resolve()));
  for (const [name, text] of Object.entries(files)) archive.entry({ name }, text);
  archive.finalize();
  await done;
  return gzipSync(Buffer.concat(chunks));
}
