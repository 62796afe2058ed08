// The widget key's hostname list against a request's Origin (common/widget.ts).
import { describe, expect, it } from 'vitest';
import { normaliseHostPattern, originAllowed } from '../../common/widget.ts';

describe('widget hostname patterns', () => {
  it('normalises what an agency types: case, pasted addresses, IDN to punycode, ports kept', () => {
    expect(normaliseHostPattern(' Example.COM ')).toBe('example.com');
    expect(normaliseHostPattern('https://www.example.com/contact?x=1')).toBe('www.example.com');
    expect(normaliseHostPattern('bücher.example')).toBe('xn--bcher-kva.example');
    expect(normaliseHostPattern('*.Bücher.example')).toBe('*.xn--bcher-kva.example');
    expect(normaliseHostPattern('localhost:8080')).toBe('localhost:8080');
    expect(normaliseHostPattern('127.0.0.1:43332')).toBe('127.0.0.1:43332');
  });

  it('refuses what is not a hostname pattern', () => {
    for (const bad of ['', '*', '*.com', 'example', 'ex*mple.com', 'a.*.example.com', 'user@example.com', '*.127.0.0.1']) {
      expect(normaliseHostPattern(bad), bad).toBeNull();
    }
  });

  it('matches an exact hostname over https on its default port, and nothing that only ends like it', () => {
    const list = ['example.com'];
    expect(originAllowed('https://example.com', list)).toBe(true);
    expect(originAllowed('https://example.com:443', list)).toBe(true);
    expect(originAllowed('http://example.com:8080', list)).toBe(false);
    expect(originAllowed('http://example.com', list)).toBe(false);
    expect(originAllowed('https://example.com:8443', list)).toBe(false);
    expect(originAllowed('https://evil-example.com', list)).toBe(false);
    expect(originAllowed('https://example.com.evil.net', list)).toBe(false);
    expect(originAllowed('https://www.example.com', list)).toBe(false);
    expect(originAllowed('https://EXAMPLE.com', list)).toBe(true);
  });

  it('holds a pattern with a port to that port', () => {
    expect(originAllowed('http://127.0.0.1:43332', ['127.0.0.1:43332'])).toBe(true);
    expect(originAllowed('http://127.0.0.1:43331', ['127.0.0.1:43332'])).toBe(false);
    expect(originAllowed('https://example.com', ['example.com:443'])).toBe(true);
    expect(originAllowed('https://example.com:8443', ['example.com:8443'])).toBe(true);
    expect(originAllowed('http://example.com:8443', ['example.com:8443'])).toBe(false);
  });

  it('admits http only when the pattern says so, or on a loopback host', () => {
    expect(normaliseHostPattern('HTTP://Shop.Example.com:8080/path')).toBe('http://shop.example.com:8080');
    expect(normaliseHostPattern('http://example.com:80')).toBe('http://example.com');
    expect(originAllowed('http://shop.example.com:8080', ['http://shop.example.com:8080'])).toBe(true);
    expect(originAllowed('https://shop.example.com:8080', ['http://shop.example.com:8080'])).toBe(false);
    expect(originAllowed('http://shop.example.com', ['http://shop.example.com:8080'])).toBe(false);
    expect(originAllowed('http://example.com', ['http://example.com'])).toBe(true);
    expect(originAllowed('http://a.b.example.com', ['http://*.example.com'])).toBe(true);
    expect(originAllowed('http://localhost:4321', ['localhost:4321'])).toBe(true);
    expect(originAllowed('http://localhost:4322', ['localhost:4321'])).toBe(false);
  });

  it('matches a wildcard on subdomains at any depth, not the apex, not a look-alike', () => {
    const list = ['*.example.com'];
    expect(originAllowed('https://shop.example.com', list)).toBe(true);
    expect(originAllowed('https://a.b.example.com', list)).toBe(true);
    expect(originAllowed('https://example.com', list)).toBe(false);
    expect(originAllowed('https://evil-example.com', list)).toBe(false);
    expect(originAllowed('https://shop.evil-example.com', list)).toBe(false);
    expect(originAllowed('https://example.com.evil.net', list)).toBe(false);
  });

  it('compares internationalised names in the form browsers send (punycode)', () => {
    expect(originAllowed(new URL('https://bücher.example').origin, ['bücher.example'])).toBe(true);
    expect(originAllowed('https://xn--bcher-kva.example', ['bücher.example'])).toBe(true);
    expect(originAllowed('https://shop.xn--bcher-kva.example', ['*.bücher.example'])).toBe(true);
    expect(originAllowed('https://bucher.example', ['bücher.example'])).toBe(false);
  });

  it('refuses a missing, opaque or non-web Origin', () => {
    for (const origin of [null, undefined, '', 'null', 'file://', 'chrome-extension://abc', 'not a url']) {
      expect(originAllowed(origin, ['example.com', '*.example.com'])).toBe(false);
    }
  });
});
