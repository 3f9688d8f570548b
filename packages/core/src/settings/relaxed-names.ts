/**
 * Spring Boot's relaxed binding, reduced to what confbus needs: `SPRING_RABBITMQ_PASSWORD`,
 * `spring.rabbitmq.password` and `spring.rabbitMQ.password` all name one setting.
 * Boot's rule for environment variables is: replace `.` with `_`, drop `-`, upper-case.
 * We also accept `-` written as `_` (`..._DEFAULT_LABEL`), which Boot does not, because
 * people write it that way and nothing else could be meant for a key we know.
 */
export function canonicalKey(key: string): string {
  return key.trim().toLowerCase();
}

/** The environment variable names that may carry `key`, most Spring-like first. */
export function environmentNamesFor(key: string): string[] {
  const upper = key.toUpperCase();
  const boot = upper
    .replace(/\./g, '_')
    .replace(/-/g, '')
    .replace(/\[(\d+)\]/g, '_$1_')
    .replace(/_$/, '');
  const dashed = upper
    .replace(/[.-]/g, '_')
    .replace(/\[(\d+)\]/g, '_$1_')
    .replace(/_$/, '');
  return boot === dashed ? [boot] : [boot, dashed];
}

/** A loose form for comparing keys regardless of dashes and case, used for "did you mean". */
export function looseKey(key: string): string {
  return key.toLowerCase().replace(/[-_]/g, '');
}
