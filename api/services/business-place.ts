// A business is one place, owned once (decision 0212): a report requested for a place its owner
// already has is a new snapshot of that business, not a new business. This finds that business.
// An owner is a signed-in account (its own businesses) or a consultant's client (the client's
// business). A visitor without an account owns nothing: every free report stays a business of
// its own, erased with its request.
import type { AppContext } from '../context.ts';
import { placeKey } from '../lib/place-key.ts';

export interface PlaceOwner {
  /** The signed-in account asking (form or API key); null for a visitor. */
  userId: string | null;
  /** A consultant's client the report is for (checked by the caller to be the consultant's). */
  clientId?: string;
}

export interface KnownPlace {
  businessId: string;
  /** True when the business is the client's own (clients.business_id). */
  viaClient: boolean;
}

type Place = { address: string; zip: string };

/**
 * The business the owner already has at this place, or null. For a client, the client's business
 * when the address is its place; a report for a client at another address is, as before, a
 * business of the consultant's own account, matched among those. Among an account's businesses,
 * the oldest at the place: the one whose id its integrations have known longest.
 */
export async function knownPlace(ctx: AppContext, place: Place, owner: PlaceOwner): Promise<KnownPlace | null> {
  const key = placeKey(place);
  if (owner.clientId) {
    const [row] = await ctx.db.$read(
      `SELECT b.id, b.address, b.zip FROM clients cl JOIN businesses b ON b.id = cl.business_id WHERE cl.id = ?1`,
      [owner.clientId],
    );
    if (row && placeKey({ address: String(row.address), zip: String(row.zip) }) === key) return { businessId: String(row.id), viaClient: true };
  }
  if (!owner.userId) return null;
  // An account's businesses are few (an owner's locations); the key is computed here rather than
  // stored so that better folding rules apply to every row at once.
  const rows = await ctx.db.$read(`SELECT id, address, zip FROM businesses WHERE user_id = ?1 ORDER BY created_at, id`, [owner.userId]);
  const found = rows.find((r) => placeKey({ address: String(r.address), zip: String(r.zip) }) === key);
  return found ? { businessId: String(found.id), viaClient: false } : null;
}
