/** Contacts for registrar tests: as resource inputs take them (camelCase) and as the API does. */
import { toApi } from "../../provider/core/values";
import { ContactSchema, type Contact } from "../../sdk/schemas/registrar";

/** A complete registrant contact, camelCase. */
export const REGISTRANT = {
  email: "ada@acme.dev",
  phone: "+1.5555550100",
  postalInfo: {
    name: "Ada Lovelace",
    organization: "Acme",
    address: {
      street: "1 Main Street",
      city: "Springfield",
      state: "IL",
      postalCode: "62701",
      countryCode: "US",
    },
  },
};

/** The same contact as the API takes it (snake_case). */
export const REGISTRANT_WIRE: Contact = ContactSchema.parse(toApi(REGISTRANT));

/** The same registrant as the release before stored it (the deprecated domain contact's shape). */
export const EARLIER_REGISTRANT = {
  address: REGISTRANT.postalInfo.address.street,
  city: REGISTRANT.postalInfo.address.city,
  state: REGISTRANT.postalInfo.address.state,
  organization: REGISTRANT.postalInfo.organization,
  phone: REGISTRANT.phone,
  zip: REGISTRANT.postalInfo.address.postalCode,
  country: REGISTRANT.postalInfo.address.countryCode,
  firstName: "Ada",
  lastName: "Lovelace",
  email: REGISTRANT.email,
};
