/** A complete registrant contact (camelCase, as resource inputs take it) for registrar tests. */
export const REGISTRANT = {
  address: "1 Main Street",
  city: "Springfield",
  state: "IL",
  organization: "Acme",
  phone: "+1.5555550100",
  zip: "62701",
  country: "US",
  firstName: "Ada",
  lastName: "Lovelace",
};
