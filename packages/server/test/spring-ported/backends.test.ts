/**
 * Spring's repository and native-backend tests that confbus passes (backend-cases.ts); those that fail today
 * run as todos in todo-backends.test.ts.
 */
import { describe, it } from 'node:test';
import { backendCases } from './backend-cases.js';

describe("Spring's repository and native-backend tests over HTTP", () => {
  for (const backendCase of backendCases.filter((c) => c.todo === undefined)) {
    it(backendCase.spring, backendCase.run);
  }
});
