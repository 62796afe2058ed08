// The business's address (street, city, state, ZIP code): one copy for the report form and the
// client form, which had drifted apart ("ZIP code" / "ZIP Code", issue 47). The labels are the
// spec's words for the fields; each form lays them out with its own Field.
import type { ReactNode } from 'react';
import { StateOptions } from './state-options.tsx';

export const ADDRESS_LABELS = { address: 'Business address', city: 'City', state: 'State', zip: 'ZIP code' } as const;
type AddressField = keyof typeof ADDRESS_LABELS;

export interface AddressFieldProps {
  name: AddressField;
  label: string;
  error?: string;
  wide?: boolean;
  children: (a11y: Record<string, string | boolean | undefined>) => ReactNode;
}

export function AddressFields({ Field, errors, values, pairClass }: { Field: (props: AddressFieldProps) => ReactNode; errors: Partial<Record<AddressField, string>>; values?: Partial<Record<AddressField, string>>; pairClass: string }) {
  const text = (name: AddressField, autoComplete: string) => ({ type: 'text', autoComplete, className: 'input', required: true, defaultValue: values?.[name] });
  return (
    <>
      <Field name="address" label={ADDRESS_LABELS.address} error={errors.address} wide>{(a) => <input {...a} {...text('address', 'street-address')} placeholder="123 Main Street" />}</Field>
      <Field name="city" label={ADDRESS_LABELS.city} error={errors.city}>{(a) => <input {...a} {...text('city', 'address-level2')} placeholder="Austin" />}</Field>
      <div className={pairClass}>
        <Field name="state" label={ADDRESS_LABELS.state} error={errors.state}>
          {(a) => (
            <select {...a} className="select" required autoComplete="address-level1">
              <StateOptions />
            </select>
          )}
        </Field>
        <Field name="zip" label={ADDRESS_LABELS.zip} error={errors.zip}>{(a) => <input {...a} {...text('zip', 'postal-code')} inputMode="numeric" placeholder="78701" />}</Field>
      </div>
    </>
  );
}
