/** How /encrypt and /decrypt read their bodies, fast tier. */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { readRequestBody, textToDecrypt, textToEncrypt } from '../../src/encryption/request-body.js';

const form = (body: string) => readRequestBody(Buffer.from(body), 'application/x-www-form-urlencoded');
const plain = (body: string, type = 'text/plain') => readRequestBody(Buffer.from(body), type);

describe('encryption request bodies', () => {
  it('uses text/plain (with or without parameters) and bodies without a type as sent', () => {
    assert.equal(textToEncrypt(plain('a+b=')), 'a+b=');
    assert.equal(textToEncrypt(plain('a+b=', 'text/plain;charset=UTF-8')), 'a+b=');
    assert.equal(textToEncrypt(readRequestBody(Buffer.from('x='), undefined)), 'x=');
    const latin1 = readRequestBody(Buffer.from('café', 'latin1'), 'text/plain; charset=ISO-8859-1');
    assert.equal(textToEncrypt(latin1), 'café');
    assert.equal(textToEncrypt(plain('café')), 'café');
  });

  it('form-decodes `curl -d TEXT` and `--data-urlencode` for /encrypt', () => {
    assert.equal(textToEncrypt(form('mysecret')), 'mysecret');
    assert.equal(textToEncrypt(form('a+b')), 'a b'); // a form's + is a space, as in Spring
    assert.equal(textToEncrypt(form(encodeURIComponent('a b&c==d'))), 'a b&c==d');
    assert.equal(textToEncrypt(form('100%')), '100%'); // malformed escapes stay as they are
  });

  it('keeps + and = of a form-posted cipher text for /decrypt', () => {
    assert.equal(textToDecrypt(form('0123abcd')), '0123abcd');
    for (const cipher of ['AQB+/x==', 'AQB+/xy=', 'AQB+/xyz', '{key:k}{secret:s}AQB+/x==']) {
      assert.equal(textToDecrypt(form(cipher)), cipher, `curl -d ${cipher}`);
      assert.equal(textToDecrypt(form(encodeURIComponent(cipher))), cipher, `--data-urlencode ${cipher}`);
    }
  });
});
