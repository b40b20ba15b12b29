/** The real consumers of tolk's exports, loaded as a build would load them. */
import { mkdtempSync, mkdirSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { extract } from 'tar-stream';

const require = createRequire(import.meta.url);

export const VUE_I18N_VERSIONS = ['vue-i18n-9', 'vue-i18n-10', 'vue-i18n-11'] as const;

/** A `t` of the given vue-i18n major version (legacy or composition mode) over `messages`. */
export function vueI18nT(version: (typeof VUE_I18N_VERSIONS)[number], legacy: boolean, messages: Record<string, Record<string, string>>, locale: string) {
  const { createI18n } = require(version) as { createI18n: (options: object) => { global: { t: (key: string) => string } } };
  const i18n = createI18n({ legacy, locale, messages, missingWarn: false, fallbackWarn: false, warnHtmlMessage: false, warnHtmlInMessage: 'off' });
  return (key: string) => i18n.global.t(key);
}

/** The files of a .tar.gz, by name. */
export async function untar(archive: Buffer): Promise<Map<string, string>> {
  const files = new Map<string, string>();
  const reader = extract();
  const done = new Promise<void>((resolve, reject) => {
    reader.on('entry', (header, stream, next) => {
      const chunks: Buffer[] = [];
      stream.on('data', (chunk) => chunks.push(chunk as Buffer));
      stream.on('end', () => {
        files.set(header.name, Buffer.concat(chunks).toString('utf8'));
        next();
      });
      stream.resume();
    });
    reader.on('finish', resolve);
    reader.on('error', reject);
  });
  reader.end(gunzipSync(archive));
  await done;
  return files;
}

/** Writes the files under a fresh temporary directory (as `tar xzf` would) and returns it. */
export function writeTree(files: Map<string, string>, under = ''): string {
  const root = mkdtempSync(join(tmpdir(), 'tolk-export-'));
  for (const [name, content] of files) {
    const path = join(root, under, name);
    mkdirSync(dirname(path), { recursive: true });
    writeFileSync(path, content);
  }
  return root;
}
