/**
 * Which layer of src/ may import which (docs/architecture.md draws the map). `npm run lint:deps` checks it,
 * and so does CI: a rule broken here is a build failure, not a warning.
 */
module.exports = {
  forbidden: [
    {
      name: 'no-circular',
      comment:
        'Two modules that import each other (directly or through others) cannot be understood, tested or loaded ' +
        'one without the other, and a cycle makes the order of module evaluation decide what is undefined.',
      severity: 'error',
      from: {},
      to: { circular: true },
    },
    {
      name: 'domain-not-to-http-or-jobs',
      comment:
        'Services hold the rules and know nothing of how they are called: no Fastify, envelope or status code ' +
        '(src/http) and no worker or job handler (src/jobs). Work for later is queued through the jobs repository.',
      severity: 'error',
      from: { path: '^src/domain/' },
      to: { path: '^src/(http|jobs)/' },
    },
    {
      name: 'lower-layers-not-to-domain',
      comment:
        'Carriers, repositories, document rendering and schemas sit below the services: what they share with the ' +
        'domain (value types, pure helpers) lives in src/core, which all of them may import.',
      severity: 'error',
      from: { path: '^src/(carriers|db|documents|schemas)/' },
      to: { path: '^src/domain/' },
    },
    {
      name: 'core-is-the-bottom',
      comment:
        'src/core is the bottom layer: value types and pure helpers that import nothing else of src/, so that ' +
        'every other layer can use them without an upward or circular import.',
      severity: 'error',
      from: { path: '^src/core/' },
      to: { path: '^src/(?!core/)' },
    },
    {
      name: 'carrier-detection-is-pure',
      comment:
        'Tracking-number detection (src/carriers/detect) is check-digit arithmetic on a string: it may use src/core ' +
        'and nothing else of src/, so the API, the services and the carriers can all call it.',
      severity: 'error',
      from: { path: '^src/carriers/detect/' },
      to: { path: '^src/(?!carriers/detect/|core/)' },
    },
    {
      name: 'not-to-unresolvable',
      comment: 'An import the checker cannot resolve is either a typo or a missing dependency, and hides an edge from the rules above.',
      severity: 'error',
      from: {},
      to: { couldNotResolve: true },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    // Type-only imports count: a carrier that imports a domain type depends on the domain as much as one that calls it.
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    enhancedResolveOptions: {
      exportsFields: ['exports'],
      conditionNames: ['import', 'require', 'node', 'default', 'types'],
      extensions: ['.ts', '.js', '.json'],
    },
    reporterOptions: { text: { highlightFocused: true } },
  },
};
