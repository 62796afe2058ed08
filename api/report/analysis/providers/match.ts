// Is a provider's search hit the business the visitor named?
const STOP = new Set(['the', 'and', 'of', 'llc', 'inc', 'co', 'pllc', 'pc', 'ltd', 'corp', 'company']);

export function nameTokens(name: string): string[] {
  return name.toLowerCase().replace(/&/g, ' and ').replace(/[^a-z0-9 ]+/g, ' ').split(/\s+/).filter((w) => w.length > 1 && !STOP.has(w));
}

/** At least half of the shorter name's words appear in the other name. */
export function sameBusiness(a: string, b: string): boolean {
  const x = nameTokens(a);
  const y = nameTokens(b);
  if (x.length === 0 || y.length === 0) return false;
  const [short, long] = x.length <= y.length ? [x, new Set(y)] : [y, new Set(x)];
  return short.filter((w) => long.has(w)).length / short.length >= 0.5;
}
