/**
 * What the server and CLI import at run time must be a production dependency: `npm ci --omit=dev` (a
 * production image) installs nothing else, and a runtime import of a devDependency crashes `tolk serve`
 * at start there. Type-only imports vanish in the build and may come from anywhere.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { builtinModules } from 'node:module';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

const ROOT = new URL('../../', import.meta.url);
const packageJson = JSON.parse(readFileSync(new URL('package.json', ROOT), 'utf8')) as { dependencies: Record<string, string> };

function sourceFiles(directory: string): string[] {
  return readdirSync(directory, { withFileTypes: true }).flatMap((item) => {
    const path = join(directory, item.name);
    if (item.isDirectory()) return sourceFiles(path);
    return item.name.endsWith('.ts') ? [path] : [];
  });
}

/** The package a bare specifier names (`@scope/name/sub` → `@scope/name`); undefined for relative and built-in ones. */
function packageOf(specifier: string): string | undefined {
  if (specifier.startsWith('.') || specifier.startsWith('node:') || builtinModules.includes(specifier)) return undefined;
  const parts = specifier.split('/');
  return specifier.startsWith('@') ? parts.slice(0, 2).join('/') : parts[0];
}

describe('production dependencies', () => {
  it('cover every package that src/ imports at run time', () => {
    const imported = new Map<string, string>();
    for (const file of sourceFiles(new URL('src', ROOT).pathname)) {
      const text = readFileSync(file, 'utf8');
      // `import type …` and `export type …` are erased; `import { type A, b }` still loads the module.
      for (const match of text.matchAll(/^(?:import|export)\s+(?!type\s)(?:[^'"]*?\sfrom\s+)?['"]([^'"]+)['"]/gm)) {
        const name = packageOf(match[1]!);
        if (name) imported.set(name, file);
      }
      for (const match of text.matchAll(/\bimport\(\s*['"]([^'"]+)['"]\s*\)/g)) {
        const name = packageOf(match[1]!);
        if (name) imported.set(name, file);
      }
    }
    expect(imported.size).toBeGreaterThan(10);
    const missing = [...imported].filter(([name]) => !(name in packageJson.dependencies)).map(([name, file]) => `${name} (${file})`);
    expect(missing).toEqual([]);
  });
});
