/**
 * TODO: Spring's repository and native-backend tests that confbus fails today (backend-cases.ts), each with the
 * reason. Their fixes lie in packages/server/src/{git,repositories,native}/, which are being reworked elsewhere;
 * they run here as node:test todos, so they report without failing the suite, and move to backends.test.ts
 * (by dropping their `todo`) once they pass.
 */
import { describe, it } from 'node:test';
import { backendCases } from './backend-cases.js';

describe("TODO: Spring's repository and native-backend tests confbus fails today", () => {
  for (const backendCase of backendCases.filter((c) => c.todo !== undefined)) {
    it(backendCase.spring, { todo: backendCase.todo }, backendCase.run);
  }
});
