/**
 * Uri templates: placeholders in the path only (refused at start elsewhere, as Spring refuses them in the host or
 * port), and request values that cannot leave the path.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { isConfbusError } from '@confbus/core';
import { expandUriTemplate, uriTemplateProblem } from '../../src/repositories/uri-template.js';

const values = { application: 'orders', profile: 'prod', label: 'main' };

describe('uri templates', () => {
  it('accepts placeholders in the path of every kind of uri git reads', () => {
    for (const uri of [
      'https://git.example.com/config/{application}',
      'https://user:secret@git.example.com:8443/{profile}/{application}.git?x=1',
      'http://[::1]:8080/{label}/repo',
      'ssh://git@git.example.com:2222/teams/{application}',
      'git://127.0.0.1:9418/{application}',
      'git@git.example.com:teams/{application}.git',
      '[git.example.com:22]:teams/{application}',
      'file:///srv/config/{application}',
      '/srv/config/{application}/{label}',
      './repos/{application}',
      '{application}',
      'https://git.example.com/config', // no placeholder at all
    ]) {
      assert.equal(uriTemplateProblem(uri), undefined, uri);
    }
  });

  it('refuses a placeholder in the scheme, user info, host, port, query or a remote helper, naming the part', () => {
    for (const [uri, part] of [
      ['{application}://git.example.com/config', 'scheme'],
      ['https://{application}@git.example.com/config', 'user info'],
      ['https://deploy:{profile}@git.example.com/config', 'user info'],
      ['https://{application}/config', 'host'],
      ['https://git.{application}.example.com/config', 'host'],
      ['http://127.0.0.1:{profile}/config', 'port'],
      ['http://[::1]:{profile}/config', 'port'],
      ['git://127.0.0.1{application}', 'host'],
      ['file://{application}/srv/config', 'host'],
      ['https://git.example.com/config?repo={application}', 'query or fragment'],
      ['https://git.example.com/config#{label}', 'query or fragment'],
      ['git@{application}:teams/config.git', 'host'],
      ['{application}@git.example.com:config.git', 'user info'],
      ['{application}:config.git', 'host'],
    ] as const) {
      assert.match(uriTemplateProblem(uri) ?? '', new RegExp(`a placeholder in the ${part} would`), uri);
    }
    assert.match(uriTemplateProblem('ext::sh -c {application}') ?? '', /remote-helper address/);
    assert.match(uriTemplateProblem('fd::{application}') ?? '', /remote-helper address/);
  });

  it("fills the path, Spring's (_) making a sub-folder", () => {
    assert.equal(
      expandUriTemplate('https://git.example.com/{application}/{profile}-{label}.git', values, 'default'),
      'https://git.example.com/orders/prod-main.git',
    );
    assert.equal(
      expandUriTemplate('file:///srv/{application}', { ...values, application: 'team-a/orders' }, 'default'),
      'file:///srv/team-a/orders',
    );
    assert.equal(
      expandUriTemplate('/srv/{label}/x', { ...values, label: 'release/1.2_rc-3' }, 'default'),
      '/srv/release/1.2_rc-3/x',
    );
  });

  it('refuses with 400 any value that could leave the path or start an option, naming the value', () => {
    const hostile = [
      'a@evil.example',
      'evil.example:9418',
      '127.0.0.1:8080',
      '..',
      'a/../b',
      'a..b',
      '../etc',
      '/etc',
      'a/',
      'a//b',
      '-upload-pack=touch x',
      'a/-b',
      '--output=x',
      'ext::sh -c id',
      'a?b',
      'a#b',
      '%2e%2e',
      'a%40b',
      'a%3Ab',
      'a\\b',
      'a\u0000b',
      'a\nb',
      'a b',
      '.hidden',
      'a/.git',
      'a,b',
      'caf\u00e9',
      '',
      'x'.repeat(201),
    ];
    for (const value of hostile) {
      for (const token of ['application', 'profile', 'label'] as const) {
        const uri = `https://git.example.com/config/{${token}}.git`;
        assert.throws(
          () => expandUriTemplate(uri, { ...values, [token]: value }, 'teams'),
          (error: unknown) => {
            assert.ok(
              isConfbusError(error) && error.code === 'CONFBUS_INVALID_REPOSITORY_NAME',
              String(error),
            );
            assert.equal(error.status, 400);
            const shown = JSON.stringify(value.length > 100 ? `${value.slice(0, 100)}…` : value);
            assert.ok(
              error.message.startsWith(
                `${shown} cannot name a repository ({${token}} in the uri of repository 'teams')`,
              ),
              error.message,
            );
            return true;
          },
          `${token}=${JSON.stringify(value)}`,
        );
      }
    }
  });

  it('says why a character is refused', () => {
    const why = (application: string): string => {
      try {
        expandUriTemplate('https://h/{application}', { ...values, application }, 'default');
      } catch (error) {
        return (error as Error).message;
      }
      return '';
    };
    assert.match(why('a@b'), /"@" could change the user info or host/);
    assert.match(why('h:1'), /":" could change the scheme, host or port/);
    assert.match(why('a/-x'), /could start a git option/);
    assert.match(why('a/../b'), /could climb out of the path/);
    assert.match(why('a,b'), /two applications or profiles cannot name one repository/);
  });
});
