// Breaks production-not-to-tests: production code takes a test helper.
import { fakeOrder } from '../../../test/orders-test-kit.ts';

export const runOrder = () => fakeOrder();
