import { describe, it, expect } from 'vitest';
import { isKnownLocale, listLocales, suggestLocale, type Locale } from '../../src/locales/locale-catalog.js';

function findLanguage(code: string): Locale {
  const locale = listLocales().find((l) => l.code === code);
  if (!locale) throw new Error(`language ${code} missing from catalog`);
  return locale;
}

function regionName(tag: string): string | undefined {
  const language = findLanguage(tag.split('-')[0] ?? '');
  return language.regions?.find((r) => r.code === tag)?.name;
}

describe('locale catalog', () => {
  it('contains well-known languages and regional tags', () => {
    for (const tag of ['en', 'en-US', 'en-GB', 'pt', 'pt-BR', 'es-419', 'de-AT', 'zh', 'zh-TW', 'zh-CN', 'fil', 'yue']) {
      expect(isKnownLocale(tag), tag).toBe(true);
    }
  });

  it('is large enough to be the CLDR list, not a stub', () => {
    const locales = listLocales();
    expect(locales.length).toBeGreaterThan(200);
    expect(locales.reduce((n, l) => n + (l.regions?.length ?? 0), 0)).toBeGreaterThan(500);
  });

  it('names languages and regions in English, region names as "Language (Region)"', () => {
    expect(findLanguage('en').name).toBe('English');
    expect(findLanguage('pt').name).toBe('Portuguese');
    expect(findLanguage('fil').name).toBe('Filipino');
    expect(findLanguage('zh').name).toBe('Chinese');
    expect(regionName('en-US')).toBe('English (United States)');
    expect(regionName('en-GB')).toBe('English (United Kingdom)');
    expect(regionName('pt-BR')).toBe('Portuguese (Brazil)');
    expect(regionName('es-419')).toBe('Spanish (Latin America)');
    expect(regionName('de-AT')).toBe('German (Austria)');
    expect(regionName('zh-TW')).toBe('Chinese (Taiwan)');
  });

  it('uses null regions for a language without regional variants and an array otherwise', () => {
    // CLDR has `no` (Norwegian) only as a macrolanguage, with no `no-XX` locale.
    expect(findLanguage('no').regions).toBeNull();
    const en = findLanguage('en').regions;
    expect(Array.isArray(en)).toBe(true);
    expect(en?.length).toBeGreaterThan(50);
    // Never an empty array: absence of variants is always expressed as null.
    expect(listLocales().filter((l) => l.regions !== null && l.regions.length === 0)).toEqual([]);
  });

  it('has no duplicate codes and sorts languages and regions by code', () => {
    const codes = listLocales().flatMap((l) => [l.code, ...(l.regions ?? []).map((r) => r.code)]);
    expect(new Set(codes).size).toBe(codes.length);
    const languageCodes = listLocales().map((l) => l.code);
    expect(languageCodes).toEqual([...languageCodes].sort());
    for (const l of listLocales()) {
      const regionCodes = (l.regions ?? []).map((r) => r.code);
      expect(regionCodes).toEqual([...regionCodes].sort());
    }
  });

  it('only holds xx, xx-YY and script (xx-Scrp, xx-Scrp-YY) tags, each under its own language', () => {
    for (const l of listLocales()) {
      expect(l.code).toMatch(/^[a-z]{2,3}$/);
      expect(l.name).not.toBe(l.code);
      for (const r of l.regions ?? []) {
        expect(r.code.startsWith(`${l.code}-`), r.code).toBe(true);
        expect(r.code).toMatch(/^[a-z]{2,3}(?:-[A-Z][a-z]{3})?-(?:[A-Z]{2}|[0-9]{3})$|^[a-z]{2,3}-[A-Z][a-z]{3}$/);
        expect(r.name.startsWith(`${l.name} (`), r.name).toBe(true);
      }
    }
  });

  it('lists the script subtags CLDR has (zh-Hant, sr-Latn), folds a script its region implies, and excludes variants and root/und', () => {
    for (const tag of ['zh-Hant', 'zh-Hans', 'sr-Latn', 'sr-Cyrl', 'uz-Cyrl', 'zh-Hans-HK', 'sr-Latn-BA']) expect(isKnownLocale(tag), tag).toBe(true);
    for (const tag of ['zh-Hant-TW', 'ca-ES-valencia', 'root', 'und']) {
      expect(isKnownLocale(tag), tag).toBe(false);
    }
    // Script-qualified regional locales still surface as xx-YY via the script the region implies.
    expect(isKnownLocale('zh-HK')).toBe(true);
    expect(isKnownLocale('sr-BA')).toBe(true);
  });

  it('rejects unknown and malformed tags', () => {
    for (const tag of ['xx', 'xx-YY', 'en_US', 'EN', 'en-us', 'EN-US', '', ' en', 'en ', '__proto__', 'constructor', 'toString', 'en-US-x-foo', 'en-', '-US', 'pt-BRA']) {
      expect(isKnownLocale(tag), JSON.stringify(tag)).toBe(false);
    }
  });
});

describe('suggestLocale', () => {
  it('suggests the canonical form for case and separator variants', () => {
    expect(suggestLocale('pt_br')).toBe('pt-BR');
    expect(suggestLocale('PT-br')).toBe('pt-BR');
    expect(suggestLocale('en-us')).toBe('en-US');
    expect(suggestLocale('EN')).toBe('en');
    expect(suggestLocale('es_419')).toBe('es-419');
    expect(suggestLocale('ZH-tw')).toBe('zh-TW');
    expect(suggestLocale(' en-GB ')).toBe('en-GB');
  });

  it('suggests only tags that pass validation', () => {
    for (const input of ['pt_br', 'EN-us', 'FIL', 'DE_at']) {
      const suggestion = suggestLocale(input);
      expect(suggestion).toBeDefined();
      expect(isKnownLocale(suggestion ?? '')).toBe(true);
    }
  });

  it('returns undefined for unknown tags and for already canonical ones', () => {
    expect(suggestLocale('xx')).toBeUndefined();
    expect(suggestLocale('xx_YY')).toBeUndefined();
    expect(suggestLocale('')).toBeUndefined();
    expect(suggestLocale('__proto__')).toBeUndefined();
    expect(suggestLocale('en-US-x-foo')).toBeUndefined();
    expect(suggestLocale('en-US')).toBeUndefined();
    expect(suggestLocale('pt')).toBeUndefined();
  });
});
