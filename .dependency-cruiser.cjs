// The boundaries `npm run check` holds (docs/architecture.md, "Boundaries"). Paths are matched
// from the repository root; every rule is an error.
//
// Test code: `*.test.ts(x)`, anything under a `test/` folder, and helper files named
// `*test-kit*`, `*test-support*`, `*test-helpers*`, `*-fixtures.ts`, `*test-server*` or `testing.ts`.
// The layer rules below read production code only; the cycle rule reads everything.

const TEST = '(^|/)test/|\\.test\\.tsx?$|test-kit|test-support|test-helpers|test-server|-fixtures\\.tsx?$|(^|/)testing\\.tsx?$';
const SERVER = '^packages/server/src/';
const MODULES = `${SERVER}modules/`;
const WEB = '^packages/web/src/';

// What a server module shows the others: its services and its public types, at the top of its folder.
const MODULE_FACE = `${MODULES}[^/]+/[^/]+\\.(service|types)\\.ts$`;

/**
 * Imports that break a rule today and are being removed, each with what is pending. The list only
 * ever shrinks. `from` and `to` are paths (a file, or a folder for the folder-cycle rule) taken
 * literally, as prefixes; only that pair is let through, the rule still holds for everything else.
 */
const KNOWN_EXCEPTIONS = [];

const literal = (text) => `^${text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}`;
const anyOf = (patterns) => [patterns].flat().filter(Boolean);

/**
 * A rule as rules without its known exceptions: the rule for every importer but the excepted ones,
 * and for each excepted importer the rule for every target but the excepted ones.
 */
function withExceptions(rule) {
  const pending = KNOWN_EXCEPTIONS.filter((e) => e.rule === rule.name);
  const importers = [...new Set(pending.map((e) => e.from))];
  const rest = { ...rule, from: { ...rule.from, pathNot: [...anyOf(rule.from.pathNot), ...importers.map(literal)] } };
  const excepted = importers.map((importer) => {
    const within = anyOf(rule.from.path).join('|');
    const targets = pending.filter((e) => e.from === importer).map((e) => literal(e.to));
    return {
      ...rule,
      from: { ...rule.from, path: within ? `(?=${literal(importer)})(?:${within})` : literal(importer) },
      to: { ...rule.to, pathNot: [...anyOf(rule.to.pathNot), ...targets] },
    };
  });
  return importers.length === 0 ? [rule] : [rest, ...excepted];
}

const forbidden = [
  {
    name: 'no-cycle',
    comment: 'No import cycle between files, type-only imports included.',
    from: {},
    to: { circular: true },
  },
  {
    name: 'no-folder-cycle',
    comment:
      'No cycle between the rooms of the code through any files (users → badges → users): a server module, ' +
      'the platform, the runtime; a web feature, ui/, the ground, the shell.',
    scope: 'folder',
    from: { path: [`${MODULES}[^/]+$`, `${SERVER}(platform|runtime)$`, `${WEB}features/[^/]+$`, `${WEB}(ui|ground|app)$`] },
    to: { circular: true },
  },
  {
    name: 'platform-not-to-modules',
    comment: 'The platform (config, db, http, auth, live, files, mail) knows no module: modules register with it.',
    from: { path: `${SERVER}platform/`, pathNot: TEST },
    to: { path: [MODULES, `${SERVER}app\\.ts$`, `${SERVER}(main|worker)\\.ts$`] },
  },
  {
    name: 'runtime-not-to-modules',
    comment: 'The component runtime knows no module.',
    from: { path: `${SERVER}runtime/`, pathNot: TEST },
    to: { path: [MODULES, `${SERVER}app\\.ts$`] },
  },
  {
    name: 'sandbox-stands-alone',
    comment:
      "The isolate's library (runtime/sandbox/) is bundled for the isolate, which has no Node API: it imports only its own files.",
    from: { path: `${SERVER}runtime/sandbox/`, pathNot: TEST },
    to: { pathNot: `${SERVER}runtime/sandbox/` },
  },
  {
    name: 'modules-not-to-top',
    comment: 'A module does not import what builds and starts the app (app.ts, main.ts, worker.ts): they import it.',
    from: { path: MODULES, pathNot: TEST },
    to: { path: `${SERVER}(app|main|worker)\\.ts$` },
  },
  {
    name: 'module-through-its-face',
    comment: 'A module uses another module only through its services (`*.service.ts`) and public types (`*.types.ts`).',
    from: { path: `${MODULES}([^/]+)/`, pathNot: TEST },
    to: { path: MODULES, pathNot: [`${MODULES}$1/`, MODULE_FACE] },
  },
  {
    name: 'feature-not-to-feature',
    comment: 'A web feature imports no other feature: what several need lives in ui/ or the ground.',
    from: { path: `${WEB}features/([^/]+)/` },
    to: { path: `${WEB}features/`, pathNot: `${WEB}features/$1/` },
  },
  {
    name: 'feature-not-to-shell',
    comment: 'A web feature does not reach up into the shell (app/: routes, root, layout).',
    from: { path: `${WEB}features/`, pathNot: TEST },
    to: { path: `${WEB}app/` },
  },
  {
    name: 'shell-through-feature-index',
    comment: "The shell (app/, main.tsx) takes a feature through its index.ts, which lists the feature's pages.",
    from: { path: `${WEB}(app/|main\\.tsx$)`, pathNot: TEST },
    to: { path: `${WEB}features/`, pathNot: `${WEB}features/[^/]+/index\\.tsx?$` },
  },
  {
    name: 'ground-stays-down',
    comment: "The web's ground (request, live, session) imports no widget, feature or shell.",
    from: { path: `${WEB}ground/` },
    to: { path: `${WEB}(ui|features|app)/` },
  },
  {
    name: 'ui-not-to-features',
    comment: 'Shared widgets (ui/) import no feature and not the shell.',
    from: { path: `${WEB}ui/` },
    to: { path: `${WEB}(features|app)/` },
  },
  {
    name: 'shared-stands-alone',
    comment: 'packages/shared is read by server and web and imports neither.',
    from: { path: '^packages/shared/' },
    to: { path: '^packages/(server|web)/' },
  },
  {
    name: 'production-not-to-tests',
    comment: 'Production code imports no test code.',
    from: { path: '^packages/[^/]+/src/', pathNot: TEST },
    to: { path: TEST },
  },
  {
    name: 'no-unresolvable',
    comment: 'Every import resolves (a file moved without its importers fails here, not at run time).',
    from: {},
    to: { couldNotResolve: true },
  },
];

const rules = forbidden.map((rule) => ({ severity: 'error', ...rule }));

module.exports = {
  forbidden: rules.flatMap(withExceptions),
  options: {
    doNotFollow: { path: 'node_modules' },
    exclude: { path: ['(^|/)(node_modules|dist|\\.tmp|data)/', '\\.d\\.ts$', '^scripts/boundaries-fixture/'] },
    tsPreCompilationDeps: true,
    enhancedResolveOptions: {
      exportsFields: ['exports'],
      conditionNames: ['import', 'require', 'node', 'default', 'types'],
      extensions: ['.ts', '.tsx', '.js', '.mjs', '.cjs', '.json'],
    },
    skipAnalysisNotInRules: true,
    cache: false,
  },
};

// Read by scripts/check-boundaries.mjs, which names each exception nothing needs any more. Not
// enumerable: dependency-cruiser takes no other keys in its configuration.
Object.defineProperties(module.exports, {
  knownExceptions: { value: KNOWN_EXCEPTIONS },
  rulesBeforeExceptions: { value: rules },
});
