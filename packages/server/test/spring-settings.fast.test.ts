/**
 * Spring (Cloud Config, Boot) settings confbus does not implement are named as such, never as an unknown setting:
 * a security-relevant one stops the start, a tuning one is ignored with a warning. Named repositories follow the
 * default repository's rules for clone-submodules and proxy.*.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { SettingsError } from '@confbus/core';
import { resolveServerSettings } from '../src/index.js';
import { defaultRepositoryDefinition } from '../src/repositories/default-repository-settings.js';
import { namedRepositoryDefinitions } from '../src/repositories/named-repository-settings.js';

const SPRING_SETTING = /is a Spring setting that confbus does not implement/;

function warningsFor(arg: string): readonly string[] {
  return resolveServerSettings({ args: [arg] }).warnings;
}

describe('Spring settings confbus does not implement', () => {
  it('stops the start for a security-relevant one, naming it as a Spring setting', () => {
    for (const arg of [
      '--server.servlet.context-path=/config',
      '--spring.mvc.servlet.path=/config',
      '--spring.cloud.config.monitor.endpoint.path=/hooks',
      '--spring.cloud.config.server.git.clone-submodules=true',
      // Kafka keys confbus does not read: the SSL bundle, Kafka's own JAAS keys.
      '--spring.kafka.ssl.bundle=broker',
      '--spring.kafka.jaas.enabled=true',
      '--spring.cloud.stream.kafka.binder.configuration.security.protocol=SASL_SSL',
      '--spring.security.oauth2.resourceserver.jwt.issuer-uri=https://idp',
      '--management.server.address=127.0.0.1',
      '--management.endpoints.web.base-path=/manage',
    ]) {
      assert.throws(
        () => resolveServerSettings({ args: [arg] }),
        (error: unknown) =>
          error instanceof SettingsError &&
          SPRING_SETTING.test(error.message) &&
          error.message.includes('refusing to start without it'),
        arg,
      );
    }
  });

  it('warns for a tuning one, in any spelling and from the environment too', () => {
    for (const arg of [
      '--spring.cloud.config.server.default-label=main',
      '--spring.cloud.config.server.monitor.github.enabled=false',
      '--spring.cloud.config.server.monitor.fixedDelay=1000',
      '--spring.cloud.config.server.native.version=v1',
      '--spring.cloud.config.server.enabled=true',
      '--info.app.name=config',
      '--management.info.git.mode=full',
      '--spring.cloud.stream.bindings.springCloudBusInput.destination=bus',
      '--spring.rabbitmq.connection-timeout=5s',
      '--spring.rabbitmq.listener.simple.prefetch=10',
      '--server.compression.enabled=true',
      '--server.shutdown=graceful',
    ]) {
      const warnings = warningsFor(arg);
      assert.equal(warnings.length, 1, arg);
      assert.match(warnings[0] ?? '', SPRING_SETTING, arg);
      assert.match(warnings[0] ?? '', /\(ignored\)/, arg);
    }
    const fromEnvironment = resolveServerSettings({
      env: { SPRING_CLOUD_CONFIG_SERVER_NATIVE_VERSION: 'v1' },
    });
    assert.match(
      fromEnvironment.warnings[0] ?? '',
      /SPRING_CLOUD_CONFIG_SERVER_NATIVE_VERSION' .*\(ignored\)/,
    );
    assert.throws(
      () => resolveServerSettings({ env: { SPRING_CLOUD_CONFIG_SERVER_VAULT_HOST: 'vault.example' } }),
      /SPRING_CLOUD_CONFIG_SERVER_VAULT_HOST' \(from environment\) is a Spring setting .*refusing to start/,
    );
  });

  it('still answers a typo next to them with "Unknown setting" and a suggestion', () => {
    assert.throws(
      () => resolveServerSettings({ args: ['--server.prot=1'] }),
      /Unknown setting 'server.prot' .*Did you mean 'server.port'/,
    );
  });
});

describe('named repositories: the default repository rules for clone-submodules and proxy.*', () => {
  const GIT = 'spring.cloud.config.server.git';
  const definitions = (args: string[]) => {
    const settings = resolveServerSettings({ args });
    const defaults = defaultRepositoryDefinition(settings, 'https://git.example/default.git');
    const warnings: string[] = [];
    return { named: namedRepositoryDefinitions(settings, defaults, (w) => warnings.push(w)), warnings };
  };

  it('clone-submodules stops the start, as it does for the default repository', () => {
    assert.throws(
      () => definitions([`--${GIT}.repos.team.uri=file:///team`, `--${GIT}.repos.team.cloneSubmodules=true`]),
      (error: unknown) =>
        error instanceof SettingsError &&
        /repos\.team\.cloneSubmodules' \(from argument\) is a Spring setting .*refusing to start/.test(
          error.message,
        ),
    );
  });

  it('proxy.* of a named repository is its own, per scheme; unset, the default repository proxy applies', () => {
    const { named, warnings } = definitions([
      `--${GIT}.proxy.https.host=default-proxy`,
      `--${GIT}.proxy.http.host=default-http-proxy`,
      `--${GIT}.repos.team.uri=https://git.example/team.git`,
      `--${GIT}.repos.team.proxy.https.host=team-proxy`,
      `--${GIT}.repos.team.proxy.https.port=3128`,
      `--${GIT}.repos.team.proxy.https.username=team`,
      `--${GIT}.repos.team.proxy.https.password=pw`,
      `--${GIT}.repos.team.proxy.https.non-proxy-hosts=*.internal`,
      `--${GIT}.repos.other.uri=https://git.example/other.git`,
    ]);
    assert.deepEqual(warnings, []);
    const [team, other] = named;
    assert.deepEqual(team?.proxy.https, {
      host: 'team-proxy',
      port: 3128,
      username: 'team',
      password: 'pw',
      nonProxyHosts: '*.internal',
    });
    assert.equal(team?.proxy.http.host, 'default-http-proxy', 'a scheme it does not set is inherited');
    assert.equal(other?.proxy.https.host, 'default-proxy');
  });
});
