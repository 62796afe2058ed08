// The `zipcodes` package ships no types; these are the calls the geocoder and the sample provider use.
declare module 'zipcodes' {
  export interface ZipInfo {
    zip: string;
    latitude: number;
    longitude: number;
    city: string;
    state: string;
    country: string;
  }
  export function lookup(zip: string | number): ZipInfo | undefined;
  export function lookupByName(city: string, state: string): ZipInfo[];
  export function radius(zip: string | number, miles: number, full: true): ZipInfo[];
  export function radius(zip: string | number, miles: number, full?: false): string[];
  export function distance(zipA: string | number, zipB: string | number): number | null;
  const zipcodes: { lookup: typeof lookup; lookupByName: typeof lookupByName; radius: typeof radius; distance: typeof distance };
  export default zipcodes;
}
