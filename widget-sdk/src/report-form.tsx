// The widget's report form: the landing form's fields, rules and messages (report-request-rules,
// no zod in the browser), the consent line naming the agency and a honeypot. After submitting it
// confirms at once, then shows the lead's own score card when the report is ready. Class
// components, so the script-tag build needs no hooks runtime (decision 0115).
import { Component, createRef } from 'react';
import { checkReportRequest, REPORT_ROLES, US_STATES, type ReportRequestErrors } from '../../common/schemas/report-request-rules.ts';
import { WIDGET_NOT_ENABLED, type LeadThanks } from '../../common/widget.ts';
import type { WidgetApi, WidgetApiError } from './api.ts';
import { ScoreCardView } from './score-card.tsx';
import { themeStyle } from './styles.ts';
import type { ScoreCardData, WidgetConfig } from './types.ts';

/** How often, and how many times, the confirmation asks whether the report is ready (30 min). */
const POLL_MS = 4000;
const POLL_TIMES = 450;

type Control = [type: string, autoComplete: string] | readonly (readonly [string, string])[];
const FIELDS: Array<[name: string, label: string, control: Control, wide?: 1]> = [
  ['fullName', 'Full Name', ['text', 'name']],
  ['email', 'Email Address', ['email', 'email']],
  ['company', 'Company Name', ['text', 'organization']],
  ['role', 'Your Role', REPORT_ROLES.map((r) => [r.value, r.label] as const)],
  ['website', 'Business Website', ['url', 'url'], 1],
  ['address', 'Business Address', ['text', 'street-address'], 1],
  ['city', 'City', ['text', 'address-level2']],
  ['state', 'State', US_STATES.map(([code, name]) => [code, `${code} - ${name}`] as const)],
  ['zip', 'ZIP Code', ['text', 'postal-code']],
];

type Errors = ReportRequestErrors & { form?: string };
interface State {
  config?: WidgetConfig;
  /** Why the widget is off here (not enabled, no connection). */
  off?: string;
  sending?: boolean;
  leadId?: string;
  /** The thank-you the server wrote: it says when the report will come (decision 0171). */
  thanks?: LeadThanks;
  card?: ScoreCardData | null;
  website?: string | null;
  errors: Errors;
  /** The polite live region's text. */
  said?: string;
}

/** Every view's root: in English, left to right, whatever the host page's language and direction
 *  (lang and dir are inherited across the shadow boundary; a form in Arabic pages matched :lang(ar)). */
const ROOT = { className: 'lr', lang: 'en', dir: 'ltr' } as const;

const Note = ({ text, busy }: { text: string; busy?: boolean }) => (
  <div {...ROOT} role="status" aria-busy={busy}>
    <p className="m">{text}</p>
  </div>
);

/** Loads the key's configuration; the view shows the reason when it is off here. */
class Configured extends Component<{ api: WidgetApi }, State> {
  state: State = { errors: {}, config: this.props.api.known() };
  timer = 0;
  componentDidMount() {
    if (this.state.config) return this.loaded();
    this.props.api.config().then(
      (config) => this.setState({ config }, () => this.loaded()),
      // The server's own words for a refusal (not enabled here, a sandboxed frame; the fix for
      // the site owner went to the console), or the widget's for a blocked CSP or no connection.
      (e: WidgetApiError) => this.setState({ off: e.message }),
    );
  }
  componentWillUnmount() {
    clearTimeout(this.timer);
  }
  loaded() {}
  gate(component: string) {
    const { config, off } = this.state;
    if (!config) return <Note text={off || 'Loading…'} busy={!off} />;
    if (!config.components.includes(component as never)) return <Note text={WIDGET_NOT_ENABLED} />;
  }
}

export class ReportFormView extends Configured {
  form = createRef<HTMLFormElement>();
  heading = createRef<HTMLHeadingElement>();

  show(errors: Errors) {
    const fields = Object.keys(errors).filter((name) => name != 'form');
    const count = fields.length;
    this.setState({ errors, said: count ? `Please correct ${count} field${count > 1 ? 's' : ''}.` : errors.form });
    if (count) this.form.current?.querySelector<HTMLElement>(`[name=${fields[0]}]`)?.focus();
  }

  poll(left: number) {
    const again = () => left > 1 && (this.timer = setTimeout(() => this.poll(left - 1), POLL_MS) as unknown as number);
    this.props.api.lead(this.state.leadId!).then((s) => (s.scoreCard ? this.setState({ card: s.scoreCard, said: 'Your score card is ready.' }) : again()), again);
  }

  submit = async (event: { preventDefault(): void; currentTarget: HTMLFormElement }) => {
    event.preventDefault();
    if (this.state.sending) return;
    const data = new FormData(event.currentTarget);
    const payload: Record<string, unknown> = {};
    for (const [name] of FIELDS) payload[name] = String(data.get(name) ?? '').trim();
    payload.consent = data.get('consent') == 'on';
    if (data.get('nickname')) payload.nickname = data.get('nickname');
    const found = checkReportRequest(payload, { requireConsent: true });
    if (Object.keys(found).length) return this.show(found);
    this.setState({ errors: {}, sending: true, said: 'Sending…' });
    try {
      const { leadId, thanks } = await this.props.api.submit(payload);
      this.setState({ leadId, thanks, sending: false, said: thanks.title }, () => this.heading.current?.focus());
      // A report that waits has no score card to wait for.
      if (!thanks.wait) return;
      this.timer = setTimeout(() => this.poll(POLL_TIMES), POLL_MS) as unknown as number;
    } catch (e) {
      const error = e as WidgetApiError;
      this.setState({ sending: false });
      // A refusal's message is the server's (not enabled here, a sandboxed frame).
      this.show({ ...error.fields, form: error.message });
    }
  };

  render() {
    const gated = this.gate('report-form');
    if (gated) return gated;
    const { config, errors, sending, leadId, thanks, card, said } = this.state;
    const agency = config!.agency;
    const live = (
      <p className="s" aria-live="polite">
        {said}
      </p>
    );
    if (leadId) {
      return (
        <div {...ROOT} style={themeStyle(config!.theme)}>
          <h3 ref={this.heading} tabIndex={-1}>{thanks!.title}</h3>
          <p className="m">{thanks!.text}</p>
          {card ? <ScoreCardView data={card} agency={agency} website={config!.website} /> : thanks!.wait && <p className="m">{thanks!.wait}</p>}
          {live}
        </div>
      );
    }
    const a11y = (name: string) => {
      const error = errors[name as keyof Errors];
      return { id: name, name, required: true, 'aria-invalid': error ? true : undefined, 'aria-describedby': error ? `${name}-e` : undefined };
    };
    const message = (name: string) => {
      const error = errors[name as keyof Errors];
      return error && <p className="e" id={`${name}-e`}>{error}</p>;
    };
    return (
      <div {...ROOT} style={themeStyle(config!.theme)}>
        <h2>Get your free local market report</h2>
        <p className="m">{`See how your business ranks against its local competitors. From ${agency}.`}</p>
        <form ref={this.form} noValidate onSubmit={this.submit} aria-busy={sending}>
          <div className="g">
            {FIELDS.map(([name, label, control, wide]) => (
              <div className={wide ? 'f w' : 'f'} key={name}>
                <label htmlFor={name}>{label}</label>
                {typeof control[0] == 'string' ? (
                  <input {...a11y(name)} type={control[0]} autoComplete={control[1] as string} inputMode={name == 'zip' ? 'numeric' : undefined} />
                ) : (
                  <select {...a11y(name)} autoComplete={name == 'state' ? 'address-level1' : 'off'}>
                    {/* Selected first, in React and Preact alike: nothing is chosen for the visitor. */}
                    <option value="">Select…</option>
                    {(control as readonly (readonly [string, string])[]).map(([value, text]) => (
                      <option key={value} value={value}>{text}</option>
                    ))}
                  </select>
                )}
                {message(name)}
              </div>
            ))}
          </div>
          <div className="s" aria-hidden="true">
            <label htmlFor="nickname">Leave this empty</label>
            <input id="nickname" name="nickname" tabIndex={-1} autoComplete="off" />
          </div>
          <label className="c" htmlFor="consent">
            <input type="checkbox" {...a11y('consent')} />
            <span>{config!.consent}</span>
          </label>
          {message('consent')}
          {errors.form && <p className="e" role="alert">{errors.form}</p>}
          <button type="submit" disabled={sending}>{sending ? 'Sending…' : 'Get My Free Report'}</button>
        </form>
        {live}
      </div>
    );
  }
}

/** The published score card: a client's latest scores, linking to the agency's website. */
export class PublishedScoreCardView extends Configured {
  loaded() {
    if (this.state.config!.components.includes('score-card')) {
      this.props.api.scoreCard().then(
        (s) => this.setState({ card: s.scoreCard, website: s.website }),
        () => this.setState({ card: null }),
      );
    }
  }
  render() {
    const gated = this.gate('score-card');
    if (gated) return gated;
    const { config, card, website } = this.state;
    return (
      <div {...ROOT} style={themeStyle(config!.theme)}>
        <h2>{`Local market score by ${config!.agency}`}</h2>
        {card ? <ScoreCardView data={card} agency={config!.agency} website={website ?? null} /> : <p className="m">{card === null ? 'No scores are published yet.' : 'Loading…'}</p>}
      </div>
    );
  }
}
