/** The seeds `--seed` takes, apart from the seeding itself (which loads the server) so the CLI can list them. */
export const SEEDS = ["demo"] as const;
export type SeedName = (typeof SEEDS)[number];
