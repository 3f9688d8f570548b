/** Spring's pattern rules for repos.<name>.pattern (PatternMatchingJGitEnvironmentRepository). */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { RepositoryPatterns } from '../../src/repositories/repository-patterns.js';

describe('repository patterns', () => {
  it('a pattern without a profile matches every profile', () => {
    const patterns = new RepositoryPatterns(['simple']);
    assert.equal(patterns.matches('simple', ['dev']), true);
    assert.equal(patterns.matches('simple', ['default']), true);
    assert.equal(patterns.matches('simpler', ['dev']), false);
  });

  it('wildcards match any characters, and some requested profile suffices', () => {
    const patterns = new RepositoryPatterns(['local*', '*/qa']);
    assert.equal(patterns.matches('localhost', ['dev']), true);
    assert.equal(patterns.matches('anything', ['dev', 'qa']), true);
    assert.equal(patterns.matches('anything', ['dev']), false);
  });

  it('a one-profile pattern accepts requests naming more profiles after it, as Spring does', () => {
    const patterns = new RepositoryPatterns(['foo/dev']);
    assert.equal(patterns.accepts('foo', 'dev,db'), true);
    assert.equal(patterns.accepts('foo', 'db,dev'), false, 'Spring declines: the list must start with dev');
    assert.equal(patterns.matches('foo', ['db', 'dev']), true);
  });

  it('treats regular-expression characters literally', () => {
    const patterns = new RepositoryPatterns(['a.b', 'x(y)']);
    assert.equal(patterns.matches('a.b', ['dev']), true);
    assert.equal(patterns.matches('axb', ['dev']), false);
    assert.equal(patterns.matches('x(y)', ['dev']), true);
  });
});
