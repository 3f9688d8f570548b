/**
 * A property's value with the Java type Spring holds it in, since Spring prints each type its own way:
 *   string   text (every `.properties` value; quoted and plain YAML strings);
 *   boolean  SnakeYAML's booleans;
 *   number   an integer SnakeYAML reads as an Integer or Long that a JavaScript number holds exactly (what
 *            JSON gives a client is a `number` too, whatever Java type it had);
 *   bigint   an integer beyond 2^53 (a Long or BigInteger in Java), kept to the last digit;
 *   JavaDouble  a YAML float, a Java Double: `1e3` is printed `1000.0`, `.inf` is `Infinity`.
 * `String(value)` is Java's `String.valueOf` for each of them, which is what Spring's `.properties` output and
 * its placeholder resolution print.
 */
export type PropertyValue = string | number | bigint | boolean | JavaDouble | null;

/** A YAML float as SnakeYAML constructs it: a Java Double, printed as Java prints one. */
export class JavaDouble {
  constructor(readonly value: number) {}

  /** Java's Double.toString (`1000.0`, `1.0E20`, `NaN`, `-Infinity`). */
  toString(): string {
    return javaDoubleText(this.value);
  }

  valueOf(): number {
    return this.value;
  }

  /** Like a bigint, refused by JSON.stringify: writeJson writes it as Jackson does, JSON.stringify could not. */
  toJSON(): never {
    throw new TypeError('a JavaDouble is written with writeJson, not JSON.stringify');
  }
}

export function isJavaDouble(value: unknown): value is JavaDouble {
  return value instanceof JavaDouble;
}

/**
 * Java's Double.toString as specified since JDK 19 (and written by Jackson 3's default writer): the shortest
 * decimal that reads back as the same double (JavaScript finds the same digits), laid out as Java lays it out:
 * plain from 10^-3 up to 10^7 with at least one fraction digit, otherwise `d.dddE±n`. JDK 17's older
 * algorithm, which SnakeYAML and String.valueOf use on that JDK, prints a digit more for a few rare doubles.
 */
export function javaDoubleText(value: number): string {
  if (Number.isNaN(value)) return 'NaN';
  if (value === Number.POSITIVE_INFINITY) return 'Infinity';
  if (value === Number.NEGATIVE_INFINITY) return '-Infinity';
  if (value === 0) return Object.is(value, -0) ? '-0.0' : '0.0';
  const sign = value < 0 ? '-' : '';
  const { digits, exponent } = shortestDecimal(Math.abs(value));
  const magnitude = Math.abs(value);
  if (magnitude >= 1e-3 && magnitude < 1e7) {
    if (exponent < 0) return `${sign}0.${'0'.repeat(-exponent - 1)}${digits}`;
    const whole = digits.slice(0, exponent + 1).padEnd(exponent + 1, '0');
    const fraction = digits.slice(exponent + 1);
    return `${sign}${whole}.${fraction === '' ? '0' : fraction}`;
  }
  return `${sign}${digits[0]}.${digits.length > 1 ? digits.slice(1) : '0'}E${exponent}`;
}

/**
 * The digits (no leading or trailing zeros) and decimal exponent of the shortest decimal for a positive
 * double. Where one digit suffices, Java picks the closest decimal of one or two digits (4.9E-324, not 5E-324).
 */
function shortestDecimal(magnitude: number): { digits: string; exponent: number } {
  const shortest = splitExponential(magnitude.toExponential());
  if (shortest.digits.length > 1) return shortest;
  const twoDigits = magnitude.toExponential(1);
  if (Number(twoDigits) !== magnitude) return shortest;
  const closest = splitExponential(twoDigits);
  return closest.digits.endsWith('0') ? { ...closest, digits: closest.digits.slice(0, -1) } : closest;
}

function splitExponential(text: string): { digits: string; exponent: number } {
  const [mantissa = '', exponent = '0'] = text.split('e');
  return { digits: mantissa.replace('.', ''), exponent: Number(exponent) };
}

/**
 * The properties of documents parsed in a worker thread made whole again: a structured clone keeps a
 * JavaDouble's field but not its class, so it arrives as a plain `{ value }` object.
 */
export function reviveJavaDoubles(properties: Map<string, unknown>): void {
  for (const [key, value] of properties) {
    if (typeof value === 'object' && value !== null && !(value instanceof JavaDouble)) {
      properties.set(key, new JavaDouble((value as { value: number }).value));
    }
  }
}

/** Whether two values are the same value of the same type (JavaDoubles compare by value, NaN equal to NaN). */
export function samePropertyValue(a: PropertyValue | undefined, b: PropertyValue | undefined): boolean {
  if (a instanceof JavaDouble && b instanceof JavaDouble) return Object.is(a.value, b.value);
  return a === b;
}
