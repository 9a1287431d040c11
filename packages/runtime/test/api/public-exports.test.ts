// What `@keel/runtime` offers its users, held still: a name added to or dropped from the public face
// (src/index.ts and the subpath entries) shows up here and has to be a decision, not an accident.
import { expect, test } from 'vitest';
import * as errors from '../../src/errors/index.ts';
import * as root from '../../src/index.ts';
import * as store from '../../src/store/index.ts';

test('the public exports of @keel/runtime', () => {
  expect({
    '@keel/runtime': Object.keys(root).sort(),
    '@keel/runtime/errors': Object.keys(errors).sort(),
    '@keel/runtime/store': Object.keys(store).sort(),
  }).toMatchSnapshot();
});
