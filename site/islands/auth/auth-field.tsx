import type { ReactNode } from 'react';

export type A11y = { id: string; name: string; 'aria-invalid'?: true; 'aria-describedby'?: string };

/** A labelled input with its red message underneath, shared by the login and sign-up forms. */
export function AuthField(props: { name: string; label: string; error?: string; hint?: string; children: (a11y: A11y) => ReactNode }) {
  const id = `auth-${props.name}`;
  const described = props.error ? `${id}-error` : props.hint ? `${id}-hint` : undefined;
  const a11y: A11y = { id, name: props.name, ...(props.error ? { 'aria-invalid': true } : {}), ...(described ? { 'aria-describedby': described } : {}) };
  return (
    <div className="field">
      <label htmlFor={id}>{props.label}</label>
      {props.children(a11y)}
      {props.error ? (
        <p className="field-error" id={`${id}-error`}>
          {props.error}
        </p>
      ) : (
        props.hint && (
          <p className="auth-hint" id={`${id}-hint`}>
            {props.hint}
          </p>
        )
      )}
    </div>
  );
}

/** Field messages of a zod error (first message per field), without importing zod. */
export function fieldMessages(issues: ReadonlyArray<{ path: ReadonlyArray<PropertyKey>; message: string }>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const issue of issues) {
    const key = String(issue.path[0] ?? '');
    if (key && !out[key]) out[key] = issue.message;
  }
  return out;
}

/** Whether a text field of the form holds something (typed before the island hydrated). */
export function typedInto(form: HTMLFormElement | null): boolean {
  return !!form && [...form.elements].some((el) => el instanceof HTMLInputElement && el.type !== 'checkbox' && el.type !== 'radio' && el.value !== '');
}
