/**
 * One object level of an i18next file as i18next itself reads it, before readNested walks it:
 * - keys are split on `.` (i18next's default keySeparator), so `"timeline.aria"` and
 *   `{"timeline": {"aria": …}}` name the same entry; the parts of one name merge into one group level,
 *   where a key given both ways comes twice and is refused by name ("the file gives this key twice");
 * - the sibling keys `key_one`, `key_other`… fold into one plural message of the entry `key`, a family
 *   without `_other` too (its `other` is the last category's text, with a warning), and a family beside
 *   a plain `key` text too: i18next falls back to the plain text for each category the family lacks,
 *   so it fills those (with a warning: a call without a count no longer finds a plain text);
 * - every text is read from i18next's syntax into ICU.
 */
import { pluralSuffixOf, readI18nextPlural, readI18nextText, standInForOther } from '../../messages/i18next/read-i18next.js';
import { isObject, refuse, warn, type ImportDocument, type ImportKey } from '../import-document.js';
import { MAX_IMPORT_NESTING, MAX_IMPORT_TEXT_LENGTH } from '../import-limits.js';
import { RegroupedLevel, type Level } from '../read-nested.js';

const KEY_SEPARATOR = '.';

/** A text short enough to be read (MAX_IMPORT_TEXT_LENGTH); a longer one is left as it is, for readNested to refuse unread. */
const readable = (value: unknown): value is string => typeof value === 'string' && value.length <= MAX_IMPORT_TEXT_LENGTH;

const keyAt = (parent: ImportKey | null, name: string) => (parent ? `${parent.key}.${name}` : name);

/**
 * The level with dotted names split: `"a.b": x` and `a: {b: x}` both become entries of one group level
 * `a`, placed where `a` first appears. A name with an empty part (`a..b`, `.a`) is refused, as the
 * vue-i18n reader does; so is one that splits deeper than an import reads.
 */
function splitDotted(document: ImportDocument, entries: Level, language: string, parent: ImportKey | null): Level {
  const level: (readonly [string, unknown])[] = [];
  const groups = new Map<string, (readonly [string, unknown])[]>();
  const groupLevel = (name: string) => {
    let children = groups.get(name);
    if (!children) {
      groups.set(name, (children = []));
      level.push([name, new RegroupedLevel(children)]);
    }
    return children;
  };
  for (const [name, value] of entries) {
    const dot = name.indexOf(KEY_SEPARATOR);
    if (dot === -1) {
      if (!isObject(value)) level.push([name, value]);
      else {
        const children = groupLevel(name);
        for (const child of Object.entries(value)) children.push(child);
      }
      continue;
    }
    const parts = name.split(KEY_SEPARATOR);
    if (parts.includes('')) refuse(document, keyAt(parent, name), language, 'an empty name between dots');
    else if ((parent?.path.length ?? 0) + parts.length > MAX_IMPORT_NESTING) {
      refuse(document, keyAt(parent, name), language, `splits on "." into ${parts.length} names, deeper than an import reads (${MAX_IMPORT_NESTING} levels)`);
    } else groupLevel(name.slice(0, dot)).push([name.slice(dot + 1), value]);
  }
  return level;
}

/** One family of plural suffix keys (`items_one`, `items_other`…) and the name whose place its message takes. */
interface PluralFamily {
  readonly forms: Map<string, string>;
  /** the plain `key` text beside the family, if the level has one */
  readonly bare: string | undefined;
  /** `_other`'s name where there is one (as before), else the family's last key */
  placeAt: string;
}

/** The plural families of a level: suffix keys of one stem, with the stem's own text beside them if any. */
function pluralFamilies(texts: ReadonlyMap<string, string>): Map<string, PluralFamily> {
  const families = new Map<string, PluralFamily>();
  for (const [name, text] of texts) {
    const suffix = pluralSuffixOf(name);
    if (!suffix) continue;
    const stem = name.slice(0, -(suffix.length + 1));
    if (stem === '') continue;
    let family = families.get(stem);
    if (!family) families.set(stem, (family = { forms: new Map(), bare: texts.get(stem) || undefined, placeAt: name }));
    family.forms.set(suffix, text);
    if (suffix === 'other' || !family.forms.has('other')) family.placeAt = name;
  }
  return families;
}

/** The level's texts by name; a second text of one name (given nested and dotted) is refused by name and left out. */
function textsOf(document: ImportDocument, entries: Level, language: string, parent: ImportKey | null): { texts: Map<string, string>; level: Level } {
  const texts = new Map<string, string>();
  const level: (readonly [string, unknown])[] = [];
  for (const entry of entries) {
    const [name, value] = entry;
    if (readable(value)) {
      if (texts.has(name)) {
        refuse(document, keyAt(parent, name), language, 'the file gives this key twice');
        continue;
      }
      texts.set(name, value);
    }
    level.push(entry);
  }
  return { texts, level };
}

/** The level as readNested walks it: dotted names split, plural families folded, texts read into ICU. */
export function readI18nextLevel(document: ImportDocument, entries: Level, language: string, parent: ImportKey | null): Level {
  const { texts, level } = textsOf(document, splitDotted(document, entries, language, parent), language, parent);
  const families = pluralFamilies(texts);
  const read: [string, unknown][] = [];
  for (const [name, value] of level) {
    if (!readable(value)) {
      read.push([name, value]);
      continue;
    }
    const suffix = pluralSuffixOf(name);
    const stem = suffix ? name.slice(0, -(suffix.length + 1)) : name;
    // The plain text beside a family is one of its forms' fallback: read with the family, at its place.
    const family = families.get(stem);
    if (value.includes('$t(')) warn(document, keyAt(parent, family ? stem : name), language, 'nesting ($t(…)) has no ICU form: kept as literal text');
    if (!family) read.push([name, value === '' ? '' : readI18nextText(value)]);
    else if (family.placeAt === name) {
      const standIn = family.bare === undefined ? standInForOther(family.forms.keys()) : undefined;
      if (standIn) warn(document, keyAt(parent, stem), language, `the plural has no ${stem}_other: its other form is ${stem}_${standIn}'s text`);
      if (family.bare !== undefined) {
        warn(document, keyAt(parent, stem), language, `"${stem}" is a text beside its plural forms: it fills the forms the family lacks, as i18next falls back to it; t() without a count no longer finds a plain text`);
      }
      read.push([stem, readI18nextPlural(family.forms, language, family.bare)]);
    }
  }
  return read;
}
