// The public API's answer shapes, registered as named components of the OpenAPI document.
import { z } from '@hono/zod-openapi';
import { API_SCOPES } from '../../../common/schemas/api-keys.ts';
import { WEBHOOK_EVENTS } from '../../../common/schemas/webhooks.ts';
import type { SiteReadState } from '../../report/model/types.ts';

const score = (what: string) => z.number().nullable().describe(`${what}, 1 to 10 (two decimals); null when there is not enough data.`);

export const businessSummarySchema = z
  .object({
    id: z.string().describe("The business's id: GET /businesses/{businessId}."),
    company: z.string().describe('The business name.'),
    address: z.string().describe('Street address.'),
    city: z.string().describe('City.'),
    state: z.string().describe('Two-letter US state code.'),
    zip: z.string().describe('ZIP code.'),
    website: z.string().describe("The business's website address."),
    category: z.string().nullable().describe('The business category found by the analysis (e.g. "dentist"); null before the first report.'),
    createdAt: z.iso.datetime().describe('When the business was added.'),
    sampleData: z.boolean().describe('Made from offline sample data: example figures, not real listings.'),
    latest: z
      .object({ overallScore: z.number().describe('Overall score of the latest analysis, 1 to 10.'), reportedAt: z.iso.datetime().describe('When that analysis ran.') })
      .nullable()
      .describe('The latest analysis; null before the first.'),
  })
  .openapi('BusinessSummary');

export const businessPageSchema = z
  .object({ businesses: z.array(businessSummarySchema).describe('One page of businesses, newest first.'), nextCursor: z.string().nullable().describe('Pass as `cursor` for the next page; null on the last.') })
  .openapi('BusinessPage');

const scores = {
  reviewScore: score('Online reviews score'),
  digitalPresenceScore: score('Digital presence score'),
  engagementScore: score('Customer engagement score'),
  marketShareScore: score('Market share score'),
  marketSharePercent: z.number().nullable().describe("This place's reviews as a percent of all reviews of the business and its competitors (two decimals)."),
  overallScore: score('Overall score (the weighted mean of the four)'),
};

const percentOrNull = (what: string) => z.number().nullable().describe(what);

export const visibilitySchema = z
  .object({
    status: z.enum(['measured', 'not_measured']).describe('not_measured: the provider refused or could not answer the searches (the reason says why).'),
    reason: z.string().nullable().describe('Why the grid was not measured, or what was left out (keywords past the call budget); null otherwise.'),
    provider: z.enum(['sample', 'google', 'yelp']).describe('The places provider that answered the searches.'),
    sampleData: z.boolean().describe('Made from offline sample data: example figures, not real listings.'),
    size: z.number().int().describe('The grid is size × size points centred on the business.'),
    radiusMiles: z.number().describe('Miles from the centre to the outer rows and columns.'),
    spacingMiles: z.number().describe('Miles between neighbouring points.'),
    calls: z.number().int().describe('Searches sent to the provider for this scan.'),
    cached: z.number().int().describe('Searches answered from the same day\'s earlier searches.'),
    solv: percentOrNull('Share of Local Voice over every keyword: percent of points in the top 3; null when not measured.'),
    arp: percentOrNull('Average Rank Position over the points where the business appears; null when it appears nowhere or was not measured.'),
    atrp: percentOrNull('Average Total Rank Position, not in the top 20 counted as 21; null when not measured.'),
    keywords: z
      .array(
        z.object({
          keyword: z.string().describe('The search, as typed.'),
          ranks: z.array(z.number().int().nullable()).describe('The business\'s rank at each point, row by row from the north-west; null = not in the top 20.'),
          solv: z.number().describe('Share of Local Voice for this keyword, percent.'),
          arp: z.number().nullable().describe('Average Rank Position for this keyword; null when the business appears nowhere.'),
          atrp: z.number().describe('Average Total Rank Position for this keyword.'),
        }),
      )
      .describe('One grid per keyword searched.'),
  })
  .openapi('Visibility');

export const visibilityPageSchema = z
  .object({
    businessId: z.string().describe('The business.'),
    scans: z.array(visibilitySchema.extend({ runId: z.string().describe("The analysis run's id."), reportedAt: z.number().describe('Milliseconds since the epoch.') })).describe('One page of scans, newest first.'),
    nextCursor: z.string().nullable().describe('Pass as `cursor` for the next (older) page; null on the last.'),
  })
  .openapi('VisibilityHistory');

const named = {
  named: z.number().int().describe('Answers that named it.'),
  averagePosition: z.number().nullable().describe('Its average place in the answers that named it (1 = named first, one decimal); null when none did.'),
};

export const aiVisibilitySchema = z
  .object({
    businessId: z.string().describe('The business.'),
    waitingUntil: z.iso.datetime().nullable().describe('A scan waits for the AI budget (AI_VISIBILITY_MONTHLY_BUDGET_USD) until then; null when none waits.'),
    scans: z
      .array(
        z.object({
          keyword: z.string().describe('The keyword asked about.'),
          location: z.string().describe('Where the question was asked from ("Austin, TX").'),
          question: z.string().describe('The question put to every engine ("best dentist in Austin, TX").'),
          scannedAt: z.iso.datetime().describe('When the scan finished.'),
          sample: z.boolean().describe('Sample answers of the offline sample provider: example figures, not real AI answers.'),
          engines: z
            .array(
              z.object({
                engine: z.enum(['openai', 'perplexity', 'gemini']).describe('openai: the Responses API with web search; perplexity: Sonar; gemini: grounded with Google Search.'),
                asked: z.number().int().describe('Questions put (AI_VISIBILITY_SAMPLES; a failed call is retried once within one).'),
                answered: z.number().int().describe('Answers received: the figures are out of this.'),
                failed: z.number().int().describe('Questions left without an answer (429, 5xx, time-out): not counted as "not named".'),
                ...named,
                notAsked: z.string().optional().describe('Why the engine was not asked (no key set).'),
                sources: z
                  .array(
                    z.object({
                      domain: z.string().describe('A cited site, without www.'),
                      count: z.number().int().describe('Answers citing it.'),
                      kind: z.enum(['own', 'competitor', 'review_site', 'directory', 'other']).describe("The business's own site, a competitor's, a review site, a directory, or another site."),
                    }),
                  )
                  .describe('Cited domains, most cited first.'),
              }),
            )
            .describe('Each engine: "named in `named` of `answered` answers". Under 5 answers the figure is uncertain.'),
          competitors: z
            .array(z.object({ name: z.string().describe("The competitor's name."), engines: z.array(z.object({ engine: z.enum(['openai', 'perplexity', 'gemini']).describe('The engine these figures are from.'), ...named })).describe('Its figures per engine asked.') }))
            .describe('Each competitor of the latest analysis, the most named first.'),
        }),
      )
      .describe('Scans, newest first (each keyword its own), at most 100.'),
  })
  .openapi('AiVisibility');

export const businessDetailSchema = z
  .object({
    business: z
      .object({
        id: z.string().describe("The business's id."),
        company: z.string().describe('The business name.'),
        city: z.string().describe('City.'),
        state: z.string().describe('Two-letter US state code.'),
        website: z.string().describe("The business's website address."),
        category: z.string().nullable().describe('The business category found by the analysis; null before the first report.'),
        updatedAt: z.number().describe('Milliseconds since the epoch.'),
        sampleData: z.boolean().describe('Made from offline sample data: example figures, not real listings.'),
        visibilityKeywords: z.array(z.string()).describe('Keywords chosen for the local visibility grid, searched before the category\'s defaults; empty = the defaults.'),
        rankWithBranches: z.boolean().describe('Whether the rank counts the competitors that are other locations of the business\'s brand (PUT /businesses/{businessId}/settings); false by default.'),
      })
      .describe('The business.'),
    competitors: z.array(
      z.object({
        id: z.string().describe("The competitor's id (metrics rows name it as competitorId)."),
        name: z.string().describe('The competitor\'s name as listed.'),
        address: z.string().nullable().describe('Its listed address, if any.'),
        phone: z.string().nullable().describe('Its listed phone number, if any.'),
        website: z.string().nullable().describe('Its website, if listed.'),
        rating: z.number().nullable().describe('Its average review rating, 1 to 5, if it has reviews.'),
        reviewCount: z.number().nullable().describe('How many reviews it has, if known.'),
        distanceFromBusiness: z.number().nullable().describe('Miles from the business, if located.'),
        yourBrand: z.enum(['website', 'phone', 'name']).nullable().describe('Another location of the business\'s brand, and what told it (its brand website, a phone line both list, its name); null for an independent competitor.'),
      }),
    ).describe('The nearby competitors the latest analysis compared.'),
    metrics: z.array(
      z.object({
        id: z.string().describe("The row's id."),
        businessId: z.string().describe('The business analysed.'),
        competitorId: z.string().nullable().describe("The competitor this row scores; null for the business's own row."),
        isMainBusiness: z.boolean().describe("True for the business's own row."),
        ...scores,
        yourBrand: z.enum(['website', 'phone', 'name']).nullable().describe('Another location of the business\'s brand (see competitors); null otherwise.'),
        reportedAt: z.number().nullable().describe('Milliseconds since the epoch.'),
      }),
    ).describe('The latest analysis: one row for the business and one per competitor.'),
    visibility: visibilitySchema.nullable().describe('The latest analysis\'s local visibility grid; null before the first analysis that scanned one.'),
  })
  .openapi('BusinessDetail');

export const rankSettingsResultSchema = z
  .object({
    businessId: z.string().describe('The business.'),
    rankWithBranches: z.boolean().describe('Whether its rank counts the competitors that are other locations of its brand.'),
  })
  .openapi('RankSettings');

export const historySchema = z
  .object({
    businessId: z.string().describe('The business.'),
    days: z.number().int().describe('How many days back the history goes (the `days` asked for).'),
    history: z
      .array(z.object({ runId: z.string().describe("The analysis run's id."), ...scores, localVoiceShare: z.number().nullable().describe('Share of Local Voice, percent; null when not measured.'), reportedAt: z.number().describe('Milliseconds since the epoch.') }))
      .describe("The business's own scores per analysis run, oldest first."),
  })
  .openapi('BusinessHistory');

export const alertSchema = z
  .object({
    id: z.string().describe("The alert's id."),
    platform: z.enum(['google', 'yelp', 'facebook', 'other', 'google_business_profile']).describe('Where the review was posted; `google_business_profile` when read from the owner\'s connected Google Business Profile rather than the public listing.'),
    reviewRating: z.number().describe("The review's star rating, 1 to 5."),
    reviewAuthor: z.string().nullable().describe("The reviewer's name, if given."),
    reviewText: z.string().nullable().describe("The review's text, if any."),
    reviewUrl: z.string().nullable().describe('A link to the review, if the platform gives one.'),
    reviewDate: z.iso.datetime().nullable().describe('When the review was posted, if known.'),
    createdAt: z.iso.datetime().describe('When the alert was recorded.'),
  })
  .openapi('Alert');

const alertThreshold = z.number().describe('Reviews at or below this star rating raise an alert.');

export const alertListSchema = z
  .object({ businessId: z.string().describe('The business.'), threshold: alertThreshold, alerts: z.array(alertSchema).describe('The alerts, newest first.') })
  .openapi('AlertList');

export const thresholdSchema = z.object({ businessId: z.string().describe('The business.'), threshold: alertThreshold }).openapi('AlertThreshold');

export const scopesSchema = z.array(z.enum(API_SCOPES));

const reportScores = z
  .object({
    reviews: score('Online reviews score'),
    digitalPresence: score('Digital presence score'),
    engagement: score('Customer engagement score'),
    marketShare: score('Market share score; null without a market (fewer than 3 competitors within the radius)'),
    overall: score('Overall score (the weighted mean of the four; without a market, of the other three with their weights rescaled)'),
    marketSharePercent: z.number().nullable().describe('Its reviews as a percent of all reviews in the report (two decimals); null when its review count is unknown, or without a market (fewer than 3 competitors within the radius).'),
  })
  .describe('The scores (see the methodology).');

const SITE_STATES = ['read', 'down', 'error_page', 'refused', 'too_large', 'slow', 'script_rendered', 'social', 'link_in_bio', 'marketplace', 'parked', 'placeholder', 'password', 'cert_error'] as const satisfies readonly SiteReadState[];
const websiteMet = z
  .object({
    state: z.enum(SITE_STATES).describe('read: works; slow, too_large, script_rendered: works (slowly, a very large page, drawn by JavaScript); refused: refuses automated visitors; down: did not answer; error_page: answers with an error page; social, link_in_bio, marketplace: a page on another platform, not a website of its own; parked: a parked or for-sale domain; placeholder: under construction, coming soon or a web server\'s default page; password: password protected; cert_error: browsers warn about its certificate.'),
    label: z.string().describe('The state in the report\'s words ("Works", "Social page, no own site", "Certificate warning"...).'),
    detail: z.string().nullable().describe('Why, in words ("a Facebook page", "an expired certificate (expired 2021-01-01)", "HTTP 404: the homepage answers with an error page").'),
    forwardedTo: z.string().optional().describe('Where its page sent the visitor by a meta refresh or a script (followed, as a browser would).'),
  })
  .nullable()
  .describe('How its website was met when the report was made; null without a website (or on reports made before this was kept).');

const reportStatus = z.enum(['queued', 'processing', 'completed', 'failed']).describe('queued, then processing, then completed (or failed).');

export const reportAcceptedSchema = z
  .object({ id: z.string().describe('The report\'s id: GET /reports/{reportId}.'), status: reportStatus })
  .openapi('ReportAccepted');

export const reportSchema = z
  .object({
    id: z.string().describe("The report's id."),
    status: reportStatus,
    createdAt: z.iso.datetime().describe('When the report was requested.'),
    business: z.object({ id: z.string().describe("The business's id: GET /businesses/{businessId}."), company: z.string().describe('The business name.') }).describe('The business the report is on.'),
    result: z
      .object({
        generatedAt: z.string().describe('When the analysis ran (ISO 8601).'),
        sampleData: z.boolean().describe('Made from offline sample data: example figures, not real listings.'),
        category: z.string().describe('The business category the competitors were found in (e.g. "dentist").'),
        scores: reportScores,
        websiteMet,
        rank: z.number().int().nullable().describe("The business's rank by overall score among the compared businesses (1 is best); null when it has no overall score, or without a market: a rank needs at least 3 competitors within the radius."),
        rankOf: z.number().int().nullable().describe('How many businesses were ranked (the business and its competitors, less other locations of its brand unless they count); null without a market (fewer than 3 competitors).'),
        branches: z
          .object({
            count: z.number().int().describe('How many competitors are other locations of the business\'s brand (same name, brand website or phone line).'),
            countedInRank: z.boolean().describe('Whether the rank counts them: false by default (ranked against independent competitors first), true when the owner chose it (PUT /businesses/{businessId}/settings) or when without them fewer than 3 competitors are left.'),
          })
          .nullable()
          .describe('Other locations of the business\'s brand among the competitors; null when there are none.'),
        competitors: z.array(
          z.object({
            name: z.string().describe("The competitor's name as listed."),
            address: z.string().nullable().describe('Its listed address, if any.'),
            website: z.string().nullable().describe('Its website, if listed.'),
            rating: z.number().nullable().describe('Its average review rating, 1 to 5, if it has reviews.'),
            reviewCount: z.number().nullable().describe('How many reviews it has, if known.'),
            distanceMiles: z.number().describe('Miles from the business.'),
            scores: reportScores,
            websiteMet,
            rank: z.number().int().nullable().describe('Its rank by overall score (1 is best); null when it has no overall score, without a market (fewer than 3 competitors), or for another location of the business\'s brand left out of the rank.'),
            yourBrand: z.boolean().describe('Another location of the business\'s brand ("your brand"): same name, brand website or phone line.'),
          }),
        ).describe('The nearby competitors compared, nearest first.'),
        recommendations: z
          .array(
            z.object({
              title: z.string().describe('What to do, in a line.'),
              detail: z.string().describe('Why and how, in a few sentences.'),
              score: z.enum(['reviews', 'digitalPresence', 'engagement', 'marketShare']).describe('The score it raises.'),
              gain: z.number().describe('The estimated rise of that score, in points out of 10.'),
            }),
          )
          .describe('What would raise the scores most, first.'),
        notes: z.array(z.string()).describe('What the analysis could not measure or assumed, in sentences.'),
        links: z.object({ pdf: z.string().nullable().describe('The PDF report; null until it is rendered.'), online: z.string().nullable().describe('The online report (its link lasts 30 days).') }).describe('Where to read the report.'),
      })
      .nullable()
      .describe('Null until the report is completed.'),
  })
  .openapi('Report');

export const clientSchema = z
  .object({
    id: z.string().describe("The client's id (clientId when requesting a report for it)."),
    clientName: z.string().describe("The client contact's name: the reports' addressee."),
    clientEmail: z.string().describe('Where the client\'s reports are e-mailed.'),
    notes: z.string().nullable().describe('Your own notes on the client.'),
    reportFrequency: z.enum(['monthly', 'weekly']).describe('How often a report is sent to the client.'),
    brandingProfileId: z.string().nullable().describe("The client's branding profile; null for your default one."),
    archived: z.boolean().describe('Archived clients get no scheduled reports.'),
    createdAt: z.string().describe('When the client was added (ISO 8601).'),
    business: z
      .object({
        id: z.string().describe("The business's id: GET /businesses/{businessId}."),
        company: z.string().describe('The business name.'),
        website: z.string().describe("The business's website address."),
        address: z.string().describe('Street address.'),
        city: z.string().describe('City.'),
        state: z.string().describe('Two-letter US state code.'),
        zip: z.string().describe('ZIP code.'),
      })
      .nullable()
      .describe('The business the client\'s reports are on.'),
    latest: z
      .object({
        overall: z.number().nullable().describe('Overall score of the latest analysis, 1 to 10; null when there is not enough data.'),
        rank: z.number().nullable().describe('Rank among the compared businesses (1 is best).'),
        of: z.number().describe('How many businesses were ranked.'),
        reportedAt: z.string().describe('When that analysis ran (ISO 8601).'),
        change: z.number().nullable().describe('Change of the overall score since the analysis before; null with only one.'),
      })
      .nullable()
      .describe('The latest analysis; null before the first.'),
    nextReport: z.string().nullable().describe('When the next scheduled report goes out (ISO 8601); null when archived, without a business, or unsubscribed.'),
    unsubscribedAt: z.string().nullable().describe("When the client unsubscribed from its report e-mails (ISO 8601): its reports are paused and a send now answers 409. Null while subscribed."),
  })
  .openapi('Client');

export const clientListSchema = z.object({ clients: z.array(clientSchema).describe('Your clients.') }).openapi('ClientList');

export const webhookEndpointSchema = z
  .object({
    id: z.string().describe("The endpoint's id."),
    url: z.string().describe('Where events are POSTed.'),
    description: z.string().nullable().describe('Your label for the endpoint.'),
    events: z.array(z.enum(WEBHOOK_EVENTS)).describe('The event types sent to it.'),
    createdAt: z.iso.datetime().describe('When the endpoint was added.'),
    disabledAt: z.iso.datetime().nullable().describe('Set when every delivery failed for three days; rotating the secret enables it again.'),
    failingSince: z.iso.datetime().nullable().describe('Since when deliveries have been failing; null while they succeed.'),
    state: z.enum(['active', 'failing', 'disabled']).describe('`failing`: the latest attempts failed (see consecutiveFailures); `disabled`: every delivery failed for three days.'),
    lastSuccessAt: z.iso.datetime().nullable().describe('The last attempt your endpoint answered with a 2xx.'),
    consecutiveFailures: z.number().int().min(0).describe('Failed attempts since the last success.'),
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
        id: z.string().describe("The delivery's id (to resend it)."),
        messageId: z.string().describe('The webhook-id header: the same on every attempt.'),
        type: z.string().describe('The event type.'),
        status: z.enum(['pending', 'delivered', 'failed']).describe('pending while attempts remain, delivered on a 2xx, failed when they ran out.'),
        createdAt: z.iso.datetime().describe('When the event happened.'),
        nextAttemptAt: z.iso.datetime().nullable().describe('When it is tried next; null when it is not.'),
        attempts: z
          .array(
            z.object({
              at: z.iso.datetime().describe('When it was tried.'),
              responseStatus: z.number().int().nullable().describe("Your endpoint's HTTP status; null when there was no answer."),
              excerpt: z.string().nullable().describe('The start of the answer (or of the error).'),
              durationMs: z.number().int().describe('How long the attempt took, in milliseconds.'),
            }),
          )
          .describe('Every attempt, oldest first.'),
      }),
    ).describe('Deliveries, newest first.'),
    nextCursor: z.string().nullable().describe('Pass as `cursor` for older deliveries; null on the last page.'),
  })
  .openapi('WebhookDeliveries');

export const reviewSchema = z
  .object({
    id: z.string().describe("The review's id at its source (Google's `reviewId`)."),
    source: z.enum(['google_business_profile', 'google', 'yelp']).describe('Where the review was read: `google_business_profile` from the business\'s connected Google Business Profile (every review). `google` and `yelp` name the public listings, whose few shared reviews are not stored, so today every review listed is `google_business_profile`.'),
    rating: z.number().describe('Star rating, 1 to 5.'),
    text: z.string().nullable().describe("The review's text, if any."),
    author: z.string().nullable().describe("The reviewer's display name."),
    createdAt: z.iso.datetime().describe('When the review was posted.'),
    updatedAt: z.iso.datetime().describe('When the reviewer last changed it.'),
    reply: z.object({ text: z.string().describe('The answer.'), updatedAt: z.iso.datetime().nullable().describe('When it was posted.') }).nullable().describe("The business's answer, if any."),
  })
  .openapi('Review');

export const reviewListSchema = z
  .object({ reviews: z.array(reviewSchema).describe('Newest first (by last change).'), nextCursor: z.string().nullable().describe('Pass as `cursor` for the next page; null on the last.') })
  .openapi('ReviewList');

export const profileMetricsSchema = z
  .object({
    businessId: z.string().describe('The business.'),
    connected: z.boolean().describe('Whether a Google Business Profile is connected; without one the list is empty.'),
    days: z
      .array(z.object({ day: z.string().describe('The day (YYYY-MM-DD, UTC).'), calls: z.number().int().describe('Call button clicks.'), websiteClicks: z.number().int().describe('Website clicks.'), directionRequests: z.number().int().describe('Direction requests.'), impressions: z.number().int().describe('Times the profile was shown on Search and Maps, desktop and mobile.') }))
      .describe('One entry per day, oldest first, up to yesterday (Google\'s figures are daily).'),
  })
  .openapi('ProfileMetrics');
