// The public API's answer shapes, registered as named components of the OpenAPI document.
import { z } from '@hono/zod-openapi';
import { API_SCOPES } from '../../../common/schemas/api-keys.ts';
import { WEBHOOK_EVENTS } from '../../../common/schemas/webhooks.ts';

const score = z.number().nullable();

export const businessSummarySchema = z
  .object({
    id: z.string(),
    company: z.string(),
    address: z.string(),
    city: z.string(),
    state: z.string(),
    zip: z.string(),
    website: z.string(),
    category: z.string().nullable(),
    createdAt: z.iso.datetime(),
    sampleData: z.boolean().describe('Made from offline sample data: example figures, not real listings.'),
    latest: z.object({ overallScore: z.number(), reportedAt: z.iso.datetime() }).nullable(),
  })
  .openapi('BusinessSummary');

export const businessPageSchema = z
  .object({ businesses: z.array(businessSummarySchema), nextCursor: z.string().nullable().describe('Pass as `cursor` for the next page; null on the last.') })
  .openapi('BusinessPage');

const scores = {
  reviewScore: score,
  digitalPresenceScore: score,
  engagementScore: score,
  marketShareScore: score,
  marketSharePercent: score,
  overallScore: score,
};

export const visibilitySchema = z
  .object({
    status: z.enum(['measured', 'not_measured']).describe('not_measured: the provider refused or could not answer the searches (the reason says why).'),
    reason: z.string().nullable(),
    provider: z.enum(['sample', 'google', 'yelp']),
    sampleData: z.boolean(),
    size: z.number().int().describe('The grid is size × size points centred on the business.'),
    radiusMiles: z.number(),
    spacingMiles: z.number(),
    calls: z.number().int().describe('Searches sent to the provider for this scan.'),
    cached: z.number().int().describe('Searches answered from the same day\'s earlier searches.'),
    solv: score.describe('Share of Local Voice over every keyword: percent of points in the top 3.'),
    arp: score.describe('Average Rank Position over the points where the business appears.'),
    atrp: score.describe('Average Total Rank Position, not in the top 20 counted as 21.'),
    keywords: z.array(z.object({
      keyword: z.string(),
      ranks: z.array(z.number().int().nullable()).describe('The business\'s rank at each point, row by row from the north-west; null = not in the top 20.'),
      solv: z.number(),
      arp: z.number().nullable(),
      atrp: z.number(),
    })),
  })
  .openapi('Visibility');

export const visibilityPageSchema = z
  .object({
    businessId: z.string(),
    scans: z.array(visibilitySchema.extend({ runId: z.string(), reportedAt: z.number().describe('Milliseconds since the epoch.') })),
    nextCursor: z.string().nullable().describe('Pass as `cursor` for the next (older) page; null on the last.'),
  })
  .openapi('VisibilityHistory');

export const businessDetailSchema = z
  .object({
    business: z.object({
      id: z.string(),
      company: z.string(),
      city: z.string(),
      state: z.string(),
      website: z.string(),
      category: z.string().nullable(),
      updatedAt: z.number().describe('Milliseconds since the epoch.'),
      sampleData: z.boolean(),
      visibilityKeywords: z.array(z.string()).describe('Keywords chosen for the local visibility grid, searched before the category\'s defaults; empty = the defaults.'),
    }),
    competitors: z.array(
      z.object({
        id: z.string(),
        name: z.string(),
        address: z.string().nullable(),
        phone: z.string().nullable(),
        website: z.string().nullable(),
        rating: z.number().nullable(),
        reviewCount: z.number().nullable(),
        distanceFromBusiness: z.number().nullable(),
      }),
    ),
    metrics: z.array(
      z.object({
        id: z.string(),
        businessId: z.string(),
        competitorId: z.string().nullable(),
        isMainBusiness: z.boolean(),
        ...scores,
        reportedAt: z.number().nullable().describe('Milliseconds since the epoch.'),
      }),
    ).describe('The latest analysis: one row for the business and one per competitor.'),
    visibility: visibilitySchema.nullable().describe('The latest analysis\'s local visibility grid; null before the first analysis that scanned one.'),
  })
  .openapi('BusinessDetail');

export const historySchema = z
  .object({
    businessId: z.string(),
    days: z.number().int(),
    history: z.array(z.object({ runId: z.string(), ...scores, localVoiceShare: score.describe('Share of Local Voice, percent; null when not measured.'), reportedAt: z.number().describe('Milliseconds since the epoch.') })),
  })
  .openapi('BusinessHistory');

export const alertSchema = z
  .object({
    id: z.string(),
    platform: z.enum(['google', 'yelp', 'facebook', 'other']),
    reviewRating: z.number(),
    reviewAuthor: z.string().nullable(),
    reviewText: z.string().nullable(),
    reviewUrl: z.string().nullable(),
    reviewDate: z.iso.datetime().nullable(),
    createdAt: z.iso.datetime(),
  })
  .openapi('Alert');

export const alertListSchema = z.object({ businessId: z.string(), threshold: z.number(), alerts: z.array(alertSchema) }).openapi('AlertList');

export const thresholdSchema = z.object({ businessId: z.string(), threshold: z.number() }).openapi('AlertThreshold');

export const scopesSchema = z.array(z.enum(API_SCOPES));

const reportScores = z.object({
  reviews: z.number().nullable(),
  digitalPresence: z.number().nullable(),
  engagement: z.number().nullable(),
  marketShare: z.number().nullable(),
  overall: z.number().nullable(),
  marketSharePercent: z.number(),
});

export const reportAcceptedSchema = z
  .object({ id: z.string().describe('The report\'s id: GET /reports/{reportId}.'), status: z.enum(['queued', 'processing', 'completed', 'failed']) })
  .openapi('ReportAccepted');

export const reportSchema = z
  .object({
    id: z.string(),
    status: z.enum(['queued', 'processing', 'completed', 'failed']),
    createdAt: z.iso.datetime(),
    business: z.object({ id: z.string(), company: z.string() }),
    result: z
      .object({
        generatedAt: z.string(),
        sampleData: z.boolean().describe('Made from offline sample data: example figures, not real listings.'),
        category: z.string(),
        scores: reportScores,
        rank: z.number().int(),
        rankOf: z.number().int(),
        competitors: z.array(
          z.object({
            name: z.string(),
            address: z.string().nullable(),
            website: z.string().nullable(),
            rating: z.number().nullable(),
            reviewCount: z.number().nullable(),
            distanceMiles: z.number(),
            scores: reportScores,
            rank: z.number().int(),
          }),
        ),
        recommendations: z.array(z.object({ title: z.string(), detail: z.string(), score: z.enum(['reviews', 'digitalPresence', 'engagement', 'marketShare']), gain: z.number() })),
        notes: z.array(z.string()),
        links: z.object({ pdf: z.string().nullable(), online: z.string().nullable().describe('The online report (its link lasts 30 days).') }),
      })
      .nullable()
      .describe('Null until the report is completed.'),
  })
  .openapi('Report');

export const clientSchema = z
  .object({
    id: z.string(),
    clientName: z.string(),
    clientEmail: z.string(),
    notes: z.string().nullable(),
    reportFrequency: z.enum(['monthly', 'weekly']),
    brandingProfileId: z.string().nullable(),
    archived: z.boolean(),
    createdAt: z.string(),
    business: z.object({ id: z.string(), company: z.string(), website: z.string(), address: z.string(), city: z.string(), state: z.string(), zip: z.string() }).nullable(),
    latest: z.object({ overall: z.number().nullable(), rank: z.number().nullable(), of: z.number(), reportedAt: z.string(), change: z.number().nullable() }).nullable(),
    nextReport: z.string().nullable(),
  })
  .openapi('Client');

export const clientListSchema = z.object({ clients: z.array(clientSchema) }).openapi('ClientList');

export const webhookEndpointSchema = z
  .object({
    id: z.string(),
    url: z.string(),
    description: z.string().nullable(),
    events: z.array(z.enum(WEBHOOK_EVENTS)),
    createdAt: z.iso.datetime(),
    disabledAt: z.iso.datetime().nullable().describe('Set when every delivery failed for three days; rotating the secret enables it again.'),
    failingSince: z.iso.datetime().nullable(),
  })
  .openapi('WebhookEndpoint');

export const webhookEndpointWithSecretSchema = webhookEndpointSchema
  .extend({ secret: z.string().describe('`whsec_…`: verify signatures with it (Standard Webhooks). Shown only here.') })
  .openapi('WebhookEndpointWithSecret');

export const webhookEndpointRotatedSchema = webhookEndpointWithSecretSchema
  .extend({
    previousSecretValidUntil: z.iso
      .datetime()
      .describe('Until then every delivery carries two signatures, one with the new secret and one with the previous, so either verifies while you switch.'),
  })
  .openapi('WebhookEndpointRotated');

export const webhookDeliveriesSchema = z
  .object({
    deliveries: z.array(
      z.object({
        id: z.string(),
        messageId: z.string().describe('The webhook-id header: the same on every attempt.'),
        type: z.string(),
        status: z.enum(['pending', 'delivered', 'failed']),
        createdAt: z.iso.datetime(),
        nextAttemptAt: z.iso.datetime().nullable(),
        attempts: z.array(z.object({ at: z.iso.datetime(), responseStatus: z.number().int().nullable(), excerpt: z.string().nullable(), durationMs: z.number().int() })),
      }),
    ),
  })
  .openapi('WebhookDeliveries');
