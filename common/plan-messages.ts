// What an account is told when a screen or a call is not part of its plan (403 plan_required) or
// not for its kind of account (403 forbidden): one wording, said by the server's refusal and by the
// screen that knows the answer before asking (site/lib/plan-access.ts, decision 0226).

/** Spec section 8: the Early Warning Monitor's Access Denied text. */
export const EARLY_WARNING_PLAN_MESSAGE = 'Early Warning Monitor requires Enterprise or Agency subscription';

/** A consultant on a plan without the screen's feature. */
export const PLAN_MESSAGES = {
  clientManagement: 'Client management needs a consultant account on a Pro, Enterprise or Agency plan.',
  whiteLabel: 'Branding profiles and white-label reports are part of the Agency plan.',
  widget: 'The embeddable widget is part of the Agency plan.',
} as const;

/** An account that is not a consultant's, by the feature it asked for. */
export const NOT_CONSULTANT_MESSAGES: Record<keyof typeof PLAN_MESSAGES | 'none', string> = {
  none: 'Only consultant accounts manage clients.',
  clientManagement: 'Only consultant accounts manage clients.',
  whiteLabel: 'Branding profiles and white-label reports are for consultant accounts on the Agency plan.',
  widget: 'The embeddable widget is for consultant accounts on the Agency plan.',
};
