// The /widget form's choices and the one rule it checks before sending, without zod, so the
// screen does not download the API's schemas (issue 47); common/schemas/widget.ts re-exports them.
export const LEAD_EMAIL_MODES = ['each', 'daily'] as const;

export const SCORE_CARD_OFF_MESSAGE = 'Turn on the score card to show a client\'s scores, or choose No client.';

/** A score card's client only with the score card on (the /widget form checks it too, before sending). */
export function scoreCardChoiceError(components: readonly string[], scoreCardClientId: string | null): string | undefined {
  return scoreCardClientId && !components.includes('score-card') ? SCORE_CARD_OFF_MESSAGE : undefined;
}
