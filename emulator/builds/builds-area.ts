/**
 * The builds area's type as its route modules see it, apart from the module that defines the area,
 * so that the trigger routes and the configuration routes each import it without importing the other.
 */
import type { Permission } from "../auth";
import type { Area } from "../define";
import type { BuildsModel } from "./state";

/** The builds area as its routes see it: permissions in, the account's model out. */
export type BuildsArea = Area<readonly Permission[], BuildsModel, { account_id: string }>;
