/** The git transport and SSH settings of named repositories: set per repository, or taken from the default one. */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { SettingsError, resolveSettings } from '@confbus/core';
import { serverSettingSpecs } from '../../src/server-settings.js';
import { defaultRepositoryDefinition } from '../../src/repositories/default-repository-settings.js';
import { namedRepositoryDefinitions } from '../../src/repositories/named-repository-settings.js';

const GIT = 'spring.cloud.config.server.git';

function definitions(args: string[], env: Record<string, string> = {}) {
  const settings = resolveSettings(serverSettingSpecs, { args, env }, { unknownKeys: 'error' });
  const defaults = defaultRepositoryDefinition(settings, 'file:///default');
  const warnings: string[] = [];
  return {
    defaults,
    named: namedRepositoryDefinitions(settings, defaults, (m) => warnings.push(m)),
    warnings,
  };
}

describe('repository definitions: transport and SSH settings', () => {
  it('named repositories inherit try-master-branch, delete-untracked-branches, skip-ssl-validation and proxy', () => {
    const { named, warnings } = definitions([
      `--${GIT}.try-master-branch=false`,
      `--${GIT}.skip-ssl-validation=true`,
      `--${GIT}.proxy.https.host=proxy.internal`,
      `--${GIT}.private-key=DEFAULT-KEY`,
      `--${GIT}.repos.team.uri=ssh://git@team.example/config.git`,
      `--${GIT}.repos.team.delete-untracked-branches=true`,
    ]);
    const [team] = named;
    assert.ok(team);
    assert.equal(team.tryMasterBranch, false);
    assert.equal(team.skipSslValidation, true);
    assert.equal(team.deleteUntrackedBranches, true);
    assert.equal(team.proxy.https.host, 'proxy.internal');
    // SSH keys belong to one host: not inherited.
    assert.equal(team.ssh.privateKey, undefined);
    assert.equal(team.ssh.strictHostKeyChecking, true);
    assert.deepEqual(warnings, []);
  });

  it('SSH settings and flags set on a named repository are its own (relaxed names accepted)', () => {
    const { defaults, named, warnings } = definitions([
      `--${GIT}.repos.team.uri=ssh://git@team.example/config.git`,
      `--${GIT}.repos.team.privateKey=TEAM-KEY`,
      `--${GIT}.repos.team.host-key=AAAA`,
      `--${GIT}.repos.team.host-key-algorithm=ssh-ed25519`,
      `--${GIT}.repos.team.ignore-local-ssh-settings=true`,
      `--${GIT}.repos.team.strict-host-key-checking=false`,
      `--${GIT}.repos.team.skip-ssl-validation=true`,
      `--${GIT}.repos.team.force-pull=true`,
    ]);
    const [team] = named;
    assert.ok(team);
    assert.equal(team.ssh.privateKey, 'TEAM-KEY');
    assert.equal(team.ssh.hostKey, 'AAAA');
    assert.equal(team.ssh.hostKeyAlgorithm, 'ssh-ed25519');
    assert.equal(team.ssh.ignoreLocalSshSettings, true);
    assert.equal(team.ssh.strictHostKeyChecking, false);
    assert.equal(team.skipSslValidation, true);
    assert.equal(defaults.skipSslValidation, false);
    assert.equal(defaults.ssh.privateKey, undefined);
    assert.deepEqual(warnings, []);
  });

  it('a flag that is not true or false names the key', () => {
    assert.throws(
      () =>
        definitions([`--${GIT}.repos.team.uri=file:///team`, `--${GIT}.repos.team.try-master-branch=maybe`]),
      /repos\.team\.try-master-branch must be true or false, got 'maybe'/,
    );
  });

  it('a named repository without a uri, or with a timeout that is not a number, is a bad setting naming its key', () => {
    assert.throws(
      () => definitions([`--${GIT}.repos.team.pattern=team-*`]),
      (error: Error & { code?: string; key?: string }) => {
        assert.equal(error.code, 'CONFBUS_BAD_SETTING');
        assert.equal(error.key, `${GIT}.repos.team.uri`);
        assert.equal(error.message, `${GIT}.repos.team.uri is required`);
        return true;
      },
    );
    assert.throws(
      () => definitions([`--${GIT}.repos.team.uri=file:///team`, `--${GIT}.repos.team.timeout=soon`]),
      (error: Error & { code?: string; key?: string; source?: string }) => {
        assert.equal(error.code, 'CONFBUS_BAD_SETTING');
        assert.equal(error.key, `${GIT}.repos.team.timeout`);
        assert.equal(error.source, 'argument');
        assert.match(error.message, /repos\.team\.timeout must be an integer, got 'soon'/);
        return true;
      },
    );
  });

  it("takes a named repository wholly from environment variables, as Boot's relaxed binding maps them", () => {
    const { named, warnings } = definitions([], {
      SPRING_CLOUD_CONFIG_SERVER_GIT_REPOS_TEAMA_URI: 'https://git.example/team-a.git',
      SPRING_CLOUD_CONFIG_SERVER_GIT_REPOS_TEAMA_PATTERN_0: 'team-a*',
      SPRING_CLOUD_CONFIG_SERVER_GIT_REPOS_TEAMA_PATTERN_1: '*/qa',
      SPRING_CLOUD_CONFIG_SERVER_GIT_REPOS_TEAMA_USERNAME: 'deploy',
      SPRING_CLOUD_CONFIG_SERVER_GIT_REPOS_TEAMA_PASSWORD: 'from-a-secret',
      SPRING_CLOUD_CONFIG_SERVER_GIT_REPOS_TEAMA_SEARCHPATHS: 'config',
      SPRING_CLOUD_CONFIG_SERVER_GIT_REPOS_TEAMA_DEFAULT_LABEL: 'main',
    });
    assert.deepEqual(warnings, []);
    assert.equal(named.length, 1);
    const [team] = named;
    assert.equal(team?.name, 'teama', 'names are lower-cased, as Boot maps variable names');
    assert.equal(team?.uri, 'https://git.example/team-a.git');
    assert.deepEqual(team?.patterns, ['team-a*', '*/qa']);
    assert.equal(team?.username, 'deploy');
    assert.equal(team?.password, 'from-a-secret');
    assert.deepEqual(team?.searchPaths, ['config']);
    assert.equal(team?.defaultLabel, 'main');
  });

  it("reads Spring's shortcut repos.<name>=<uri>: a repository serving the application <name>, in its place", () => {
    const { named, warnings } = definitions([
      `--${GIT}.repos.first.uri=https://git.example/first.git`,
      `--${GIT}.repos.admin=https://git.example/admin.git`,
      `--${GIT}.repos.last.uri=https://git.example/last.git`,
    ]);
    assert.deepEqual(warnings, []);
    assert.deepEqual(
      named.map((repository) => [repository.name, repository.uri, repository.patterns]),
      [
        ['first', 'https://git.example/first.git', ['first']],
        ['admin', 'https://git.example/admin.git', ['admin']],
        ['last', 'https://git.example/last.git', ['last']],
      ],
    );
    assert.throws(
      () => definitions([`--${GIT}.repos.admin=https://a/x.git`, `--${GIT}.repos.admin.uri=https://a/y.git`]),
      (error: unknown) => {
        assert.ok(error instanceof SettingsError);
        assert.equal(error.key, `${GIT}.repos.admin`);
        assert.match(
          error.message,
          /repos\.admin and .*repos\.admin\.uri both set the uri of repository 'admin'/,
        );
        return true;
      },
    );
  });

  it("keeps a named repository's own skip-ssl-validation=false under a default true, with a warning (Spring forces true)", () => {
    const { named, warnings } = definitions([
      `--${GIT}.skip-ssl-validation=true`,
      `--${GIT}.repos.checked.uri=https://git.example/checked.git`,
      `--${GIT}.repos.checked.skip-ssl-validation=false`,
    ]);
    assert.equal(named[0]?.skipSslValidation, false);
    assert.equal(warnings.length, 1);
    assert.match(
      warnings[0] ?? '',
      /repos\.checked\.skip-ssl-validation=false: its certificates are checked/,
    );
  });
});
