// The one signature of a service function (api/README.md): the context first, then at most two
// values positionally; more go in one object, second. Held for the concept folders that follow it;
// the rest of api/services/ joins as each file is converted.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

export const CONVERTED = ['plans', 'branding', 'agency-mail', 'report-domains', 'webhooks'];
const root = new URL('../../api/services/', import.meta.url).pathname;

/** Each exported function's departures from the convention, as "file: name (why)". */
export function departures(file: string, text: string): string[] {
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true);
  const out: string[] = [];
  const check = (name: string, params: ts.NodeArray<ts.ParameterDeclaration>) => {
    const first = params[0];
    if (!first) return;
    const takesCtx = (p: ts.ParameterDeclaration) => p.name.getText(source) === 'ctx' || /\bAppContext\b/.test(p.type?.getText(source) ?? '');
    if (ts.isObjectBindingPattern(first.name) && first.name.elements.some((e) => e.name.getText(source) === 'ctx')) out.push(`${file}: ${name} (ctx inside an object)`);
    else if (params.some((p, i) => i > 0 && takesCtx(p))) out.push(`${file}: ${name} (ctx not first)`);
    if (takesCtx(first) && params.length > 3) out.push(`${file}: ${name} (${params.length - 1} values after ctx)`);
  };
  source.forEachChild((node) => {
    const exported = ts.canHaveModifiers(node) && ts.getModifiers(node)?.some((m) => m.kind === ts.SyntaxKind.ExportKeyword);
    if (!exported) return;
    if (ts.isFunctionDeclaration(node) && node.name) check(node.name.text, node.parameters);
    if (ts.isVariableStatement(node))
      for (const d of node.declarationList.declarations)
        if (d.initializer && (ts.isArrowFunction(d.initializer) || ts.isFunctionExpression(d.initializer))) check(d.name.getText(source), d.initializer.parameters);
  });
  return out;
}

const filesOf = (dir: string): string[] =>
  readdirSync(join(root, dir), { withFileTypes: true }).flatMap((e) => (e.isDirectory() ? filesOf(join(dir, e.name)) : e.name.endsWith('.ts') ? [join(dir, e.name)] : []));

describe('service signatures', () => {
  it('the converted folders take (ctx, a, b) or (ctx, { … })', () => {
    const found = CONVERTED.flatMap((dir) => filesOf(dir).flatMap((f) => departures(f, readFileSync(join(root, f), 'utf8'))));
    expect(found).toEqual([]);
  });

  it('finds each kind of departure', () => {
    const text = [
      'export async function a({ ctx, id }: { ctx: AppContext; id: string }) {}',
      'export function b(id: string, ctx: AppContext) {}',
      'export const c = (ctx: AppContext, x: 1, y: 2, z: 3) => 0;',
      'export function d(ctx: AppContext, input: { x: 1; y: 2; z: 3 }) {}',
    ].join('\n');
    expect(departures('x.ts', text)).toEqual(['x.ts: a (ctx inside an object)', 'x.ts: b (ctx not first)', 'x.ts: c (3 values after ctx)']);
  });
});
