// Resources of one account-scoped HTTP API: build triggers, search instances, domain registrations, meetings and zone rules, with runs and functions.
package accountapi
