/** The import route's schemas (CONTRACT, "Import"). */
import { Type } from 'typebox';

export const ImportQuery = Type.Object({
  format: Type.Union([Type.Literal('json'), Type.Literal('vue-i18n'), Type.Literal('i18next'), Type.Literal('flutter')], {
    description: 'the body is what GET /projects/{id}/export/<format> gives, for any subset of the languages',
  }),
  mode: Type.Union([Type.Literal('keep'), Type.Literal('overwrite')], {
    default: 'keep',
    description: '`keep`: a stored text that differs stays and is listed under conflicts; `overwrite`: it is replaced. Nothing is ever deleted',
  }),
  dryRun: Type.Boolean({ default: false, description: 'true: write nothing, answer what would happen' }),
  skipInvalid: Type.Boolean({ default: false, description: 'true: import the rest and list the refused items; false: any refused item → 400, nothing written' }),
  markReviewed: Type.Boolean({
    default: false,
    description:
      'true: every translation the import creates or updates is written `reviewed` by you, and so is every unchanged one that is not reviewed and current already ' +
      '(one that is keeps its first reviewer; conflicts kept under mode=keep are not imported, so not reviewed); needs canReview (403 otherwise, a dry run too). ' +
      'false: what the import writes is `translated` (a replaced text keeps the review it had, as a save does)',
  }),
  escaping: Type.Boolean({ default: false, description: "flutter: the ARB messages are in gen-l10n's use-escaping: true syntax (what ?escaping=true exports)" }),
  namespaces: Type.Optional(
    Type.Boolean({ description: 'i18next: true reads each <lang>/<ns>.json as the top-level group <ns> (in sub-folders too: <lang>/components/dialog.json is the group components/dialog); false reads <lang>/translation.json as the top level; unset, decided by the file names (a name other than translation, or a sub-folder, means namespaces)' }),
  ),
});

const Counts = (...names: string[]) => Type.Object(Object.fromEntries(names.map((name) => [name, Type.Integer()])));
const Item = { key: Type.String({ description: 'the dotted path of group and entry names, or the ARB key' }), language: Type.String() };

export const ImportReport = Type.Object({
  dryRun: Type.Boolean(),
  groups: Counts('created'),
  entries: Counts('created', 'updated', 'unchanged'),
  translations: Type.Object({
    created: Type.Integer(),
    updated: Type.Integer(),
    unchanged: Type.Integer(),
    reviewed: Type.Optional(
      Type.Integer({ description: 'markReviewed=true only: the translations it reviewed (or would, in a dry run), of those created, updated and unchanged' }),
    ),
  }),
  conflicts: Type.Array(Type.Object({ ...Item, stored: Type.String(), imported: Type.String() }), { description: 'stored texts mode=keep left as they were (at most 1,000)' }),
  refused: Type.Array(Type.Object({ ...Item, code: Type.String(), message: Type.String() }), { description: 'items not imported (skipInvalid=true), at most 1,000' }),
  warnings: Type.Array(Type.Object({ ...Item, message: Type.String() }), { description: 'items imported as literal text or skipped as untranslated, at most 1,000' }),
  files: Type.Array(Type.Object({ name: Type.String({ description: "the archive member's path, or the language's key in a JSON body" }), language: Type.String(), texts: Type.Integer({ description: 'the texts read from it (a plural family counts once)' }) }), {
    description: 'every file read, in the body\'s order (at most 1,000); a file not read is named under refused or warnings with why',
  }),
  totals: Type.Object(
    { conflicts: Type.Integer(), refused: Type.Integer(), warnings: Type.Integer(), files: Type.Integer() },
    { description: 'the length of each list before the cap of 1,000' },
  ),
  changeSetId: Type.Union([Type.String(), Type.Null()], {
    description: 'the change set recording what this import wrote (POST /change-sets/{id}/revert undoes it); null in a dry run or when nothing was written',
  }),
});

/** The body by media type: JSON for json and vue-i18n, the .tar.gz archive for i18next and flutter. */
export const ImportBody = {
  content: {
    'application/json': { schema: Type.Object({}, { additionalProperties: true, description: 'json / vue-i18n: {lang: messages}, as the export gives it' }) },
    'application/gzip': { schema: Type.Unsafe<unknown>({ description: 'i18next / flutter: the .tar.gz archive, as the export gives it' }) },
  },
};
