// The FAQ's questions and answers. Figures come from the shared constants so the page never
// disagrees with the product (prices, radius, competitor count, delivery time, support times).
import { MONITOR_REACH } from '../../common/review-reach.ts';
import { aiPlanPhrase } from '../../common/ai-plans.ts';
import {
  ANNUAL_SAVINGS_PERCENT,
  PAID_PLANS,
  COMPETITOR_COUNT,
  MIN_MARKET_COMPETITORS,
  COVERAGE_FLOOR,
  FREE_REPORT_RETENTION_DEFAULT_MONTHS,
  MIN_DATA_POINTS,
  OPERATOR,
  POLICY,
  PRICES,
  REPORT_DELIVERY_TEXT,
  SCORE_MAX,
  SCORE_MIN,
  SEARCH_RADIUS_MILES,
} from '../../common/constants.ts';

export interface FaqItem {
  id: string;
  question: string;
  /** Plain text paragraphs (rendered escaped). */
  answer: readonly string[];
}

export const FAQ_ITEMS: readonly FaqItem[] = [
  {
    id: 'what-is-localrank',
    question: 'What does LocalRank do?',
    answer: [
      `LocalRank compares your business with its top ${COMPETITOR_COUNT} local competitors within a ${SEARCH_RADIUS_MILES}-mile radius. It measures every data point the sources allow (more than ${MIN_DATA_POINTS} when your website works, fewer when it does not answer or cannot be read in full, for instance behind bot protection that refuses automated visitors; each report says how many and why) and scores you from ${SCORE_MIN} to ${SCORE_MAX} on online reviews, digital presence, customer engagement and market share, with an overall score and your rank in the local market. A rank and a market share need at least ${MIN_MARKET_COMPETITORS} competitors nearby: with fewer, the report says so and still scores your reviews, digital presence and engagement.`,
    ],
  },
  {
    id: 'free-report',
    question: 'Is the first report really free?',
    answer: [
      'Yes. Fill in the free report form on the home page with your business details. No credit card and no account are needed. The free plan gives a limited one-time report with the basic features.',
    ],
  },
  {
    id: 'delivery-time',
    question: 'How long does it take to get my report?',
    answer: [
      `Your report arrives by e-mail ${REPORT_DELIVERY_TEXT} after you submit the form. The e-mail contains a PDF of the report, a score card image and a link to the online version, which stays available for 30 days. On a day when unusually many reports are asked for, yours may be scheduled for the next day: the confirmation screen and an e-mail say from when, and it then arrives without you doing anything.`,
      'If nothing has arrived after an hour, check your spam folder, then contact us with the e-mail address you used.',
    ],
  },
  {
    id: 'account-security',
    question: 'I forgot my password. How do I change it, or my e-mail address?',
    answer: [
      'Choose "Forgot password?" on the sign-in page: we e-mail a link that sets a new password. It works once, for 1 hour, and signs your account out on every device.',
      'Signed in, the Security section of your account page changes your password (your current one is needed), changes your e-mail address (confirmed by a link we send to the new address), lists the devices signed in, and signs out all but the one you are using. Monthly reports and Early Warning alerts are e-mailed only to a confirmed address.',
    ],
  },
  {
    id: 'competitors',
    question: 'How do you choose my competitors?',
    answer: [
      `We look for businesses in your category within ${SEARCH_RADIUS_MILES} miles of your address and keep the ${COMPETITOR_COUNT} most prominent ones, judged by review volume, ratings and visibility in local search. Your business is then ranked among them when there are at least ${MIN_MARKET_COMPETITORS}; with fewer there is no market to rank in, and the report compares you with the ones it found.`,
    ],
  },
  {
    id: 'scores',
    question: 'What do the scores mean?',
    answer: [
      'Each score runs from 1 to 10. Online reviews covers your rating, review volume, how recent your reviews are and their sentiment. Digital presence covers your website: speed, mobile readiness, security and search basics. Customer engagement covers how often you answer reviews and how people can reach you. Market share estimates your share of local attention against your competitors.',
      'A score of 8.5 or more is excellent, 7.5 or more is good, 7 or more is fair, and anything lower needs work. The Help Center explains each score in detail.',
      `When a source cannot give a figure (Yelp, for example, does not list websites), it is left out rather than counted as the worst value, and the report says how much of each score's weight was measured. A score with less than ${Math.round(COVERAGE_FLOOR * 100)}% of its weight measured reads "Not enough data" instead of a number, and the overall score and the rank then compare only the scores most businesses have.`,
      'Every report also measures your local visibility: a keyword for what you sell ("dentist", "plumber") is searched from every point of a grid around your business, as someone standing there would search. Each cell shows your position there (1-20, or not in the top 20). Your Share of Local Voice is the share of points where you are in the top 3; it counts in Market Share beside your share of the local reviews, and every competitor gets the same figures from the same searches. The free report uses a 3×3 grid on one keyword, Pro a 5×5 grid on up to 3 keywords, Enterprise and Agency a 7×7 grid on up to 5.',
    ],
  },
  {
    id: 'plans',
    question: 'What do the paid plans cost?',
    answer: [
      `Pro costs $${PRICES.pro.monthly} a month, or $${PRICES.pro.yearly} a month billed annually. Enterprise costs $${PRICES.enterprise.monthly} a month, or $${PRICES.enterprise.yearly} a month billed annually. Agency pricing is custom. Paying annually saves ${ANNUAL_SAVINGS_PERCENT}%.`,
      'Pro adds unlimited monthly reports, 90-day trend analysis and the dashboard. Enterprise adds priority support, API access, the Early Warning Monitor, real-time alerts and a connected Google Business Profile (every review counted on your dashboard and in your reports, and answered from LocalRank). Agency adds white-label licensing and client management on top of everything in Enterprise.',
    ],
  },
  {
    id: 'ai-answers',
    question: 'Do you check whether AI assistants recommend my business?',
    answer: [
      `Yes, on the paid plans. We ask ChatGPT (with web search), Perplexity and Gemini (with Google Search) what a customer would ask, "best dentist in Austin, TX" with your category and city, several times each, because their answers change from one ask to the next. You see how many answers named you ("named in 3 of 5 answers"), your average place in them, which competitors they named and which sites they cited, and how that changes over time. ${PAID_PLANS.map((t) => `${t.charAt(0).toUpperCase()}${t.slice(1)}: ${aiPlanPhrase(t)}${t === 'agency' ? ' per client' : ''}`).join('; ')}. The first check runs with your first paid report.`,
      'It shows what the assistants told an anonymous person asking from your city that day, not what they tell everyone: treat it as a sample, not a rank. The methodology page explains how the questions are asked and the answers counted.',
    ],
  },
  {
    id: 'api-access',
    question: 'Do you offer API access?',
    answer: [
      'Yes. API access is available on the Enterprise and Agency plans. It lets you request reports and pull your scores, rankings, competitor data and Early Warning alerts into your own tools, with API keys from your account page and signed webhooks when a report is ready or a new alert comes in. The API documentation is at /docs/api. The Free and Pro plans do not include API access.',
    ],
  },
  {
    id: 'early-warning',
    question: 'What is the Early Warning Monitor?',
    answer: [
      `The Early Warning Monitor checks the reviews of your business about every hour and alerts you when one it has not seen before is rated at or below your alert threshold (3.0 stars unless you change it; you can set anything from 1.0 to 5.0). ${MONITOR_REACH} It is included in the Enterprise and Agency plans.`,
    ],
  },
  {
    id: 'agencies',
    question: 'Can agencies and consultants use LocalRank for clients?',
    answer: [
      'Yes. Sign up as a consultant or agency: on a Pro, Enterprise or Agency plan, Manage Clients keeps each client\'s business, scores, history and reports together, and e-mails every client their report monthly or weekly with you in copy. The Agency plan adds branding profiles with your own name, logo and colours, and a website widget: a snippet that puts the report form and a score card on your own site in your colours, with every request listed as a lead. Contact our sales team for an Agency quote.',
    ],
  },
  {
    id: 'white-label',
    question: 'What does white-label mean on the Agency plan?',
    answer: [
      'Reports for your clients carry your branding profile instead of ours: your logo, colours, company name, contact e-mail and phone, website and footer text on every PDF page, the score card, the e-mail (sent under your company name, with replies going to your contact address and your footer in place of our postal address) and the online report, which shows your header and colours with no LocalRank navigation. "Powered by LocalRank" is off unless you turn it on. Branding Settings shows a live preview of the PDF, the e-mail and the score card as you edit. The e-mails can leave from your own mail server, and their links can open on a report domain of yours (reports.youragency.com). Reports made from example figures still say so.',
    ],
  },
  {
    id: 'cancel-refund',
    question: 'Can I cancel at any time? Do you give refunds?',
    answer: [
      'You can cancel at any time from Billing Settings on your account page; the cancellation takes effect at the end of the billing period you have paid for, and you keep your paid features until then. New paid subscriptions come with a 30-day money-back guarantee. Refunds are returned to the original payment method within 5-10 business days. We do not give partial refunds for unused periods.',
    ],
  },
  {
    id: 'data',
    question: 'What happens to my data?',
    answer: [
      `Your data travels only over HTTPS and is stored on encrypted disks, and we never sell it. With an account, Your data on your account page e-mails you an export (a ZIP with your businesses, every snapshot of their metrics, your reports as PDFs and more) and deletes the account: it closes at once and is erased ${POLICY.dataExportDaysAfterTermination} days later, and until then the e-mailed link restores it or sends you an export. Every free report e-mail has a "Delete my data" link, and free reports not saved to an account are erased after ${FREE_REPORT_RETENTION_DEFAULT_MONTHS} months. The Privacy Policy has the details.`,
    ],
  },
  {
    id: 'support',
    question: 'How quickly does support answer?',
    answer: [
      `Free and Pro customers hear back within 48 hours; Enterprise customers within 24 hours. Our team works ${OPERATOR.hours}.`,
    ],
  },
];
