/**
 * The layer order of src/ (README "Development"): a module may import its own layer and the layers
 * below it, never one above. cli → server → app → http → domain → imports/exports → store/mail →
 * messages/locales → errors/config. An arrow up fails `npm test` (`npm run layers`).
 */
const LAYERS = [
  ['cli', '^src/cli/'],
  ['server', '^src/server\\.ts$'],
  ['app', '^src/app\\.ts$'],
  ['http', '^src/http/'],
  ['domain', '^src/domain/'],
  ['imports-exports', '^src/(imports|exports)/'],
  ['store-mail', '^src/(store|mail)/'],
  ['messages-locales-names', '^src/(messages|locales|names)/'],
  ['base', '^src/(errors|config|heap-tuning|collect-garbage)\\.ts$'],
];

const forbidden = LAYERS.slice(1).map(([name, path], index) => ({
  name: `${name}-not-up`,
  comment: `${name} may not import ${LAYERS.slice(0, index + 1).map(([above]) => above).join(', ')} (layers above it)`,
  severity: 'error',
  from: { path },
  to: { path: LAYERS.slice(0, index + 1).map(([, above]) => above) },
}));

module.exports = {
  forbidden: [
    ...forbidden,
    {
      name: 'no-circular',
      severity: 'error',
      comment: 'a cycle of modules (type-only imports aside) hides which one owns a rule',
      from: { path: '^src/' },
      to: { circular: true, viaOnly: { dependencyTypesNot: ['type-only'] } },
    },
    {
      name: 'web-takes-only-pure-modules',
      severity: 'error',
      comment: 'the web app runs in the browser: of src/ it takes the pure modules (messages, locales, names, the import layouts), and the API types only as types',
      from: { path: '^web/src/' },
      to: { path: '^src/', pathNot: ['^src/(messages|locales|names)/', '^src/imports/(folder-layout|files-account)\\.ts$'], dependencyTypesNot: ['type-only'] },
    },
    {
      name: 'web-types-from-schemas',
      severity: 'error',
      comment: "the API's shapes reach the web app as types of the route schemas (Static<typeof …>), nothing else of the server",
      from: { path: '^web/src/' },
      to: { path: '^src/', pathNot: ['^src/(messages|locales|names|http/schemas)/', '^src/imports/(folder-layout|files-account)\\.ts$'] },
    },
    {
      name: 'every-module-in-a-layer',
      severity: 'error',
      comment: 'a new top-level folder or file of src/ must be given its place in LAYERS',
      from: { path: '^src/', pathNot: LAYERS.map(([, path]) => path) },
      to: {},
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },

  },
};
