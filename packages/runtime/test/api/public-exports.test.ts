// What `@keel/runtime` offers its users, held still: a name added to or dropped from the public face
// (src/index.ts and the subpath entries) shows up here and has to be a decision, not an accident.
// `@keel/runtime/internal` is held too: what Keel's CLI and server use, with no stability promise, but
// a name moving between it and the public face is still a decision. `@keel/runtime/git` is internal too: git
// alone, for the workbench's worker thread, which must start without loading the whole runtime.
// `@keel/runtime/wire` (and `/wire/names`) is what @keel/protocol re-exports: the wire's schemas, zod only.
import { expect, test } from 'vitest';
import * as errors from '../../src/errors/index.ts';
import * as git from '../../src/git/index.ts';
import * as root from '../../src/index.ts';
import * as internal from '../../src/internal.ts';
import * as store from '../../src/store/index.ts';
import * as wire from '../../src/wire/index.ts';
import * as wireNames from '../../src/wire/names.ts';

test('the public exports of @keel/runtime', () => {
  expect({
    '@keel/runtime': Object.keys(root).sort(),
    '@keel/runtime/errors': Object.keys(errors).sort(),
    '@keel/runtime/git': Object.keys(git).sort(),
    '@keel/runtime/internal': Object.keys(internal).sort(),
    '@keel/runtime/store': Object.keys(store).sort(),
    '@keel/runtime/wire': Object.keys(wire).sort(),
    '@keel/runtime/wire/names': Object.keys(wireNames).sort(),
  }).toMatchSnapshot();
});

test('no name is both public and internal', () => {
  const publicNames = new Set([...Object.keys(root), ...Object.keys(errors), ...Object.keys(store)]);
  expect(Object.keys(internal).filter((name) => publicNames.has(name))).toEqual([]);
});
