// Per-field errors on the consultant forms: a field's message goes once the field is edited, and
// the toast says how many fields need correcting and which first.

export type FieldErrors = Record<string, string>;

/** The errors without the one for `name` (the same object when it had none). */
export function withoutError(errors: FieldErrors, name: string): FieldErrors {
  if (!(name in errors)) return errors;
  const { [name]: _, ...rest } = errors;
  return rest;
}

/** "Company name: Required" for one field; "Please correct 3 fields. Company name: Required" for more. */
export function fieldsToCorrect(fields: FieldErrors, labels: Record<string, string> = {}): string {
  const [name, message] = Object.entries(fields)[0]!;
  const first = `${labels[name] ?? name}: ${message}`;
  const count = Object.keys(fields).length;
  return count === 1 ? first : `Please correct ${count} fields. ${first}`;
}

/** A zod parse's issues as per-field messages, the first for each field (the route's 400 says the same). */
export function issueFields(issues: ReadonlyArray<{ path: ReadonlyArray<PropertyKey>; message: string }>): FieldErrors {
  const fields: FieldErrors = {};
  for (const issue of issues) {
    const name = String(issue.path[0] ?? '');
    if (name && !(name in fields)) fields[name] = issue.message;
  }
  return fields;
}
