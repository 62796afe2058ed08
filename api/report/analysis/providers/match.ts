// Is a provider's search hit the business the visitor named?
const STOP = new Set(['the', 'and', 'of', 'llc', 'inc', 'co', 'pllc', 'pc', 'ltd', 'corp', 'company']);

export function nameTokens(name: string): string[] {
  return name.toLowerCase().replace(/&/g, ' and ').replace(/[^a-z0-9 ]+/g, ' ').split(/\s+/).filter((w) => w.length > 1 && !STOP.has(w));
}

/** Dice similarity of the names' words ≥ 0.6: "Acme Dental" = "Acme Dental Care", but
 *  "Congress Dental" ≠ "Bright Smile Dental" (a shared category word is not enough). */
export function sameBusiness(a: string, b: string): boolean {
  const x = [...new Set(nameTokens(a))];
  const y = new Set(nameTokens(b));
  if (x.length === 0 || y.size === 0) return false;
  const shared = x.filter((w) => y.has(w)).length;
  return (2 * shared) / (x.length + y.size) >= 0.6;
}
