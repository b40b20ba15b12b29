#!/usr/bin/env node
// Generates src/locales/locale-data.ts from an unpacked cldr-core package, so the
// runtime needs neither cldr-core nor any locale logic beyond a lookup table.
//
// Usage: node scripts/generate-locales.mjs [path/to/cldr-core]   (default: node_modules/cldr-core)
// e.g.   cd /tmp && npm pack cldr-core@48.2.0 && tar xzf cldr-core-48.2.0.tgz
//        node scripts/generate-locales.mjs /tmp/package
//
// Names come from the running Node's Intl.DisplayNames (ICU), so generate with a Node whose
// ICU CLDR version is at least the cldr-core version; names neither ICU nor ISO_639_3_NAMES
// knows fall back to the code and are reported on stderr.
import { readFileSync, writeFileSync } from 'node:fs';
import { join, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';

const cldrDir = process.argv[2] ?? 'node_modules/cldr-core';
const outFile = join(dirname(fileURLToPath(import.meta.url)), '..', 'src', 'locales', 'locale-data.ts');
const readJson = (rel) => JSON.parse(readFileSync(join(cldrDir, rel), 'utf8'));

const pkg = readJson('package.json');
// "modern" is empty in cldr-core 48 (all locales are listed under "full"); the union keeps
// this correct should a later release populate "modern" with entries missing from "full".
const { modern = [], full = [] } = readJson('availableLocales.json').availableLocales;
// availableLocales omits "default content" locales (en-US, pt-BR, zh-Hant-TW, ...) because
// their data is inherited from the parent; they are real locales, so add them back.
const { defaultContent } = readJson('defaultContent.json');
const likely = readJson('supplemental/likelySubtags.json').supplemental.likelySubtags;

const LANG = /^[a-z]{2,3}$/;
const SCRIPT = /^[A-Z][a-z]{3}$/;
const REGION = /^(?:[A-Z]{2}|[0-9]{3})$/;
const EXCLUDED_LANGUAGES = new Set(['root', 'und']);

/** The script a bare `lang-REGION` tag implies, per CLDR likely subtags. */
function impliedScript(lang, region) {
  const max = likely[`${lang}-${region}`] ?? likely[lang];
  return max?.split('-').find((s) => SCRIPT.test(s));
}

const languages = new Map(); // lang -> Set<region code>
const dropped = [];
for (const tag of new Set([...modern, ...full, ...defaultContent])) {
  const parts = tag.split('-');
  const lang = parts.shift();
  if (!LANG.test(lang) || EXCLUDED_LANGUAGES.has(lang)) { dropped.push(tag); continue; }
  const script = SCRIPT.test(parts[0] ?? '') ? parts.shift() : undefined;
  const region = REGION.test(parts[0] ?? '') ? parts.shift() : undefined;
  // Variants (ca-ES-valencia, be-tarask) are not expressible as xx / xx-YY: drop the tag.
  if (parts.length > 0) { dropped.push(tag); continue; }
  // A script-only tag (zh-Hant, hnj-Hmnp) still attests its language.
  if (!languages.has(lang)) languages.set(lang, new Set());
  // A script tag is a locale of its own (zh-Hant, sr-Latn): apps name their files by it (app_zh_Hant.arb).
  if (!region) { if (script) languages.get(lang).add(`${lang}-${script}`); continue; }
  // lang-Script-REGION becomes lang-REGION when Script is what lang-REGION implies (likely
  // subtags), so zh-Hant-TW -> zh-TW and zh-Hans-SG -> zh-SG; otherwise it stays whole
  // (zh-Hans-HK is not zh-HK, which means Traditional Chinese). Duplicates collapse in the Set.
  languages.get(lang).add(script && script !== impliedScript(lang, region) ? `${lang}-${script}-${region}` : `${lang}-${region}`);
}

// CLDR 48 has locale data for these languages but no English display name for them (checked
// against cldr-localenames-full@48.2.0 main/en/languages.json), so use the ISO 639-3 reference
// names rather than showing a bare code. ICU's name wins should a later CLDR add one.
const ISO_639_3_NAMES = {
  apc: 'Levantine Arabic',
  lld: 'Ladin',
  mhn: 'Mócheno',
  mww: 'Hmong Daw',
  skr: 'Saraiki',
  suz: 'Sunwar',
};

const languageNames = new Intl.DisplayNames(['en'], { type: 'language', languageDisplay: 'standard', fallback: 'none' });
const regionNames = new Intl.DisplayNames(['en'], { type: 'region', fallback: 'none' });
const scriptNames = new Intl.DisplayNames(['en'], { type: 'script', fallback: 'none' });
/** ICU's name of a tag with a script, else "<language> (<script>[, <region>])" from the parts' names. */
const scriptLocaleName = (tag, languageName) => {
  const [, script, region] = tag.split('-');
  return languageNames.of(tag) ?? `${languageName} (${[nameOf(scriptNames, script), ...(region ? [nameOf(regionNames, region)] : [])].join(', ')})`;
};
const missingNames = [];
const nameOf = (names, code, extra = {}) => {
  const name = names.of(code) ?? extra[code];
  if (name === undefined) missingNames.push(code);
  return name ?? code;
};

const byCode = (a, b) => (a < b ? -1 : a > b ? 1 : 0);
const locales = [...languages.keys()].sort(byCode).map((code) => {
  const name = nameOf(languageNames, code, ISO_639_3_NAMES);
  const regionCodes = [...languages.get(code)].sort(byCode);
  const regions = regionCodes.map((tag) => ({
    code: tag,
    // lang-REGION: "<language> (<region>)"; a tag with a script: ICU's own name ("Chinese (Traditional, Hong Kong)")
    name: SCRIPT.test(tag.split('-')[1] ?? '') ? scriptLocaleName(tag, name) : `${name} (${nameOf(regionNames, tag.slice(code.length + 1))})`,
  }));
  return { code, name, regions: regions.length > 0 ? regions : null };
});

const str = (s) => JSON.stringify(s);
const line = (l) => {
  const regions = l.regions === null
    ? 'null'
    : `[${l.regions.map((r) => `{ code: ${str(r.code)}, name: ${str(r.name)} }`).join(', ')}]`;
  return `  { code: ${str(l.code)}, name: ${str(l.name)}, regions: ${regions} },`;
};

const regionCount = locales.reduce((n, l) => n + (l.regions?.length ?? 0), 0);
const out = `// GENERATED FILE - do not edit by hand.
// Source: CLDR ${pkg.cldrVersion} (npm cldr-core@${pkg.version}); names from Node ${process.version} Intl.DisplayNames (ICU ${process.versions.icu}, CLDR ${process.versions.cldr}).
// ${locales.length} languages, ${regionCount} regional and script tags.
// Regenerate: cd /tmp && npm pack cldr-core@${pkg.version} && tar xzf cldr-core-${pkg.version}.tgz && cd - && node scripts/generate-locales.mjs /tmp/package
import type { Locale } from './locale-catalog.js';

export const LOCALES: readonly Locale[] = [
${locales.map(line).join('\n')}
];
`;
writeFileSync(outFile, out);

process.stderr.write(`wrote ${outFile}: ${locales.length} languages, ${regionCount} regional tags\n`);
process.stderr.write(`dropped ${dropped.length} tags: ${dropped.join(' ')}\n`);
if (missingNames.length > 0) process.stderr.write(`WARNING: no English name in ICU for: ${missingNames.join(' ')}\n`);
