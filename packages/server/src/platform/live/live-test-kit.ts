// The live test helpers moved to packages/server/test/live-kit.ts; this re-export remains for a
// test that still imports it from here.
export { listenLocal } from '../../../test/live-kit.ts';
