// The landing page's words and figures. Every statistic is a published figure with its publisher
// and year; change one only with a source you can name.

export interface Statistic {
  figure: string;
  text: string;
  source: string;
  year: number;
}

/** The hero's six rotating statistics (one every HERO_ROTATION_MS). */
export const HERO_STATS: readonly Statistic[] = [
  { figure: '98%', text: 'of consumers read online reviews for local businesses.', source: 'BrightLocal, Local Consumer Review Survey', year: 2023 },
  { figure: '87%', text: 'of consumers used Google to evaluate local businesses in 2022.', source: 'BrightLocal, Local Consumer Review Survey', year: 2023 },
  { figure: '76%', text: 'of people who search on their smartphone for something nearby visit a related business within a day.', source: 'Google, Think with Google', year: 2016 },
  { figure: '28%', text: 'of those nearby searches result in a purchase.', source: 'Google, Think with Google', year: 2016 },
  { figure: '48%', text: 'of consumers would even consider using a business rated below four stars.', source: 'BrightLocal, Local Consumer Review Survey', year: 2020 },
  { figure: '88%', text: 'of "near me" searches are made on mobile devices.', source: 'Google internal search data (U.S.), via Think with Google', year: 2015 },
];

export interface RevenueCard {
  figure: string;
  title: string;
  text: string;
  source: string;
  year: number;
}

/** Grade-to-growth: what a better online standing is worth, from published research. */
export const REVENUE_CARDS: readonly RevenueCard[] = [
  {
    figure: '5-9%',
    title: 'more revenue per star',
    text: 'A one-star increase in a restaurant\u2019s Yelp rating led to a 5-9% increase in revenue for independent restaurants.',
    source: 'Michael Luca, Harvard Business School, \u201cReviews, Reputation, and Revenue: The Case of Yelp.com\u201d',
    year: 2016,
  },
  {
    figure: '49%',
    title: 'more sell-outs per half star',
    text: 'An extra half-star on Yelp made restaurants 49% more likely to sell out their evening seatings.',
    source: 'Michael Anderson and Jeremy Magruder, UC Berkeley, The Economic Journal',
    year: 2012,
  },
  {
    figure: '11.2%',
    title: 'pricing power per review point',
    text: 'A one-point rise in a hotel\u2019s review score (on a 5-point scale) let it raise prices 11.2% and keep the same occupancy.',
    source: 'Chris Anderson, Cornell Center for Hospitality Research',
    year: 2012,
  },
  {
    figure: '270%',
    title: 'higher purchase likelihood',
    text: 'A product with five reviews was 270% more likely to be purchased than one with no reviews.',
    source: 'Spiegel Research Center, Northwestern University, \u201cHow Online Reviews Influence Sales\u201d',
    year: 2017,
  },
];

export interface Feature {
  title: string;
  text: string;
  icon: 'radar' | 'chat' | 'stack' | 'trophy';
  points: readonly string[];
}

export const FEATURES: readonly Feature[] = [
  {
    title: 'Competitor Discovery',
    icon: 'radar',
    text: 'We find the 9 businesses you compete with most within 20 miles, ranked by local prominence, not guesswork.',
    points: ['Top 9 local competitors', '20-mile radius', 'Distance and contact details'],
  },
  {
    title: 'Review Analysis',
    icon: 'chat',
    text: 'Ratings, review volume, velocity and sentiment for you and every competitor, so you see why customers choose them.',
    points: ['Sentiment of recent reviews', 'Review velocity over time', 'Rating versus the local average'],
  },
  {
    title: 'Tech Stack Analysis',
    icon: 'stack',
    text: 'We read each website for what drives conversions: mobile readiness, booking, analytics, security and speed signals.',
    points: ['HTTPS, mobile and speed checks', 'Booking, chat and analytics tools', 'Search and social presence'],
  },
  {
    title: 'Scoring & Ranking',
    icon: 'trophy',
    text: 'Every data point we can measure rolls up into four 1-10 scores and an overall score, then a market rank against your competitors; the report says how many it measured.',
    points: ['Online reviews, digital presence', 'Customer engagement, market share', 'Overall score and market rank'],
  },
];

/** The sample dashboard's fixed demo data: a market like a real report's (the business and its 9
 *  competitors), whose market share is the business's reviews over the market's (426 of 3043 = 14%). */
export const DEMO_DASHBOARD = {
  business: { company: 'Riverside Dental Care', city: 'Austin', state: 'TX', rating: 4.5, reviews: 426 },
  scores: { review: 8.6, digitalPresence: 7.2, engagement: 7.8, marketSharePercent: 14, marketShare: 7.4, overall: 7.9 },
  trend: [7.1, 7.2, 7.2, 7.4, 7.3, 7.5, 7.6, 7.6, 7.8, 7.9],
  competitors: [
    { name: 'Lakeside Family Dentistry', rating: 4.8, reviews: 612, overall: 8.7, distance: 2.4 },
    { name: 'Barton Creek Smiles', rating: 4.6, reviews: 388, overall: 8.2, distance: 3.1 },
    { name: 'Capitol Dental Group', rating: 4.1, reviews: 254, overall: 7.6, distance: 1.8 },
    { name: 'South Congress Dental', rating: 3.7, reviews: 141, overall: 7.1, distance: 4.6 },
    { name: 'Eastside Dental Studio', rating: 2.9, reviews: 87, overall: 5.8, distance: 6.2 },
    { name: 'Hyde Park Family Dental', rating: 4.3, reviews: 402, overall: 7.4, distance: 5.3 },
    { name: 'Mueller Smile Studio', rating: 4.2, reviews: 318, overall: 6.9, distance: 7.8 },
    { name: 'Round Rock Dental Arts', rating: 4.4, reviews: 236, overall: 6.6, distance: 16.4 },
    { name: 'Oak Hill Dentistry', rating: 3.9, reviews: 179, overall: 6.2, distance: 9.7 },
  ],
} as const;
