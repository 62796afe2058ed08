// What the Early Warning Monitor can see of a business's reviews, per data source (issue 38): the
// places providers share a few reviews, not every one, and the monitor, the FAQ, the help centre
// and pricing say so in these words. Google's Places API (New) returns at most 5 reviews a place,
// ordered by relevance, with no newest-first option; Yelp Fusion's reviews endpoint returns the
// newest excerpts (sort_by=newest), 3 on most plans (api/report/analysis/providers/).
export const REVIEW_REACH = {
  google: 'Google shares at most 5 reviews of a place, chosen by relevance rather than date, so a new low review raises an alert only once Google includes it among those 5.',
  yelp: 'Yelp shares the newest review excerpts of a place (3 on most plans), so a new review is seen while it is among them.',
} as const;

/** What connecting the Google Business Profile changes (issue 48, decisions 0320-0322). */
export const PROFILE_REACH = 'Connect your Google Business Profile from the monitor or the dashboard (an agency from its client\'s page) and it reads every Google review of your profile instead, newest first, within minutes (every 10 by default), including a review removed from Google, and you answer them from the monitor; your dashboard\'s and your reports\' review figures then count every review, from your Google Business Profile.';

/** One paragraph for every surface that describes the monitor. */
export const MONITOR_REACH = `The monitor sees the reviews your data source shares with us, not every review written. ${REVIEW_REACH.google} ${REVIEW_REACH.yelp} ${PROFILE_REACH}`;
