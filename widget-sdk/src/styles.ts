// The widget's own stylesheet (class names kept to a letter or two: the bundle's budget), adopted into each shadow root (a constructed sheet: no <style>
// element, so a host's strict style-src does not block it). The host page reaches in only through
// the allow-listed custom properties below (THEME_PROPERTIES); everything else is reset at the root.
export const THEME_PROPERTIES = ['--lr-primary', '--lr-secondary', '--lr-accent', '--lr-radius', '--lr-font'] as const;

export const CSS = `
:host{display:block}
.lr{all:initial;display:block;font:15px/1.5 var(--lr-font,system-ui,sans-serif);color:#0f172a;background:#fff;border:1px solid #e2e8f0;border-radius:var(--lr-radius,12px);padding:20px;max-width:640px;margin-bottom:16px;overflow-wrap:anywhere}
*{box-sizing:border-box}
h2,h3{font-size:19px;margin:0 0 6px;color:var(--lr-secondary)}
p{margin:0 0 12px}
.m{color:#475569;font-size:14px}
.g{display:grid;grid-template-columns:repeat(auto-fit,minmax(min(220px,100%),1fr));gap:12px}
.w{grid-column:1/-1}
.f{display:flex;flex-direction:column;gap:4px}
label{font-size:13px;font-weight:600;color:#334155}
input,select{font:inherit;color:inherit;background:#fff;border:1px solid #94a3b8;border-radius:8px;padding:9px 11px;width:100%}
[aria-invalid=true]{border-color:#b91c1c}
:focus-visible{outline:3px solid var(--lr-focus);outline-offset:2px}
.c{display:flex;gap:10px;font-weight:400;margin-top:12px}
.c input{width:18px;height:18px;flex:none}
.e{color:#b91c1c;font-size:13px;margin:0}
button{font:inherit;font-weight:600;border:0;border-radius:8px;padding:12px;cursor:pointer;background:var(--lr-primary);color:var(--lr-on-primary,#fff);width:100%;margin-top:16px}
.s{position:absolute;width:1px;height:1px;overflow:hidden;clip-path:inset(50%)}
.k{border-top:4px solid var(--lr-primary);background:#f1f5f9;padding:16px}
.b{font-size:40px;font-weight:800;color:var(--lr-primary-ink,var(--lr-primary))}
ul{list-style:none;padding:0;margin:12px 0;display:grid;grid-template-columns:1fr 1fr;gap:10px}
li{background:#fff;border-radius:8px;padding:8px 10px;font-size:13px}
b{display:block;font-size:20px}
i{display:block;height:6px;border-radius:3px;background:var(--lr-accent)}
a{color:var(--lr-primary-ink,var(--lr-primary));font-weight:600}
`;

let shared: CSSStyleSheet | null = null;

/** Gives a shadow root the widget's stylesheet (one constructed sheet shared by every instance). */
export function adoptStyles(root: ShadowRoot): void {
  if (!shared) {
    shared = new CSSStyleSheet();
    shared.replaceSync(CSS);
  }
  if (!root.adoptedStyleSheets.includes(shared)) root.adoptedStyleSheets = [...root.adoptedStyleSheets, shared];
}

const COLOUR = /^#[0-9a-fA-F]{6}$/;

/** The theme as the custom properties the stylesheet reads (only well-formed colours pass). */
export function themeStyle(theme: Partial<Record<'primary' | 'onPrimary' | 'primaryInk' | 'secondary' | 'accent' | 'focus', string>> | null): Record<string, string> {
  // DEFAULT_WIDGET_THEME's colours (common/widget.ts; a unit test keeps them equal), written out:
  // the colour maths stays on the server.
  const out: Record<string, string> = { '--lr-primary': '#2563EB', '--lr-secondary': '#1F2937', '--lr-accent': '#059669', '--lr-focus': '#01261A' };
  // Each theme key's property is its name in kebab case (primaryInk: --lr-primary-ink).
  for (const key of ['primary', 'onPrimary', 'primaryInk', 'secondary', 'accent', 'focus'] as const) {
    const value = theme?.[key];
    if (value && COLOUR.test(value)) out[`--lr-${key.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`)}`] = value;
  }
  return out;
}
