/** Spring's repository and native-backend tests over HTTP (backend-cases.ts). */
import { describe, it } from 'node:test';
import { backendCases } from './backend-cases.js';

describe("Spring's repository and native-backend tests over HTTP", () => {
  for (const backendCase of backendCases) it(backendCase.spring, backendCase.run);
});
