// Event data as the product builds it, for tests that emit an event themselves (emitEvent takes
// each event's data as its schema in api/services/webhooks/events.ts describes it).
import type { WebhookEventData } from '../../api/services/webhooks/events.ts';

export const alertCreatedData = (alertId: string, businessId = 'business-1'): WebhookEventData<'alert.created'> => ({
  alertId,
  businessId,
  platform: 'google',
  reviewRating: 1,
  reviewAuthor: 'Jordan P.',
  reviewText: 'Waited an hour and nobody called us back.',
  reviewUrl: null,
  reviewDate: '2026-11-20T15:04:05.000Z',
  threshold: 3,
});
