// The address fields are one component, used by the report form and the client form, with the
// spec's words ("ZIP code", spec section 2's request form); before, each form had its own copy
// and they already differed ("ZIP code" / "ZIP Code").
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { createElement } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { AddressFields, type AddressFieldProps } from '../../site/islands/ui/address-fields.tsx';

const root = join(import.meta.dirname, '../..');

describe('the address fields', () => {
  it('have one copy: only the shared component names the ZIP code input', () => {
    const islands = readdirSync(join(root, 'site/islands'), { recursive: true, encoding: 'utf8' }).filter((f) => f.endsWith('.tsx'));
    const copies = islands.filter((f) => readFileSync(join(root, 'site/islands', f), 'utf8').includes("'postal-code'"));
    expect(copies).toEqual(['ui/address-fields.tsx']);
    for (const form of ['report-form/report-form.tsx', 'clients/client-form.tsx']) expect(readFileSync(join(root, 'site/islands', form), 'utf8'), form).toContain('<AddressFields ');
  });

  it("carry the spec's labels", () => {
    const Field = ({ name, label, children }: AddressFieldProps) => createElement('label', { htmlFor: name }, label, children({ id: name, name }));
    const html = renderToStaticMarkup(createElement(AddressFields, { Field, errors: {}, pairClass: 'pair' }));
    expect([...html.matchAll(/<label for="\w+">([^<]+)/g)].map((m) => m[1])).toEqual(['Business address', 'City', 'State', 'ZIP code']);
  });
});
